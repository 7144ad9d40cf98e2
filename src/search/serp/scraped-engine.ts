import type { NetRequestOptions } from "../../net/client.js";
import type { AutoPlace, Provider, ProviderQuery } from "../provider.js";
import { type EngineHosts, engineUrl } from "./engine-hosts.js";
import { fetchSerp } from "./fetch-serp.js";
import type { SerpParse } from "./outcome.js";

/** A scraped engine waits on a whole result page, often behind a slow edge: more than an API's 5 s. */
const SCRAPED_TIMEOUT_MS = 9000;

/** What tells one scraped engine from another: where its result page is, how it is asked, how it is read. */
export interface ScrapedEngineSpec {
  name: string;
  hosts: EngineHosts;
  /** The result page's URL without the query, on one of `hosts`. */
  endpoint: string;
  native: Provider["native"];
  auto?: AutoPlace;
  /** Sets the query's parameters on `url`; returns the request's other options (cookies, locale), if any. */
  request(query: ProviderQuery, url: URL): Omit<NetRequestOptions, "deadline"> | undefined;
  parse(html: string, finalUrl: string): SerpParse;
}

/** A keyless engine that is one GET of a result page on its own hosts, read by its parser. */
export function scrapedEngine(spec: ScrapedEngineSpec): Provider {
  return {
    name: spec.name,
    kind: "keyless",
    paid: false,
    ...(spec.auto ? { auto: spec.auto } : {}),
    native: spec.native,
    hosts: spec.hosts,
    timeoutMs: SCRAPED_TIMEOUT_MS,
    search(query, ctx, deadline) {
      const url = engineUrl(spec.name, spec.hosts, spec.endpoint);
      const options = spec.request(query, url);
      return fetchSerp(
        {
          engine: spec.name,
          hosts: spec.hosts,
          url: url.href,
          parse: spec.parse,
          ...(options ? { options } : {}),
        },
        query,
        ctx,
        deadline,
      );
    },
  };
}
