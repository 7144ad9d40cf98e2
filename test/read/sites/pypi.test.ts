import { describe, expect, it } from "vitest";
import { read } from "../../../src/read/read.js";
import { pypiTarget } from "../../../src/read/sites/pypi.js";
import { article, html, PARAGRAPHS } from "../ladder/harness.js";
import { json, siteFixture } from "./site-fixtures.js";
import { useReadHarness } from "./site-harness.js";

const h = useReadHarness();

const never = { render: "never" as const, maxChars: 20_000 };

describe("PyPI reader", () => {
  it("takes project pages, version pages and the JSON API's URLs, nothing else on pypi.org", () => {
    const t = (u: string) => pypiTarget(new URL(u));
    expect(t("https://pypi.org/project/requests/")).toEqual({ name: "requests" });
    expect(t("https://pypi.org/project/requests")).toEqual({ name: "requests" });
    expect(t("https://pypi.org/project/Django/5.0.1/")).toEqual({ name: "Django", version: "5.0.1" });
    expect(t("https://pypi.org/pypi/requests/json")).toEqual({ name: "requests" });
    expect(t("https://pypi.org/pypi/requests/2.31.0/json")).toEqual({ name: "requests", version: "2.31.0" });
    expect(t("https://pypi.org/search/?q=requests")).toBeUndefined();
    expect(t("https://pypi.org/project/requests/#history")).toEqual({ name: "requests" });
    expect(t("https://pypi.org/user/someone/")).toBeUndefined();
  });

  it("reads the documented project answer: summary, version, license, links, upload date, markdown description", async () => {
    h.sim.route("pypi.org", "/pypi/sampleproject/json", json(siteFixture("pypi", "sampleproject.json")));
    const page = await read("https://pypi.org/project/sampleproject/", never, h.ctx());
    expect(page).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "pypi", via: "pypi.org JSON API" },
      title: "sampleproject",
      published: "2022-12-01T18:51:00.007372Z",
    });
    const md = page.markdown;
    expect(md).toContain("# sampleproject\n\nA sample Python project\n\nPyPI package");
    expect(md).toContain("- Latest version: 3.0.0 (published 2022-12-01)");
    // The declared license is the whole MIT text; the classifier names it.
    expect(md).toContain("- License: MIT License");
    expect(md).toContain("- Requires Python: >=3.7");
    expect(md).toContain("- Homepage: https://github.com/pypa/sampleproject");
    expect(md).toContain("- Repository: https://github.com/pypa/sampleproject/");
    expect(md).toContain("- Bug Reports: https://github.com/pypa/sampleproject/issues");
    expect(md).toContain("- Install: `pip install sampleproject`");
    expect(md).toContain("### Usage\n\n```python\n>>> import sample");
    expect(md).not.toContain("Permission is hereby granted");
  });

  it("describes a named version from its own answer, with the latest beside it, yanked said", async () => {
    h.sim.route(
      "pypi.org",
      "/pypi/sampleproject/1.2.0/json",
      json(siteFixture("pypi", "sampleproject-1.2.0.json")),
    );
    h.sim.route("pypi.org", "/pypi/sampleproject/json", json(siteFixture("pypi", "sampleproject.json")));
    const page = await read("https://pypi.org/project/sampleproject/1.2.0/", never, h.ctx());
    const md = page.markdown;
    expect(md).toContain("- Version: 1.2.0 (published 2015-06-14)\n- Latest version: 3.0.0");
    expect(md).toContain("- Deprecated: yanked: broken wheel metadata");
    expect(md).toContain("- License: MIT");
    expect(md).toContain("- Install: `pip install sampleproject==1.2.0`");
    // reStructuredText is kept as written.
    expect(md).toContain("A sample Python project\n=======================");
  });

  it("says a response without the documented shape is drift, and reads the page the generic way", async () => {
    h.sim.route("pypi.org", "/pypi/sampleproject/json", json({ project: { name: "sampleproject" } }));
    h.sim.route("pypi.org", "/project/sampleproject/", html(article("sampleproject", PARAGRAPHS)));
    const page = await read("https://pypi.org/project/sampleproject/", never, h.ctx());
    expect(page.source).toBe("extracted-html");
    expect(page.attempts[0]).toMatchObject({ provider: "site:pypi", status: "error" });
    expect(page.attempts[0]!.error).toMatch(
      /^pypi reader: .*expected shape \(pypi\.org\/pypi\/sampleproject\/json: info: /,
    );
  });
});
