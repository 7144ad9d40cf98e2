import { Text } from "domhandler";
import type { AnyNode, Document, Element } from "./dom.js";
import { isTag, isText } from "./dom.js";
import { isHidden } from "./hidden.js";

// Unclosed tags nest without bound in htmlparser2's tree; the passes after this one recurse, so a
// hostile page of 10,000 open <div>s would overflow the stack. Beyond this depth only visible text is kept.
const MAX_DEPTH = 250;

/** Replaces every subtree deeper than MAX_DEPTH by its visible text, in place, without recursion. */
export function limitDepth(doc: Document): void {
  // Two stacks side by side rather than one of pairs: no array allocated per node of the page.
  const nodes: Element[] = [];
  const depths: number[] = [];
  for (const child of doc.children)
    if (isTag(child)) {
      nodes.push(child);
      depths.push(1);
    }
  while (nodes.length) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth >= MAX_DEPTH) {
      flatten(node);
      continue;
    }
    for (const child of node.children)
      if (isTag(child)) {
        nodes.push(child);
        depths.push(depth + 1);
      }
  }
}

function flatten(el: Element): void {
  let text = "";
  const stack: AnyNode[] = [...el.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (isText(node)) text += node.data;
    else if (isTag(node) && !isHidden(node)) {
      text += " ";
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  const flat = new Text(text);
  flat.parent = el;
  el.children = [flat];
}
