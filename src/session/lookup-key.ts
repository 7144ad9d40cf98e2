export type LookupKind = "search" | "read" | "answer";

/** How two asks of the same thing are recognised: case and spacing of a query do not make it a new question. */
export function normaliseQuery(query: string): string {
  return String(query ?? "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/** A fragment names a place in the same document, which is read once. */
export function withoutFragment(url: string): string {
  const raw = String(url ?? "").trim();
  const hash = raw.indexOf("#");
  return hash === -1 ? raw : raw.slice(0, hash);
}

/**
 * The identity of a lookup: its kind, its normalised subject and the options that change its result. Options
 * that only steer a caller's turn (signals, callbacks) are not part of it, so two turns asking the same thing
 * share one lookup.
 */
export function lookupKey(kind: LookupKind, subject: string, options: object): string {
  const normalised = kind === "read" ? withoutFragment(subject) : normaliseQuery(subject);
  return JSON.stringify([kind, normalised, resultShaping(options)]);
}

function resultShaping(options: object): [string, unknown][] {
  return Object.entries(options)
    .filter(
      ([, value]) => value !== undefined && typeof value !== "function" && !(value instanceof AbortSignal),
    )
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
