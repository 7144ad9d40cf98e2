import { DynamicStructuredTool } from "@langchain/core/tools";
import { z } from "zod";
import { WEB_TOOLS, type WebTool } from "../mcp/tools.js";
import type { Websift } from "../websift.js";

/**
 * web_search, web_fetch and web_answer as LangChain.js tools (`model.bindTools(tools)`, agents, `tool.invoke`).
 * Each returns the text written for the model; the run config's signal cancels the call.
 */
export function websiftLangChainTools(websift: Websift): DynamicStructuredTool[] {
  return WEB_TOOLS.map((t) => {
    const spec = t as WebTool;
    return new DynamicStructuredTool({
      name: spec.name,
      description: spec.description,
      schema: z.object(spec.input),
      func: async (args, _run, config) =>
        (await spec.run(websift, args as never, { signal: config?.signal })).text,
    });
  });
}
