import { describe, expect, it } from "vitest";
import { pagePoolState } from "../../../src/read/page-pool.js";
import { read } from "../../../src/read/read.js";
import { goUnit } from "../../../src/read/sites/go-packages.js";
import { html } from "../ladder/harness.js";
import { siteFixture } from "./site-fixtures.js";
import { useReadHarness } from "./site-harness.js";

const h = useReadHarness();

const never = { render: "never" as const, maxChars: 20_000 };
const GO = "pkg.go.dev";
const page = (file: string) => ({
  headers: { "content-type": "text/html; charset=utf-8" },
  body: siteFixture("go-packages", file),
});

describe("pkg.go.dev reader", () => {
  it("takes package and module pages on their main tab, with or without a version", () => {
    const t = (u: string) => goUnit(new URL(u));
    expect(t("https://pkg.go.dev/net/http")).toEqual({ path: "net/http" });
    expect(t("https://pkg.go.dev/github.com/spf13/cobra@v1.8.0")).toEqual({
      path: "github.com/spf13/cobra",
      version: "v1.8.0",
    });
    expect(t("https://pkg.go.dev/golang.org/x/net/html?tab=doc")).toEqual({ path: "golang.org/x/net/html" });
    expect(t("https://pkg.go.dev/github.com/spf13/cobra?tab=versions")).toBeUndefined();
    expect(t("https://pkg.go.dev/search?q=yaml")).toBeUndefined();
    expect(t("https://pkg.go.dev/about")).toBeUndefined();
    expect(t("https://pkg.go.dev/")).toBeUndefined();
  });

  it("reads a module's package page: synopsis, version, publish date, license, repository, README, overview and index", async () => {
    h.sim.route(GO, "/github.com/harbourjs/tides", page("github.com-harbourjs-tides.html"));
    const got = await read("https://pkg.go.dev/github.com/harbourjs/tides", never, h.ctx());
    expect(got).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "pkg.go.dev", via: "pkg.go.dev page" },
      title: "tides",
      published: "2026-09-30",
    });
    const md = got.markdown;
    expect(md).toContain(
      "# github.com/harbourjs/tides\n\nPackage tides computes high and low water for a harbour from its harmonic constants.\n\nGo package",
    );
    expect(md).toContain("- Latest version: v1.4.0 (published 2026-09-30)");
    expect(md).toContain("- License: MIT");
    expect(md).toContain("- Repository: https://github.com/harbourjs/tides");
    expect(md).toContain("- Install: `go get github.com/harbourjs/tides`");
    expect(md).toContain("## README\n\nHigh and low water for any harbour");
    expect(md).toContain("### Example\n\n```go\nt, _ := tides.Predict(");
    expect(md).toContain("## Overview\n\nPackage tides computes high and low water");
    expect(md).toContain("## Index\n\n");
    expect(md).toContain("func Predict(h Harbour, from, to time.Time) ([]Tide, error)");
    expect(md).toContain("func (t Tide) String() string");
    for (const gone of [
      "Why Go",
      "Expand ▾",
      "Go to latest",
      "Opens a new window",
      "Imported by",
      "¶",
      "Terms of Service",
    ])
      expect(md, gone).not.toContain(gone);
    expect(h.sim.requests).toHaveLength(1);
  });

  it("reads a large page on the page pool, off the caller's event loop", async () => {
    const big = siteFixture("go-packages", "github.com-harbourjs-tides.html").replace(
      "</head>",
      `<script>window.__data = "${"x".repeat(80 * 1024)}";</script></head>`,
    );
    h.sim.route(GO, "/github.com/harbourjs/tides", { headers: { "content-type": "text/html" }, body: big });
    const before = pagePoolState().completed;
    const got = await read("https://pkg.go.dev/github.com/harbourjs/tides", never, h.ctx());
    expect(got.markdown).toContain("- Latest version: v1.4.0 (published 2026-09-30)");
    expect(got.markdown).toContain("`func (t Tide) String() string`");
    expect(pagePoolState().completed).toBe(before + 1);
  });

  it("says which version is the latest on an older version's page", async () => {
    const older = siteFixture("go-packages", "github.com-harbourjs-tides.html")
      .replaceAll("v1.4.0", "v1.2.0")
      .replace("DetailsHeader-badge--latest", "DetailsHeader-badge--goToLatest")
      .replace(
        'href="/github.com/harbourjs/tides" aria-label="Go to Latest Version"',
        'href="/github.com/harbourjs/tides@v1.4.0" aria-label="Go to Latest Version"',
      );
    h.sim.route(GO, "/github.com/harbourjs/tides@v1.2.0", {
      headers: { "content-type": "text/html" },
      body: older,
    });
    const got = await read("https://pkg.go.dev/github.com/harbourjs/tides@v1.2.0", never, h.ctx());
    expect(got.markdown).toContain("- Version: v1.2.0 (published 2026-09-30)\n- Latest version: v1.4.0");
    expect(got.markdown).toContain("- Install: `go get github.com/harbourjs/tides@v1.2.0`");
  });

  it("says a publish date it cannot read as pkgsite wrote it", async () => {
    const odd = siteFixture("go-packages", "github.com-harbourjs-tides.html").replace(
      "Published: Sep 30, 2026",
      "Published: 30.9.2026",
    );
    h.sim.route(GO, "/github.com/harbourjs/tides", { headers: { "content-type": "text/html" }, body: odd });
    const got = await read("https://pkg.go.dev/github.com/harbourjs/tides", never, h.ctx());
    expect(got.markdown).toContain("- Latest version: v1.4.0\n- License: MIT\n- Published: 30.9.2026");
    expect(got.published).toBeUndefined();
  });

  it("reads a standard-library package without a README, and names no go get for it", async () => {
    h.sim.route(GO, "/container/ring", page("container-ring.html"));
    const got = await read("https://pkg.go.dev/container/ring", never, h.ctx());
    const md = got.markdown;
    expect(md).toContain("# container/ring\n\nPackage ring implements operations on circular lists.");
    expect(md).toContain("- Latest version: go1.25.4 (published 2026-11-05)");
    expect(md).toContain("- License: BSD-3-Clause");
    expect(md).toContain("## README\n\nThe module has no README here.");
    expect(md).toContain("func (r *Ring) Next() *Ring");
    expect(md).not.toContain("go get");
  });

  it("reads a module's root page: README and its directories with their synopses, internal ones left out", async () => {
    h.sim.route(GO, "/github.com/harbourjs/fleet", page("github.com-harbourjs-fleet.html"));
    const got = await read("https://pkg.go.dev/github.com/harbourjs/fleet", never, h.ctx());
    expect(got.status).toBe("ok");
    expect(got.markdown).toContain(
      "## Directories\n\n- `harbour`: Package harbour models a harbour's quays and basins.\n- `harbour/moorings`: Package moorings assigns boats to moorings.\n- `harbour/berths`",
    );
    expect(got.markdown).not.toContain("internal");
    expect(got.markdown).not.toContain("Show internal");
    expect(got.markdown).not.toContain("## Index");
  });

  it("says a page without pkgsite's markup is drift, and reads the page the generic way", async () => {
    h.sim.route(GO, "/github.com/harbourjs/tides", html("<main><h1>tides</h1><p>A new design.</p></main>"));
    const got = await read("https://pkg.go.dev/github.com/harbourjs/tides", never, h.ctx());
    expect(got.attempts[0]).toMatchObject({ provider: "site:pkg.go.dev", status: "error" });
    expect(got.attempts[0]!.error).toMatch(
      /^pkg\.go\.dev reader: .*expected shape \(no UnitHeader-title heading\)/,
    );
    expect(got.attempts.map((a) => a.provider)).toContain("fetch");
  });
});
