import { escapeHtml } from "./xml.js";

/** A paragraph of a slide or a text frame: its text, its outline level, and the kind of bullet it has. */
export interface Paragraph {
  text: string;
  level: number;
  bullet?: "ordered" | "unordered";
}

interface List {
  tag: "ul" | "ol";
  level: number;
  items: { text: string; lists: List[] }[];
}

/** Paragraphs as HTML: plain ones as `p`, runs of bulleted ones as lists nested by their level. */
export function paragraphsHtml(paragraphs: Paragraph[]): string {
  let html = "";
  let stack: List[] = [];
  const flush = () => {
    if (stack.length) html += listHtml(stack[0]);
    stack = [];
  };
  for (const p of paragraphs) {
    const text = p.text.trim();
    if (!text) continue;
    if (!p.bullet) {
      flush();
      html += `<p>${inline(text)}</p>`;
      continue;
    }
    const tag = p.bullet === "ordered" ? "ol" : "ul";
    while (stack.length > 1 && stack[stack.length - 1].level > p.level) stack.pop();
    let top = stack[stack.length - 1];
    if (!top) {
      top = { tag, level: p.level, items: [] };
      stack.push(top);
    } else if (p.level > top.level && top.items.length) {
      const nested: List = { tag, level: p.level, items: [] };
      top.items[top.items.length - 1].lists.push(nested);
      stack.push(nested);
      top = nested;
    }
    top.items.push({ text, lists: [] });
  }
  flush();
  return html;
}

function listHtml(list: List): string {
  const items = list.items.map((item) => `<li>${inline(item.text)}${item.lists.map(listHtml).join("")}</li>`);
  return `<${list.tag}>${items.join("")}</${list.tag}>`;
}

function inline(text: string): string {
  return escapeHtml(text).replace(/\n/g, "<br>");
}
