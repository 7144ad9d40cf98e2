import type { AnyNode, Document, Element, ParentNode } from "./dom.js";
import { removeNode, textContent, walkElements } from "./dom.js";

// React's streaming server renderer (Next.js's app router and others) sends the page's shell first, with a
// fallback (a skeleton, "Loading…") in each Suspense boundary, and each boundary's content later as a hidden
// `<div hidden id="S:n">` at the end of the body, followed by an inline script that moves it into place:
// `$RC("B:n","S:n")` replaces the boundary's fallback (after its `<template id="B:n">`), `$RS("S:n","P:n")` a
// placeholder segment. Every reader whose browser runs the page's scripts sees the content in place and never
// the hidden copy, so it is moved where the script moves it. Only a move the page's own script makes is
// followed: a hidden `S:n` that no script of the page reveals stays hidden, as any other hidden element.
// Written by hand: React's two inline functions are a few lines, and no library replays them on a parsed tree.

const MOVE = /\$R([CS])\("([A-Z]:\d+)","([A-Z]:\d+)"\)/g;
const ID = /^[BPS]:\d+$/;
const RUNS = /^(?:|text\/javascript|application\/javascript|module)$/i;

/** Whether the page carries React's streaming moves at all (checked on the HTML, before any walk). */
export function hasStreamedContent(html: string): boolean {
  return html.includes('$RC("') || html.includes('$RS("');
}

/** Moves each streamed boundary's hidden content where the page's own script puts it, in script order. */
export function placeStreamedContent(doc: Document): void {
  const byId = new Map<string, Element>();
  const moves: [kind: string, a: string, b: string][] = [];
  walkElements(doc, (el) => {
    // Only a script the browser runs moves anything: not a data block, nor one inside a template or noscript.
    if (el.name === "noscript") return false;
    if (el.name === "script") {
      if (!RUNS.test(el.attribs.type ?? "")) return false;
      const code = textContent(el);
      if (code.includes("$R")) for (const m of code.matchAll(MOVE)) moves.push([m[1]!, m[2]!, m[3]!]);
      return false;
    }
    const id = el.attribs.id;
    if (id && ID.test(id)) {
      const streamed =
        id[0] === "S" ? el.name === "div" && el.attribs.hidden !== undefined : el.name === "template";
      if (streamed && !byId.has(id)) byId.set(id, el);
    }
    return el.name !== "template";
  });
  for (const [kind, a, b] of moves) {
    const [segmentId, targetId] = kind === "C" ? [b, a] : [a, b];
    const segment = byId.get(segmentId);
    const target = byId.get(targetId);
    if (!segment?.parent || !target?.parent || segment === target) continue;
    byId.delete(segmentId);
    removeNode(segment);
    const content = segment.children;
    segment.children = [];
    if (kind === "C") replaceFallback(target, content);
    else replaceNode(target, content);
  }
}

/**
 * `$RC`: the boundary opens with a `<!--$?-->` comment before its template; everything from there to the matching
 * `<!--/$-->` is the fallback, replaced by the content. Without the comments, the template alone is replaced.
 */
function replaceFallback(template: Element, content: AnyNode[]): void {
  const open = template.prev;
  if (open?.type !== "comment" || open.data !== "$?") {
    replaceNode(template, content);
    return;
  }
  const parent = template.parent!;
  const fallback: AnyNode[] = [];
  let depth = 0;
  let end: AnyNode | null = open.next;
  for (; end; end = end.next) {
    if (end.type === "comment") {
      if (end.data === "/$") {
        if (depth === 0) break;
        depth--;
      } else if (end.data === "$" || end.data === "$?" || end.data === "$!") depth++;
    }
    fallback.push(end);
  }
  open.data = "$";
  for (const node of fallback) removeNode(node);
  insertBefore(parent, end, content);
}

function replaceNode(node: AnyNode, content: AnyNode[]): void {
  const parent = node.parent!;
  const next = node.next;
  removeNode(node);
  insertBefore(parent, next, content);
}

/** Inserts detached nodes before `ref` among `parent`'s children, or at the end when `ref` is null. */
function insertBefore(parent: ParentNode, ref: AnyNode | null, nodes: AnyNode[]): void {
  const at = ref ? parent.children.indexOf(ref) : parent.children.length;
  const i = at < 0 ? parent.children.length : at;
  parent.children.splice(i, 0, ...nodes);
  const prev = i > 0 ? parent.children[i - 1]! : null;
  const next = parent.children[i + nodes.length] ?? null;
  let before: AnyNode | null = prev;
  for (const node of nodes) {
    node.parent = parent;
    node.prev = before;
    if (before) before.next = node;
    before = node;
  }
  if (before) before.next = next;
  if (next) next.prev = before;
}
