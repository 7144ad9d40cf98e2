import { type Tool, tool } from "ai";
import { z } from "zod";
import { WEB_TOOLS, type WebTool } from "../mcp/tools.js";
import type { Websift } from "../websift.js";

export type WebsiftAiTools = Record<"web_search" | "web_fetch" | "web_answer", Tool>;

/**
 * web_search, web_fetch and web_answer as Vercel AI SDK tools: `generateText({ tools: websiftTools(websift) })`.
 * Each returns the text written for the model (fenced page text, envelopes, one-line failures).
 */
export function websiftTools(websift: Websift): WebsiftAiTools {
  const entries = WEB_TOOLS.map((t) => {
    const spec = t as WebTool;
    return [
      spec.name,
      tool({
        description: spec.description,
        inputSchema: z.object(spec.input),
        execute: async (args: Record<string, unknown>, { abortSignal }) =>
          (await spec.run(websift, args as never, { signal: abortSignal })).text,
      }),
    ];
  });
  return Object.fromEntries(entries) as WebsiftAiTools;
}
