import type { Deadline } from "../../core/deadline.js";
import { optionalLine } from "../../core/one-line.js";
import type { Net } from "../../net/client.js";
import { badResponse } from "../../search/providers/http-errors.js";
import { TAVILY_API, tavilyFailure, tavilyHeaders } from "../../search/providers/tavily.js";
import { failed, hostOf, keyedRead, noText, type ProviderRead, resultFor } from "./keyed-read.js";

export type TavilyExtract = ProviderRead<"tavily-extract">;

/** One page through Tavily's /extract, as markdown. A URL Tavily lists in failed_results is a failure. */
export function extractWithTavily(
  url: string,
  ctx: { net: Net; env: Record<string, string | undefined> },
  deadline: Deadline,
): Promise<TavilyExtract> {
  return keyedRead(
    {
      source: "tavily-extract",
      keyEnv: "TAVILY_API_KEY",
      endpoint: `${TAVILY_API}/extract`,
      headers: tavilyHeaders,
      body: (u, d) => ({
        urls: [u],
        extract_depth: "basic",
        format: "markdown",
        include_images: false,
        // Tavily's own crawl timeout (1–60 s), so it gives up before we do.
        timeout: Math.min(60, Math.max(1, Math.floor(d.remaining() / 1000) - 1)),
      }),
      httpFailure: tavilyFailure,
      parse: parseTavilyExtract,
    },
    url,
    ctx,
    deadline,
  );
}

interface ExtractBody {
  results?: { url?: unknown; raw_content?: unknown }[];
  failed_results?: { url?: unknown; error?: unknown }[];
}

export function parseTavilyExtract(body: unknown, url: string): TavilyExtract {
  const b = body as ExtractBody | null;
  if (!b || typeof b !== "object" || !Array.isArray(b.results))
    return failed(badResponse("tavily-extract", "JSON without a results list"));
  // Partial failures come back with HTTP 200.
  const failure = (Array.isArray(b.failed_results) ? b.failed_results : []).find((f) => f?.url === url);
  if (failure) {
    const why = optionalLine(failure.error, 200);
    return failed({
      status: "error",
      code: "extract_failed",
      message: `tavily-extract could not read ${hostOf(url)}${why ? `: ${why}` : ""}`,
    });
  }
  const result = resultFor(b.results, (r) => r?.url === url);
  const markdown = typeof result?.raw_content === "string" ? result.raw_content.trim() : "";
  if (!markdown) return noText("tavily-extract", url);
  const title = /^#\s+(.+)$/m.exec(markdown.split("\n").find((l) => l.trim()) ?? "")?.[1]?.trim();
  return { ok: true, markdown, source: "tavily-extract", ...(title ? { title } : {}) };
}
