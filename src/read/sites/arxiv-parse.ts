import type { Element } from "domhandler";
import { decodeHTML, decodeHTMLAttribute } from "entities";
import { lazySchema } from "../../core/lazy-zod.js";
import { localName } from "../formats/xml-elements.js";
import {
  attribute,
  childNamed,
  childrenNamed,
  childText,
  parseXml,
  rootElement,
} from "../formats/xml-tree.js";

/** A paper as the abstract page shows it: what the reader renders, from the API or from the page. */
export interface ArxivPaper {
  /** The id with its version when one is known ("1706.03762v7", "hep-th/9901001v1"). */
  id: string;
  title: string;
  authors: string[];
  abstract: string;
  /** First version's submission, ISO 8601. */
  submitted?: string;
  /** This version's submission, ISO 8601. */
  updated?: string;
  primaryCategory?: string;
  categories: string[];
  doi?: string;
  journalRef?: string;
  comment?: string;
}

export type ArxivParse =
  | { ok: true; paper: ArxivPaper }
  | { ok: false; missing: string }
  | { ok: false; notFound: true };

const Paper = lazySchema((z) =>
  z.object({
    id: z.string().min(1),
    title: z.string().min(1),
    authors: z.array(z.string().min(1)).min(1),
    abstract: z.string().min(1),
    submitted: z.string().optional(),
    updated: z.string().optional(),
    primaryCategory: z.string().optional(),
    categories: z.array(z.string()),
    doi: z.string().optional(),
    journalRef: z.string().optional(),
    comment: z.string().optional(),
  }),
);

/** The fields of a paper gathered from a response, checked: what is missing names the field of the response. */
function checked(fields: Record<string, unknown>, names: Record<string, string>): ArxivParse {
  const parsed = Paper().safeParse(fields);
  if (parsed.success) return { ok: true, paper: parsed.data };
  const key = String(parsed.error.issues[0]?.path[0] ?? "entry");
  return { ok: false, missing: names[key] ?? key };
}

const API_FIELDS = {
  id: "<entry><id>",
  title: "<entry><title>",
  authors: "<entry><author><name>",
  abstract: "<entry><summary>",
};

/**
 * The API's Atom answer for one id (arXiv API User's Manual §3.3). An id arXiv does not know comes back as a
 * feed with no entry; a malformed one as HTTP 200 with an entry titled "Error" whose id is under /api/errors.
 */
export function paperFromApi(xml: string): ArxivParse {
  const feed = rootElement(parseXml(xml));
  if (!feed || localName(feed.name) !== "feed") return { ok: false, missing: "the Atom <feed>" };
  const entry = childNamed(feed, "*:entry");
  if (!entry) return { ok: false, notFound: true };
  const entryId = childText(entry, "*:id") ?? "";
  if (/\/api\/errors\b/.test(entryId)) return { ok: false, notFound: true };
  const doi = childText(entry, "arxiv:doi");
  return checked(
    {
      id: /\/abs\/(.+)$/.exec(entryId)?.[1],
      title: flat(childText(entry, "*:title")),
      authors: childrenNamed(entry, "*:author").flatMap((a) => flat(childText(a, "*:name")) ?? []),
      abstract: flat(childText(entry, "*:summary")),
      submitted: iso(childText(entry, "*:published")),
      updated: iso(childText(entry, "*:updated")),
      primaryCategory: termOf(childNamed(entry, "arxiv:primary_category")),
      categories: childrenNamed(entry, "*:category").flatMap((c) => termOf(c) ?? []),
      doi,
      journalRef: flat(childText(entry, "arxiv:journal_ref")),
      comment: flat(childText(entry, "arxiv:comment")),
    },
    API_FIELDS,
  );
}

const PAGE_FIELDS = {
  id: 'meta "citation_arxiv_id"',
  title: 'meta "citation_title"',
  authors: 'meta "citation_author"',
  abstract: 'meta "citation_abstract"',
};

/** The abstract page itself: its Highwire `citation_*` meta tags, and the subjects cell for the categories. */
export function paperFromAbsPage(html: string): ArxivParse {
  const head = html.slice(0, 400_000);
  const meta = (name: string) =>
    [...head.matchAll(/<meta\b[^>]*>/gi)].flatMap((m) => {
      const tag = m[0];
      if (!new RegExp(`\\bname\\s*=\\s*["']${name}["']`, "i").test(tag)) return [];
      const content = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag);
      const value = content?.[1] ?? content?.[2];
      return value === undefined ? [] : [decodeHTMLAttribute(value)];
    });
  const subjects = /<td[^>]*class="[^"]*\bsubjects\b[^"]*"[^>]*>([\s\S]*?)<\/td>/i.exec(head)?.[1] ?? "";
  const primary = /<span[^>]*primary-subject[^>]*>[^<]*\(([^()<]+)\)/i.exec(subjects)?.[1];
  const categories = [
    ...decodeHTML(subjects.replace(/<[^>]*>/g, "")).matchAll(/\(([a-z-]+(?:\.[A-Za-z-]+)?)\)/g),
  ].map((m) => m[1]);
  return checked(
    {
      id: meta("citation_arxiv_id")[0],
      title: flat(meta("citation_title")[0]),
      // Highwire writes "Last, First"; the abstract page shows "First Last".
      authors: meta("citation_author").map((a) => a.split(/,\s*/).reverse().join(" ").trim()),
      abstract: flat(meta("citation_abstract")[0]),
      submitted: slashDate(meta("citation_date")[0]),
      updated: slashDate(meta("citation_online_date")[0]),
      primaryCategory: primary,
      categories,
      doi: meta("citation_doi")[0],
    },
    PAGE_FIELDS,
  );
}

function termOf(el: Element | undefined): string | undefined {
  return (el && attribute(el, "term")?.trim()) || undefined;
}

/** The API hard-wraps titles and abstracts mid-sentence. */
function flat(text: string | undefined): string | undefined {
  return text?.replace(/\s+/g, " ").trim() || undefined;
}

function iso(text: string | undefined): string | undefined {
  const ms = text ? Date.parse(text) : Number.NaN;
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** "2017/06/12" → "2017-06-12". */
function slashDate(text: string | undefined): string | undefined {
  const m = text && /^(\d{4})\/(\d{2})\/(\d{2})$/.exec(text.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}
