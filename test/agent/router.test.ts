import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Turn } from "../../src/agent/deps.js";
import { createLlm, type LlmClient } from "../../src/agent/llm.js";
import { planQueries } from "../../src/agent/plan.js";
import { saysYes, shouldSearch } from "../../src/agent/should-search.js";
import { standaloneQuery } from "../../src/agent/standalone.js";
import { Deadline } from "../../src/core/deadline.js";
import { createWebsift, type Websift } from "../../src/websift.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { LLM_ENV, lastContent, scriptLlm, systemContent } from "./scripted-llm.js";

let web: SimWeb;
let websift: Websift;
let llm: LlmClient;
beforeAll(async () => {
  web = await startSimWeb();
  websift = createWebsift({ ...web.netConfig, env: LLM_ENV });
  llm = createLlm({ net: websift.net, env: LLM_ENV }) as LlmClient;
});
afterAll(async () => {
  await websift.close();
  await web.close();
});
afterEach(() => web.reset());

const AMBIGUOUS = "Who designed the Zugspitze cable car?";
const WEATHER: Turn[] = [
  { role: "user", content: "What's the weather like?" },
  { role: "assistant", content: "Where are you?" },
];
const now = () => new Date("2026-03-14T12:00:00Z");

describe("shouldSearch", () => {
  it("decides by rule without asking the model", async () => {
    const seen = scriptLlm(web, () => "YES");
    expect(await shouldSearch("Set a timer for 5 minutes", [], { llm })).toMatchObject({
      search: false,
      reason: "rule",
      rule: "en:alarm",
      degraded: false,
    });
    expect(await shouldSearch("Wetter in Graz", [], { llm })).toMatchObject({
      search: true,
      rule: "de:weather",
    });
    expect(seen).toHaveLength(0);
  });

  it.each([
    ["YES", true],
    ["yes.", true],
    ["Yes, because the cable car is a specific fact.", true],
    ["NO", false],
    ["no.", false],
    ["Yesterday it would have been yes", false],
    ["I think YES", false],
    ["¯\\_(ツ)_/¯", false],
  ])("asks the model when ambiguous: %j ⇒ %s", async (answer, search) => {
    const seen = scriptLlm(web, () => answer);
    const decision = await shouldSearch(AMBIGUOUS, WEATHER, { llm });
    expect(decision).toMatchObject({ search, reason: "model", degraded: false });
    expect(lastContent(seen[0])).toContain(AMBIGUOUS);
    expect(lastContent(seen[0])).toContain("What's the weather like?");
  });

  it("a follow-up fragment takes the rule of the question it follows", async () => {
    expect(await shouldSearch("I'm in Jordan", WEATHER)).toMatchObject({
      search: true,
      reason: "rule",
      rule: "en:weather",
    });
    expect(
      await shouldSearch("und in Wien?", [{ role: "user", content: "Wie wird das Wetter morgen?" }]),
    ).toMatchObject({
      search: true,
      rule: "de:weather",
    });
  });

  it("without a model, an ambiguous message does not search and says why", async () => {
    expect(await shouldSearch(AMBIGUOUS, [])).toMatchObject({
      search: false,
      reason: "no-model",
      degraded: true,
    });
  });

  it.each([
    ["a 500", { status: 500, body: "down" }],
    ["malformed JSON", { headers: { "content-type": "application/json" }, body: "<html>" }],
    ["a timeout", { body: "{}", delayMs: 3_000 }],
  ])("a model failure (%s) falls back to no search", async (_name, reply) => {
    scriptLlm(web, () => reply);
    const decision = await shouldSearch(AMBIGUOUS, [], { llm, deadline: Deadline.after(300) });
    expect(decision).toMatchObject({ search: false, reason: "model-failed", degraded: true });
    expect(decision.attempts[0]).toMatchObject({ provider: "llm" });
    expect(decision.attempts[0].status).not.toBe("ok");
  });

  it("saysYes reads only a leading YES", () => {
    expect(saysYes("**YES**")).toBe(true);
    expect(saysYes("yes")).toBe(true);
    expect(saysYes("yesno")).toBe(false);
    expect(saysYes("")).toBe(false);
  });
});

describe("standaloneQuery", () => {
  it("merges a place fragment into the previous question without a model", async () => {
    const q = await standaloneQuery("I'm in Jordan", WEATHER);
    expect(q).toMatchObject({ query: "What's the weather like in Jordan", method: "rule", degraded: true });
  });

  it.each([
    [
      "und in Wien?",
      [{ role: "user", content: "Wie wird das Wetter morgen?" }],
      "Wie wird das Wetter morgen in Wien",
    ],
    ["e a Roma?", [{ role: "user", content: "Farmacie aperte vicino a me" }], "Farmacie aperte in Roma"],
    ["and tomorrow?", [{ role: "user", content: "Weather in Oslo?" }], "Weather in Oslo tomorrow"],
    ["Who wrote Faust?", [{ role: "user", content: "Weather in Oslo?" }], "Who wrote Faust?"],
  ] as [string, Turn[], string][])("heuristic: %s ⇒ %s", async (message, history, expected) => {
    expect((await standaloneQuery(message, history)).query).toBe(expected);
  });

  it("a message with no earlier turn stands as it is, not degraded", async () => {
    expect(await standaloneQuery("weather in Amman", [])).toMatchObject({
      query: "weather in Amman",
      method: "as-is",
      degraded: false,
    });
  });

  it("asks the model when configured and keeps its first clean line", async () => {
    const seen = scriptLlm(web, () => '"Weather forecast for Amman, Jordan"\nextra');
    const q = await standaloneQuery("I'm in Jordan", WEATHER, { llm });
    expect(q).toMatchObject({
      query: "Weather forecast for Amman, Jordan",
      method: "model",
      degraded: false,
    });
    expect(lastContent(seen[0])).toContain("I'm in Jordan");
  });

  it("falls back to the heuristic when the model fails", async () => {
    scriptLlm(web, () => ({ status: 503, body: "" }));
    const q = await standaloneQuery("I'm in Jordan", WEATHER, { llm });
    expect(q).toMatchObject({ query: "What's the weather like in Jordan", method: "rule", degraded: true });
  });
});

describe("planQueries", () => {
  it("without a model: the standalone rewrite as the single query, year added when timely", async () => {
    expect(await planQueries("latest Node.js LTS release", [], { now })).toMatchObject({
      queries: ["latest Node.js LTS release 2026"],
      method: "rule",
      degraded: true,
    });
    expect((await planQueries("I'm in Jordan", WEATHER, { now })).queries).toEqual([
      "What's the weather like in Jordan",
    ]);
  });

  it("with a model: up to four queries, list marks stripped, year added, duplicates and guarded queries dropped", async () => {
    scriptLlm(web, (body) =>
      systemContent(body).startsWith("Plan")
        ? "1. current Bundesliga table\n2. Bayern Munich next match 2025\n- cat ~/.ssh/id_rsa\n3. current Bundesliga table\n4. a\n5. fifth query"
        : "Bundesliga table and Bayern Munich's next match",
    );
    const plan = await planQueries("und Bayern?", [{ role: "user", content: "Wie steht die Bundesliga?" }], {
      llm,
      now,
    });
    expect(plan.method).toBe("model");
    expect(plan.queries).toEqual(["current Bundesliga table 2026", "Bayern Munich next match 2025"]);
    expect(plan.refused[0]).toContain("home-directory path");
    expect(plan.degraded).toBe(false);
  });

  it("a failing model plans the rule-based query and says so", async () => {
    scriptLlm(web, () => ({ status: 500, body: "" }));
    const plan = await planQueries("Who designed the Zugspitze cable car?", [], { llm, now });
    expect(plan).toMatchObject({
      queries: ["Who designed the Zugspitze cable car?"],
      method: "rule",
      degraded: true,
    });
  });

  it("refuses a message carrying a local path: no query at all", async () => {
    const plan = await planQueries("what is in ~/.aws/credentials", [], { now });
    expect(plan.queries).toEqual([]);
    expect(plan.refused).toHaveLength(1);
  });
});
