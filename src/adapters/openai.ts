import { z } from "zod";
import { errorView } from "../ground/model-view.js";
import { type ToolOutput, WEB_TOOLS, type WebTool } from "../surface/tools.js";
import type { Websift } from "../websift.js";

/** A Chat Completions function tool: plain JSON Schema, no SDK needed. */
export interface OpenAIFunctionTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown>; strict: true };
}

/** The same function as the Responses API declares it (flat, no `function` wrapper). */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: true;
}

/** The model's request, as Chat Completions puts it in `message.tool_calls[]`. */
export interface OpenAIToolCall {
  id: string;
  type?: "function";
  function: { name: string; arguments: string };
}

/** The model's request, as the Responses API puts it in `output[]`. */
export interface OpenAIFunctionCall {
  type: "function_call";
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
}

export interface OpenAIToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

export interface OpenAIFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/** web_search, web_fetch and web_answer as strict Chat Completions function definitions. */
export function openaiTools(): OpenAIFunctionTool[] {
  return WEB_TOOLS.map((t) => ({
    type: "function",
    function: {
      name: t.name,
      description: t.description,
      parameters: strictParameters(t as WebTool),
      strict: true,
    },
  }));
}

/** web_search, web_fetch and web_answer as strict Responses API function tools. */
export function openaiResponsesTools(): OpenAIResponsesTool[] {
  return openaiTools().map(({ function: f }) => ({ type: "function", ...f }));
}

export interface OpenAIExecutor {
  tools: OpenAIFunctionTool[];
  responsesTools: OpenAIResponsesTool[];
  /**
   * Runs one tool call of either API. Bad JSON, unknown tools and invalid arguments come back as error text, never
   * a throw; `null` for an option means "not given" (strict mode makes the model send every property).
   */
  run(call: OpenAIToolCall | OpenAIFunctionCall, options?: { signal?: AbortSignal }): Promise<ToolOutput>;
  /** Runs every call of a Chat Completions assistant message (in parallel): the `tool` messages to send back. */
  respond(calls: OpenAIToolCall[], options?: { signal?: AbortSignal }): Promise<OpenAIToolMessage[]>;
  /** Runs every `function_call` of a Responses output (others are skipped): the items to send back as input. */
  respondToResponse(
    output: readonly { type: string }[],
    options?: { signal?: AbortSignal },
  ): Promise<OpenAIFunctionCallOutput[]>;
}

export function createOpenAIExecutor(websift: Websift): OpenAIExecutor {
  const byName = new Map(WEB_TOOLS.map((t) => [t.name, t as WebTool]));
  const run: OpenAIExecutor["run"] = async (call, options = {}) => {
    const { name, arguments: text } = "function" in call ? call.function : call;
    const tool = byName.get(name);
    if (!tool) return errorView(`unknown tool ${name}; use ${[...byName.keys()].join(", ")}`);
    let raw: unknown;
    try {
      raw = text.trim() ? JSON.parse(text) : {};
    } catch {
      return errorView(`${tool.name}: arguments are not valid JSON`);
    }
    const parsed = z.object(tool.input).safeParse(withoutNulls(raw));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return errorView(
        `${tool.name}: invalid argument ${issue?.path.join(".") || ""}: ${issue?.message ?? "invalid"}`,
      );
    }
    return tool.run(websift, parsed.data as never, { signal: options.signal });
  };
  return {
    tools: openaiTools(),
    responsesTools: openaiResponsesTools(),
    run,
    async respond(calls, options) {
      const outputs = await Promise.all(calls.map((c) => run(c, options)));
      return calls.map((c, i) => ({ role: "tool", tool_call_id: c.id, content: outputs[i]?.text ?? "" }));
    },
    async respondToResponse(output, options) {
      const calls = output.filter((item): item is OpenAIFunctionCall => item.type === "function_call");
      const outputs = await Promise.all(calls.map((c) => run(c, options)));
      return calls.map((c, i) => ({
        type: "function_call_output",
        call_id: c.call_id,
        output: outputs[i]?.text ?? "",
      }));
    },
  };
}

function withoutNulls(raw: unknown): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== null));
}

// Strict mode accepts a subset of JSON Schema: string lengths are not part of it (the executor checks them).
const NOT_IN_STRICT = new Set(["minLength", "maxLength", "$schema"]);

/**
 * OpenAI strict mode: every object closed (`additionalProperties: false`), every property required, and an
 * optional one nullable instead, so the model sends `null` for an option it leaves out.
 */
function strictParameters(tool: WebTool): Record<string, unknown> {
  const schema = z.toJSONSchema(z.object(tool.input)) as {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const required = new Set(schema.required ?? []);
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([name, property]) => {
      const strict = withoutKeywords(property);
      return [name, required.has(name) ? strict : nullable(strict)];
    }),
  );
  return {
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

function withoutKeywords(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (NOT_IN_STRICT.has(key)) continue;
    out[key] =
      value && typeof value === "object" && !Array.isArray(value)
        ? withoutKeywords(value as Record<string, unknown>)
        : value;
  }
  return out;
}

function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  const type = schema.type;
  const out: Record<string, unknown> = {
    ...schema,
    type: Array.isArray(type) ? [...type, "null"] : [type, "null"],
  };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
}
