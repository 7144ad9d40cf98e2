import render from "dom-serializer";
import {
  attr,
  collapseWhitespace,
  type Element,
  findAll,
  findFirst,
  parseHtml,
  textContent,
} from "../extract/dom.js";
import { htmlFragmentToMarkdown } from "../extract/fragment.js";
import { orderAnswers, type SeAnswer, type SePost, type SeThread } from "./stackexchange-thread.js";

/**
 * A question page of a Stack Exchange site read from its own markup, for when the API cannot answer: the
 * question (`#question`, `data-questionid`), each answer (`.answer` with `data-answerid` and `data-score`), and
 * which one is accepted (`accepted-answer`, or schema.org's `itemprop="acceptedAnswer"`), so the accepted answer
 * leads as it does through the API, never the generic extraction's idea of the main content.
 * Only the answers shown (`orderAnswers`, with the one a link points at) are converted to markdown; the others
 * are counted. Undefined when the page has no question markup (the site changed it).
 */
export async function threadFromPage(
  html: string,
  url: string,
  linked?: number,
): Promise<SeThread | undefined> {
  const doc = parseHtml(html);
  const question = findFirst(
    doc,
    (el) =>
      attr(el, "id") === "question" ||
      (hasClass(el, "question") && attr(el, "data-questionid") !== undefined),
  );
  const id = Number(question && attr(question, "data-questionid"));
  if (!question || !Number.isInteger(id)) return undefined;
  const header = findFirst(doc, (el) => attr(el, "id") === "question-header");
  const heading = header && findFirst(header, (el) => el.name === "h1");
  const title = heading ? collapseWhitespace(textContent(heading)) : titleOf(doc);
  const links: string[] = [];
  const markdownOf = async (body: Element): Promise<string> => {
    const { markdown, links: found } = await htmlFragmentToMarkdown(render(body.children), url);
    links.push(...found);
    return markdown;
  };
  const bodyOf = (el: Element) =>
    findFirst(el, (e) => hasClass(e, "js-post-body") || attr(e, "itemprop") === "text");
  const facts = (el: Element): Omit<SePost, "markdown"> => {
    const author = authorOf(el);
    const created = createdOf(el);
    return { ...scoreOf(el), ...(author ? { author } : {}), ...(created ? { created } : {}) };
  };
  const questionBody = bodyOf(question);
  if (!questionBody) return undefined;
  const q: SePost = { markdown: await markdownOf(questionBody), ...facts(question) };
  const tags = [
    ...new Set(
      findAll(question, (el) => el.name === "a" && hasClass(el, "post-tag")).map((el) =>
        textContent(el).trim(),
      ),
    ),
  ].filter(Boolean);
  const bodies = new Map<SeAnswer, Element>();
  for (const el of findAll(doc, (e) => hasClass(e, "answer") && attr(e, "data-answerid") !== undefined)) {
    const body = bodyOf(el);
    if (!body) continue;
    const accepted = hasClass(el, "accepted-answer") || attr(el, "itemprop") === "acceptedAnswer";
    bodies.set({ markdown: "", ...facts(el), id: Number(attr(el, "data-answerid")), accepted }, body);
  }
  // Only the answers shown are converted: a busy question's page holds dozens.
  const shown = orderAnswers([...bodies.keys()], linked);
  const answers = await Promise.all(
    shown.map(async (a) => ({ ...a, markdown: await markdownOf(bodies.get(a) as Element) })),
  );
  return {
    title,
    question: { ...q, id, tags },
    answers,
    answerCount: bodies.size,
    links: [...new Set(links)],
  };
}

function hasClass(el: Element, name: string): boolean {
  const classes = attr(el, "class");
  return !!classes && ` ${classes} `.replace(/\s+/g, " ").includes(` ${name} `);
}

/** `data-score` on the post, else its vote count (`itemprop="upvoteCount"`'s `data-value` or text). */
function scoreOf(el: Element): { score?: number } {
  const own = Number(attr(el, "data-score"));
  if (attr(el, "data-score") !== undefined && Number.isFinite(own)) return { score: own };
  const votes = findFirst(el, (e) => attr(e, "itemprop") === "upvoteCount" || hasClass(e, "js-vote-count"));
  const value = votes && Number(attr(votes, "data-value") ?? textContent(votes).trim());
  return votes && Number.isFinite(value) ? { score: value as number } : {};
}

/** The post's author: schema.org's `itemprop="author"` block (an editor's signature has none), else the owner's. */
function authorOf(el: Element): string | undefined {
  const block =
    findFirst(el, (e) => attr(e, "itemprop") === "author") ??
    findFirst(el, (e) => hasClass(e, "post-signature") && hasClass(e, "owner"));
  if (!block) return undefined;
  const name =
    findFirst(block, (e) => attr(e, "itemprop") === "name") ?? findFirst(block, (e) => e.name === "a");
  const text = name ? collapseWhitespace(textContent(name)) : "";
  return text || undefined;
}

/**
 * When the post was written: the time of its author's signature (`.relativetime`'s title, "2025-01-01 00:00:00Z";
 * the last signature is the author's, an editor's comes first), else a `time[itemprop=dateCreated]` of its own.
 */
function createdOf(el: Element): string | undefined {
  const signatures = findAll(el, (e) => hasClass(e, "post-signature"));
  const own = signatures[signatures.length - 1];
  const stamp = own && findFirst(own, (e) => hasClass(e, "relativetime") && attr(e, "title") !== undefined);
  const title = stamp && attr(stamp, "title");
  if (title && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/.test(title)) return title.replace(" ", "T");
  const time = findFirst(el, (e) => e.name === "time" && attr(e, "itemprop") === "dateCreated");
  const when = time && attr(time, "datetime");
  if (!when) return undefined;
  return /Z$|[+-]\d\d:?\d\d$/.test(when) ? when : `${when}Z`;
}

function titleOf(doc: ReturnType<typeof parseHtml>): string {
  const title = findFirst(doc, (el) => el.name === "title");
  const text = title ? collapseWhitespace(textContent(title)) : "";
  // "How do I …? - Stack Overflow": the site's name after the last " - ".
  const dash = text.lastIndexOf(" - ");
  return dash > 0 ? text.slice(0, dash) : text;
}
