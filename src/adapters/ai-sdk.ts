import { type Tool, tool } from "ai";
import { z } from "zod";
import { FAILURES } from "../core/status.js";
import type { ModelView } from "../ground/model-view.js";
import { WEB_TOOLS, type WebTool } from "../surface/tools.js";
import type { Websift } from "../websift.js";

export type WebsiftAiTools = Record<"web_search" | "web_fetch" | "web_answer", Tool<unknown, ModelView>>;

/**
 * web_search, web_fetch and web_answer as Vercel AI SDK tools: `generateText({ tools: websiftTools(websift) })`.
 * A program reading a tool result gets the compact view `{ status, text, …our fields }`; the model gets its
 * `text` (fenced page text, envelopes, one-line failures) through `toModelOutput`. Even an app that converts
 * messages without the tools (and so sends the output's JSON) sends nothing the fence does not hold.
 */
export function websiftTools(websift: Websift): WebsiftAiTools {
  const entries = WEB_TOOLS.map((t) => {
    const spec = t as WebTool;
    return [
      spec.name,
      tool({
        description: spec.description,
        inputSchema: z.object(spec.input),
        outputSchema: z.object(spec.output) as unknown as z.ZodType<ModelView>,
        execute: async (args: Record<string, unknown>, { abortSignal }) =>
          (await spec.run(websift, args as never, { signal: abortSignal })).structured,
        toModelOutput: ({ output }) =>
          FAILURES.includes(output.status as never)
            ? { type: "error-text", value: output.text }
            : { type: "text", value: output.text },
      }),
    ];
  });
  return Object.fromEntries(entries) as WebsiftAiTools;
}
