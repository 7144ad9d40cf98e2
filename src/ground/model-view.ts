import { oneLine } from "../core/one-line.js";
import { FAILURES, type Status } from "../core/status.js";
import type { ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";
import type { AnswerResult } from "./answer.js";
import { createFence, modelSafe } from "./fence.js";
import { redactSecrets } from "./redact.js";
import { noResultsLine, searchHeader, searchList } from "./search-markdown.js";

/**
 * What a model receives for a result, whatever channel its client picks. Real MCP clients differ in what they
 * hand their model: Codex CLI sends the JSON of `structuredContent` and drops the text, Claude Code does the same
 * for every successful result, others send only the text. So the structured object is no second, richer view:
 * it is `{ status, text, …small fields }`, where `text` is exactly the fenced, redacted text a text-only client
 * shows, and the other fields are ours (counts, offsets, the rung's name), never words from the web. The raw
 * library object (page markdown, titles, snippets) never leaves through a model-facing channel; a program that
 * wants it calls the library, or asks the CLI or the HTTP service for it explicitly (redacted).
 */
export interface ModelView {
  status: Status | "pending";
  /** The model's text: our header and instruction lines, everything from the web inside one fence. */
  text: string;
  [field: string]: string | number | boolean | undefined;
}

export interface ToolOutput {
  /** What the model reads: also `structured.text`. */
  text: string;
  /** The compact object for clients that read `structuredContent`; declared by the tool's outputSchema. */
  structured: ModelView;
  isError: boolean;
}

/** Who speaks and how to read on: the tool and its call for tools, the command and its flag for the CLI. */
export interface Speaker {
  /** Names the failure: `web_fetch failed (timeout): …`. */
  tool: string;
  readOn(offset: number): string;
}
const WEB_FETCH: Speaker = {
  tool: "web_fetch",
  readOn: (offset) => `to read on call web_fetch with offset=${offset}`,
};

function output(view: ModelView): ToolOutput {
  // Absent, not undefined: the object is checked against the outputSchema before any serialisation.
  const structured = Object.fromEntries(
    Object.entries(view).filter(([, value]) => value !== undefined),
  ) as ModelView;
  return { text: view.text, structured, isError: FAILURES.includes(view.status as Status) };
}

/** web_search's view: our header, then titles, URLs and snippets inside one fence. */
export function searchView(response: SearchResponse, tool = "web_search"): ToolOutput {
  const fields = {
    provider: response.provider,
    count: response.results.length,
    cached: response.cached || undefined,
  };
  if (FAILURES.includes(response.status))
    return output({
      status: response.status,
      text: failureLine(tool, response.status, response.error),
      ...fields,
    });
  if (response.status !== "ok" || (!response.results.length && !response.answer))
    return output({ status: response.status, text: noResultsLine(response), ...fields });
  const fence = createFence();
  const text = `${searchHeader(response, "fence")}\n${fence.wrap(searchList(response), "web search", { redacted: true })}`;
  return output({ status: response.status, text, ...fields });
}

/** web_fetch's view of a page read from `url`: a header of ours (where, which rung, how to read on), then the fence. */
export function pageView(url: string, page: ReadResult, speaker: Speaker = WEB_FETCH): ToolOutput {
  const fields = {
    source: page.source,
    reader: page.reader ? `${page.reader.name} (${page.reader.via})` : undefined,
    truncated: page.truncated,
    totalChars: page.totalChars,
    nextOffset: page.nextOffset,
    cached: page.cached || undefined,
  };
  const reason = page.error?.message ?? page.status;
  if (FAILURES.includes(page.status))
    return output({
      status: page.status,
      text: failureLine(speaker.tool, page.status, `${url}: ${reason}`),
      ...fields,
    });
  if (!page.markdown)
    return output({
      status: page.status,
      text: `${speaker.tool}: ${oneLine(url, 300, modelSafe)}: ${oneLine(reason, 300, modelSafe)}`,
      ...fields,
    });
  return output({ status: page.status, text: pageText(page, speaker.readOn), ...fields });
}

/** web_answer's view: the envelope is written for the model in every outcome (fenced, honest failures). */
export function answerView(result: AnswerResult): ToolOutput {
  return output({ status: result.status, text: result.envelope, provider: result.provider });
}

/** A lookup that outlived its call: not an error; the model is told what happens next and how to get the result. */
export function pendingView(tool: string, id: string): ToolOutput {
  return output({
    status: "pending",
    text: `${tool} is still running (id ${id}). Do not repeat the call: get its result with web_result {"id":"${id}"} when you need it.`,
    id,
  });
}

/** A call that failed before any lookup (bad arguments, a limit, an unknown id): one line the model can act on. */
export function errorView(text: string): ToolOutput {
  return { ...output({ status: "error", text: oneLine(text, 500, modelSafe) }), isError: true };
}

function pageText(page: ReadResult, readOn: Speaker["readOn"]): string {
  const facts = [
    page.status !== "ok" ? `status: ${page.status}` : undefined,
    page.source
      ? `source: ${page.source}${page.reader ? ` (${page.reader.name}, ${page.reader.via})` : ""}`
      : undefined,
    page.cached ? "cached" : undefined,
  ];
  if (page.truncated || page.nextOffset !== undefined) {
    const more = page.nextOffset !== undefined ? `; ${readOn(page.nextOffset)}` : "";
    facts.push(`shortened from ${page.totalChars} characters${more}`);
  }
  const line = facts.filter(Boolean).join(", ");
  const where = oneLine(page.finalUrl || page.url, 500, modelSafe);
  // The title is the page's own words: inside the fence, with the text it heads.
  const title = page.title.replace(/\s+/g, " ").trim();
  const titled = title ? `Title: ${title}\n\n${page.markdown}` : page.markdown;
  // The feeds a page names are its own words too: inside the fence, after its text.
  const body = page.feeds?.length ? `${titled}\n\nFeeds: ${page.feeds.join(" ")}` : titled;
  return `${where}${line ? ` (${line})` : ""}\n${createFence().wrap(body, page.finalUrl || page.url)}`;
}

function failureLine(tool: string, status: Status, reason: string | undefined): string {
  return `${tool} failed (${status}): ${oneLine(reason ?? status, 300, modelSafe)}`;
}

/**
 * The library's own shape for a program that asks for it explicitly (`--json --raw`, `?raw=1`): every string
 * redacted, nothing fenced. Not for a model.
 */
export function redactedRaw<T>(value: T): T {
  if (typeof value === "string") return redactSecrets(value).text as T;
  if (Array.isArray(value)) return value.map(redactedRaw) as T;
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactedRaw(v)])) as T;
  return value;
}
