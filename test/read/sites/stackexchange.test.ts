import { describe, expect, it } from "vitest";
import { pagePoolState } from "../../../src/read/page-pool.js";
import { read } from "../../../src/read/read.js";
import { siteReaderFor } from "../../../src/read/sites/registry.js";
import { postOf, stackExchangeReader } from "../../../src/read/sites/stackexchange.js";
import { threadFromPage } from "../../../src/read/sites/stackexchange-page.js";
import { article, html, PARAGRAPHS } from "../ladder/harness.js";
import { json, siteFixture } from "./site-fixtures.js";
import { useReadHarness } from "./site-harness.js";

const h = useReadHarness();

const API = "api.stackexchange.com";
const SITE = "unix.stackexchange.com";
const QUESTION = `https://${SITE}/questions/90123/how-do-i-grep-for-a-literal-dot`;
const fixture = (name: string) => json(siteFixture("stackexchange", name));
const page = (body = siteFixture("stackexchange", "question-page.html")) => ({
  headers: { "content-type": "text/html; charset=utf-8" },
  body,
});
const get = (url: string) => read(url, { maxChars: 50_000, render: "never" }, h.ctx());

function serveApi() {
  h.sim.route(API, "/2.3/questions/90123", fixture("question.json"));
  h.sim.route(API, "/2.3/questions/90123/answers", fixture("answers.json"));
}

/** The order of the answers in a result, by their authors. */
const answerOrder = (markdown: string) =>
  [...markdown.matchAll(/^## (✓ Accepted answer|Answer) · score [\d,]+ · by ([^·\n]+?)(?: ·|$)/gm)].map(
    (m) => `${m[1] === "Answer" ? "" : "✓ "}${m[2]}`,
  );

describe("stackexchange reader: which URLs it takes", () => {
  it("takes question, answer and share links on every Stack Exchange site, and nothing else", () => {
    for (const url of [
      "https://stackoverflow.com/questions/11227809/why-is-processing-a-sorted-array-faster",
      "https://stackoverflow.com/questions/11227809",
      "https://stackoverflow.com/q/11227809/87234",
      "https://stackoverflow.com/a/11227902/87234",
      "https://ru.stackoverflow.com/questions/1",
      "https://math.stackexchange.com/questions/2/why-is-1-not-prime",
      "https://meta.stackexchange.com/questions/256691/x",
      "https://superuser.com/questions/3/x",
      "https://serverfault.com/questions/4/x",
      "https://askubuntu.com/questions/5/x",
      "https://mathoverflow.net/questions/6/x",
      "https://stackapps.com/questions/2904/x",
    ])
      expect(siteReaderFor(url), url).toBe(stackExchangeReader);
    for (const url of [
      "https://stackoverflow.com/questions",
      "https://stackoverflow.com/questions/tagged/grep",
      "https://stackoverflow.com/questions/ask",
      "https://stackoverflow.com/users/87234/gmannickg",
      "https://api.stackexchange.com/2.3/questions/1",
      "https://stackoverflow.example.com/questions/1",
    ])
      expect(siteReaderFor(url), url).toBeUndefined();
    expect(postOf(new URL("https://stackoverflow.com/questions/11227809/slug/11227902#11227902"))).toEqual({
      question: 11227809,
      answer: 11227902,
    });
  });
});

describe("stackexchange reader through read()", () => {
  it("puts the accepted answer first and marks it, then the others by score, with code kept", async () => {
    serveApi();
    const got = await get(QUESTION);
    expect(got).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "stackexchange", via: "api.stackexchange.com" },
      title: 'How do I grep for a literal "." in <file>?',
      byline: "Ana & Bo",
      published: "2025-01-01T00:00:00.000Z",
    });
    const md = got.markdown;
    expect(md).toMatch(
      /^# How do I grep for a literal "\." in <file>\?\n\nQuestion 90123 on unix\.stackexchange\.com · score 57 · 3 answers · asked by Ana & Bo · 2025-01-01/,
    );
    expect(md).toContain("Tags: grep, regular-expression");
    // The language the site's highlighter names stays on the fence.
    expect(md).toContain("```bash\ngrep . notes.txt\n```");
    expect(answerOrder(md)).toEqual(["✓ The Accepted", "Most Voted", "Third Way"]);
    expect(md).toContain("```\ngrep '\\.' notes.txt\n```");
    expect(got.links).toContain("https://www.gnu.org/software/grep/manual/");
    const asked = h.sim.requests.map((r) => r.url);
    expect(asked.every((u) => u.host === API)).toBe(true);
    for (const u of asked) {
      expect(u.searchParams.get("site")).toBe(SITE);
      expect(u.searchParams.get("filter")).toBe("withbody");
    }
    expect(asked.find((u) => u.pathname.endsWith("/answers"))?.searchParams.get("sort")).toBe("votes");
  });

  it("says when no answer was accepted", async () => {
    serveApi();
    const answers = JSON.parse(siteFixture("stackexchange", "answers.json"));
    for (const a of answers.items) a.is_accepted = false;
    const question = JSON.parse(siteFixture("stackexchange", "question.json"));
    delete question.items[0].accepted_answer_id;
    h.sim.route(API, "/2.3/questions/90123", json(question));
    h.sim.route(API, "/2.3/questions/90123/answers", json(answers));
    const got = await get(QUESTION);
    expect(got.markdown).toContain("*No answer has been accepted; answers by score.*");
    expect(answerOrder(got.markdown)).toEqual(["Most Voted", "The Accepted", "Third Way"]);
  });

  it("follows an answer's share link to its question and marks the answer linked", async () => {
    serveApi();
    h.sim.route(API, "/2.3/answers/90211", fixture("answer-90211.json"));
    const got = await get(`https://${SITE}/a/90211/100`);
    expect(got.status).toBe("ok");
    expect(got.markdown).toContain(
      "## ✓ Accepted answer · score 41 · by The Accepted · 2025-01-01 · the answer linked",
    );
  });

  it("reads the page's own markup when the API is throttled: still the accepted answer first, without the sidebar", async () => {
    h.sim.route(API, /^\/2\.3\//, { ...fixture("throttle-violation.json"), status: 400 });
    h.sim.route(SITE, "/questions/90123", page());
    const got = await get(QUESTION);
    expect(got).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "stackexchange", via: "page markup (API rate_limited)" },
      title: 'How do I grep for a literal "." in <file>?',
      byline: "Ana & Bo",
    });
    const md = got.markdown;
    expect(answerOrder(md)).toEqual(["✓ The Accepted", "Most Voted", "Third Way"]);
    expect(md).toContain(
      "Question 90123 on unix.stackexchange.com · score 57 · 3 answers · asked by Ana & Bo · 2025-01-01",
    );
    expect(md).toContain("Tags: grep, regular-expression");
    expect(md).toContain("```\ngrep -F . notes.txt\n```");
    expect(md).not.toMatch(/Hot Network Questions|Why is 1 not prime|Ask Question|Sorted by/);
    expect(got.attempts).toEqual([expect.objectContaining({ provider: "site:stackexchange", status: "ok" })]);
  });

  it("reads a large question page on the page pool", async () => {
    h.sim.route(API, /^\/2\.3\//, { ...fixture("throttle-violation.json"), status: 400 });
    const padding = `<div class="js-consent-banner">${"<p>Cookie settings and preferences.</p>".repeat(2000)}</div>`;
    h.sim.route(
      SITE,
      "/questions/90123",
      page(siteFixture("stackexchange", "question-page.html").replace("</body>", `${padding}</body>`)),
    );
    const before = pagePoolState().completed;
    const got = await get(QUESTION);
    expect(got.reader?.via).toBe("page markup (API rate_limited)");
    expect(answerOrder(got.markdown)).toEqual(["✓ The Accepted", "Most Voted", "Third Way"]);
    expect(pagePoolState().completed).toBeGreaterThan(before);
  });

  it("the throttle's message is rate_limited with its seconds, when the page cannot be read either", async () => {
    h.sim.route(API, /^\/2\.3\//, { ...fixture("throttle-violation.json"), status: 400 });
    h.sim.route(SITE, "/questions/90123", { status: 503, body: "down" });
    h.sim.route(SITE, "/questions/90123/how-do-i-grep-for-a-literal-dot", { status: 503, body: "down" });
    const got = await get(QUESTION);
    expect(got.attempts[0]).toMatchObject({
      provider: "site:stackexchange",
      status: "rate_limited",
      retryAfter: 3600,
      error:
        "api.stackexchange.com answered throttle_violation: too many requests from this IP, more requests available in 3600 seconds",
    });
  });

  it("a question the API does not have is not_found, then the page is read the generic way", async () => {
    h.sim.route(API, "/2.3/questions/90123", fixture("no-items.json"));
    h.sim.route(API, "/2.3/questions/90123/answers", fixture("no-items.json"));
    const got = await get(QUESTION);
    expect(got.status).toBe("error");
    expect(got.attempts[0]).toMatchObject({ provider: "site:stackexchange", status: "error" });
    expect(got.attempts[0].error).toBe(
      "stackexchange reader: question 90123 not found on unix.stackexchange.com",
    );
  });

  it("a drifted API answer and a page without question markup: an error naming the reader, then the generic ladder", async () => {
    serveApi();
    const answers = JSON.parse(siteFixture("stackexchange", "answers.json"));
    for (const a of answers.items) delete a.is_accepted;
    h.sim.route(API, "/2.3/questions/90123/answers", json(answers));
    h.sim.route(SITE, "/questions/90123", html(article("A redesigned page", PARAGRAPHS)));
    h.sim.route(
      SITE,
      "/questions/90123/how-do-i-grep-for-a-literal-dot",
      html(article("A redesigned page", PARAGRAPHS)),
    );
    const got = await get(QUESTION);
    expect(got.status).toBe("ok");
    expect(got.source).toBe("extracted-html");
    expect(got.attempts[0]).toMatchObject({ provider: "site:stackexchange", status: "error" });
    expect(got.attempts[0].error).toMatch(
      /^stackexchange reader: the response no longer has the expected shape \(the question page has no question markup \(API: stackexchange reader: .*items\.0\.is_accepted/,
    );
  });
});

describe("stackexchange reader: the API's backoff", () => {
  const withBackoff = (name: string, seconds: number) =>
    json({ ...JSON.parse(siteFixture("stackexchange", name)), backoff: seconds });

  it("a method that asked for a backoff is not asked again within it: the page is read, the other method still asked", async () => {
    h.sim.route(API, "/2.3/questions/90123", withBackoff("question.json", 30));
    h.sim.route(API, "/2.3/questions/90123/answers", fixture("answers.json"));
    h.sim.route(SITE, "/questions/90123", page());
    // One store for both reads, as one process (or a fleet on one Redis) has.
    const ctx = h.ctx();
    const first = await read(QUESTION, { render: "never" }, ctx);
    expect(first).toMatchObject({ status: "ok", reader: { via: "api.stackexchange.com" } });
    const again = await read(`https://${SITE}/q/90123`, { render: "never", timeoutMs: 5000 }, ctx);
    expect(again).toMatchObject({ status: "ok", reader: { via: "page markup (API rate_limited)" } });
    const asked = h.sim.requests.filter((r) => r.host === API).map((r) => r.url.pathname);
    expect(asked.filter((p) => p === "/2.3/questions/90123")).toHaveLength(1);
    expect(asked.filter((p) => p === "/2.3/questions/90123/answers")).toHaveLength(2);
  });

  it("a throttle's seconds keep the API unasked while the question page serves the reads", async () => {
    h.sim.route(API, /^\/2\.3\//, { ...fixture("throttle-violation.json"), status: 400 });
    h.sim.route(SITE, "/questions/90123", page());
    const ctx = h.ctx();
    const first = await read(QUESTION, { render: "never" }, ctx);
    expect(first).toMatchObject({ status: "ok", reader: { via: "page markup (API rate_limited)" } });
    const asked = () => h.sim.requests.filter((r) => r.host === API).length;
    const askedFirst = asked();
    const again = await read(`https://${SITE}/q/90123`, { render: "never", timeoutMs: 5000 }, ctx);
    expect(again).toMatchObject({ status: "ok", reader: { via: "page markup (API rate_limited)" } });
    expect(asked()).toBe(askedFirst);
  });

  it("a backoff on an error answer keeps the method unasked as well", async () => {
    const error = { error_id: 400, error_name: "bad_parameter", error_message: "site is required" };
    h.sim.route(API, "/2.3/questions/90123", { ...json({ ...error, backoff: 30 }), status: 400 });
    h.sim.route(API, "/2.3/questions/90123/answers", fixture("answers.json"));
    h.sim.route(SITE, "/questions/90123", page());
    const ctx = h.ctx();
    const first = await read(QUESTION, { render: "never" }, ctx);
    expect(first).toMatchObject({ status: "ok", reader: { via: "page markup (API error)" } });
    await read(`https://${SITE}/q/90123`, { render: "never", timeoutMs: 5000 }, ctx);
    const asked = h.sim.requests.filter((r) => r.host === API && r.url.pathname === "/2.3/questions/90123");
    expect(asked).toHaveLength(1);
  });

  it("an answer without a backoff books nothing", async () => {
    serveApi();
    const ctx = h.ctx();
    await read(QUESTION, { render: "never" }, ctx);
    const again = await read(`https://${SITE}/q/90123`, { render: "never", timeoutMs: 5000 }, ctx);
    expect(again).toMatchObject({ status: "ok", reader: { via: "api.stackexchange.com" } });
  });
});

describe("stackexchange page markup", () => {
  it("reads question, answers, scores, authors and the accepted mark from the page", async () => {
    const thread = await threadFromPage(siteFixture("stackexchange", "question-page.html"), QUESTION);
    expect(thread).toBeDefined();
    if (!thread) return;
    expect(thread.question).toMatchObject({
      id: 90123,
      score: 57,
      author: "Ana & Bo",
      tags: ["grep", "regular-expression"],
      created: "2025-01-01T00:00:00Z",
    });
    expect(thread.answers.map((a) => [a.id, a.score, a.author, a.accepted])).toEqual([
      [90211, 41, "The Accepted", true],
      [90300, 88, "Most Voted", false],
      [90400, 2, "Third Way", false],
    ]);
    expect(thread.answerCount).toBe(3);
    expect(thread.question.markdown).not.toContain("Did you try escaping it?");
  });

  it("converts only the answers shown of a busy page, and counts the rest", async () => {
    const page = siteFixture("stackexchange", "question-page.html");
    const one = page.slice(page.indexOf('<a name="90300"></a>'), page.indexOf('<a name="90211"></a>'));
    const many = Array.from({ length: 40 }, (_, i) =>
      one.replace(/90300/g, String(91000 + i)).replace(/data-score="88"/, `data-score="${i}"`),
    ).join("");
    const busy = page.replace('<a name="90211"></a>', `${many}<a name="90211"></a>`);
    const thread = await threadFromPage(busy, QUESTION, 91001);
    expect(thread?.answerCount).toBe(43);
    // The accepted one, the nine best others, and the one the link points at though it scored 1.
    expect(thread?.answers.map((a) => a.id)).toEqual([
      90211, 90300, 91039, 91038, 91037, 91036, 91035, 91034, 91033, 91032, 91001,
    ]);
    expect(thread?.answers.every((a) => a.markdown.length > 0)).toBe(true);
  });

  it("is undefined for a page without question markup", async () => {
    expect(await threadFromPage(html(article("x", PARAGRAPHS)).body, QUESTION)).toBeUndefined();
  });
});
