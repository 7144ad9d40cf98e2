import { ToolMessage } from "@langchain/core/messages";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { websiftTools } from "../../src/adapters/ai-sdk.js";
import { websiftLangChainTools } from "../../src/adapters/langchain.js";
import { createOpenAIExecutor, openaiTools } from "../../src/adapters/openai.js";
import type { Websift } from "../../src/websift.js";
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

describe("OpenAI function tools", () => {
  it("defines the three functions as plain JSON Schema", () => {
    const tools = openaiTools();
    expect(tools.map((t) => t.function.name)).toEqual(["web_search", "web_fetch", "web_answer"]);
    const fetch = tools[1]?.function.parameters as {
      type: string;
      required: string[];
      properties: Record<string, { type?: string }>;
    };
    expect(fetch.type).toBe("object");
    expect(fetch.required).toEqual(["url"]);
    expect(fetch.properties.max_chars?.type).toBe("integer");
    expect(JSON.stringify(tools)).not.toContain("$schema");
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
    expect(String(toolResult?.output)).toMatch(FENCED);
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
