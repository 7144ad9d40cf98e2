import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { read } from "../../../src/read/read.js";
import { createRenderer, type Renderer } from "../../../src/read/render.js";
import { PRIVATE_HOST } from "../../simweb/index.js";
import { html, PARAGRAPHS, type ReadHarness, startReadHarness } from "./harness.js";

let h: ReadHarness;
let renderer: Renderer;
beforeAll(async () => {
  h = await startReadHarness();
  renderer = createRenderer();
});
afterAll(async () => {
  await renderer.close();
  await h.close();
});
beforeEach(() => h.sim.reset());

const SITE = "app.example.com";

/** A shell whose script writes the article, and on the way tries a private address and an image. */
function routeShell() {
  h.sim.route(
    SITE,
    "/story",
    html(
      '<div id="root"></div><noscript>Please enable JavaScript.</noscript><script src="/main.js"></script>',
      "<title>Harbour app</title>",
    ),
  );
  h.sim.route(SITE, "/main.js", {
    headers: { "content-type": "text/javascript" },
    body: `
      fetch("http://${PRIVATE_HOST}/internal").catch(() => {});
      const img = new Image(); img.src = "/hero.jpg"; document.body.append(img);
      fetch("/api/story").then((r) => r.json()).then((s) => {
        document.getElementById("root").innerHTML =
          "<article><h1>" + s.title + "</h1>" + s.paragraphs.map((p) => "<p>" + p + "</p>").join("") + "</article>";
      });`,
  });
  h.sim.route(SITE, "/api/story", {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title: "Harbour history", paragraphs: PARAGRAPHS }),
  });
  h.sim.route(SITE, "/hero.jpg", { headers: { "content-type": "image/jpeg" }, body: "jpeg" });
}

describe("read: rendering a JS shell in real Chromium", { timeout: 90_000 }, () => {
  it("renders the shell when embedded data does not help, through the guard", async () => {
    routeShell();
    const page = await read(
      `http://${SITE}/story`,
      { render: "auto", timeoutMs: 60_000 },
      { ...h.ctx(), renderer },
    );
    expect(page).toMatchObject({ status: "ok", source: "rendered", title: "Harbour app" });
    expect(page.markdown).toContain("# Harbour history");
    expect(page.markdown).toContain(PARAGRAPHS[3]);
    expect(page.markdown).not.toContain("enable JavaScript");
    expect(page.attempts.map((a) => `${a.provider}:${a.status}`)).toEqual([
      "fetch:ok",
      "extract:unsupported",
      "embedded-data:empty",
      "render:ok",
    ]);
    const paths = h.sim.requests.map((r) => `${r.host}${r.path}`);
    // The document was fetched once (the browser was handed those bytes); the image never; the private host never.
    expect(paths.filter((p) => p === `${SITE}/story`)).toHaveLength(1);
    expect(paths).not.toContain(`${SITE}/hero.jpg`);
    expect(h.sim.requests.some((r) => r.host === PRIVATE_HOST)).toBe(false);
    expect(h.sim.dials.every((d) => d.address !== "10.0.0.7")).toBe(true);
  });

  it("renders every HTML page with render: always", async () => {
    h.sim.route(
      SITE,
      "/plain",
      html(
        `<article><h1>Static</h1><p>${PARAGRAPHS[0]}</p><div id="late"></div></article><script>document.getElementById("late").textContent = "Added by script. ${PARAGRAPHS[1]}";</script>`,
      ),
    );
    const page = await read(
      `http://${SITE}/plain`,
      { render: "always", timeoutMs: 60_000 },
      { ...h.ctx(), renderer },
    );
    expect(page.source).toBe("rendered");
    expect(page.markdown).toContain("Added by script.");
  });

  it("keeps a short static page that only mentions JavaScript once rendering adds nothing", async () => {
    const note =
      "Opening hours: the harbour office is open from nine to five on weekdays, and from ten to one on Saturdays.";
    h.sim.route(
      SITE,
      "/hours",
      html(
        `<article><h1>Hours</h1><p>${note}</p></article><noscript>Please enable JavaScript to view the comments.</noscript>`,
      ),
    );
    const page = await read(
      `http://${SITE}/hours`,
      { render: "auto", timeoutMs: 60_000 },
      { ...h.ctx(), renderer },
    );
    expect(page).toMatchObject({ status: "ok", source: "extracted-html" });
    expect(page.markdown).toContain(note);
    expect(page.attempts.map((a) => `${a.provider}:${a.status}`)).toEqual([
      "fetch:ok",
      "extract:unsupported",
      "embedded-data:empty",
      "render:empty",
    ]);
  });

  it("still labels a shell whose scripts write nothing 'needs JavaScript'", async () => {
    h.sim.route(
      SITE,
      "/broken",
      html('<div id="app"></div><script>throw new Error("bundle failed")</script>'),
    );
    const page = await read(
      `http://${SITE}/broken`,
      { render: "auto", timeoutMs: 60_000 },
      { ...h.ctx(), renderer },
    );
    expect(page).toMatchObject({ status: "unsupported", error: { code: "needs_javascript" } });
    expect(page.error?.message).toContain("rendering did not help");
  });
});
