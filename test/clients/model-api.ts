import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Loopback stand-ins for the model APIs the real clients talk to. Each plays a scripted model: its turns ask
 * for the tools in order (by the suffix of the name the client gave the tool, so `mcp__websift__web_fetch`
 * and `websift__web_fetch` both match), and it records exactly what the client sent back after each call.
 */
export interface ScriptedCall {
  /** The websift tool, e.g. "web_fetch". */
  tool: string;
  args: Record<string, unknown>;
}

export interface ModelStandIn {
  url: string;
  /** What the client sent back for each scripted call, in order (the raw output as the model would read it). */
  outputs: string[];
  /** Every request body the stand-in saw, for a failing test's message. */
  requests: { path: string; body: unknown }[];
  /** The tool names the client offered the model on its first main-turn request. */
  toolNames: string[];
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

function sse(res: ServerResponse, events: { event: string; data: unknown }[]): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const e of events) res.write(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
  res.end();
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: http.Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** Which client tool name stands for a websift tool (the client may prefix it with the server's name). */
const nameFor = (names: string[], tool: string) => names.find((n) => n === tool || n.endsWith(`__${tool}`));

/** The OpenAI Responses API (`wire_api = "responses"`), streamed, as Codex CLI speaks it. */
export async function startResponsesApi(script: ScriptedCall[]): Promise<ModelStandIn> {
  const state = {
    outputs: [] as string[],
    requests: [] as { path: string; body: unknown }[],
    toolNames: [] as string[],
  };
  let n = 0;
  const server = http.createServer(async (req, res) => {
    const body = (await bodyOf(req)) as
      | {
          input?: { type?: string; call_id?: string; output?: unknown }[];
          tools?: { type?: string; name?: string; tools?: { name?: string }[] }[];
        }
      | undefined;
    state.requests.push({ path: `${req.method} ${req.url}`, body });
    if (req.method !== "POST" || !req.url?.endsWith("/responses")) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not here"}}');
      return;
    }
    // Codex 0.171 groups an MCP server's tools in a namespace (`mcp__websift`); a call names the namespace.
    const names = (body?.tools ?? []).flatMap((t) =>
      t.type === "namespace" ? (t.tools ?? []).map((inner) => `${t.name}__${inner.name}`) : [t.name ?? ""],
    );
    if (!state.toolNames.length) state.toolNames.push(...names.filter(Boolean));
    // Every function_call_output the client sent for our calls, in order: the latest ones are new.
    const outputs = (body?.input ?? []).filter((i) => i.type === "function_call_output");
    state.outputs.splice(0, state.outputs.length, ...outputs.map((o) => outputText(o.output)));
    const id = `resp_${++n}`;
    const step = script[outputs.length];
    const name = step && nameFor(names, step.tool);
    const split = name?.lastIndexOf("__") ?? -1;
    const item = name
      ? {
          type: "function_call",
          id: `fc_${n}`,
          call_id: `call_${n}`,
          ...(split > 0 ? { namespace: name.slice(0, split), name: name.slice(split + 2) } : { name }),
          arguments: JSON.stringify(step.args),
          status: "completed",
        }
      : {
          type: "message",
          id: `msg_${n}`,
          role: "assistant",
          status: "completed",
          content: [
            { type: "output_text", text: step ? `no tool named ${step.tool}` : "Done.", annotations: [] },
          ],
        };
    const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };
    sse(res, [
      {
        event: "response.created",
        data: { type: "response.created", response: { id, status: "in_progress" } },
      },
      {
        event: "response.output_item.added",
        data: { type: "response.output_item.added", output_index: 0, item },
      },
      {
        event: "response.output_item.done",
        data: { type: "response.output_item.done", output_index: 0, item },
      },
      {
        event: "response.completed",
        data: { type: "response.completed", response: { id, status: "completed", output: [item], usage } },
      },
    ]);
  });
  return { url: await listen(server), ...state, close: close(server) };
}

/** A function_call_output's output: a string, or content items whose texts the model reads. */
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output))
    return output
      .map((c: { text?: string }) => (typeof c?.text === "string" ? c.text : JSON.stringify(c)))
      .join("\n");
  return JSON.stringify(output);
}

/** The Anthropic Messages API, streamed, as Claude Code speaks it. */
export async function startMessagesApi(script: ScriptedCall[]): Promise<ModelStandIn> {
  const state = {
    outputs: [] as string[],
    requests: [] as { path: string; body: unknown }[],
    toolNames: [] as string[],
  };
  let n = 0;
  type Block = { type: string; tool_use_id?: string; content?: unknown; text?: string };
  const server = http.createServer(async (req, res) => {
    const body = (await bodyOf(req)) as
      | {
          stream?: boolean;
          model?: string;
          tools?: { name?: string }[];
          messages?: { role: string; content: string | Block[] }[];
        }
      | undefined;
    state.requests.push({ path: `${req.method} ${req.url}`, body });
    if (req.method !== "POST" || !req.url?.startsWith("/v1/messages")) {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end('{"type":"error","error":{"type":"not_found_error","message":"not here"}}');
      return;
    }
    if (req.url.startsWith("/v1/messages/count_tokens")) {
      res.writeHead(200, { "content-type": "application/json" }).end('{"input_tokens":10}');
      return;
    }
    const names = (body?.tools ?? []).map((t) => t.name ?? "").filter(Boolean);
    const main = names.some((name) => nameFor([name], "web_fetch"));
    const results: string[] = [];
    for (const m of body?.messages ?? [])
      if (m.role === "user" && Array.isArray(m.content))
        for (const b of m.content) if (b.type === "tool_result") results.push(toolResultText(b.content));
    if (main) {
      if (!state.toolNames.length) state.toolNames.push(...names);
      state.outputs.splice(0, state.outputs.length, ...results);
    }
    const step = main ? script[results.length] : undefined;
    const name = step && nameFor(names, step.tool);
    const id = `msg_${++n}`;
    const model = body?.model ?? "claude-stand-in";
    const usage = { input_tokens: 10, output_tokens: 5 };
    const block = name ? { type: "tool_use", id: `toolu_${n}`, name, input: {} } : { type: "text", text: "" };
    const delta = name
      ? { type: "input_json_delta", partial_json: JSON.stringify(step.args) }
      : { type: "text_delta", text: main ? "Done." : "Stand-in." };
    const stop = name ? "tool_use" : "end_turn";
    if (!body?.stream) {
      const content = name
        ? [{ ...block, input: step.args }]
        : [{ type: "text", text: delta.type === "text_delta" ? delta.text : "" }];
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id,
          type: "message",
          role: "assistant",
          model,
          content,
          stop_reason: stop,
          stop_sequence: null,
          usage,
        }),
      );
      return;
    }
    sse(res, [
      {
        event: "message_start",
        data: {
          type: "message_start",
          message: {
            id,
            type: "message",
            role: "assistant",
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage,
          },
        },
      },
      { event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: block } },
      { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta } },
      { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
      {
        event: "message_delta",
        data: {
          type: "message_delta",
          delta: { stop_reason: stop, stop_sequence: null },
          usage: { output_tokens: 5 },
        },
      },
      { event: "message_stop", data: { type: "message_stop" } },
    ]);
  });
  return { url: await listen(server), ...state, close: close(server) };
}

/** A tool_result's content: a string, or blocks whose texts the model reads. */
function toolResultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((b: { type?: string; text?: string }) => (b?.type === "text" ? (b.text ?? "") : JSON.stringify(b)))
      .join("\n");
  return JSON.stringify(content);
}
