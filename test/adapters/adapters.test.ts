import { ToolMessage } from "@langchain/core/messages";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { websiftTools } from "../../src/adapters/ai-sdk.js";
import { websiftLangChainTools } from "../../src/adapters/langchain.js";
import { createOpenAIExecutor, openaiResponsesTools, openaiTools } from "../../src/adapters/openai.js";
import type { Websift } from "../../src/websift.js";
import {
  expectFenced,
  expectSafeObject,
  HOSTILE_QUERY,
  HOSTILE_URL,
  SECRET,
  serveHostileWeb,
} from "../ground/hostile-web.js";
import { serveWeb, websiftFor } from "../mcp/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";

let web: SimWeb;
let websift: Websift;
beforeAll(async () => {
  web = await startSimWeb();
  websift = websiftFor(web);
});
afterAll(async () => {
  await websift.close();
  await web.close();
});
afterEach(() => web.reset());

const FENCED =
  /<<<WEB_CONTENT nonce=[A-Za-z0-9_-]+ source=https:\/\/www\.example\.com\/tides>>>[\s\S]*Spring tides[\s\S]*<<<END_WEB_CONTENT nonce=/;
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** OpenAI's strict-mode rules, checked on every object of a schema. */
function expectStrict(schema: Record<string, unknown>): void {
  const types = [schema.type].flat();
  if (types.includes("object")) {
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(Object.keys(properties));
    for (const property of Object.values(properties)) expectStrict(property);
  }
  if (schema.items) expectStrict(schema.items as Record<string, unknown>);
}

describe("OpenAI function tools", () => {
  it("defines the three functions for strict mode, in the Chat Completions and the Responses shape", () => {
    const chat = openaiTools();
    const responses = openaiResponsesTools();
    expect(chat.map((t) => t.function.name)).toEqual(["web_search", "web_fetch", "web_answer"]);
    expect(responses.map((t) => t.name)).toEqual(["web_search", "web_fetch", "web_answer"]);
    for (const [i, t] of chat.entries()) {
      expect(t.function.strict).toBe(true);
      expect(responses[i]).toEqual({ type: "function", ...t.function });
      expectStrict(t.function.parameters);
    }
    const fetch = chat[1]?.function.parameters as {
      required: string[];
      properties: Record<string, { type?: unknown; enum?: unknown[] }>;
    };
    expect(fetch.required).toEqual(["url", "max_chars", "looking_for", "offset", "mode"]);
    expect(fetch.properties.url?.type).toBe("string");
    expect(fetch.properties.max_chars?.type).toEqual(["integer", "null"]);
    expect(fetch.properties.mode?.enum).toEqual(["passages", "cut", "head-tail", null]);
    expect(JSON.stringify(chat)).not.toMatch(/\$schema|minLength|maxLength/);
  });

  it("takes null for an option the model left out, and still refuses a null where a value is required", async () => {
    serveWeb(web);
    const exec = createOpenAIExecutor(websift);
    const nulls = { max_chars: null, looking_for: null, offset: null, mode: null };
    const out = await exec.run({
      id: "c1",
      function: {
        name: "web_fetch",
        arguments: JSON.stringify({ url: "https://www.example.com/tides", ...nulls }),
      },
    });
    expect(out.isError).toBe(false);
    expect(out.text).toMatch(FENCED);
    const missing = await exec.run({
      id: "c2",
      function: { name: "web_fetch", arguments: JSON.stringify({ url: null, ...nulls }) },
    });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/^web_fetch: invalid argument url: /);
  });

  it("answers a Responses API output's function calls with function_call_output items", async () => {
    serveHostileWeb(web);
    const exec = createOpenAIExecutor(websift);
    const items = await exec.respondToResponse([
      { type: "reasoning" },
      {
        type: "function_call",
        call_id: "fc_1",
        name: "web_fetch",
        arguments: JSON.stringify({
          url: HOSTILE_URL,
          max_chars: null,
          looking_for: null,
          offset: null,
          mode: null,
        }),
      },
      {
        type: "function_call",
        call_id: "fc_2",
        name: "web_search",
        arguments: JSON.stringify({ query: HOSTILE_QUERY, provider: "duckduckgo" }),
      },
    ] as never);
    expect(items.map((i) => [i.type, i.call_id])).toEqual([
      ["function_call_output", "fc_1"],
      ["function_call_output", "fc_2"],
    ]);
    for (const item of items) expectFenced(item.output);
    expect(items[0]?.output.split("\n")[0]).toBe(`${HOSTILE_URL} (source: extracted-html)`);
  });

  it("gives a program the compact safe view, never the raw page", async () => {
    serveHostileWeb(web);
    const exec = createOpenAIExecutor(websift);
    for (const [name, args] of [
      ["web_fetch", { url: HOSTILE_URL }],
      ["web_search", { query: HOSTILE_QUERY, provider: "duckduckgo" }],
      ["web_answer", { query: HOSTILE_QUERY }],
    ] as const) {
      const out = await exec.run({ id: name, function: { name, arguments: JSON.stringify(args) } });
      expectSafeObject(out.structured);
      expect(out.structured.text).toBe(out.text);
    }
  });

  it("executes a Chat Completions tool call and answers with tool messages", async () => {
    serveWeb(web);
    const exec = createOpenAIExecutor(websift);
    const calls = [
      {
        id: "call_1",
        type: "function" as const,
        function: { name: "web_fetch", arguments: '{"url":"https://www.example.com/tides"}' },
      },
      { id: "call_2", type: "function" as const, function: { name: "web_fetch", arguments: "{not json" } },
      {
        id: "call_3",
        type: "function" as const,
        function: { name: "web_fetch", arguments: '{"url":"https://www.example.com/tides","max_chars":5}' },
      },
      { id: "call_4", type: "function" as const, function: { name: "rm_rf", arguments: "{}" } },
    ];
    const messages = await exec.respond(calls);
    expect(messages.map((m) => m.tool_call_id)).toEqual(["call_1", "call_2", "call_3", "call_4"]);
    expect(messages[0]?.content).toMatch(FENCED);
    expect(messages[1]?.content).toBe("web_fetch: arguments are not valid JSON");
    expect(messages[2]?.content).toMatch(/^web_fetch: invalid argument max_chars: /);
    expect(messages[3]?.content).toMatch(/^unknown tool rm_rf/);
    expect(messages.some((m) => m.content.includes(SECRET))).toBe(false);
    expect((await exec.run(calls[1] as never)).isError).toBe(true);
  });
});

describe("Vercel AI SDK tools", () => {
  it("run through generateText when the model calls them", async () => {
    serveWeb(web);
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        step++;
        if (step === 1)
          return {
            content: [
              {
                type: "tool-call",
                toolCallId: "t1",
                toolName: "web_fetch",
                input: JSON.stringify({ url: "https://www.example.com/tides", max_chars: 2000 }),
              },
            ],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          };
        return {
          content: [{ type: "text", text: "Spring tides follow the new moon." }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        };
      },
    });
    const result = await generateText({
      model,
      tools: websiftTools(websift),
      prompt: "When are spring tides?",
      stopWhen: stepCountIs(3),
    });
    const toolResult = result.steps[0]?.toolResults[0];
    expect(toolResult?.toolName).toBe("web_fetch");
    expect((toolResult?.output as { text?: string } | undefined)?.text).toMatch(FENCED);
    expect(result.text).toBe("Spring tides follow the new moon.");
    // The second model call saw the tool's text in its prompt.
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt)).toContain(
      "Spring tides follow the new and full moon",
    );
  });
});

describe("LangChain tools", () => {
  it("invoke with arguments and with a model's tool call", async () => {
    serveWeb(web);
    const tools = websiftLangChainTools(websift);
    expect(tools.map((t) => t.name)).toEqual(["web_search", "web_fetch", "web_answer"]);
    const fetchTool = tools[1];
    if (!fetchTool) throw new Error("web_fetch missing");
    expect(String(await fetchTool.invoke({ url: "https://www.example.com/tides" }))).toMatch(FENCED);
    const message = await fetchTool.invoke({
      type: "tool_call",
      id: "lc_1",
      name: "web_fetch",
      args: { url: "https://www.example.com/tides" },
    });
    expect(message).toBeInstanceOf(ToolMessage);
    expect((message as ToolMessage).tool_call_id).toBe("lc_1");
    expect(String((message as ToolMessage).content)).toMatch(FENCED);
    await expect(fetchTool.invoke({ url: 42 } as never)).rejects.toThrow();
  });
});

describe("what each adapter hands a model and a program, from a hostile web", () => {
  it("AI SDK: the program gets the compact view, the model the fenced text, neither the secret", async () => {
    serveHostileWeb(web);
    let step = 0;
    const calls = [
      { toolCallId: "f", toolName: "web_fetch", input: JSON.stringify({ url: HOSTILE_URL }) },
      {
        toolCallId: "s",
        toolName: "web_search",
        input: JSON.stringify({ query: HOSTILE_QUERY, provider: "duckduckgo" }),
      },
      { toolCallId: "a", toolName: "web_answer", input: JSON.stringify({ query: HOSTILE_QUERY }) },
    ];
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        step++;
        if (step === 1)
          return {
            content: calls.map((c) => ({ type: "tool-call" as const, ...c })),
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          };
        return {
          content: [{ type: "text", text: "done" }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        };
      },
    });
    const result = await generateText({
      model,
      tools: websiftTools(websift),
      prompt: "tides?",
      stopWhen: stepCountIs(3),
    });
    const outputs = result.steps[0]?.toolResults ?? [];
    expect(outputs).toHaveLength(3);
    for (const r of outputs) expectSafeObject(r.output, { status: /^(ok|partial)$/ });
    // What the second model call was sent for each tool result: exactly the view's text.
    const prompt = model.doGenerateCalls[1]?.prompt ?? [];
    const sent = prompt.flatMap((m) => (m.role === "tool" ? m.content : []));
    expect(sent).toHaveLength(3);
    for (const part of sent) {
      const output = (part as { output: { type: string; value: string } }).output;
      expect(output.type).toBe("text");
      expectFenced(output.value);
    }
    expect(JSON.stringify(prompt)).not.toContain(SECRET);
    expect(JSON.stringify(prompt)).not.toMatch(/"markdown"|"snippet"/);
  });

  it("LangChain: the ToolMessage's content is the fenced text, its artifact the compact view", async () => {
    serveHostileWeb(web);
    const [search, fetchTool, answer] = websiftLangChainTools(websift);
    for (const [tool, args] of [
      [fetchTool, { url: HOSTILE_URL }],
      [search, { query: HOSTILE_QUERY, provider: "duckduckgo" }],
      [answer, { query: HOSTILE_QUERY }],
    ] as const) {
      if (!tool) throw new Error("tool missing");
      const message = (await tool.invoke({
        type: "tool_call",
        id: "lc",
        name: tool.name,
        args,
      })) as ToolMessage;
      expect(message).toBeInstanceOf(ToolMessage);
      expectFenced(String(message.content));
      expectSafeObject(message.artifact);
      expect(message.artifact.text).toBe(message.content);
    }
  });
});
