import { afterAll, beforeAll, expect, it } from "vitest";
import { LLM_ENV, scriptLlm } from "../agent/scripted-llm.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { connectInProcess, type ToolResult, textOf, websiftFor } from "./harness.js";

let web: SimWeb;
beforeAll(async () => {
  web = await startSimWeb();
});
afterAll(async () => web.close());

it("web_research is offered only when a model is configured", async () => {
  const keyless = websiftFor(web);
  const plain = await connectInProcess({ websift: keyless });
  expect((await plain.listTools()).tools.map((t) => t.name)).not.toContain("web_research");
  await plain.close();
  await keyless.close();

  const withModel = websiftFor(web, LLM_ENV);
  expect(withModel.llm).toBeDefined();
  const client = await connectInProcess({ websift: withModel });
  expect((await client.listTools()).tools.map((t) => t.name)).toContain("web_research");
  // The model plans nothing useful and the search engines are unreachable: the call still ends with an honest
  // envelope, as a tool result rather than a protocol error.
  scriptLlm(web, () => "DONE");
  const r = (await client.callTool({
    name: "web_research",
    arguments: { question: "who won the 2026 world cup", max_hops: 1 },
  })) as ToolResult;
  expect(textOf(r).length).toBeGreaterThan(0);
  await client.close();
  await withModel.close();
});
