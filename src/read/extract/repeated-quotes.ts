import type { AnyNode, Element } from "./dom.js";
import { isTag, isText, removeNodes } from "./dom.js";
import { SETTINGS } from "./settings.js";

// A reply on a forum quotes the post it answers, often whole: the thread then says everything twice, and the
// second copy tells a reader who has just read the first nothing new. A quote whose words already stand
// earlier in the thread is dropped; a quote of something the page does not show (a post on another page of
// the thread, a source) stays. Earlier words are kept as a set of word shingles, so each quote is checked in
// time linear in its length, whatever the thread's.

const WORD = /[\p{L}\p{N}_]+/gu;

/** Removes, in place, the blockquotes of a thread's content whose words stand earlier in it. */
export function dropRepeatedQuotes(roots: Element[]): void {
  const n = SETTINGS.quoteShingleWords;
  const seen = new Set<string>();
  const window: string[] = [];
  const drop: Element[] = [];
  const add = (text: string) => {
    for (const m of text.toLowerCase().matchAll(WORD)) {
      window.push(m[0]);
      if (window.length > n) window.shift();
      if (window.length === n) seen.add(window.join(" "));
    }
  };
  // Only a thread's outermost quotes are looked up: a quote kept inside a quote is part of what the reply
  // quotes, and looking up each level again would read nested quotes once per level.
  const visit = (node: AnyNode, inQuote: boolean) => {
    if (isText(node)) return add(node.data);
    if (!isTag(node)) return;
    const quote = node.name === "blockquote";
    if (quote && !inQuote && isRepeated(node, seen, n)) {
      drop.push(node);
      return;
    }
    for (const child of node.children) visit(child, inQuote || quote);
  };
  for (const root of roots) visit(root, false);
  removeNodes(drop);
}

function isRepeated(quote: Element, seen: Set<string>, n: number): boolean {
  const words: string[] = [];
  const collect = (node: AnyNode) => {
    if (isText(node)) for (const m of node.data.toLowerCase().matchAll(WORD)) words.push(m[0]);
    else if (isTag(node)) for (const child of node.children) collect(child);
  };
  collect(quote);
  if (words.length < SETTINGS.quoteMinWords) return false;
  let found = 0;
  const shingles = words.length - n + 1;
  for (let i = 0; i < shingles; i++) if (seen.has(words.slice(i, i + n).join(" "))) found++;
  return found >= shingles * SETTINGS.quoteSeenShare;
}
