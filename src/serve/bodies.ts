import { z } from "zod";
import type { AnswerOptions } from "../ground/answer.js";
import type { ReadOptions } from "../read/read.js";
import { type SearchOptions, validateSearch } from "../search/options.js";

/**
 * Request bodies of the JSON API. Field names follow the MCP tools (snake_case); unknown fields are refused so a
 * misspelt option is a 400 instead of being silently ignored.
 */
const conversationId = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/, "must be 1 to 128 letters, digits or . _ : -")
  .optional();

const searchBody = z.strictObject({
  query: z.string(),
  limit: z.number().optional(),
  provider: z.string().max(64).optional(),
  scope: z.string().optional(),
  allowed_hosts: z.array(z.string().max(253)).max(50).optional(),
  region: z.string().max(16).optional(),
  time_range: z.string().optional(),
  conversation_id: conversationId,
});

const readBody = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(4096),
  max_chars: z.number().int().min(200).max(100_000).optional(),
  looking_for: z.string().max(500).optional(),
  offset: z.number().int().min(0).max(100_000_000).optional(),
  mode: z.enum(["passages", "cut", "head-tail"]).optional(),
  render: z.enum(["auto", "never", "always"]).optional(),
  conversation_id: conversationId,
});

const answerBody = z.strictObject({
  query: z.string().min(1, "is empty").max(2000, "is longer than 2000 characters"),
  language: z
    .string()
    .regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i, "must be a code such as en or de")
    .optional(),
  conversation_id: conversationId,
});

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface SearchCall {
  query: string;
  options: SearchOptions;
  conversationId?: string;
}
export interface ReadCall {
  url: string;
  options: ReadOptions;
  conversationId?: string;
}
export interface AnswerCall {
  query: string;
  options: AnswerOptions;
  conversationId?: string;
}

export function parseSearch(body: unknown): Parsed<SearchCall> {
  const parsed = searchBody.safeParse(body);
  if (!parsed.success) return { ok: false, reason: firstIssue(parsed.error) };
  const b = parsed.data;
  const options: SearchOptions = {
    limit: b.limit,
    provider: b.provider,
    scope: b.scope as SearchOptions["scope"],
    allowedHosts: b.allowed_hosts,
    region: b.region,
    timeRange: b.time_range as SearchOptions["timeRange"],
  };
  // The library's own rules decide what a valid search is, so the API and the library never disagree.
  const valid = validateSearch(b.query, options);
  if (!valid.ok) return { ok: false, reason: valid.reason };
  return { ok: true, value: { query: b.query, options, conversationId: b.conversation_id } };
}

export function parseRead(body: unknown): Parsed<ReadCall> {
  const parsed = readBody.safeParse(body);
  if (!parsed.success) return { ok: false, reason: firstIssue(parsed.error) };
  const b = parsed.data;
  return {
    ok: true,
    value: {
      url: b.url,
      options: {
        maxChars: b.max_chars,
        lookingFor: b.looking_for,
        offset: b.offset,
        mode: b.mode,
        render: b.render,
      },
      conversationId: b.conversation_id,
    },
  };
}

export function parseAnswer(body: unknown): Parsed<AnswerCall> {
  const parsed = answerBody.safeParse(body);
  if (!parsed.success) return { ok: false, reason: firstIssue(parsed.error) };
  const b = parsed.data;
  if (!b.query.trim()) return { ok: false, reason: "query: is empty" };
  return {
    ok: true,
    value: { query: b.query, options: { language: b.language }, conversationId: b.conversation_id },
  };
}

export function parseConversationId(id: unknown): Parsed<string> {
  const parsed = conversationId.safeParse(id);
  if (!parsed.success || parsed.data === undefined)
    return { ok: false, reason: "conversation id must be 1 to 128 letters, digits or . _ : -" };
  return { ok: true, value: parsed.data };
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid body";
  if (issue.code === "unrecognized_keys") return `unknown field ${issue.keys.join(", ")}`;
  return `${issue.path.join(".") || "body"}: ${issue.message}`;
}
