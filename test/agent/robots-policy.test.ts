import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLlm, type LlmClient } from "../../src/agent/llm.js";
import { research } from "../../src/agent/research.js";
import { createWebsift, type Websift } from "../../src/websift.js";
import { article, ddgResultsPage } from "../ground/answer/ddg-page.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { LLM_ENV, scriptLlm, systemContent } from "./scripted-llm.js";

// The reads websift makes on its own initiative (answer's pages, research hops) respect robots.txt by default;
// the same page read because someone asked for it does not, unless WEBSIFT_ROBOTS says so.

let web: SimWeb;
let websift: Websift | undefined;
beforeAll(async () => {
  web = await startSimWeb();
});
afterAll(() => web.close());
afterEach(async () => {
  await websift?.close();
  web.reset();
});

const HTML = { "content-type": "text/html; charset=utf-8" };
const SHUT = "closed.example.com";
const OPEN = "open.example.com";
const FACT = "The Zugspitze is the highest peak of Germany, at 2,962 metres above sea level.";

/** DDG finds a page on a host whose robots.txt shuts websift out, then one on a host that lets it in. */
function serveWeb(): void {
  web.route("html.duckduckgo.com", "/html/", {
    headers: HTML,
    body: ddgResultsPage([
      { title: "Zugspitze (closed)", url: `https://${SHUT}/zugspitze`, snippet: "Zugspitze height" },
      { title: "Zugspitze (open)", url: `https://${OPEN}/zugspitze`, snippet: "Zugspitze height" },
    ]),
  });
  web.route(SHUT, "/robots.txt", { body: "User-agent: websift\nDisallow: /\n" });
  for (const host of [SHUT, OPEN])
    web.route(host, "/zugspitze", { headers: HTML, body: article(`Zugspitze on ${host}`, [FACT, FACT]) });
}

const pageHits = (host: string) => web.requests.filter((r) => r.host === host && r.path === "/zugspitze");

describe("robots.txt for the reads websift chooses", () => {
  it("answer's cascade skips a page robots.txt disallows and reads the next", async () => {
    serveWeb();
    websift = createWebsift({ ...web.netConfig, env: {}, settings: { ddgRetryDelayMs: 5 } });
    const got = await websift.answer("How tall is the Zugspitze?");
    expect(got.status).toBe("ok");
    expect(got.attempts).toContainEqual(
      expect.objectContaining({ provider: `read:${SHUT}`, status: "denied" }),
    );
    expect(got.attempts).toContainEqual(expect.objectContaining({ provider: `read:${OPEN}`, status: "ok" }));
    expect(got.envelope).toContain(`Zugspitze on ${OPEN}`);
    expect(pageHits(SHUT)).toHaveLength(0);
    // The same page, asked for by a user, is read.
    const asked = await websift.read(`https://${SHUT}/zugspitze`, { render: "never" });
    expect(asked.status).toBe("ok");
  });

  it("WEBSIFT_ROBOTS=ignore lets answer read it too", async () => {
    serveWeb();
    websift = createWebsift({
      ...web.netConfig,
      env: { WEBSIFT_ROBOTS: "ignore" },
      settings: { ddgRetryDelayMs: 5 },
    });
    await websift.answer("How tall is the Zugspitze?");
    expect(web.requests.filter((r) => r.path === "/robots.txt")).toHaveLength(0);
    expect(pageHits(SHUT).length).toBeGreaterThan(0);
  });

  it("a research hop's pages are judged by robots.txt", async () => {
    serveWeb();
    websift = createWebsift({ ...web.netConfig, env: LLM_ENV, settings: { ddgRetryDelayMs: 5 } });
    const llm = createLlm({ net: websift.net, env: LLM_ENV }) as LlmClient;
    scriptLlm(web, (body) => {
      const system = systemContent(body);
      if (system.startsWith("Rewrite")) return "Zugspitze height";
      if (system.startsWith("Plan")) return "Zugspitze height";
      if (system.startsWith("You direct")) return "DONE";
      return "NOTHING";
    });
    const res = await research("How tall is the Zugspitze?", {}, { websift, llm });
    const read = res.hops.flatMap((h) => h.read);
    expect(read).toContainEqual(
      expect.objectContaining({ url: `https://${SHUT}/zugspitze`, status: "denied" }),
    );
    expect(read).toContainEqual(expect.objectContaining({ url: `https://${OPEN}/zugspitze`, status: "ok" }));
    expect(pageHits(SHUT)).toHaveLength(0);
  });

  it("a read option outside the vocabulary is refused at the door", async () => {
    websift = createWebsift({ ...web.netConfig, env: {} });
    const got = await websift.read("https://www.example.com/", { robots: "sometimes" as never });
    expect(got.status).toBe("error");
    expect(got.error?.message).toMatch(/robots/);
  });
});
