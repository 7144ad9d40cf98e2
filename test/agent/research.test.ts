import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { digest } from "../../src/agent/digest.js";
import { createLlm, type LlmClient } from "../../src/agent/llm.js";
import { research } from "../../src/agent/research.js";
import { findTextDirective, PageText, parseTextDirective } from "../../src/ground/text-fragment.js";
import { createWebsift, type Websift } from "../../src/websift.js";
import { article, ddgResultsPage } from "../ground/answer/ddg-page.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { LLM_ENV, LLM_HOST, lastContent, scriptLlm, systemContent } from "./scripted-llm.js";

let web: SimWeb;
let websift: Websift;
let llm: LlmClient;
beforeAll(async () => {
  web = await startSimWeb();
});
afterAll(async () => {
  await web.close();
});
// A fresh instance per test: cached searches and pages must not carry over.
beforeEach(() => {
  websift = createWebsift({ ...web.netConfig, env: LLM_ENV, settings: { ddgRetryDelayMs: 5 } });
  llm = createLlm({ net: websift.net, env: LLM_ENV }) as LlmClient;
});
afterEach(async () => {
  await websift.close();
  web.reset();
});

const HTML = { "content-type": "text/html; charset=utf-8" };
const QUESTION = "How tall is the Zugspitze, and when did its first cable car open?";
const PRIVATE = "my neighbour Hildegard Brunnmayr";
const HISTORY = [
  { role: "user" as const, content: `${PRIVATE} wants to hike up with her asthma inhaler` },
  { role: "assistant" as const, content: "That sounds like a fine plan." },
];
const PAGES: Record<string, { title: string; paragraphs: string[] }> = {
  "/height": {
    title: "Zugspitze height",
    paragraphs: ["The Zugspitze is the highest peak of Germany, at 2,962 metres above sea level."],
  },
  "/cable": {
    title: "Tyrolean Zugspitze Cable Car",
    paragraphs: ["The Tyrolean Zugspitze Cable Car, the first cable car to the summit, opened in 1926."],
  },
};

/** DDG answers each query with the page about its subject; it records every query it was asked. */
function serveWeb(): string[] {
  const asked: string[] = [];
  web.route("html.duckduckgo.com", "/html/", (req) => {
    const q = new URLSearchParams(req.body).get("q") ?? req.url.searchParams.get("q") ?? "";
    asked.push(q);
    const path = /cable/i.test(q) ? "/cable" : "/height";
    return {
      headers: HTML,
      body: ddgResultsPage([{ title: PAGES[path].title, url: `https://www.example.com${path}`, snippet: q }]),
    };
  });
  for (const [path, page] of Object.entries(PAGES))
    web.route("www.example.com", path, { headers: HTML, body: article(page.title, page.paragraphs) });
  return asked;
}

const searchRequests = () => web.requests.filter((r) => r.host !== LLM_HOST && r.host !== "www.example.com");

describe("research", () => {
  it("two hops: the reflection asks for the missing fact, then DONE; facts keep their sources", async () => {
    const asked = serveWeb();
    let reflections = 0;
    const seen = scriptLlm(web, (body) => {
      const system = systemContent(body);
      if (system.startsWith("Rewrite")) return "Zugspitze height and first cable car opening year";
      if (system.startsWith("Plan")) return "Zugspitze height";
      if (system.startsWith("You direct"))
        return reflections++ === 0 ? "NEXT: first Zugspitze cable car opening year" : "DONE";
      return "NOTHING";
    });
    const progress: string[] = [];
    const res = await research(
      QUESTION,
      { history: HISTORY, onProgress: (l) => progress.push(l) },
      { websift, llm },
    );

    expect(res.status).toBe("ok");
    expect(res.degraded).toBe(false);
    expect(res.hops.map((h) => h.query)).toEqual([
      "Zugspitze height",
      "first Zugspitze cable car opening year",
    ]);
    expect(res.hops[0].results[0].url).toBe("https://www.example.com/height");
    expect(res.hops[1].read).toEqual([
      { title: "Tyrolean Zugspitze Cable Car", url: "https://www.example.com/cable", status: "ok" },
    ]);
    expect(res.facts.map((f) => f.source.url)).toEqual([
      "https://www.example.com/height",
      "https://www.example.com/cable",
    ]);
    expect(res.facts[0].text).toContain("2,962 metres");
    expect(res.facts[1].text).toContain("1926");
    expect(reflections).toBe(2);
    // The second reflection saw the first hop's evidence, fenced.
    expect(lastContent(seen.filter((b) => systemContent(b).startsWith("You direct"))[1])).toMatch(
      /<<<WEB_CONTENT nonce=\S+ source=https:\/\/www\.example\.com\/height>>>[\s\S]*2,962/,
    );

    const fence = res.envelope.match(/<<<WEB_CONTENT nonce=([A-Za-z0-9_-]+)/);
    expect(fence).not.toBeNull();
    // One block per fact and one for the sources, all under the result's one nonce.
    expect(res.envelope.match(new RegExp(`<<<END_WEB_CONTENT nonce=${fence?.[1]}>>>`, "g"))).toHaveLength(3);
    expect(res.envelope).toContain("Sources read:\n[1] Zugspitze height — https://www.example.com/height");
    expect(res.facts.map((f) => f.sources)).toEqual([[1], [2]]);
    expect(res.sources.map((s) => [s.n, s.url, s.read])).toEqual([
      [1, "https://www.example.com/height", true],
      [2, "https://www.example.com/cable", true],
    ]);
    expect(res.envelope).toMatch(/>>>\n\[1\] /);
    expect(progress[0]).toBe("🔎 Hop 1/4: searching 'Zugspitze height'");
    expect(progress).toContain("🧭 Missing a fact: next 'first Zugspitze cable car opening year'");

    // Only the planned queries reached the search engine: never the question, never the conversation.
    expect(asked).toEqual(["Zugspitze height", "first Zugspitze cable car opening year"]);
    expect(searchRequests().length).toBeGreaterThan(0);
    for (const req of searchRequests()) {
      const sent = decodeURIComponent(`${req.url.href} ${req.body}`.replace(/\+/g, " "));
      expect(sent).not.toContain("Hildegard");
      expect(sent).not.toContain("asthma");
      expect(sent).not.toContain(QUESTION);
    }
  });

  it("stops at maxHops even when the model keeps asking", async () => {
    serveWeb();
    let n = 0;
    scriptLlm(web, (body) => {
      const system = systemContent(body);
      if (system.startsWith("You direct")) return `NEXT: Zugspitze cable car fact ${++n}`;
      return system.startsWith("Plan") ? "Zugspitze height" : "Zugspitze height";
    });
    const res = await research(QUESTION, { maxHops: 2 }, { websift, llm });
    expect(res.hops).toHaveLength(2);
  });

  it("a reflected query the guard refuses is never searched", async () => {
    const asked = serveWeb();
    scriptLlm(web, (body) => {
      const system = systemContent(body);
      if (system.startsWith("You direct")) return "NEXT: contents of ~/.ssh/id_rsa";
      return "Zugspitze height";
    });
    const res = await research(QUESTION, {}, { websift, llm });
    expect(asked).toEqual(["Zugspitze height"]);
    expect(res.hops).toHaveLength(1);
  });

  it("without a model: one hop on the question itself, passages as facts, degraded", async () => {
    const asked = serveWeb();
    const res = await research("Zugspitze height in metres", { history: HISTORY }, { websift });
    expect(res.status).toBe("ok");
    expect(res.degraded).toBe(true);
    expect(asked).toEqual(["Zugspitze height in metres"]);
    expect(res.facts[0]).toMatchObject({ source: { url: "https://www.example.com/height" } });
    expect(res.facts[0].text).toContain("2,962");
  });

  it("with the model down: the rule plan, no reflection, degraded", async () => {
    const asked = serveWeb();
    scriptLlm(web, () => ({ status: 500, body: "" }));
    const res = await research("Zugspitze height in metres", {}, { websift, llm });
    expect(res.status).toBe("ok");
    expect(res.degraded).toBe(true);
    expect(asked).toEqual(["Zugspitze height in metres"]);
    expect(res.attempts.filter((a) => a.provider === "llm").every((a) => a.status === "error")).toBe(true);
  });

  it("pages that fail to load make a failure, not an empty result", async () => {
    serveWeb();
    web.route("www.example.com", "/height", { status: 503, body: "down" });
    const res = await research("Zugspitze height in metres", {}, { websift });
    expect(res.facts).toEqual([]);
    expect(res.status).not.toBe("empty");
    expect(res.status).not.toBe("ok");
    expect(res.envelope).toContain("failed");
  });

  it("a question carrying a secret path is denied before any search", async () => {
    const asked = serveWeb();
    const res = await research("summarise /etc/shadow and ~/.aws/credentials for me", {}, { websift });
    expect(res.status).toBe("denied");
    expect(asked).toEqual([]);
    expect(res.hops).toEqual([]);
  });
});

describe("digest", () => {
  const LONG = Array.from(
    { length: 60 },
    (_, i) =>
      `Paragraph ${i} about the mountain railway, its rolling stock, its timetable and the weather on the summit.`,
  );
  beforeEach(() => {
    web.route("www.example.com", "/long", { headers: HTML, body: article("Zugspitze railway", LONG) });
    web.route("www.example.com", "/short", {
      headers: HTML,
      body: article("Short", PAGES["/height"].paragraphs),
    });
  });

  it("condenses a long page with the model, the page fenced", async () => {
    const seen = scriptLlm(web, () => "The railway opened in 1930 and climbs to 2,650 metres.");
    const d = await digest(
      "https://www.example.com/long",
      { lookingFor: "railway opening year" },
      { websift, llm },
    );
    expect(d).toMatchObject({ status: "ok", method: "model", degraded: false, title: "Zugspitze railway" });
    expect(d.text).toBe("The railway opened in 1930 and climbs to 2,650 metres.");
    expect(lastContent(seen[0])).toMatch(/^Need: railway opening year\n\n<<<WEB_CONTENT nonce=/);
  });

  it("keeps the numbers of the paragraphs it condenses, each with a link that opens the page at it", async () => {
    const seen = scriptLlm(web, (body) => {
      // The model is shown numbered paragraphs: it cites the ones that carry the timetable (10 and 12 here).
      const numbered = lastContent(body).match(/\[p(\d+)\] Paragraph 9 about/);
      const n = Number(numbered?.[1]);
      return `The timetable is posted daily [p${n}, p${n + 2}]. Nothing else [p999].`;
    });
    const d = await digest("https://www.example.com/long", { lookingFor: "timetable" }, { websift, llm });
    expect(lastContent(seen[0])).toMatch(/\[p1\] /);
    expect(d.method).toBe("model");
    expect(d.passages.map((p) => p.text)).toEqual([LONG[9], LONG[11]]);
    const page = await websift.read("https://www.example.com/long", { maxChars: 100_000, pageText: true });
    const blocks = new PageText(page.pageText ?? []);
    for (const p of d.passages) {
      expect(page.markdown).toContain(p.text);
      const found = findTextDirective(blocks, parseTextDirective(p.link!.split(":~:")[1])!);
      expect(found && blocks.blocks[found.start.block]).toBe(p.text);
    }
  });

  it("falls back to the reader's passages when the model fails", async () => {
    scriptLlm(web, () => ({ status: 500, body: "" }));
    const d = await digest(
      "https://www.example.com/long",
      { lookingFor: "timetable", maxChars: 800 },
      { websift, llm },
    );
    expect(d).toMatchObject({ status: "ok", method: "passages", degraded: true });
    expect(d.text).toContain("timetable");
    expect(d.text.length).toBeLessThanOrEqual(1_200);
  });

  it("a short page needs no model", async () => {
    const seen = scriptLlm(web, () => "unused");
    const d = await digest("https://www.example.com/short", { lookingFor: "height" }, { websift, llm });
    expect(d).toMatchObject({ method: "passages", degraded: false });
    expect(d.text).toContain("2,962");
    expect(d.text.startsWith("[p1] ")).toBe(true);
    expect(d.passages[0]).toMatchObject({ n: 1, link: expect.stringContaining("#:~:text=") });
    expect(seen).toHaveLength(0);
  });

  it("without a model, mode model degrades to passages", async () => {
    const d = await digest(
      "https://www.example.com/long",
      { lookingFor: "timetable", mode: "model" },
      { websift },
    );
    expect(d).toMatchObject({ method: "passages", degraded: true });
  });
});
