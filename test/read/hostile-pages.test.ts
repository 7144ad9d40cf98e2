import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Deadline, DeadlineExceeded } from "../../src/core/deadline.js";
import { extractMarkdown } from "../../src/read/extract/index.js";
import {
  closePagePool,
  extractPage,
  INLINE_BELOW_CHARS,
  MAX_QUEUE,
  PAGE_POOL_THREADS,
  pagePoolState,
} from "../../src/read/page-pool.js";
import { read } from "../../src/read/read.js";
import { sizeText } from "../../src/read/size.js";
import { growth } from "./array-work.js";
import { html, type ReadHarness, startReadHarness } from "./ladder/harness.js";
import { makePdf } from "./ladder/make-pdf.js";

// Hostile and merely unusual pages, read through real loopback sockets. Sizes here are small enough to run
// fast and large enough for a step count to tell a linear pass from a quadratic one; the big sizes (100,000
// nested elements, 200,000 links, a 1 GiB PDF stream) are measured in bench/hostile.bench.mjs.

let h: ReadHarness;
beforeAll(async () => {
  h = await startReadHarness();
});
afterAll(async () => {
  await closePagePool();
  await h.close();
});
beforeEach(() => h.sim.reset());

const SITE = "hostile-pages.example.com";
const never = { render: "never" as const };
const text = (body: string, type = "text/plain") => ({ headers: { "content-type": type }, body });

const nested = (n: number) => `<div>${"<div>".repeat(n)}the innermost words${"</div>".repeat(n)}</div>`;
const links = (n: number) =>
  `<p>${Array.from({ length: n }, (_, i) => `see <a href="/l${i}">link ${i}</a>`).join(" and ")} end.</p>`;
const paragraphs = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `Paragraph ${i} is about the harbour${i % 50 === 0 ? " and its lifeboat" : ""}, rebuilt in granite.`,
  );
const page = (body: string) => html(body).body;

describe("parsing and extraction are linear in the input", () => {
  const cases: [string, (n: number) => string, number][] = [
    ["nested elements", nested, 1500],
    ["links in one paragraph", links, 1500],
    [
      "form controls beside the text",
      (n) => `<p>${paragraphs(3).join(" ")}</p>${"<input><button>b</button>".repeat(n)}`,
      1500,
    ],
    [
      "comments of a thread",
      (n) =>
        `<article><p>${paragraphs(5).join(" ")}</p></article>${Array.from({ length: n }, (_, i) => `<div class="comment">c ${i}</div>`).join("")}`,
      1500,
    ],
    [
      "cards whose title blocks carry a chrome name",
      (n) =>
        `<main><p>${paragraphs(3).join(" ")}</p><ul class="grid">${Array.from({ length: n }, (_, i) => `<li class="card"><span>-${i}%</span><div class="product-caption"><h2><a href="/p/${i}">Item ${i}</a></h2><p>Item ${i} text</p></div></li>`).join("")}</ul></main>`,
      1000,
    ],
    [
      "buttons inside one heading",
      (n) => `<main><h2>${"<button>b</button>".repeat(n)}</h2><p>${paragraphs(3).join(" ")}</p></main>`,
      1500,
    ],
    [
      "siblings taken with the content",
      (n) =>
        `<main>${paragraphs(n)
          .map((p) => `<div><p>${p}</p></div>`)
          .join("")}</main>`,
      1000,
    ],
  ];
  for (const [name, make, n] of cases)
    it(`${name}: 4× the input is at most about 4× the steps`, async () => {
      const ratio = await growth((k) => () => extractMarkdown(page(make(k)), `https://${SITE}/`), n);
      expect(ratio).toBeLessThan(7);
    });

  it("a thread of replies that quote, with poster cards, statistics and a subject beside each: 4× the posts, about 4× the steps", async () => {
    const thread = (n: number) =>
      `<main><h1>The harbour</h1>${Array.from(
        { length: n },
        (_, i) =>
          `<div class="post"><h3>Re: The harbour</h3><div class="message-userDetails"><div class="user-info">` +
          `<h4><a href="/members/u${i}.${i}/">u${i}</a></h4><span>Member</span></div></div><dl><dt>Joined</dt><dd>Mar ${i}</dd></dl>` +
          `<blockquote>${paragraphs(2).join(" ")}</blockquote><p>${paragraphs(1)[0]} Reply ${i}.</p></div>`,
      ).join("")}</main>`;
    const ratio = await growth(
      (k) => () => extractMarkdown(page(thread(k)), `https://${SITE}/threads/the-harbour.1/`),
      400,
    );
    expect(ratio).toBeLessThan(7);
  });

  it("content streamed into thousands of boundaries under one parent: 4× the boundaries, about 4× the steps", async () => {
    const streamed = (n: number) =>
      `<main>${Array.from({ length: n }, (_, i) => `<!--$?--><template id="B:${i}"></template><p>Loading</p><!--/$-->`).join("")}</main>` +
      Array.from(
        { length: n },
        (_, i) => `<div hidden id="S:${i}"><p>Part ${i} of the harbour's history.</p></div>`,
      ).join("") +
      `<script>${Array.from({ length: n }, (_, i) => `$RC("B:${i}","S:${i}");`).join("")}</script>`;
    const ratio = await growth((k) => () => extractMarkdown(page(streamed(k)), `https://${SITE}/`), 1000);
    expect(ratio).toBeLessThan(7);
  });

  it("reads a page whose text sits 20,000 elements deep, without overflowing the stack", async () => {
    const deep = `${"<div>".repeat(20_000)}<p>${paragraphs(3).join(" ")}</p>${"</div>".repeat(20_000)}`;
    h.sim.route(SITE, "/deep", html(deep));
    const got = await read(`https://${SITE}/deep`, never, h.ctx());
    expect(got).toMatchObject({ status: "ok", source: "extracted-html" });
    expect(got.markdown).toContain("Paragraph 2 is about the harbour");
  });

  it("reads a paragraph of 5,000 links with its links listed", async () => {
    h.sim.route(SITE, "/links", html(links(5_000)));
    const got = await read(`https://${SITE}/links`, { ...never, maxChars: 4000 }, h.ctx());
    expect(got).toMatchObject({ status: "ok", truncated: true });
    expect(got.markdown).toMatch(/^see link 0 and see link 1 and/);
    expect(got.markdown.length).toBeLessThanOrEqual(4000);
  });
});

describe("sizing is linear in the input", () => {
  it("choosing passages on a page of many paragraphs: 4× the paragraphs, about 4× the steps", async () => {
    const ratio = await growth(
      (n) => () => sizeText(paragraphs(n).join("\n\n"), { maxChars: 6000, lookingFor: "lifeboat" }),
      2000,
    );
    expect(ratio).toBeLessThan(7);
  });

  it("cutting one huge block segments only a window around the cut", async () => {
    const segment = vi.spyOn(Intl.Segmenter.prototype, "segment");
    try {
      const log = Array.from(
        { length: 3000 },
        (_, i) => `2026-01-01 INFO request ${i} served. status=200`,
      ).join(" ");
      const headings = "# heading\n".repeat(100_000);
      for (const body of [log, headings]) {
        const sized = sizeText(body, { maxChars: 2000 });
        expect(sized).toMatchObject({ truncated: true });
        expect(sized.returnedChars).toBeLessThanOrEqual(2000);
      }
      const segmented = segment.mock.calls.map(([input]) => input.length);
      expect(segmented.length).toBeGreaterThan(0);
      expect(Math.max(...segmented)).toBeLessThan(2000 + 1500);
    } finally {
      segment.mockRestore();
    }
  });

  it("reads a 200 KB plain-text log, a markdown body of 100,000 headings and a large JSON body", async () => {
    const log = Array.from(
      { length: 3000 },
      (_, i) => `2026-01-01T00:00:00Z INFO worker ${i} handled a request`,
    ).join("\n");
    h.sim.route(SITE, "/app.log", text(log));
    h.sim.route(SITE, "/headings.md", text("# heading\n".repeat(100_000), "text/markdown"));
    const json = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item ${i}` })));
    h.sim.route(SITE, "/data.json", text(json, "application/json"));
    for (const path of ["/app.log", "/headings.md", "/data.json"]) {
      const got = await read(`https://${SITE}${path}`, { ...never, maxChars: 3000 }, h.ctx());
      expect(got, path).toMatchObject({ status: "ok", truncated: true });
      expect(got.markdown.length, path).toBeLessThanOrEqual(3000);
    }
    // Past the bound a large JSON body is kept as served rather than indented to several times its size.
    const big = await read(`https://${SITE}/data.json`, { ...never, maxChars: 3000 }, h.ctx());
    expect(big.totalChars).toBe(json.length);
  });
});

describe("large pages are extracted off the caller's event loop, within the read's deadline", () => {
  const large = () =>
    page(
      `<article>${paragraphs(4000)
        .map((p) => `<p>${p}</p>`)
        .join("")}</article>`,
    );

  it("a page past the inline size is extracted on the pool, with the same result as inline", async () => {
    const body = large();
    expect(body.length).toBeGreaterThan(INLINE_BELOW_CHARS);
    h.sim.route(SITE, "/large", { headers: { "content-type": "text/html" }, body });
    const before = pagePoolState().completed;
    const got = await read(`https://${SITE}/large`, { ...never, maxChars: 100_000 }, h.ctx());
    expect(got.status).toBe("ok");
    expect(pagePoolState().completed).toBe(before + 1);
    const inline = await extractMarkdown(body, `https://${SITE}/large`);
    expect(got.totalChars).toBe(inline.markdown.length);
  });

  it("passages of a large page are chosen on the pool, on a cache hit too, with the text sizing inline gives", async () => {
    // The lifeboat paragraphs are every 50th: passages must be chosen from the whole page, not cut from its start.
    const body = large();
    h.sim.route(SITE, "/looking", { headers: { "content-type": "text/html" }, body });
    const ctx = h.ctx();
    const options = { ...never, maxChars: 3000, lookingFor: "lifeboat", links: false };
    const before = pagePoolState().completed;
    const first = await read(`https://${SITE}/looking`, options, ctx);
    expect(first.status).toBe("ok");
    expect(pagePoolState().completed).toBe(before + 2);
    const again = await read(`https://${SITE}/looking`, options, ctx);
    expect(again).toMatchObject({ status: "ok", cached: true, markdown: first.markdown });
    expect(pagePoolState().completed).toBe(before + 3);
    const { markdown } = await extractMarkdown(body, `https://${SITE}/looking`);
    expect(markdown.length).toBeGreaterThan(INLINE_BELOW_CHARS);
    expect(first.markdown).toBe(sizeText(markdown, { maxChars: 3000, lookingFor: "lifeboat" }).text);
    expect(first.markdown).toMatch(/Paragraph \d{3,} is about the harbour and its lifeboat/);
    // A cut needs no scoring and stays inline.
    await read(`https://${SITE}/looking`, { ...never, maxChars: 3000 }, ctx);
    expect(pagePoolState().completed).toBe(before + 3);
  });

  it("a read whose deadline passes mid-extraction is a timeout, and the thread is replaced", async () => {
    h.sim.route(SITE, "/huge", { headers: { "content-type": "text/html" }, body: page(nested(150_000)) });
    const deadline = Deadline.after(600_000);
    const reading = read(`https://${SITE}/huge`, { ...never, deadline }, h.ctx());
    // The deadline's clock is driven by the test: it fires once the page is on a thread.
    await vi.waitFor(() => expect(pagePoolState().running).toBe(1), { timeout: 20_000 });
    const busy = pagePoolState().threadIds;
    deadline.abort(new DeadlineExceeded());
    const got = await reading;
    expect(got).toMatchObject({ status: "timeout", markdown: "" });
    expect(got.attempts.at(-1)).toMatchObject({ provider: "extract", status: "timeout" });
    await vi.waitFor(() => expect(pagePoolState().threadIds.some((id) => busy.includes(id))).toBe(false));
  });

  it("a full queue turns a read away at once as rate_limited (busy), and the pool serves again after", async () => {
    // Every thread and every place in the queue taken by a large page at once, then one read more.
    const deadline = Deadline.after(600_000);
    const heavy = page(nested(150_000));
    const held = Array.from({ length: PAGE_POOL_THREADS + MAX_QUEUE }, (_, i) =>
      extractPage(heavy, `https://${SITE}/held/${i}`, deadline),
    );
    expect(pagePoolState().queued + pagePoolState().running).toBe(PAGE_POOL_THREADS + MAX_QUEUE);
    h.sim.route(SITE, "/turned-away", { headers: { "content-type": "text/html" }, body: large() });
    const turnedAway = await read(`https://${SITE}/turned-away`, never, h.ctx());
    expect(turnedAway).toMatchObject({ status: "rate_limited", error: { code: "busy", retryAfter: 2 } });
    expect(turnedAway.attempts.at(-1)).toMatchObject({ provider: "extract", status: "rate_limited" });
    deadline.abort(new DeadlineExceeded());
    for (const got of await Promise.all(held)) expect(got).toMatchObject({ ok: false, status: "timeout" });
    const after = await read(`https://${SITE}/turned-away`, never, h.ctx());
    expect(after.status).toBe("ok");
  }, 60_000);

  it("a PDF bomb read from a server is refused as too large, and the process reads on", async () => {
    const bomb = makePdf([["Bomb."]], undefined, { flate: true, padding: 80 * 1024 * 1024 });
    expect(bomb.length).toBeLessThan(200_000);
    h.sim.route(SITE, "/bomb.pdf", { headers: { "content-type": "application/pdf" }, body: bomb });
    const got = await read(`https://${SITE}/bomb.pdf`, never, h.ctx());
    expect(got).toMatchObject({ status: "unsupported", error: { code: "too_large" } });
    expect(got.error?.message).toMatch(/inflate past/);
    h.sim.route(SITE, "/after", html(`<p>${paragraphs(3).join(" ")}</p>`));
    expect((await read(`https://${SITE}/after`, never, h.ctx())).status).toBe("ok");
  });
});
