import { z } from "zod";
import { errorView } from "../ground/model-view.js";
import { type ToolOutput, WEB_TOOLS, type WebTool } from "../mcp/tools.js";
import type { Websift } from "../websift.js";

/** A Chat Completions / Responses function tool: plain JSON Schema, no SDK needed. */
export interface OpenAIFunctionTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The model's request, as Chat Completions puts it in `message.tool_calls[]`. */
export interface OpenAIToolCall {
  id: string;
  type?: "function";
  function: { name: string; arguments: string };
}

export interface OpenAIToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** web_search, web_fetch and web_answer as OpenAI function definitions. */
export function openaiTools(): OpenAIFunctionTool[] {
  return WEB_TOOLS.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: parametersOf(t as WebTool) },
  }));
}

export interface OpenAIExecutor {
  tools: OpenAIFunctionTool[];
  /** Runs one tool call; bad JSON, unknown tools and invalid arguments come back as error text, never a throw. */
  run(call: OpenAIToolCall, options?: { signal?: AbortSignal }): Promise<ToolOutput>;
  /** Runs every call of an assistant message (in parallel) and returns the `tool` messages to send back. */
  respond(calls: OpenAIToolCall[], options?: { signal?: AbortSignal }): Promise<OpenAIToolMessage[]>;
}

export function createOpenAIExecutor(websift: Websift): OpenAIExecutor {
  const byName = new Map(WEB_TOOLS.map((t) => [t.name, t as WebTool]));
  const run: OpenAIExecutor["run"] = async (call, options = {}) => {
    const tool = byName.get(call.function.name);
    if (!tool) return failure(`unknown tool ${call.function.name}; use ${[...byName.keys()].join(", ")}`);
    let raw: unknown;
    try {
      raw = call.function.arguments.trim() ? JSON.parse(call.function.arguments) : {};
    } catch {
      return failure(`${tool.name}: arguments are not valid JSON`);
    }
    const parsed = z.object(tool.input).safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return failure(
        `${tool.name}: invalid argument ${issue?.path.join(".") || ""}: ${issue?.message ?? "invalid"}`,
      );
    }
    return tool.run(websift, parsed.data as never, { signal: options.signal });
  };
  return {
    tools: openaiTools(),
    run,
    async respond(calls, options) {
      const outputs = await Promise.all(calls.map((c) => run(c, options)));
      return calls.map((c, i) => ({ role: "tool", tool_call_id: c.id, content: outputs[i]?.text ?? "" }));
    },
  };
}

function parametersOf(tool: WebTool): Record<string, unknown> {
  const { $schema: _, ...schema } = z.toJSONSchema(z.object(tool.input)) as Record<string, unknown>;
  return schema;
}

const failure = errorView;
