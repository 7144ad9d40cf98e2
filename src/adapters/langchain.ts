import { DynamicStructuredTool } from "@langchain/core/tools";
import { z } from "zod";
import { WEB_TOOLS, type WebTool } from "../surface/tools.js";
import type { Websift } from "../websift.js";

/**
 * web_search, web_fetch and web_answer as LangChain.js tools (`model.bindTools(tools)`, agents, `tool.invoke`).
 * The model reads the text written for it (the ToolMessage's content); the compact view `{ status, text, …our
 * fields }` rides along as the message's artifact, which LangChain never sends to a model. The run config's
 * signal cancels the call.
 */
export function websiftLangChainTools(websift: Websift): DynamicStructuredTool[] {
  return WEB_TOOLS.map((t) => {
    const spec = t as WebTool;
    return new DynamicStructuredTool({
      name: spec.name,
      description: spec.description,
      schema: z.object(spec.input),
      responseFormat: "content_and_artifact",
      func: async (args, _run, config) => {
        const out = await spec.run(websift, args as never, { signal: config?.signal });
        return [out.text, out.structured];
      },
    });
  });
}
