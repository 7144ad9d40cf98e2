import { createHash } from "node:crypto";
import type { Store } from "../store/store.js";
import type { Freshness, Validators } from "./freshness.js";
import type { ReadDocument } from "./ladder.js";

/**
 * The whole document is cached, before sizing: the sizing options (maxChars, lookingFor, mode, offset) are applied
 * on every call, so reading on with `offset` is served from the cache. The key therefore holds the URL and every
 * option that changes the document itself: how it was obtained (render mode, provider pins).
 */
export interface DocumentKey {
  url: string;
  render: string;
  via: string;
}

export function documentCacheKey(key: DocumentKey): string {
  const digest = createHash("sha256")
    .update(JSON.stringify([withoutFragment(key.url), key.render, key.via]))
    .digest("hex");
  return `read:doc:${digest.slice(0, 40)}`;
}

/** A kept page: its document, until when it is served as it is, and what a later read asks the site with. */
export interface CachedPage {
  doc: ReadDocument;
  /** Epoch ms on the reader's clock; after it the page is revalidated (with validators) or read anew. */
  freshUntil: number;
  /** Until when reading on (`offset`) is served this version, fresh or not. */
  readOnUntil: number;
  validators?: Validators;
}

export async function cachedPage(store: Store, key: DocumentKey): Promise<CachedPage | undefined> {
  try {
    const got = await store.get<CachedPage>(documentCacheKey(key));
    return got && typeof got.freshUntil === "number" && got.doc ? got : undefined;
  } catch {
    // A cache that cannot answer (redis down) must not fail a read.
    return undefined;
  }
}

/** Keeps `doc` as its freshness says (never, for `no-store`), judged from `now`. */
export async function cachePage(
  store: Store,
  key: DocumentKey,
  doc: ReadDocument,
  freshness: Freshness,
  now: number,
): Promise<void> {
  if (!freshness.keep) return;
  const page: CachedPage = {
    doc,
    freshUntil: now + freshness.freshMs,
    readOnUntil: now + freshness.readOnMs,
    ...(freshness.validators ? { validators: freshness.validators } : {}),
  };
  try {
    await store.set(documentCacheKey(key), page, freshness.keepMs);
  } catch {
    // Same reason: a read succeeds without its cache.
  }
}

/** A page a later read may not reuse (`no-store` now, where a kept copy said otherwise) goes. */
export async function forgetPage(store: Store, key: DocumentKey): Promise<void> {
  try {
    await store.delete(documentCacheKey(key));
  } catch {
    // Same reason.
  }
}

/** A fragment names a place in the same document, which is fetched (and cached) once. */
function withoutFragment(url: string): string {
  const hash = url.indexOf("#");
  return hash === -1 ? url : url.slice(0, hash);
}
