import { describe, expect, it } from "vitest";
import { read } from "../../../src/read/read.js";
import { crateTarget } from "../../../src/read/sites/crates.js";
import { html } from "../ladder/harness.js";
import { json, siteFixture } from "./site-fixtures.js";
import { useReadHarness } from "./site-harness.js";

const h = useReadHarness();

const never = { render: "never" as const, maxChars: 20_000 };
const API = "/api/v1/crates/foo_show";

function serveCrate(): void {
  h.sim.route("crates.io", API, json(siteFixture("crates", "foo_show.json")));
  // The readme endpoint answers with a redirect to the rendered README on the static host.
  h.sim.route("crates.io", /^\/api\/v1\/crates\/foo_show\/[^/]+\/readme$/, (req) => ({
    status: 302,
    headers: {
      location: `https://static.crates.io/readmes/foo_show/foo_show-${req.path.split("/")[5]}.html`,
    },
  }));
  h.sim.route("static.crates.io", "/readmes/foo_show/foo_show-1.0.0.html", {
    headers: { "content-type": "text/html" },
    body: siteFixture("crates", "foo_show-1.0.0-readme.html"),
  });
}

describe("crates.io reader", () => {
  it("takes crate pages and version pages, and the API's crate URL", () => {
    const t = (u: string) => crateTarget(new URL(u));
    expect(t("https://crates.io/crates/serde")).toEqual({ name: "serde" });
    expect(t("https://crates.io/crates/serde/1.0.197")).toEqual({ name: "serde", version: "1.0.197" });
    expect(t("https://crates.io/api/v1/crates/serde")).toEqual({ name: "serde" });
    expect(t("https://crates.io/crates/serde/versions")).toBeUndefined();
    expect(t("https://crates.io/search?q=serde")).toBeUndefined();
  });

  it("reads the documented crate answer and its rendered README, asking with an agent that names websift", async () => {
    serveCrate();
    const page = await read("https://crates.io/crates/foo_show", never, h.ctx());
    expect(page).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "crates.io", via: "crates.io API" },
      title: "foo_show",
      published: "2026-02-14T09:30:00.000000+00:00",
    });
    const md = page.markdown;
    // The default version (the highest stable), not the most recently published 0.5.1.
    expect(md).toContain("- Latest version: 1.0.0 (published 2026-02-14)");
    expect(md).toContain("- License: MIT OR Apache-2.0");
    expect(md).toContain("- Minimum Rust version: 1.70");
    expect(md).toContain("- Homepage: http://example.com/");
    expect(md).toContain("- Repository: https://github.com/foo/foo_show");
    expect(md).toContain("- Documentation: https://example.com/");
    expect(md).toContain("- Install: `cargo add foo_show`");
    expect(md).toContain("## README\n\nA crate that shows foo in every shape");
    expect(md).toContain("### Usage");
    expect(md).toContain('foo_show = "1"');
    expect(md).toContain("fn main() {");
    const agents = h.sim.requests.filter((r) => r.host === "crates.io").map((r) => r.headers["user-agent"]);
    expect(agents).toHaveLength(2);
    for (const agent of agents) expect(agent).toMatch(/^websift\//);
  });

  it("describes a named version, yanked said; a README never rendered is no README, not a failure", async () => {
    serveCrate();
    h.sim.route("static.crates.io", "/readmes/foo_show/foo_show-0.5.0.html", {
      status: 403,
      body: "AccessDenied",
    });
    const page = await read("https://crates.io/crates/foo_show/0.5.0", never, h.ctx());
    expect(page.status).toBe("ok");
    expect(page.markdown).toContain("- Version: 0.5.0 (published 2025-11-20)\n- Latest version: 1.0.0");
    expect(page.markdown).toContain("- Deprecated: yanked: unsound");
    expect(page.markdown).toContain("## README\n\nThe registry has no README for this package.");
  });

  it("a version the crate does not have is the page's own answer, with the reader's miss on record", async () => {
    serveCrate();
    const page = await read("https://crates.io/crates/foo_show/9.9.9", never, h.ctx());
    expect(page.attempts[0]).toMatchObject({ provider: "site:crates.io", status: "error" });
    expect(page.attempts[0]!.error).toMatch(/has no version 9\.9\.9/);
  });

  it("says a response without the documented shape is drift, and reads the page the generic way", async () => {
    h.sim.route("crates.io", API, json({ crate: { id: "foo_show" } }));
    h.sim.route(
      "crates.io",
      "/crates/foo_show",
      html("<main><h1>foo_show</h1><p>Rendered by the app.</p></main>"),
    );
    const page = await read("https://crates.io/crates/foo_show", never, h.ctx());
    expect(page.attempts[0]).toMatchObject({ provider: "site:crates.io", status: "error" });
    expect(page.attempts[0]!.error).toMatch(
      /^crates\.io reader: .*expected shape \(crates\.io\/api\/v1\/crates\/foo_show: crate\.name: /,
    );
    expect(page.attempts.map((a) => a.provider)).toContain("fetch");
  });

  it("asks the API once a second as crates.io's policy says: a read with no time to queue reads the page", async () => {
    serveCrate();
    h.sim.route(
      "crates.io",
      "/crates/foo_show/1.0.0",
      html("<main><h1>foo_show</h1><p>Rendered by the app.</p></main>"),
    );
    // The store's limiter as a second read finds it straight after a first (its own timing is the store's tests').
    const base = h.ctx();
    const booked: [string, number][] = [];
    const store = Object.assign(Object.create(base.store), {
      reserveSlot: async (key: string, intervalMs: number) =>
        booked.push([key, intervalMs]) === 1 ? 0 : 1000,
    });
    const ctx = { ...base, store };
    const first = await read("https://crates.io/crates/foo_show", never, ctx);
    expect(first).toMatchObject({ status: "ok", source: "site" });
    const second = await read("https://crates.io/crates/foo_show/1.0.0", { ...never, timeoutMs: 2500 }, ctx);
    expect(second.attempts[0]).toMatchObject({
      provider: "site:crates.io",
      status: "rate_limited",
      retryAfter: 1,
    });
    expect(second.attempts[0]!.error).toMatch(
      /next API slot is 1 s away \(crates\.io asks crawlers for one request a second\)/,
    );
    expect(second.source).toBe("extracted-html");
    expect(h.sim.requests.filter((r) => r.url.pathname === API)).toHaveLength(1);
    expect(booked).toEqual([
      ["site:crates.io:api", 1000],
      ["site:crates.io:api", 1000],
    ]);
  });
});
