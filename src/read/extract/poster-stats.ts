import type { Document, Element } from "./dom.js";
import { collapseWhitespace, isTag, removeNodes, textContent, walkElements } from "./dom.js";
import { SETTINGS } from "./settings.js";

// A forum engine prints the same few statistics beside every post, as term/definition rows: XenForo's
// `<dt>Joined</dt><dd>Feb 8, 2023</dd>`, phpBB's and FluxBB's `<dd>Registered: 2024-01-27</dd>`. They are about
// the writer, not the thread, and read as noise between the posts. They are told apart from a post's own
// definition list by repetition: the same label on several rows across the page, once per post, which a
// post's own list (a specification, a glossary) does not do. The row's value stays short; the poster's name,
// a `<dt>` without a label's form, is not a row and stays.

// "Registered: 2024-01-27": a label, a colon, a short value.
const LABELLED = /^([^:]{1,30}):\s*(\S.*)$/;

interface Row {
  label: string;
  nodes: Element[];
}

function statRow(dd: Element): Row | undefined {
  const value = collapseWhitespace(textContent(dd));
  if (!value || value.length > SETTINGS.posterStatMaxChars) return undefined;
  const m = LABELLED.exec(value);
  if (m) return { label: m[1]!.trim().toLowerCase(), nodes: [dd] };
  // A term with one definition: a `<dt>` followed by several `<dd>`s is a name over its details (FluxBB's
  // poster, then their title and counts), not a label.
  const prev = siblingTag(dd, "prev");
  const next = siblingTag(dd, "next");
  if (prev?.name !== "dt" || next?.name === "dd") return undefined;
  const label = collapseWhitespace(textContent(prev));
  if (!label || label.length > SETTINGS.posterStatMaxLabelChars) return undefined;
  return { label: label.toLowerCase(), nodes: [prev, dd] };
}

function siblingTag(el: Element, step: "prev" | "next"): Element | undefined {
  for (let n = el[step]; n; n = n[step]) if (isTag(n)) return n;
  return undefined;
}

/** Removes, in place, the statistics rows a thread's engine prints beside every post (join date, post count). */
export function dropPosterStats(doc: Document): void {
  const rows: Row[] = [];
  walkElements(doc, (el) => {
    if (el.name !== "dd") return true;
    const row = statRow(el);
    if (row) rows.push(row);
    return false;
  });
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.label, (counts.get(r.label) ?? 0) + 1);
  const drop = rows.filter((r) => counts.get(r.label)! >= SETTINGS.posterStatMinRows).flatMap((r) => r.nodes);
  if (drop.length) removeNodes(drop);
}
