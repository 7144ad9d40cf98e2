/** Pieces of markdown the site readers share: code blocks, quoted replies, cut bodies, counts. */

/** Text in a fenced code block whose fence is longer than any backtick run inside it, so the code cannot close it. */
export function codeBlock(text: string, lang = ""): string {
  let longest = 2;
  for (const run of text.match(/`{3,}/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  return `${fence}${lang}\n${text.replace(/\n+$/, "")}\n${fence}`;
}

/** Markdown nested as a reply: every line quoted `depth` times. */
export function quoted(markdown: string, depth: number): string {
  if (depth <= 0) return markdown;
  const prefix = "> ".repeat(depth);
  const bare = prefix.trimEnd();
  return markdown
    .split("\n")
    .map((line) => (line.trim() ? `${prefix}${line}` : bare))
    .join("\n");
}

/**
 * A body kept to `maxChars`, cut at a paragraph or line break near the limit, with a note of what was left out,
 * so one long post cannot take the whole read. A cut inside a fenced code block closes the block.
 */
export function cutBody(markdown: string, maxChars: number, note = "cut"): string {
  if (markdown.length <= maxChars) return markdown;
  let cut = markdown.slice(0, maxChars);
  const paragraph = cut.lastIndexOf("\n\n");
  const line = cut.lastIndexOf("\n");
  if (paragraph > maxChars * 0.6) cut = cut.slice(0, paragraph);
  else if (line > maxChars * 0.6) cut = cut.slice(0, line);
  const fences = cut.match(/^\s*(`{3,}|~{3,})/gm) ?? [];
  if (fences.length % 2 === 1) cut += `\n${fences[fences.length - 1].trim()}`;
  return `${cut.trimEnd()}\n\n[${note}: ${markdown.length - cut.length} more characters]`;
}

/** "1 comment", "12 comments", with thousands separated ("1,234 points"). */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

/** An ISO date-time of a Unix time in seconds, or undefined for a missing or nonsensical one. */
export function isoOfSeconds(seconds: number | undefined): string | undefined {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  return new Date(seconds * 1000).toISOString();
}

/** The date part of an ISO time ("2024-05-01"), for the one-line headers of posts. */
export function dayOf(iso: string | undefined): string | undefined {
  return iso && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : undefined;
}

/** A header line of facts, those that are known: "**42** points · by alice · 2024-05-01". */
export function factLine(facts: (string | undefined | false)[]): string {
  return facts.filter((f): f is string => typeof f === "string" && f.length > 0).join(" · ");
}
