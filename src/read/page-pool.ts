import { existsSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import type { Piscina } from "piscina";
import type { Deadline } from "../core/deadline.js";
import type { Failure } from "../core/status.js";
import type { ExtractedPage } from "./extract/index.js";
import { extractMarkdown } from "./extractor.js";
import { detectJsShell, proseLength, type ShellVerdict } from "./shell.js";
import { type SizedText, type SizeOptions, sizeText } from "./size.js";

/**
 * Parsing and extracting a large page takes hundreds of milliseconds (a 3 MB page over a second before the
 * extractor was made linear), which would stall every other call of an MCP or HTTP server sharing the event
 * loop. Large pages go to a small pool of worker threads (piscina: bounded threads and queue, a task aborted
 * while it runs terminates its thread, which the pool replaces). Small pages stay inline, where they cost less
 * than the hop to a thread.
 */

/** Pages below this many characters are extracted inline (measured: see bench/RESULTS.md, event loop). */
export const INLINE_BELOW_CHARS = 64 * 1024;
// Two threads at most: extraction is CPU work, and a server's own loop needs a core too.
export const PAGE_POOL_THREADS = Math.max(1, Math.min(2, os.availableParallelism() - 1));
// Tasks waiting for a thread; past this a read is turned away at once rather than left to wait out its deadline.
export const MAX_QUEUE = 32;
// A worker's JS heap: a 10 MB page's tree takes a few hundred MB; a page that needs more is refused.
const HEAP_MB = 1024;
const IDLE_MS = 30_000;

export type PoolOutcome<T> = { ok: true; value: T } | ({ ok: false } & Failure);

let pool: Piscina | undefined;
/** Tasks handed to the pool and not yet settled, queued or running. */
let inFlight = 0;

/** The worker file beside this module: compiled JavaScript in dist/, a tsx bootstrap beside the sources. */
function workerFile(): string {
  const js = fileURLToPath(new URL("./page-worker.js", import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL("./page-worker-from-source.mjs", import.meta.url));
}

// piscina is loaded with the first page large enough for a thread.
async function thePool(): Promise<Piscina> {
  if (!pool) {
    const { Piscina } = await import("piscina");
    pool ??= new Piscina({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: PAGE_POOL_THREADS,
      maxQueue: MAX_QUEUE,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
  }
  return pool;
}

/** Runs one named task of page-worker.ts on the pool, as a value: timeout, busy, too large or error. */
export async function runOnPool<T>(
  name:
    | "extract"
    | "pdf"
    | "feed"
    | "document"
    | "size"
    | "stackExchangePage"
    | "wikipediaArticle"
    | "goPackage",
  task: unknown,
  deadline: Deadline,
  what: string,
  transferList?: ArrayBuffer[],
): Promise<PoolOutcome<T>> {
  if (deadline.ended() || deadline.expired())
    return { ok: false, status: "timeout", code: "timeout", message: `timeout before ${what}` };
  // Counted here: piscina's own maxQueue leaves out tasks that carry an AbortSignal while they wait for a
  // thread, and every task here carries the read's.
  if (inFlight >= PAGE_POOL_THREADS + MAX_QUEUE) return busy(what);
  inFlight++;
  try {
    const value = (await (await thePool()).run(task, { name, signal: deadline.signal, transferList })) as T;
    return { ok: true, value };
  } catch (err) {
    return poolFailure(err, deadline, what);
  } finally {
    inFlight--;
  }
}

function busy(what: string): { ok: false } & Failure {
  return {
    ok: false,
    status: "rate_limited",
    code: "busy",
    message: `too many large pages are being read at once; retry ${what} in a few seconds`,
    retryAfter: 2,
  };
}

function poolFailure(err: unknown, deadline: Deadline, what: string): { ok: false } & Failure {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: string } | undefined)?.code;
  if (deadline.ended() || deadline.expired()) {
    if (deadline.cancelled())
      return { ok: false, status: "error", code: "cancelled", message: `${what} cancelled` };
    return { ok: false, status: "timeout", code: "timeout", message: `timeout while ${what}` };
  }
  if (message === "Task queue is at limit") return busy(what);
  if (code === "ERR_WORKER_OUT_OF_MEMORY")
    return {
      ok: false,
      status: "unsupported",
      code: "too_large",
      message: `${what} needs more than ${HEAP_MB} MB of memory`,
    };
  return { ok: false, status: "error", code: "worker", message: `${what} failed: ${message.split("\n")[0]}` };
}

/** A page's main content, with what the ladder judges it by, computed where the page was parsed. */
export interface PageExtraction {
  page: ExtractedPage;
  /** Whether the HTML is a script shell whose text only exists after scripts run. */
  shell: ShellVerdict;
  /** Characters of words in the extracted text. */
  prose: number;
}

/** HTML → main content and verdicts, where the page pool's worker runs it (or inline, for a small page). */
export async function extractHere(html: string, url: string): Promise<PageExtraction> {
  const page = await extractMarkdown(html, url);
  const prose = proseLength(page.markdown);
  return { page, shell: detectJsShell(html, page.markdown, prose), prose };
}

/** HTML → main content, inline for a small page, on the pool for a large one; the deadline holds in both. */
export async function extractPage(
  html: string,
  url: string,
  deadline: Deadline,
): Promise<PoolOutcome<PageExtraction>> {
  if (html.length < INLINE_BELOW_CHARS) return { ok: true, value: await extractHere(html, url) };
  return runOnPool<PageExtraction>("extract", { html, url }, deadline, "extracting the page");
}

/**
 * A document sized for one call, inline unless it is large and passages are chosen for `lookingFor`: that scores
 * every paragraph of the page (a 3 MB page's markdown took 300 ms), on every call, cache hits included. Cutting
 * and head-tail look at a window only and stay inline.
 */
export async function sizeDocument(
  markdown: string,
  options: SizeOptions,
  deadline: Deadline,
): Promise<PoolOutcome<SizedText>> {
  const choosesPassages = !!options.lookingFor && (options.mode ?? "passages") === "passages";
  if (markdown.length < INLINE_BELOW_CHARS || !choosesPassages)
    return { ok: true, value: sizeText(markdown, options) };
  return runOnPool<SizedText>("size", { markdown, options }, deadline, "choosing the page's passages");
}

/** What the pool is doing, for tests and the operator. */
export function pagePoolState(): { threadIds: number[]; queued: number; running: number; completed: number } {
  const queued = pool?.queueSize ?? 0;
  return {
    threadIds: pool?.threads.map((t) => t.threadId) ?? [],
    queued,
    running: inFlight - queued,
    completed: pool?.completed ?? 0,
  };
}

/** Ends the pool's threads (tests, shutdown); the next large page starts a new pool. */
export async function closePagePool(): Promise<void> {
  const current = pool;
  pool = undefined;
  await current?.destroy();
}
