import type { Page } from "playwright-core";
import type { Deadline } from "../../core/deadline.js";
import type { SerpParse } from "../../search/serp/outcome.js";
import type { BrowserEngine } from "./browser-engines.js";
import { within } from "./browser-tab.js";

/**
 * Opens the engine's result page in the tab, refuses a consent interstitial once, and parses what has settled.
 * Throws when the deadline passes first (the caller reports a timeout).
 */
export async function searchInTab(
  page: Page,
  engine: BrowserEngine,
  query: string,
  language: string | undefined,
  deadline: Deadline,
): Promise<SerpParse> {
  await page.goto(engine.searchUrl(query, language), {
    waitUntil: "domcontentloaded",
    timeout: Math.max(1, deadline.remaining()),
  });
  let parse = await settledParse(page, engine, deadline);
  if (engine.consent?.isConsent(parse)) {
    // Marks this document, so the wait below knows the next one from it even when it is the consent page again.
    await within(
      page.evaluate(() => {
        document.documentElement.dataset.websiftLeft = "1";
      }),
      deadline,
    );
    await page
      .locator(engine.consent.reject)
      .first()
      .click({ timeout: Math.max(1, deadline.remaining()) });
    parse = await settledParse(page, engine, deadline);
  }
  return parse;
}

/**
 * Waits until the tab shows a new document where the engine's settled marker is (or which has loaded), then
 * parses the DOM. Polled from here: the tab navigates meanwhile, which a single in-page wait would not survive.
 */
async function settledParse(page: Page, engine: BrowserEngine, deadline: Deadline): Promise<SerpParse> {
  for (;;) {
    const ready = await within(
      page.evaluate(
        (selector) =>
          !document.documentElement.dataset.websiftLeft &&
          !document.querySelector('meta[name="websift-redirect"]') &&
          (document.querySelector(selector) !== null || document.readyState === "complete"),
        engine.settled,
      ),
      deadline,
    ).catch(() => false);
    if (ready || !(await deadline.sleep(100))) break;
  }
  return engine.parse(await within(page.content(), deadline), page.url());
}
