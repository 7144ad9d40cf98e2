import { beforeEach, describe, expect, it } from "vitest";
import { fetchBest } from "../../../src/read/fetch-best.js";
import { json, siteFixture } from "./site-fixtures.js";
import { useReadHarness } from "./site-harness.js";

const h = useReadHarness();
beforeEach(() => {
  h.sim.route("api.tavily.com", "/extract", (req) =>
    json({
      results: [{ url: JSON.parse(req.body).urls[0], raw_content: "# Tavily text of the page" }],
      failed_results: [],
    }),
  );
  h.sim.route(
    "api.github.com",
    "/repos/octocat/octo-tools/issues/1347",
    json(siteFixture("github", "issue.json")),
  );
  h.sim.route(
    "api.github.com",
    "/repos/octocat/octo-tools/issues/1347/comments",
    json(siteFixture("github", "issue-comments.json")),
  );
});

const ISSUE = "https://github.com/octocat/octo-tools/issues/1347";
const PAID = { TAVILY_API_KEY: "tvly-SECRET-1", WEBSIFT_ENABLE_PAID: "1" };

describe("fetchBest and the site readers", () => {
  it("reads a site with a reader of its own through the reader, not a paid extractor", async () => {
    const page = await fetchBest(ISSUE, { render: "never" }, h.ctx(PAID));
    expect(page).toMatchObject({ status: "ok", source: "site", reader: { name: "github" } });
    expect(h.sim.requests.some((r) => r.host === "api.tavily.com")).toBe(false);
  });

  it("still asks a provider the call pins", async () => {
    const page = await fetchBest(ISSUE, { render: "never", pin: ["tavily"] }, h.ctx(PAID));
    expect(page.source).toBe("tavily-extract");
  });
});
