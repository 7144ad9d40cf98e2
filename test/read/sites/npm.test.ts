import { describe, expect, it } from "vitest";
import { read } from "../../../src/read/read.js";
import { npmTarget } from "../../../src/read/sites/npm.js";
import { siteReaderFor } from "../../../src/read/sites/registry.js";
import { article, html, PARAGRAPHS } from "../ladder/harness.js";
import { json, siteFixture } from "./site-fixtures.js";
import { useReadHarness } from "./site-harness.js";

const h = useReadHarness();

const never = { render: "never" as const, maxChars: 20_000 };
const REGISTRY = "registry.npmjs.org";
const widget = () => siteFixture("npm", "harbourjs-widget.json");

describe("npm reader", () => {
  it("takes package pages, scoped ones and version pages, and the registry's package documents", () => {
    const t = (u: string) => npmTarget(new URL(u));
    expect(t("https://www.npmjs.com/package/react")).toEqual({ name: "react" });
    expect(t("https://www.npmjs.com/package/@types/node")).toEqual({ name: "@types/node" });
    expect(t("https://www.npmjs.com/package/@types/node/v/20.1.0")).toEqual({
      name: "@types/node",
      version: "20.1.0",
    });
    expect(t("https://registry.npmjs.org/@scope%2fname")).toEqual({ name: "@scope/name" });
    expect(t("https://www.npmjs.com/search?q=react")).toBeUndefined();
    expect(t("https://www.npmjs.com/package/react/v")).toBeUndefined();
    expect(t("https://registry.npmjs.org/react/-/react-18.0.0.tgz")).toBeUndefined();
    expect(siteReaderFor("https://www.npmjs.com/~sindresorhus")).toBeUndefined();
    expect(siteReaderFor("https://www.npmjs.com/package/react")?.name).toBe("npm");
  });

  it("reads the documented package document: summary, latest version, license, publish date and README", async () => {
    h.sim.route(REGISTRY, "/tiny-tarball", json(siteFixture("npm", "tiny-tarball.json")));
    const page = await read("https://www.npmjs.com/package/tiny-tarball", never, h.ctx());
    expect(page).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "npm", via: "registry.npmjs.org" },
      title: "tiny-tarball",
      published: "2015-03-24T00:12:24.039Z",
    });
    expect(page.markdown).toContain("# tiny-tarball\n\ntiny tarball used for health checks");
    expect(page.markdown).toContain("- Latest version: 1.0.0 (published 2015-03-24)");
    expect(page.markdown).toContain("- License: ISC");
    expect(page.markdown).toContain("- Install: `npm install tiny-tarball`");
    // The README's own title repeats the package's name, which the page's heading already says.
    expect(page.markdown).toContain(
      "## README\n\ntiny-tarball used for health checks\n\n**don't unpublish me!**",
    );
    expect(page.markdown).not.toContain("TinyTarball");
    expect(h.sim.requests.map((r) => `${r.host}${r.path}`)).toEqual(["registry.npmjs.org/tiny-tarball"]);
  });

  it("reads a scoped package: repository and issues as links, badges and comments dropped, HTML blocks as markdown, code kept", async () => {
    h.sim.route(REGISTRY, "/@harbourjs%2fwidget", json(widget()));
    const page = await read("https://www.npmjs.com/package/@harbourjs/widget", never, h.ctx());
    expect(page.status).toBe("ok");
    const md = page.markdown;
    expect(md).toContain("- Latest version: 2.1.0 (published 2026-09-30)");
    expect(md).toContain("- Homepage: https://github.com/harbourjs/widget#readme");
    expect(md).toContain("- Repository: https://github.com/harbourjs/widget");
    expect(md).toContain("- Issues: https://github.com/harbourjs/widget/issues");
    expect(md).toContain("### Install");
    expect(md).toContain("```js\nimport { tides }");
    expect(md).toContain("// # not a heading: inside a code block");
    expect(md).toContain("Tide tables for the browser and Node: high and low water");
    expect(md).toContain("Older Node versions");
    expect(md).not.toContain("img.shields.io");
    expect(md).not.toContain("<p align");
    expect(md).not.toContain("readme-kit");
    expect(page.links).toContain("https://github.com/harbourjs/widget");
  });

  it("describes the version a URL names, with the latest beside it and its deprecation", async () => {
    h.sim.route(REGISTRY, "/@harbourjs%2fwidget", json(widget()));
    const page = await read("https://www.npmjs.com/package/@harbourjs/widget/v/1.4.2", never, h.ctx());
    expect(page.markdown).toContain("- Version: 1.4.2 (published 2024-05-20)\n- Latest version: 2.1.0");
    expect(page.markdown).toContain("- Deprecated: 1.x is no longer maintained; upgrade to 2.x");
    expect(page.markdown).toContain("- Install: `npm install @harbourjs/widget@1.4.2`");
  });

  it("takes a dist-tag where a version goes", async () => {
    h.sim.route(REGISTRY, "/@harbourjs%2fwidget", json(widget()));
    const page = await read("https://www.npmjs.com/package/@harbourjs/widget/v/next", never, h.ctx());
    expect(page.markdown).toContain(
      "- Version: 3.0.0-beta.1 (published 2026-10-04)\n- Latest version: 2.1.0",
    );
  });

  it("falls back to the version's manifest when the whole document is too large to read", async () => {
    const huge = JSON.stringify({ ...JSON.parse(widget()), filler: "x".repeat(4 * 1024 * 1024) });
    h.sim.route(REGISTRY, "/@harbourjs%2fwidget", json(huge));
    h.sim.route(
      REGISTRY,
      "/@harbourjs%2fwidget/latest",
      json(siteFixture("npm", "harbourjs-widget-latest.json")),
    );
    h.sim.route("cdn.jsdelivr.net", "/npm/@harbourjs/widget@2.1.0/README.md", {
      headers: { "content-type": "text/markdown; charset=utf-8" },
      body: "# @harbourjs/widget\n\nTide tables, from the published package.\n",
    });
    const page = await read("https://www.npmjs.com/package/@harbourjs/widget", never, h.ctx());
    expect(page).toMatchObject({ status: "ok", source: "site" });
    expect(page.markdown).toContain("- Latest version: 2.1.0\n");
    expect(page.markdown).toContain("## README\n\nTide tables, from the published package.");
  });

  it("says where the README is when neither the registry nor the published package gives it", async () => {
    const huge = JSON.stringify({ ...JSON.parse(widget()), filler: "x".repeat(4 * 1024 * 1024) });
    h.sim.route(REGISTRY, "/@harbourjs%2fwidget", json(huge));
    h.sim.route(
      REGISTRY,
      "/@harbourjs%2fwidget/latest",
      json(siteFixture("npm", "harbourjs-widget-latest.json")),
    );
    const page = await read("https://www.npmjs.com/package/@harbourjs/widget", never, h.ctx());
    expect(page.status).toBe("ok");
    expect(page.markdown).toContain("too large to read whole");
  });

  it("says a response without the documented shape is drift, and reads the page the generic way", async () => {
    h.sim.route(REGISTRY, "/tiny-tarball", json({ name: "tiny-tarball", distTags: { latest: "1.0.0" } }));
    h.sim.route("www.npmjs.com", "/package/tiny-tarball", html(article("tiny-tarball", PARAGRAPHS)));
    const page = await read("https://www.npmjs.com/package/tiny-tarball", never, h.ctx());
    expect(page.source).toBe("extracted-html");
    expect(page.attempts[0]).toMatchObject({ provider: "site:npm", status: "error" });
    expect(page.attempts[0]!.error).toMatch(
      /^npm reader: the response no longer has the expected shape \(registry\.npmjs\.org\/tiny-tarball: dist-tags/,
    );
    expect(page.attempts.map((a) => a.provider)).toContain("fetch");
  });

  it("a package the registry does not have is the page's own answer, with the reader's miss on record", async () => {
    h.sim.route(REGISTRY, "/no-such-pkg", json({ error: "Not found" }, 404));
    h.sim.route("www.npmjs.com", "/package/no-such-pkg", { status: 404, body: "not found" });
    const page = await read("https://www.npmjs.com/package/no-such-pkg", never, h.ctx());
    expect(page.status).toBe("error");
    expect(page.attempts[0]).toMatchObject({ provider: "site:npm", status: "error" });
    expect(page.attempts[0]!.error).toMatch(/answered HTTP 404/);
  });
});
