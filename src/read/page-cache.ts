import { createHash } from "node:crypto";
import type { Store } from "../store/store.js";
import type { ReadDocument } from "./ladder.js";

/** Pages are worth reusing for 15 minutes: an agent reads on, re-reads, or asks another question of the same page. */
export const PAGE_TTL_MS = 15 * 60 * 1000;

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
  return `read:page:${digest.slice(0, 40)}`;
}

export async function cachedDocument(store: Store, key: DocumentKey): Promise<ReadDocument | undefined> {
  try {
    return await store.get<ReadDocument>(documentCacheKey(key));
  } catch {
    // A cache that cannot answer (redis down) must not fail a read.
    return undefined;
  }
}

export async function cacheDocument(store: Store, key: DocumentKey, doc: ReadDocument): Promise<void> {
  try {
    await store.set(documentCacheKey(key), doc, PAGE_TTL_MS);
  } catch {
    // Same reason: a read succeeds without its cache.
  }
}

/** A fragment names a place in the same document, which is fetched (and cached) once. */
function withoutFragment(url: string): string {
  const hash = url.indexOf("#");
  return hash === -1 ? url : url.slice(0, hash);
}
