import type { Settings } from "../../config/settings.js";
import type { Deadline } from "../../core/deadline.js";
import { lazySchema } from "../../core/lazy-zod.js";
import { optionalLine } from "../../core/one-line.js";
import type { Net } from "../../net/client.js";
import { badResponse } from "../../provider-http/http-errors.js";
import { anyField, entriesOf, maybe, maybeText } from "../../provider-http/json-fields.js";
import { keyedJson } from "../../provider-http/keyed-json.js";
import { TAVILY_API, tavilyFailure, tavilyHeaders } from "../../provider-http/tavily-api.js";
import { failed, hostOf, MAX_READ_BYTES, noText, type ProviderRead, resultFor } from "./keyed-read.js";

export type TavilyExtract = ProviderRead<"tavily-extract">;

/** One page through Tavily's /extract, as markdown. A URL Tavily lists in failed_results is a failure. */
export async function extractWithTavily(
  url: string,
  ctx: { net: Net; config: Pick<Settings, "keys"> },
  deadline: Deadline,
): Promise<TavilyExtract> {
  const answer = await keyedJson(
    {
      provider: "tavily-extract",
      keyEnv: ["TAVILY_API_KEY"],
      url: `${TAVILY_API}/extract`,
      method: "POST",
      headers: tavilyHeaders,
      body: {
        urls: [url],
        extract_depth: "basic",
        format: "markdown",
        include_images: false,
        // Tavily's own crawl timeout (1–60 s), so it gives up before we do.
        timeout: Math.min(60, Math.max(1, Math.floor(deadline.remaining() / 1000) - 1)),
      },
      maxBytes: MAX_READ_BYTES,
      failure: tavilyFailure,
    },
    ctx,
    deadline,
    (body) => parseTavilyExtract(body, url),
  );
  return answer.ok ? answer.value : failed(answer.failure);
}

const ExtractBody = lazySchema((z) =>
  z.object({
    results: entriesOf(z.object({ url: anyField(), raw_content: maybeText() })),
    failed_results: maybe(entriesOf(z.object({ url: anyField(), error: anyField() }))),
  }),
);

export function parseTavilyExtract(body: unknown, url: string): TavilyExtract {
  const b = ExtractBody().safeParse(body).data;
  if (!b) return failed(badResponse("tavily-extract", "JSON without a results list"));
  // Partial failures come back with HTTP 200.
  const failure = (b.failed_results ?? []).find((f) => f?.url === url);
  if (failure) {
    const why = optionalLine(failure.error, 200);
    return failed({
      status: "error",
      code: "extract_failed",
      message: `tavily-extract could not read ${hostOf(url)}${why ? `: ${why}` : ""}`,
    });
  }
  const result = resultFor(b.results, (r) => r?.url === url);
  const markdown = result?.raw_content?.trim() ?? "";
  if (!markdown) return noText("tavily-extract", url);
  const title = /^#\s+(.+)$/m.exec(markdown.split("\n").find((l) => l.trim()) ?? "")?.[1]?.trim();
  return { ok: true, markdown, source: "tavily-extract", ...(title ? { title } : {}) };
}
