import type { Settings } from "../../config/settings.js";
import type { Deadline } from "../../core/deadline.js";
import { lazySchema } from "../../core/lazy-zod.js";
import { optionalLine } from "../../core/one-line.js";
import type { Net } from "../../net/client.js";
import { EXA_API, exaFailure, exaHeaders } from "../../provider-http/exa-api.js";
import { badResponse } from "../../provider-http/http-errors.js";
import { anyField, entriesOf, maybe, maybeText } from "../../provider-http/json-fields.js";
import { keyedJson } from "../../provider-http/keyed-json.js";
import { failed, hostOf, MAX_READ_BYTES, noText, type ProviderRead, resultFor } from "./keyed-read.js";

export type ExaContents = ProviderRead<"exa-contents">;

// Exa bills per page, not per character; the reader sizes the text afterwards.
const MAX_CHARACTERS = 100_000;

/** One page's text through Exa's /contents. Exa reports a failed URL in `statuses`, not as an HTTP error. */
export async function contentsWithExa(
  url: string,
  ctx: { net: Net; config: Pick<Settings, "keys"> },
  deadline: Deadline,
): Promise<ExaContents> {
  const answer = await keyedJson(
    {
      provider: "exa-contents",
      keyEnv: ["EXA_API_KEY"],
      url: `${EXA_API}/contents`,
      method: "POST",
      headers: exaHeaders,
      body: { urls: [url], text: { maxCharacters: MAX_CHARACTERS } },
      maxBytes: MAX_READ_BYTES,
      failure: exaFailure,
    },
    ctx,
    deadline,
    (body) => parseExaContents(body, url),
  );
  return answer.ok ? answer.value : failed(answer.failure);
}

const ContentsBody = lazySchema((z) =>
  z.object({
    results: entriesOf(z.object({ id: anyField(), url: anyField(), title: anyField(), text: maybeText() })),
    statuses: maybe(
      entriesOf(
        z.object({
          id: anyField(),
          status: anyField(),
          error: maybe(z.object({ tag: maybeText(), httpStatusCode: maybe(z.number()) })),
        }),
      ),
    ),
  }),
);

export function parseExaContents(body: unknown, url: string): ExaContents {
  const b = ContentsBody().safeParse(body).data;
  if (!b) return failed(badResponse("exa-contents", "JSON without a results list"));
  const statuses = b.statuses ?? [];
  const status = resultFor(statuses, (s) => s?.id === url);
  if (status && status.status !== "success") {
    const tag = status.error?.tag ?? "unknown error";
    const http = status.error?.httpStatusCode !== undefined ? `, HTTP ${status.error.httpStatusCode}` : "";
    return failed({
      status: /TIMEOUT/i.test(tag) ? "timeout" : "error",
      code: "extract_failed",
      message: `exa-contents could not read ${hostOf(url)} (${tag}${http})`,
    });
  }
  const result = resultFor(b.results, (r) => r?.url === url || r?.id === url);
  const markdown = result?.text?.trim() ?? "";
  if (!markdown) return noText("exa-contents", url);
  const title = optionalLine(result?.title, 300);
  return { ok: true, markdown, source: "exa-contents", ...(title ? { title } : {}) };
}
