import type { Deadline } from "../../core/deadline.js";
import type { Failure } from "../../core/status.js";
import type { Net } from "../../net/client.js";
import {
  badResponse,
  oneLine,
  transportFailure,
  withoutSecrets,
} from "../../search/providers/http-errors.js";
import { TAVILY_API, tavilyFailure, tavilyHeaders } from "../../search/providers/tavily.js";

export type TavilyExtract =
  | { ok: true; markdown: string; title?: string; source: "tavily-extract" }
  | (Failure & { ok: false });

const MAX_BYTES = 10 * 1024 * 1024;

/** One page through Tavily's /extract, as markdown. A URL Tavily lists in failed_results is a failure. */
export async function extractWithTavily(
  url: string,
  ctx: { net: Net; env: Record<string, string | undefined> },
  deadline: Deadline,
): Promise<TavilyExtract> {
  const key = ctx.env.TAVILY_API_KEY;
  if (!key)
    return fail({ status: "disabled", code: "no_key", message: "tavily-extract: TAVILY_API_KEY is not set" });
  const res = await ctx.net.request(`${TAVILY_API}/extract`, {
    deadline,
    method: "POST",
    headers: tavilyHeaders(key),
    body: JSON.stringify({
      urls: [url],
      extract_depth: "basic",
      format: "markdown",
      include_images: false,
      // Tavily's own crawl timeout (1–60 s), so it gives up before we do.
      timeout: Math.min(60, Math.max(1, Math.floor(deadline.remaining() / 1000) - 1)),
    }),
    maxBytes: MAX_BYTES,
  });
  if (!res.ok) return fail(withoutSecrets(transportFailure("tavily-extract", res), [key]));
  if (res.status !== 200) return fail(withoutSecrets(tavilyFailure(res), [key]));
  const body = res.json();
  if (body === undefined) return fail(badResponse("tavily-extract", "a body that is not JSON"));
  return withoutSecrets(parseTavilyExtract(body, url), [key]);
}

interface ExtractBody {
  results?: { url?: unknown; raw_content?: unknown }[];
  failed_results?: { url?: unknown; error?: unknown }[];
}

export function parseTavilyExtract(body: unknown, url: string): TavilyExtract {
  const b = body as ExtractBody | null;
  if (!b || typeof b !== "object" || !Array.isArray(b.results))
    return fail(badResponse("tavily-extract", "JSON without a results list"));
  const host = hostOf(url);
  // Partial failures come back with HTTP 200.
  const failed = (Array.isArray(b.failed_results) ? b.failed_results : []).find((f) => f?.url === url);
  if (failed)
    return fail({
      status: "error",
      code: "extract_failed",
      message: `tavily-extract could not read ${host}${oneLine(failed.error) ? `: ${oneLine(failed.error)}` : ""}`,
    });
  const result = b.results.find((r) => r?.url === url) ?? (b.results.length === 1 ? b.results[0] : undefined);
  const markdown = typeof result?.raw_content === "string" ? result.raw_content.trim() : "";
  if (!markdown)
    return fail({
      status: "empty",
      code: "no_content",
      message: `tavily-extract returned no text for ${host}`,
    });
  const title = /^#\s+(.+)$/m.exec(markdown.split("\n").find((l) => l.trim()) ?? "")?.[1]?.trim();
  return { ok: true, markdown, source: "tavily-extract", ...(title ? { title } : {}) };
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
