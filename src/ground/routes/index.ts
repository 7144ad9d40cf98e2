import type { Deadline } from "../../core/deadline.js";
import type { Resolve } from "../../net/url-policy.js";
import type { ProviderContext } from "../../search/provider.js";
import type { AnswerResult, Route } from "../answer.js";
import { browserRoute } from "./browser.js";
import type { BrowserEngineName } from "./browser-engines.js";
import { geminiRoute } from "./gemini.js";

export type { BrowserEngineName } from "./browser-engines.js";

export interface RouteDeps {
  ctx: ProviderContext;
  /** Resolver used to vet a result's address before a user's own (CDP) browser is sent to it. */
  resolve?: Resolve;
  language?: string;
  /** "sources" mode: the envelope text carries no URLs. */
  sourcesApart?: boolean;
  /** Characters of page text in the browser route's envelope (default 1500). */
  maxChars?: number;
  /** Browser route engine; else WEBSIFT_BROWSER_ENGINE, else Google. */
  engine?: BrowserEngineName;
}

/**
 * A real-time route, tried before the normal pipeline. It never throws: anything but an `ok` result (browser
 * down, CLI missing, login expired, quota, challenge, timeout) carries its attempts, and the pipeline runs.
 */
export async function runRoute(
  route: Route,
  query: string,
  deps: RouteDeps,
  deadline: Deadline,
): Promise<AnswerResult | undefined> {
  switch (route) {
    case "browser":
      return browserRoute(query, deps, deadline);
    case "gemini-cli":
    case "gemini-api":
      return geminiRoute(route, query, deps.ctx, deadline, { sourcesApart: deps.sourcesApart });
    default:
      return undefined;
  }
}
