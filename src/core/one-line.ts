/**
 * Text made fit for one line of a message: every run of whitespace (line breaks included) becomes one space,
 * so a string from outside cannot start a line of its own, and text over `maxChars` is cut at a word when one
 * ends near the limit, with "…" to say so (the mark counts towards `maxChars`). `scrub` runs first: a line that
 * reaches a model passes the ground layer's `modelSafe` (secrets and invisible characters out); the base layer
 * knows no secret rules.
 */
export function oneLine(text: string, maxChars: number, scrub?: (text: string) => string): string {
  const flat = (scrub ? scrub(text) : text).replace(/\s+/g, " ").trim();
  if (flat.length <= maxChars) return flat;
  let cut = flat.slice(0, Math.max(0, maxChars - 1));
  // Never end on half of a surrogate pair: it would print as a replacement character.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const space = cut.lastIndexOf(" ");
  return `${(space > cut.length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * A field of a parsed body that should be text (a provider's title, its error message): its one line, or
 * undefined when it is not a string or holds only whitespace, so a caller can fall back with `??`.
 */
export function optionalLine(
  value: unknown,
  maxChars: number,
  scrub?: (text: string) => string,
): string | undefined {
  if (typeof value !== "string") return undefined;
  return oneLine(value, maxChars, scrub) || undefined;
}

/**
 * What an exception says went wrong, for a log line or a failure's message: the first line of its message (a
 * stack or a parser's excerpt follows it), made one line of `maxChars` at most.
 */
export function errorLine(err: unknown, maxChars = 200): string {
  const text = err instanceof Error ? err.message : String(err);
  return oneLine(text.split("\n")[0] ?? "", maxChars);
}
