import type { Deadline } from "../../core/deadline.js";
import { optionalLine } from "../../core/one-line.js";
import type { Net } from "../../net/client.js";
import { EXA_API, exaFailure, exaHeaders } from "../../search/providers/exa.js";
import { badResponse } from "../../search/providers/http-errors.js";
import { failed, hostOf, keyedRead, noText, type ProviderRead, resultFor } from "./keyed-read.js";

export type ExaContents = ProviderRead<"exa-contents">;

// Exa bills per page, not per character; the reader sizes the text afterwards.
const MAX_CHARACTERS = 100_000;

/** One page's text through Exa's /contents. Exa reports a failed URL in `statuses`, not as an HTTP error. */
export function contentsWithExa(
  url: string,
  ctx: { net: Net; env: Record<string, string | undefined> },
  deadline: Deadline,
): Promise<ExaContents> {
  return keyedRead(
    {
      source: "exa-contents",
      keyEnv: "EXA_API_KEY",
      endpoint: `${EXA_API}/contents`,
      headers: exaHeaders,
      body: (u) => ({ urls: [u], text: { maxCharacters: MAX_CHARACTERS } }),
      httpFailure: exaFailure,
      parse: parseExaContents,
    },
    url,
    ctx,
    deadline,
  );
}

interface ContentsBody {
  results?: { id?: unknown; url?: unknown; title?: unknown; text?: unknown }[];
  statuses?: { id?: unknown; status?: unknown; error?: { tag?: unknown; httpStatusCode?: unknown } }[];
}

export function parseExaContents(body: unknown, url: string): ExaContents {
  const b = body as ContentsBody | null;
  if (!b || typeof b !== "object" || !Array.isArray(b.results))
    return failed(badResponse("exa-contents", "JSON without a results list"));
  const statuses = Array.isArray(b.statuses) ? b.statuses : [];
  const status = resultFor(statuses, (s) => s?.id === url);
  if (status && status.status !== "success") {
    const tag = typeof status.error?.tag === "string" ? status.error.tag : "unknown error";
    const http =
      typeof status.error?.httpStatusCode === "number" ? `, HTTP ${status.error.httpStatusCode}` : "";
    return failed({
      status: /TIMEOUT/i.test(tag) ? "timeout" : "error",
      code: "extract_failed",
      message: `exa-contents could not read ${hostOf(url)} (${tag}${http})`,
    });
  }
  const result = resultFor(b.results, (r) => r?.url === url || r?.id === url);
  const markdown = typeof result?.text === "string" ? result.text.trim() : "";
  if (!markdown) return noText("exa-contents", url);
  const title = optionalLine(result?.title, 300);
  return { ok: true, markdown, source: "exa-contents", ...(title ? { title } : {}) };
}
