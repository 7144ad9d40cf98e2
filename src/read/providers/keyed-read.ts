import type { Failure } from "../../core/status.js";

/** One page's text from a paid reading API, or why not. */
export type ProviderRead<S extends string> =
  | { ok: true; markdown: string; title?: string; source: S }
  | (Failure & { ok: false });

// Providers answer with the page's whole text; the reader sizes it afterwards.
export const MAX_READ_BYTES = 10 * 1024 * 1024;

/** The one result for `url` in a provider's list: matched by URL, or the only one there is. */
export function resultFor<T>(results: T[], matches: (r: T) => boolean): T | undefined {
  return results.find(matches) ?? (results.length === 1 ? results[0] : undefined);
}

export function noText(source: string, url: string): Failure & { ok: false } {
  return failed({
    status: "empty",
    code: "no_content",
    message: `${source} returned no text for ${hostOf(url)}`,
  });
}

export function failed(failure: Failure): Failure & { ok: false } {
  return { ...failure, ok: false };
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the page";
  }
}
