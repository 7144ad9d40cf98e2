import type { AnyNode, Document, Element, ParentNode } from "./dom.js";
import { isAncestor, textContent, walkElements } from "./dom.js";

// React's streaming server renderer (Next.js's app router and others) sends the page's shell first, with a
// fallback (a skeleton, "Loading…") in each Suspense boundary, and each boundary's content later as a hidden
// `<div hidden id="S:n">` at the end of the body, followed by an inline script that moves it into place:
// `$RC("B:n","S:n")` replaces the boundary's fallback (after its `<template id="B:n">`), `$RS("S:n","P:n")` a
// placeholder segment. Every reader whose browser runs the page's scripts sees the content in place and never
// the hidden copy, so it is moved where the script moves it. Only a move the page's own script makes is
// followed: a hidden `S:n` that no script of the page reveals stays hidden, as any other hidden element.
// Written by hand: React's two inline functions are a few lines, and no library replays them on a parsed tree.
//
// Marko (eBay's pages) streams the same way under other names: each async fragment's placeholder is a
// `<span id="af{rt}ph{n}">` holding a loader, its content a `<div id="af{rt}{n}" style="display:none">` near the
// end of the body, and the page's own function `$af{rt}` (`rt` the app's runtime id, often empty), called as
// `$af{rt}(n)`, moves the content's children in the placeholder's place; `$af{rt}(n,m)` waits for fragment `m`.
// Only a runtime whose function the page defines in a script it runs is followed.

const MOVE = /\$R([CS])\("([A-Z]:\d+)","([A-Z]:\d+)"\)/g;
const ID = /^[BPS]:\d+$/;
const RUNS = /^(?:|text\/javascript|application\/javascript|module)$/i;

// Marko's function and its calls; the runtime id is a name, so a call's id and digits are told apart by the `(`.
const MARKO_DEFINE = /function \$af(\w*)\(/g;
const MARKO_CALL = /\$af(\w*)\((\d+)(?:,(\d+))?\)/g;

/** Whether the page carries React's or Marko's streaming moves at all (checked on the HTML, before any walk). */
export function hasStreamedContent(html: string): boolean {
  return html.includes('$RC("') || html.includes('$RS("') || html.includes("function $af");
}

/** Moves each streamed boundary's hidden content where the page's own script puts it, in script order. */
export function placeStreamedContent(doc: Document): void {
  const byId = new Map<string, Element>();
  const moves: [kind: string, a: string, b: string][] = [];
  const marko = new Marko();
  walkElements(doc, (el) => {
    // Only a script the browser runs moves anything: not a data block, nor one inside a template or noscript.
    if (el.name === "noscript") return false;
    if (el.name === "script") {
      if (!RUNS.test(el.attribs.type ?? "")) return false;
      const code = textContent(el);
      if (code.includes("$R")) for (const m of code.matchAll(MOVE)) moves.push([m[1]!, m[2]!, m[3]!]);
      if (code.includes("$af")) marko.read(code);
      return false;
    }
    const id = el.attribs.id;
    // The first element of an id is the one the page's `getElementById` finds.
    if (id?.startsWith("af") && !marko.byId.has(id)) marko.byId.set(id, el);
    if (id && ID.test(id)) {
      const streamed =
        id[0] === "S" ? el.name === "div" && el.attribs.hidden !== undefined : el.name === "template";
      if (streamed && !byId.has(id)) byId.set(id, el);
    }
    return el.name !== "template";
  });
  if (!moves.length && !marko.calls.length) return;
  const tree = new LinkedEdits();
  marko.replay(tree);
  for (const [kind, a, b] of moves) {
    const [segmentId, targetId] = kind === "C" ? [b, a] : [a, b];
    const segment = byId.get(segmentId);
    const target = byId.get(targetId);
    if (!segment?.parent || !target?.parent || segment === target) continue;
    byId.delete(segmentId);
    const content = tree.childrenOf(segment);
    tree.detach(segment);
    for (const node of content) tree.detach(node);
    if (kind === "C") replaceFallback(tree, target, content);
    else tree.replace(target, content);
  }
  tree.commit();
}

/** Marko's async fragments: the runtimes the page defines, its calls in script order, and the `af…` elements. */
class Marko {
  readonly runtimes = new Set<string>();
  readonly calls: [runtime: string, id: string, after: string | undefined][] = [];
  readonly byId = new Map<string, Element>();

  read(code: string): void {
    for (const m of code.matchAll(MARKO_DEFINE)) this.runtimes.add(m[1]!);
    for (const m of code.matchAll(MARKO_CALL)) this.calls.push([m[1]!, m[2]!, m[3]]);
  }

  /** As the page's function does: a call waiting for a fragment not yet placed runs right after it is. */
  replay(tree: LinkedEdits): void {
    const placed = new Set<string>();
    const waiting = new Map<string, string[]>();
    // A queue, not recursion: a hostile page may chain thousands of waiting calls.
    const place = (rt: string, first: string): void => {
      const queue = [first];
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        const content = this.byId.get(`af${rt}${id}`);
        const placeholder = this.byId.get(`af${rt}ph${id}`);
        placed.add(`${rt} ${id}`);
        const apart =
          content && placeholder && !isAncestor(placeholder, content) && !isAncestor(content, placeholder);
        if (content?.name === "div" && placeholder?.parent && apart) {
          const nodes = tree.childrenOf(content);
          for (const node of nodes) tree.detach(node);
          tree.replace(placeholder, nodes);
        }
        const next = waiting.get(`${rt} ${id}`);
        waiting.delete(`${rt} ${id}`);
        if (next) for (let i = next.length - 1; i >= 0; i--) queue.push(next[i]!);
      }
    };
    for (const [rt, id, after] of this.calls) {
      if (!this.runtimes.has(rt) || placed.has(`${rt} ${id}`)) continue;
      if (after !== undefined && !placed.has(`${rt} ${after}`)) {
        const list = waiting.get(`${rt} ${after}`) ?? [];
        waiting.set(`${rt} ${after}`, list);
        list.push(id);
      } else place(rt, id);
    }
  }
}

/**
 * `$RC`: the boundary opens with a `<!--$?-->` comment before its template; everything from there to the matching
 * `<!--/$-->` is the fallback, replaced by the content. Without the comments, the template alone is replaced.
 */
function replaceFallback(tree: LinkedEdits, template: Element, content: AnyNode[]): void {
  const open = template.prev;
  if (open?.type !== "comment" || open.data !== "$?") {
    tree.replace(template, content);
    return;
  }
  const parent = template.parent!;
  let depth = 0;
  let end: AnyNode | null = open.next;
  while (end) {
    if (end.type === "comment") {
      if (end.data === "/$") {
        if (depth === 0) break;
        depth--;
      } else if (end.data === "$" || end.data === "$?" || end.data === "$!") depth++;
    }
    const next: AnyNode | null = end.next;
    tree.detach(end);
    end = next;
  }
  open.data = "$";
  tree.insertBefore(parent, end, content);
}

/**
 * Moves made on the sibling links alone, each parent's child array rebuilt once at the end: splicing arrays per
 * move was quadratic on a page of thousands of boundaries under one parent.
 */
class LinkedEdits {
  private readonly first = new Map<ParentNode, AnyNode | null>();

  private firstOf(parent: ParentNode): AnyNode | null {
    if (!this.first.has(parent)) this.first.set(parent, parent.children[0] ?? null);
    return this.first.get(parent)!;
  }

  childrenOf(parent: ParentNode): AnyNode[] {
    const out: AnyNode[] = [];
    for (let n = this.firstOf(parent); n; n = n.next) out.push(n);
    return out;
  }

  detach(node: AnyNode): void {
    const parent = node.parent;
    if (!parent) return;
    if (this.firstOf(parent) === node) this.first.set(parent, node.next);
    if (node.prev) node.prev.next = node.next;
    if (node.next) node.next.prev = node.prev;
    node.parent = null;
    node.prev = null;
    node.next = null;
  }

  /** Inserts detached nodes before `ref` among `parent`'s children, or at the end when `ref` is null. */
  insertBefore(parent: ParentNode, ref: AnyNode | null, nodes: AnyNode[]): void {
    if (!nodes.length) return;
    let prev: AnyNode | null;
    if (ref) prev = ref.prev;
    else {
      prev = null;
      for (let n = this.firstOf(parent); n; n = n.next) prev = n;
    }
    if (!prev) this.first.set(parent, nodes[0]!);
    for (const node of nodes) {
      node.parent = parent;
      node.prev = prev;
      if (prev) prev.next = node;
      prev = node;
    }
    prev!.next = ref;
    if (ref) ref.prev = prev;
  }

  replace(node: AnyNode, content: AnyNode[]): void {
    const parent = node.parent!;
    const next = node.next;
    this.detach(node);
    this.insertBefore(parent, next, content);
  }

  commit(): void {
    for (const [parent, first] of this.first) {
      const children: AnyNode[] = [];
      for (let n = first; n; n = n.next) children.push(n);
      parent.children = children;
    }
  }
}
