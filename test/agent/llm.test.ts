import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLlm } from "../../src/agent/llm.js";
import { Deadline } from "../../src/core/deadline.js";
import { createWebsift, type Websift } from "../../src/websift.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { LLM_ENV, LLM_HOST, scriptLlm } from "./scripted-llm.js";

const KEY = "sk-test-Abcdef0123456789Abcdef0123456789";
let web: SimWeb;
let websift: Websift;
const env = { ...LLM_ENV, WEBSIFT_LLM_API_KEY: KEY };
beforeAll(async () => {
  web = await startSimWeb();
  websift = createWebsift({ ...web.netConfig, env });
});
afterAll(async () => {
  await websift.close();
  await web.close();
});
afterEach(() => web.reset());

const chat = (ms = 5_000) =>
  createLlm({ net: websift.net, env })?.chat([{ role: "user", content: "hi" }], {
    deadline: Deadline.after(ms),
  });

describe("llm: the OpenAI-compatible client", () => {
  it("is absent without WEBSIFT_LLM_BASE_URL", () => {
    expect(createLlm({ net: websift.net, env: {} })).toBeUndefined();
  });

  it("posts the model and messages with the bearer key and returns the first choice's text", async () => {
    const seen = scriptLlm(web, () => "  Hello there  ");
    const reply = await chat();
    expect(reply).toMatchObject({ ok: true, text: "Hello there" });
    expect(seen[0]).toMatchObject({ model: "scripted", messages: [{ role: "user", content: "hi" }] });
    const req = web.requests.find((r) => r.host === LLM_HOST);
    expect(req?.method).toBe("POST");
    expect(req?.path).toBe("/v1/chat/completions");
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("sends no Authorization header without a key", async () => {
    scriptLlm(web, () => "ok");
    await createLlm({ net: websift.net, env: LLM_ENV })?.chat([{ role: "user", content: "x" }], {
      deadline: Deadline.after(5_000),
    });
    expect(web.requests.find((r) => r.host === LLM_HOST)?.headers.authorization).toBeUndefined();
  });

  it.each([
    ["an HTTP 500", { status: 500, body: `{"error":"boom ${KEY}"}` }, "http_status", "error"],
    ["an HTTP 429", { status: 429, body: "slow down" }, "http_status", "rate_limited"],
    [
      "a body that is not JSON",
      { headers: { "content-type": "application/json" }, body: "{not json" },
      "malformed",
      "error",
    ],
    [
      "JSON without choices",
      { headers: { "content-type": "application/json" }, body: '{"object":"error"}' },
      "malformed",
      "error",
    ],
    [
      "an empty choices list",
      { headers: { "content-type": "application/json" }, body: '{"choices":[]}' },
      "empty",
      "error",
    ],
    [
      "a blank message",
      { headers: { "content-type": "application/json" }, body: '{"choices":[{"message":{"content":"  "}}]}' },
      "empty",
      "error",
    ],
  ])("turns %s into a typed failure without the key", async (_name, reply, code, status) => {
    scriptLlm(web, () => reply);
    const res = await chat();
    expect(res).toMatchObject({ ok: false, code, status });
    expect(JSON.stringify(res)).not.toContain(KEY);
  });

  it("gives up at the deadline with a timeout failure", async () => {
    scriptLlm(web, () => ({ body: "{}", delayMs: 3_000 }));
    const res = await chat(200);
    expect(res).toMatchObject({ ok: false, code: "timeout", status: "timeout" });
    expect(JSON.stringify(res)).not.toContain(KEY);
  });
});
