import type { Deadline } from "../../core/deadline.js";
import type { Failure } from "../../core/status.js";
import type { Net } from "../../net/client.js";
import { EXA_API, exaFailure, exaHeaders } from "../../search/providers/exa.js";
import {
  badResponse,
  oneLine,
  transportFailure,
  withoutSecrets,
} from "../../search/providers/http-errors.js";

export type ExaContents =
  | { ok: true; markdown: string; title?: string; source: "exa-contents" }
  | (Failure & { ok: false });

// Exa bills per page, not per character; the reader sizes the text afterwards.
const MAX_CHARACTERS = 100_000;
const MAX_BYTES = 10 * 1024 * 1024;

/** One page's text through Exa's /contents. Exa reports a failed URL in `statuses`, not as an HTTP error. */
export async function contentsWithExa(
  url: string,
  ctx: { net: Net; env: Record<string, string | undefined> },
  deadline: Deadline,
): Promise<ExaContents> {
  const key = ctx.env.EXA_API_KEY;
  if (!key)
    return fail({ status: "disabled", code: "no_key", message: "exa-contents: EXA_API_KEY is not set" });
  const res = await ctx.net.request(`${EXA_API}/contents`, {
    deadline,
    method: "POST",
    headers: exaHeaders(key),
    body: JSON.stringify({ urls: [url], text: { maxCharacters: MAX_CHARACTERS } }),
    maxBytes: MAX_BYTES,
  });
  if (!res.ok) return fail(withoutSecrets(transportFailure("exa-contents", res), [key]));
  if (res.status !== 200) return fail(withoutSecrets(exaFailure(res), [key]));
  const body = res.json();
  if (body === undefined) return fail(badResponse("exa-contents", "a body that is not JSON"));
  return withoutSecrets(parseExaContents(body, url), [key]);
}

interface ContentsBody {
  results?: { id?: unknown; url?: unknown; title?: unknown; text?: unknown }[];
  statuses?: { id?: unknown; status?: unknown; error?: { tag?: unknown; httpStatusCode?: unknown } }[];
}

export function parseExaContents(body: unknown, url: string): ExaContents {
  const b = body as ContentsBody | null;
  if (!b || typeof b !== "object" || !Array.isArray(b.results))
    return fail(badResponse("exa-contents", "JSON without a results list"));
  const host = hostOf(url);
  const statuses = Array.isArray(b.statuses) ? b.statuses : [];
  const status = statuses.find((s) => s?.id === url) ?? (statuses.length === 1 ? statuses[0] : undefined);
  if (status && status.status !== "success") {
    const tag = typeof status.error?.tag === "string" ? status.error.tag : "unknown error";
    const http =
      typeof status.error?.httpStatusCode === "number" ? `, HTTP ${status.error.httpStatusCode}` : "";
    return fail({
      status: /TIMEOUT/i.test(tag) ? "timeout" : "error",
      code: "extract_failed",
      message: `exa-contents could not read ${host} (${tag}${http})`,
    });
  }
  const result =
    b.results.find((r) => r?.url === url || r?.id === url) ??
    (b.results.length === 1 ? b.results[0] : undefined);
  const markdown = typeof result?.text === "string" ? result.text.trim() : "";
  if (!markdown)
    return fail({
      status: "empty",
      code: "no_content",
      message: `exa-contents returned no text for ${host}`,
    });
  const title = oneLine(result?.title, 300);
  return { ok: true, markdown, source: "exa-contents", ...(title ? { title } : {}) };
}

function fail(failure: Failure): Failure & { ok: false } {
  return { ...failure, ok: false };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the page";
  }
}
