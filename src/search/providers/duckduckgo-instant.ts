import { badResponse } from "../../provider-http/http-errors.js";
import type { Provider, ProviderAnswer, ProviderHit, ProviderOutcome } from "../provider.js";
import { engineUrl, requestOnEngineHosts } from "../serp/engine-hosts.js";
import { httpStatusFailure } from "../serp/outcome.js";
import { cleanText } from "../serp/text.js";
import { absoluteHttpUrl } from "../serp/unwrap.js";

export interface InstantAnswer {
  answer?: ProviderAnswer;
  hits: ProviderHit[];
}

const text = (value: unknown): string => (typeof value === "string" ? cleanText(value) : "");

/**
 * The Instant Answer API is a knowledge box, not a web search: most queries give an object of empty strings.
 * Disambiguation pages (Type "D") carry only links back into duckduckgo.com and are no answer.
 */
export function parseInstantAnswer(payload: unknown): InstantAnswer {
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return { hits: [] };
  const ia = payload as Record<string, unknown>;
  if (ia.Type === "D") return { hits: [] };
  const heading = text(ia.Heading);
  const hits: ProviderHit[] = [];
  let answer: ProviderAnswer | undefined;

  const abstract = text(ia.AbstractText);
  const abstractUrl = absoluteHttpUrl(text(ia.AbstractURL));
  if (abstract) {
    answer = {
      kind: "abstract",
      text: abstract,
      modelGenerated: false,
      ...source(ia.AbstractSource, abstractUrl),
    };
    if (abstractUrl) hits.push({ title: heading || abstractUrl, url: abstractUrl, snippet: abstract });
  }
  const definition = text(ia.Definition);
  const definitionUrl = absoluteHttpUrl(text(ia.DefinitionURL));
  if (definition) {
    answer ??= {
      kind: "definition",
      text: definition,
      modelGenerated: false,
      ...source(ia.DefinitionSource, definitionUrl),
    };
    if (definitionUrl)
      hits.push({ title: heading || definitionUrl, url: definitionUrl, snippet: definition });
  }
  // A direct answer (calculator, conversion, …) outranks the abstract, but it has no page to cite.
  const direct = text(ia.Answer);
  if (direct) answer = { kind: "answer", text: direct, modelGenerated: false, ...source(ia.AnswerType) };

  // Results[] are official sites and point at the source; RelatedTopics point back into duckduckgo.com.
  for (const item of Array.isArray(ia.Results) ? ia.Results : []) {
    const entry = (item ?? {}) as Record<string, unknown>;
    const url = absoluteHttpUrl(text(entry.FirstURL));
    const label = text(entry.Text);
    if (url && label && !new URL(url).hostname.endsWith("duckduckgo.com"))
      hits.push({ title: label, url, snippet: heading });
  }
  return { hits, ...(answer ? { answer } : {}) };
}

function source(name: unknown, url?: string): Pick<ProviderAnswer, "source" | "url"> {
  const label = text(name);
  return { ...(label ? { source: label } : {}), ...(url ? { url } : {}) };
}

const HOSTS = ["api.duckduckgo.com"] as const;

export const duckduckgoInstant: Provider = {
  name: "duckduckgo-instant",
  kind: "keyless",
  paid: false,
  native: {},
  hosts: HOSTS,
  timeoutMs: 5000,
  async search(query, ctx, deadline): Promise<ProviderOutcome> {
    const url = engineUrl("duckduckgo-instant", HOSTS, "https://api.duckduckgo.com/");
    url.search = new URLSearchParams({
      q: query.query,
      format: "json",
      no_html: "1",
      skip_disambig: "1",
      no_redirect: "1",
      t: "websift",
    }).toString();
    const pinned = await requestOnEngineHosts(
      "duckduckgo-instant",
      HOSTS,
      url.href,
      { deadline, headers: { accept: "application/json" } },
      ctx,
    );
    if (!pinned.ok) return pinned.failure;
    const res = pinned.res;
    // This host answers 202 with a normal body now and then; it is not the HTML endpoints' challenge.
    const failure = res.status === 202 ? undefined : httpStatusFailure("duckduckgo-instant", res);
    if (failure) return failure;
    // Served as application/x-javascript, so the body is parsed whatever the content type says.
    const body = res.text().trim();
    if (!body) return { status: "empty", note: "no instant answer" };
    const payload = res.json();
    if (!payload || typeof payload !== "object" || Array.isArray(payload))
      return badResponse("duckduckgo-instant", "a body that is not a JSON object");
    const { hits, answer } = parseInstantAnswer(payload);
    if (hits.length > 0)
      return { status: "ok", hits: hits.slice(0, query.limit), ...(answer ? { answer } : {}) };
    return answer ? { status: "empty", answer } : { status: "empty", note: "no instant answer" };
  },
};
