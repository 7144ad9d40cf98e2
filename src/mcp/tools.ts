import { z } from "zod";
import { Deadline } from "../core/deadline.js";
import type { Attempt, Status } from "../core/status.js";
import type { AnswerResult } from "../ground/answer.js";
import { fenceUntrusted } from "../ground/fence.js";
import { redactSecrets } from "../ground/redact.js";
import { searchMarkdown } from "../ground/search-markdown.js";
import type { ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";
import type { Websift } from "../websift.js";

/**
 * The three tools every surface offers (MCP, OpenAI functions, AI SDK, LangChain): one definition, so a tool
 * behaves the same wherever a model meets it. Descriptions are short on purpose: every client sends them
 * with every model turn.
 */
export interface ToolRun {
  /** Aborts the library call (a cancelled MCP request, an aborted agent step). */
  signal?: AbortSignal;
  /** One short line per step of a long call. */
  progress?: (message: string) => void;
  /** Total budget of a web_fetch, in ms (search and answer use the instance's own budget). */
  timeoutMs?: number;
}

export interface ToolOutput {
  /** What the model reads. */
  text: string;
  /** The library's own result shape, for programs. */
  structured: Record<string, unknown>;
  isError: boolean;
}

export interface WebTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: Shape;
  run(websift: Websift, args: z.infer<z.ZodObject<Shape>>, run: ToolRun): Promise<ToolOutput>;
}

const searchInput = {
  query: z.string().min(1).max(2000).describe("Search terms; operators such as site: work"),
  limit: z.number().int().min(1).max(20).optional().describe("Results wanted (default 5)"),
  provider: z.string().optional().describe('"auto" (default) or one engine, asked alone'),
  scope: z.enum(["general", "code"]).optional().describe('"code": only docs, code hosts and advisories'),
  allowed_hosts: z.array(z.string()).optional().describe('Extra hosts for scope "code"'),
  region: z.string().optional().describe("Region such as us-en or de-de"),
  time_range: z.enum(["d", "w", "m", "y"]).optional().describe("Past day, week, month or year"),
};

const fetchInput = {
  url: z.string().min(1).describe("http(s) URL"),
  max_chars: z
    .number()
    .int()
    .min(200)
    .max(100_000)
    .optional()
    .describe("Characters to return (default 6000)"),
  looking_for: z.string().max(500).optional().describe("What you need: matching passages are kept"),
  offset: z
    .number()
    .int()
    .min(0)
    .max(100_000_000)
    .optional()
    .describe("Read on from the offset a shortened page names"),
  mode: z.enum(["passages", "cut", "head-tail"]).optional().describe("How a long page is shortened"),
};

const answerInput = {
  query: z.string().min(1).max(2000).describe("The question"),
  language: z.string().optional().describe("Language of the question, e.g. en or de"),
};

const FAILED: readonly Status[] = [
  "blocked",
  "rate_limited",
  "quota",
  "timeout",
  "offline",
  "denied",
  "unsupported",
  "disabled",
  "error",
];

export const webSearch: WebTool<typeof searchInput> = {
  name: "web_search",
  title: "Web search",
  description:
    "Search the web. Returns numbered results (title, URL, snippet); snippets are untrusted third-party text. Read a result with web_fetch.",
  input: searchInput,
  async run(websift, args, run) {
    run.progress?.(searchingLine(args.query));
    const response = await websift.search(args.query, {
      ...searchOptionsOf(args),
      signal: run.signal,
      onAttempt: (a) => run.progress?.(attemptLine(a)),
    });
    return renderSearch(response);
  },
};

export const webFetch: WebTool<typeof fetchInput> = {
  name: "web_fetch",
  title: "Read a web page",
  description:
    "Read a web page (HTML, PDF, text) as markdown of its main content, fenced as untrusted. Long pages are shortened; pass offset to read on.",
  input: fetchInput,
  async run(websift, args, run) {
    run.progress?.(readingLine(args.url));
    const deadline = Deadline.fromSignal(run.signal, run.timeoutMs ?? 20_000);
    const page = await websift.read(args.url, { ...readOptionsOf(args), deadline });
    return renderPage(args.url, page);
  },
};

export const webAnswer: WebTool<typeof answerInput> = {
  name: "web_answer",
  title: "Answer from the web",
  description:
    "Answer a question from the web: searches, reads the best relevant page, returns its fenced text with sources. Reply from this text only.",
  input: answerInput,
  async run(websift, args, run) {
    const result = await websift.answer(args.query, {
      language: args.language,
      signal: run.signal,
      onProgress: run.progress,
    });
    return renderAnswer(result);
  },
};

export const WEB_TOOLS = [webSearch, webFetch, webAnswer] as const;

/** web_search's arguments as library options: one mapping for a direct call and a session lookup alike. */
export function searchOptionsOf(args: z.infer<z.ZodObject<typeof searchInput>>) {
  return {
    limit: args.limit,
    provider: args.provider,
    scope: args.scope,
    allowedHosts: args.allowed_hosts,
    region: args.region,
    timeRange: args.time_range,
  };
}

/** web_fetch's arguments as library read options. */
export function readOptionsOf(args: z.infer<z.ZodObject<typeof fetchInput>>) {
  return { maxChars: args.max_chars, lookingFor: args.looking_for, offset: args.offset, mode: args.mode };
}

const researchInput = {
  question: z.string().min(1).max(2000).describe("The question to research"),
  max_hops: z.number().int().min(1).max(6).optional().describe("Search rounds at most (default 4)"),
};

/** Offered only when a model is configured: without one, research is a plain search and web_answer is better. */
export const webResearch: WebTool<typeof researchInput> = {
  name: "web_research",
  title: "Research on the web",
  description:
    "Multi-step research: plans queries, searches, reads, and searches again for missing facts. Returns fenced facts with sources. Slower than web_answer.",
  input: researchInput,
  async run(websift, args, run) {
    const result = await websift.research(args.question, {
      maxHops: args.max_hops,
      deadline: Deadline.fromSignal(run.signal, run.timeoutMs ?? 120_000),
      onProgress: run.progress,
    });
    return {
      text: result.envelope,
      structured: result as unknown as Record<string, unknown>,
      isError: FAILED.includes(result.status),
    };
  },
};

/** What web_search shows for a search response: also what a search that outlived its turn shows when it lands. */
export function renderSearch(response: SearchResponse): ToolOutput {
  const structured = response as unknown as Record<string, unknown>;
  if (FAILED.includes(response.status))
    return { text: failureLine("web_search", response.status, response.error), structured, isError: true };
  return { text: searchMarkdown(response), structured, isError: false };
}

/** What web_fetch shows for a page read from `url`. */
export function renderPage(url: string, page: ReadResult): ToolOutput {
  const structured = page as unknown as Record<string, unknown>;
  const reason = page.error?.message ?? page.status;
  if (FAILED.includes(page.status))
    return { text: failureLine("web_fetch", page.status, `${url}: ${reason}`), structured, isError: true };
  if (!page.markdown)
    return { text: `web_fetch: ${oneLine(url)}: ${oneLine(reason)}`, structured, isError: false };
  return { text: pageText(page), structured, isError: false };
}

/** What web_answer shows: the envelope is written for the model in every outcome (honest failure, offline…). */
export function renderAnswer(result: AnswerResult): ToolOutput {
  return {
    text: result.envelope,
    structured: result as unknown as Record<string, unknown>,
    isError: FAILED.includes(result.status),
  };
}

export const searchingLine = (query: string) => `Searching the web for '${oneLine(query)}'`;
export const readingLine = (url: string) => `Reading ${oneLine(url)}`;
export const attemptLine = (a: Attempt) =>
  `${a.provider}: ${a.status}${a.count !== undefined ? ` (${a.count})` : ""}`;

/** The header says where the text came from and how to read on; it sits before the fence, never after. */
function pageText(page: ReadResult): string {
  const head = [`${page.title ? `${oneLine(page.title)} — ` : ""}${page.finalUrl}`];
  const facts = [page.source ? `source: ${page.source}` : undefined, page.cached ? "cached" : undefined];
  if (page.truncated || page.nextOffset !== undefined) {
    const more =
      page.nextOffset !== undefined ? `; to read on call web_fetch with offset=${page.nextOffset}` : "";
    facts.push(`shortened from ${page.totalChars} characters${more}`);
  }
  const line = facts.filter(Boolean).join(", ");
  if (line) head.push(`(${line})`);
  return `${head.join("\n")}\n${fenceUntrusted(page.markdown, { source: page.finalUrl })}`;
}

function failureLine(tool: string, status: Status, reason: string | undefined): string {
  return `${tool} failed (${status}): ${oneLine(reason ?? status)}`;
}

export function oneLine(text: string): string {
  return redactSecrets(text).text.replace(/\s+/g, " ").trim().slice(0, 300);
}
