import type { Deadline } from "../../core/deadline.js";
import type { Failure } from "../../core/status.js";
import { queueForSlot } from "./api-pacing.js";
import type { ArxivPaper, ArxivParse } from "./arxiv-parse.js";
import { fetchSite, MAX_SITE_BYTES } from "./site-json.js";
import { readerDrift, type SiteContext, type SiteOutcome, type SiteReader } from "./site-reader.js";

const NAME = "arxiv";
const ARXIV_API = "https://export.arxiv.org/api/query";
// The API answers in well under a second when it answers at all; the abstract page needs time after it.
const API_TIMEOUT_MS = 6000;
// arXiv's API terms ask for no more than one request every three seconds: parallel reads queue for a slot.
const API_INTERVAL_MS = 3000;

// New-style ids (0704.0001 on: YYMM.NNNN, YYMM.NNNNN from 2015) and old-style ones (archive[.SUBJ]/YYMMNNN),
// each with an optional version.
const NEW_ID = /^\d{4}\.\d{4,5}(v\d+)?$/;
const OLD_ID = /^[a-z-]+(\.[A-Z]{2})?\/\d{7}(v\d+)?$/;

/** The paper id of an abstract page's path ("/abs/1706.03762v2" → "1706.03762v2"), if it is one. */
export function arxivIdOf(pathname: string): string | undefined {
  const m = /^\/abs\/(.+?)\/?$/.exec(pathname);
  if (!m) return undefined;
  const id = decodeURIComponent(m[1]);
  return NEW_ID.test(id) || OLD_ID.test(id) ? id : undefined;
}

/**
 * arXiv abstract pages through the arXiv API (its Atom answer for one id), the page's own citation metadata
 * when the API fails. /pdf/ and /html/ URLs are the paper's full text and stay with the PDF reader and the
 * page extractor: the abstract's result names both.
 */
export const arxivReader: SiteReader = {
  name: NAME,
  hosts: ["arxiv.org", "www.arxiv.org", "export.arxiv.org"],
  takes: (url) => arxivIdOf(url.pathname) !== undefined,
  async read(url, ctx, deadline) {
    const id = arxivIdOf(url.pathname)!;
    const parse = await import("./arxiv-parse.js");
    const api = await fromApi(id, ctx, deadline.child(API_TIMEOUT_MS), parse.paperFromApi);
    if (api.ok) return paperPage(api.paper, "export.arxiv.org API");
    ctx.log(`read: arxiv API for ${id}: ${api.message}; reading the abstract page`);
    const page = await fromAbsPage(id, ctx, deadline, parse.paperFromAbsPage);
    if (page.ok) return paperPage(page.paper, "abs page");
    // The page's own failure (a 404 for an id arXiv does not have) says more than the API's.
    return page;
  },
};

type Fetched = { ok: true; paper: ArxivPaper } | ({ ok: false } & Failure);

async function fromApi(
  id: string,
  ctx: SiteContext,
  deadline: Deadline,
  parse: (xml: string) => ArxivParse,
): Promise<Fetched> {
  const queued = await queueForSlot(
    ctx,
    "api",
    API_INTERVAL_MS,
    deadline,
    (s) => `the next API slot is ${s} s away (arXiv asks for 3 s between requests)`,
  );
  if (queued) return queued;
  const got = await fetchSite(`${ARXIV_API}?id_list=${encodeURIComponent(id)}&max_results=1`, ctx, deadline, {
    headers: { accept: "application/atom+xml" },
    maxBytes: MAX_SITE_BYTES,
  });
  if (!got.ok) return got;
  return paperOf(parse(got.res.text()), `arXiv API: no entry for ${id}`);
}

async function fromAbsPage(
  id: string,
  ctx: SiteContext,
  deadline: Deadline,
  parse: (html: string) => ArxivParse,
): Promise<Fetched> {
  const got = await fetchSite(`https://arxiv.org/abs/${id}`, ctx, deadline, {
    headers: { accept: "text/html" },
    maxBytes: MAX_SITE_BYTES,
  });
  if (!got.ok) return got;
  return paperOf(parse(got.res.text()), `arXiv has no paper ${id}`);
}

function paperOf(parsed: ArxivParse, notFound: string): Fetched {
  if (parsed.ok) return parsed;
  if ("notFound" in parsed) return { ok: false, status: "empty", code: "not_found", message: notFound };
  return readerDrift(NAME, `no ${parsed.missing}`);
}

/** The abstract page as markdown: what a reader sees first, and where the full text is. */
function paperPage(paper: ArxivPaper, via: string): SiteOutcome {
  const abs = `https://arxiv.org/abs/${paper.id}`;
  const pdf = `https://arxiv.org/pdf/${paper.id}`;
  const html = `https://arxiv.org/html/${paper.id}`;
  const facts = [
    `**Authors:** ${authorList(paper.authors)}`,
    `**arXiv:** ${paper.id}`,
    paper.submitted && `**Submitted:** ${paper.submitted}`,
    paper.updated && paper.updated !== paper.submitted && `**This version:** ${paper.updated}`,
    paper.categories.length > 0 && `**Categories:** ${categoryList(paper)}`,
    paper.comment && `**Comment:** ${paper.comment}`,
    paper.journalRef && `**Journal reference:** ${paper.journalRef}`,
    paper.doi && `**DOI:** ${paper.doi}`,
  ].filter(Boolean);
  const markdown = [
    `# ${paper.title}`,
    facts.join("\n"),
    `## Abstract\n\n${paper.abstract}`,
    `## Full text\n\nThis is the abstract page. Read the paper itself at:\n- PDF: ${pdf}\n- HTML: ${html} (arXiv's HTML version, for papers it could convert)`,
  ].join("\n\n");
  const links = [pdf, html, ...(paper.doi ? [`https://doi.org/${paper.doi}`] : [])];
  return {
    ok: true,
    title: paper.title,
    markdown,
    via,
    finalUrl: abs,
    links,
    byline: byline(paper.authors),
    ...(paper.submitted ? { published: paper.submitted } : {}),
  };
}

// A collaboration's paper may list thousands of authors; the first ones and the count say enough.
const MAX_AUTHORS = 50;

function authorList(authors: string[]): string {
  if (authors.length <= MAX_AUTHORS) return authors.join(", ");
  return `${authors.slice(0, MAX_AUTHORS).join(", ")} and ${authors.length - MAX_AUTHORS} more`;
}

function categoryList(paper: ArxivPaper): string {
  const primary = paper.primaryCategory ?? paper.categories[0];
  const rest = paper.categories.filter((c) => c !== primary);
  return [`${primary} (primary)`, ...rest].join(", ");
}

function byline(authors: string[]): string {
  return authors.length > 3 ? `${authors.slice(0, 3).join(", ")} et al.` : authors.join(", ");
}
