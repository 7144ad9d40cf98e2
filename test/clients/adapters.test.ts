import type { ToolMessage } from "@langchain/core/messages";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, it } from "vitest";
import { websiftTools } from "../../src/adapters/ai-sdk.js";
import { websiftLangChainTools } from "../../src/adapters/langchain.js";
import { createOpenAIExecutor } from "../../src/adapters/openai.js";
import { MemoryStore } from "../../src/store/store.js";
import { createWebsift, type Websift } from "../../src/websift.js";
import { expectModelRead, SCRIPT } from "./pages.js";
import { type ClientWorld, startWorld } from "./setup.js";

// The framework adapters with the same pages: what each framework puts in front of the model after a call.
// They run a lookup in their own call (no session, so no pending reply): the page and the search are checked.
const [PAGE, SEARCH] = SCRIPT;
let world: ClientWorld;
let websift: Websift;
beforeAll(async () => {
  world = await startWorld();
  websift = createWebsift({ ...world.web.netConfig, env: {}, store: new MemoryStore(), timeoutMs: 15_000 });
});
afterAll(async () => {
  await websift.close();
  await world.close();
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

describe("OpenAI executor: the tool messages sent back", () => {
  it("web_fetch and web_search", async () => {
    const exec = createOpenAIExecutor(websift);
    const messages = await exec.respond(
      [PAGE, SEARCH].map((s, i) => ({
        id: `call_${i}`,
        type: "function" as const,
        function: { name: s?.tool ?? "", arguments: JSON.stringify(s?.args) },
      })),
    );
    expectModelRead.page(String(messages[0]?.content));
    expectModelRead.search(String(messages[1]?.content));
  });
});

describe("AI SDK: the tool results in the next model call's prompt", () => {
  it("web_fetch and web_search", async () => {
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        const call = [PAGE, SEARCH][step++];
        if (call)
          return {
            content: [
              {
                type: "tool-call",
                toolCallId: `t${step}`,
                toolName: call.tool,
                input: JSON.stringify(call.args),
              },
            ],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          };
        return {
          content: [{ type: "text", text: "Done." }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        };
      },
    });
    await generateText({ model, tools: websiftTools(websift), prompt: "Tides?", stopWhen: stepCountIs(4) });
    // What the model was sent: the tool-result parts of the last call's prompt, as the provider would encode them.
    const prompt = model.doGenerateCalls.at(-1)?.prompt ?? [];
    const results = prompt.flatMap((m) =>
      m.role === "tool"
        ? m.content.flatMap((p) =>
            p.type === "tool-result"
              ? [
                  p.output.type === "text"
                    ? p.output.value
                    : JSON.stringify("value" in p.output ? p.output.value : p.output),
                ]
              : [],
          )
        : [],
    );
    expectModelRead.page(results[0] ?? "");
    expectModelRead.search(results[1] ?? "");
  });
});

describe("LangChain: the ToolMessage a model's tool call gets", () => {
  it("web_fetch and web_search", async () => {
    const tools = websiftLangChainTools(websift);
    const messages: string[] = [];
    for (const [i, s] of [PAGE, SEARCH].entries()) {
      const tool = tools.find((t) => t.name === s?.tool);
      const message = (await tool?.invoke({
        type: "tool_call",
        id: `lc_${i}`,
        name: s?.tool ?? "",
        args: s?.args ?? {},
      })) as ToolMessage;
      messages.push(typeof message.content === "string" ? message.content : JSON.stringify(message.content));
    }
    expectModelRead.page(messages[0] ?? "");
    expectModelRead.search(messages[1] ?? "");
  });
});
