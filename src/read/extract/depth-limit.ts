import { Text } from "domhandler";
import type { AnyNode, Document, Element } from "./dom.js";
import { isTag, isText } from "./dom.js";
import { isHidden } from "./hidden.js";

// Unclosed tags nest without bound in htmlparser2's tree; the passes after this one recurse, so a
// hostile page of 10,000 open <div>s would overflow the stack. Beyond this depth only visible text is kept.
const MAX_DEPTH = 250;

/** Replaces every subtree deeper than MAX_DEPTH by its visible text, in place, without recursion. */
export function limitDepth(doc: Document): void {
  const stack: [AnyNode, number][] = doc.children.map((c) => [c, 1]);
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (!isTag(node)) continue;
    if (depth >= MAX_DEPTH) {
      flatten(node);
      continue;
    }
    for (const child of node.children) stack.push([child, depth + 1]);
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
