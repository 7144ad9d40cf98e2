import { decodeHTML } from "entities";
import type { z } from "zod";
import type { Deadline } from "../../core/deadline.js";
import { lazySchema } from "../../core/lazy-zod.js";
import { oneLine, optionalLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";
import type { NetResponse } from "../../net/client.js";
import { maybe, maybeListOf, maybeText } from "../../provider-http/json-fields.js";
import { INLINE_BELOW_CHARS, runOnPool } from "../page-pool.js";
import { bookSiteWait, queueForSlot } from "./api-pacing.js";
import { type Fetched, fetchSite, fetchSiteJson, type SiteFailure } from "./site-json.js";
import {
  readerDrift,
  type SiteContext,
  type SiteOutcome,
  type SiteReader,
  siteNotFound,
} from "./site-reader.js";
import { isoOfSeconds } from "./site-text.js";
import { orderAnswers, renderThread, type SeAnswer, type SeThread } from "./stackexchange-thread.js";

/**
 * Stack Overflow and every Stack Exchange site: the question, then the accepted answer first and marked, then the
 * others by score, through the public API (api.stackexchange.com, no key: 300 requests a day per address), and
 * from the question page's own markup when the API cannot answer. The generic extraction would order answers by
 * its own idea of the main content and drop which one was accepted.
 */
export const stackExchangeReader: SiteReader = {
  name: "stackexchange",
  hosts: [
    "stackoverflow.com",
    "*.stackoverflow.com",
    "*.stackexchange.com",
    "superuser.com",
    "*.superuser.com",
    "serverfault.com",
    "*.serverfault.com",
    "askubuntu.com",
    "*.askubuntu.com",
    "mathoverflow.net",
    "*.mathoverflow.net",
    "stackapps.com",
  ],
  takes: (url) => url.hostname !== "api.stackexchange.com" && postOf(url) !== undefined,
  read: readQuestion,
};

const API = "https://api.stackexchange.com/2.3";
/** The API's share of the read: when it is slow, the page's own markup still has time. */
const SE_API_MS = 8_000;
/** Answers asked of the API, best first: enough for the accepted one and MAX_ANSWERS others on nearly any question. */
const ANSWERS_ASKED = 30;

type PostRef = { question: number; answer?: number } | { question?: undefined; answer: number };

/** `/questions/ID[/slug[/ANSWER]]`, `/q/ID`, `/a/ANSWER` (the share links). */
export function postOf(url: URL): PostRef | undefined {
  const path = url.pathname;
  const question = /^\/(?:questions|q)\/(\d+)(?:\/[^/]*(?:\/(\d+))?)?\/?$/.exec(path);
  if (question) {
    const answer = path.startsWith("/q/") ? undefined : Number(question[2]) || undefined;
    return { question: Number(question[1]), ...(answer ? { answer } : {}) };
  }
  const answer = /^\/a\/(\d+)(?:\/\d+)?\/?$/.exec(path);
  return answer ? { answer: Number(answer[1]) } : undefined;
}

async function readQuestion(url: URL, ctx: SiteContext, deadline: Deadline): Promise<SiteOutcome> {
  const ref = postOf(url);
  if (!ref) return readerDrift("stackexchange", "not a question URL");
  const host = url.hostname.toLowerCase().replace(/^www\./, "");
  // The API takes a site's domain as its `site` parameter.
  const site = encodeURIComponent(host);
  const api = deadline.child(SE_API_MS);
  let question = ref.question;
  if (question === undefined) {
    const owner = await seJson(`/answers/${ref.answer}?site=${site}`, ctx, api, AnswerOwner);
    if (!owner.ok) return fromPage(url, host, ref, ctx, deadline, owner);
    const found = owner.value.items[0]?.question_id;
    if (found === undefined) return notFound(`answer ${ref.answer}`, host);
    question = found;
  }
  const body = `site=${site}&filter=withbody`;
  const [q, a] = await Promise.all([
    seJson(`/questions/${question}?${body}`, ctx, api, Questions),
    seJson(
      `/questions/${question}/answers?${body}&sort=votes&order=desc&pagesize=${ANSWERS_ASKED}`,
      ctx,
      api,
      Answers,
    ),
  ]);
  if (!q.ok) return fromPage(url, host, { ...ref, question }, ctx, deadline, q);
  if (!a.ok) return fromPage(url, host, { ...ref, question }, ctx, deadline, a);
  const item = q.value.items[0];
  if (!item) return notFound(`question ${question}`, host);
  const { fragmentToMarkdown } = await markdownTools();
  const links: string[] = [];
  const md = async (html: string) => {
    const out = await fragmentToMarkdown(html, url.href);
    links.push(...out.links);
    return out.markdown;
  };
  const listed: SeAnswer[] = a.value.items.map((x) => ({
    id: x.answer_id,
    accepted: x.is_accepted || x.answer_id === item.accepted_answer_id,
    score: x.score,
    markdown: x.body,
    ...person(x.owner?.display_name, x.creation_date),
  }));
  // Only the answers shown are converted: a question may carry dozens of long ones.
  const shown = orderAnswers(listed, ref.answer);
  const answers = await Promise.all(shown.map(async (x) => ({ ...x, markdown: await md(x.markdown) })));
  const thread: SeThread = {
    title: decodeHTML(item.title),
    question: {
      id: item.question_id,
      tags: item.tags,
      score: item.score,
      markdown: await md(item.body),
      ...person(item.owner?.display_name, item.creation_date),
      ...(item.closed_reason ? { closed: item.closed_reason } : {}),
    },
    answers,
    answerCount: Math.max(item.answer_count ?? 0, listed.length),
    links: [],
  };
  return {
    ok: true,
    title: thread.title,
    markdown: renderThread(thread, host, ref.answer),
    via: "api.stackexchange.com",
    links: [...new Set(links)],
    finalUrl: item.link ?? url.href,
    ...(thread.question.author ? { byline: thread.question.author } : {}),
    ...(thread.question.created ? { published: thread.question.created } : {}),
  };
}

/** The question page itself, read by its own markup (accepted answer first) when the API failed. */
async function fromPage(
  url: URL,
  host: string,
  ref: PostRef,
  ctx: SiteContext,
  deadline: Deadline,
  apiFailure: SiteFailure,
): Promise<SiteOutcome> {
  const pageUrl = ref.question !== undefined ? `https://${host}/questions/${ref.question}` : url.href;
  const got = await fetchSite(pageUrl, ctx, deadline);
  if (!got.ok) return apiFailure;
  const html = got.res.text();
  const finalUrl = got.res.finalUrl;
  const linked = ref.answer ?? answerOfFinalUrl(finalUrl);
  let thread: SeThread | undefined;
  if (html.length < INLINE_BELOW_CHARS) {
    const { threadFromPage } = await import("./stackexchange-page.js");
    thread = await threadFromPage(html, finalUrl, linked);
  } else {
    const pooled = await runOnPool<SeThread | undefined>(
      "stackExchangePage",
      { html, url: finalUrl, linked },
      deadline,
      "reading the question page",
    );
    if (!pooled.ok) return pooled;
    thread = pooled.value;
  }
  if (!thread)
    return readerDrift(
      "stackexchange",
      `the question page has no question markup (API: ${apiFailure.message})`,
    );
  return {
    ok: true,
    title: thread.title,
    markdown: renderThread(thread, host, linked),
    via: `page markup (API ${apiFailure.status})`,
    links: thread.links,
    finalUrl,
    ...(thread.question.author ? { byline: thread.question.author } : {}),
    ...(thread.question.created ? { published: thread.question.created } : {}),
  };
}

/** A share link `/a/ID` lands on `/questions/Q/slug/ID#ID`. */
function answerOfFinalUrl(finalUrl: string): number | undefined {
  const ref = postOf(new URL(finalUrl));
  return ref?.answer;
}

function person(name: string | undefined, seconds: number | undefined) {
  const created = isoOfSeconds(seconds);
  return { ...(name ? { author: decodeHTML(name) } : {}), ...(created ? { created } : {}) };
}

function notFound(what: string, host: string): SiteFailure {
  return siteNotFound(`stackexchange reader: ${what} not found on ${host}`);
}

let fragment: Promise<typeof import("../extract/fragment.js")> | undefined;
/** The HTML → markdown converter loads with the first question read, as the extractor does. */
async function markdownTools() {
  fragment ??= import("../extract/fragment.js");
  return { fragmentToMarkdown: (await fragment).htmlFragmentToMarkdown };
}

/**
 * One API call, honouring `backoff`: an answer carrying it means that method must not be asked again for that
 * many seconds (the API's rule, enforced with throttle violations). The wait is booked on the store's limiter
 * per method, so parallel reads and a fleet on one store keep it; a wait past the read's time is not waited:
 * the question page is read instead.
 */
async function seJson<S extends z.ZodType<{ backoff?: number }>>(
  path: string,
  ctx: SiteContext,
  deadline: Deadline,
  schema: () => S,
): Promise<Fetched<z.infer<S>>> {
  const method = `backoff:${path.split("?")[0]!.replace(/\d+/g, "{id}")}`;
  const queued = await queueForSlot(
    ctx,
    method,
    0,
    deadline,
    (s) => `api.stackexchange.com asked for ${s} s more before this method is asked again (backoff)`,
  );
  if (queued) return queued;
  // The API's wrapper carries `backoff` on its error answers too (a bad parameter asked too often).
  let errorBackoff: number | undefined;
  const got = await fetchSiteJson("stackexchange", `${API}${path}`, ctx, deadline, schema, {
    failure: (res) => {
      const backoff = res.json<{ backoff?: unknown }>()?.backoff;
      if (typeof backoff === "number" && Number.isFinite(backoff)) errorBackoff = backoff;
      return seApiFailure(res);
    },
  });
  // A throttle's seconds keep the method waiting as a backoff does, also when the question page saves the read.
  const throttle = !got.ok && got.status === "rate_limited" ? got.retryAfter : undefined;
  await bookSiteWait(ctx, method, got.ok ? got.value.backoff : Math.max(errorBackoff ?? 0, throttle ?? 0));
  return got;
}

/**
 * The API's errors come as `{ error_id, error_name, error_message }` (HTTP 400 for most): `throttle_violation`
 * (the daily quota or a burst; its message says how many seconds remain) is `rate_limited`.
 */
export function seApiFailure(res: NetResponse): Failure | undefined {
  const body = res.json<{ error_name?: unknown; error_message?: unknown }>();
  const name = optionalLine(body?.error_name, 60);
  if (!name) return undefined;
  const detail = optionalLine(body?.error_message, 200) ?? "";
  const message = oneLine(`api.stackexchange.com answered ${name}${detail ? `: ${detail}` : ""}`, 300);
  if (name === "throttle_violation") {
    const seconds = Number(/(\d+) seconds/.exec(detail)?.[1]);
    return {
      status: "rate_limited",
      code: name,
      message,
      ...(Number.isFinite(seconds) && seconds > 0 ? { retryAfter: seconds } : {}),
    };
  }
  if (name === "access_denied" || name === "access_token_required")
    return { status: "denied", code: name, message };
  return { status: "error", code: name, message };
}

const owner = lazySchema((z) => maybe(z.object({ display_name: maybeText() })));
const seconds = lazySchema((z) => maybe(z.number()));

const Questions = lazySchema((z) =>
  z.object({
    backoff: seconds(),
    items: z.array(
      z.object({
        question_id: z.number(),
        title: z.string(),
        body: z.string(),
        score: z.number(),
        tags: maybeListOf(z.string()),
        owner: owner(),
        creation_date: seconds(),
        accepted_answer_id: maybe(z.number()),
        answer_count: maybe(z.number()),
        closed_reason: maybeText(),
        link: maybeText(),
      }),
    ),
  }),
);

const Answers = lazySchema((z) =>
  z.object({
    backoff: seconds(),
    items: z.array(
      z.object({
        answer_id: z.number(),
        score: z.number(),
        is_accepted: z.boolean(),
        body: z.string(),
        owner: owner(),
        creation_date: seconds(),
      }),
    ),
  }),
);

const AnswerOwner = lazySchema((z) =>
  z.object({ backoff: seconds(), items: z.array(z.object({ question_id: z.number() })) }),
);
