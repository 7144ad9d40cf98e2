import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildServeApp, listen, type ServeAppOptions } from "../../src/serve/app.js";
import {
  createServeContext,
  type ServeContextOptions,
  type ServeRuntime,
} from "../../src/serve/serve-context.js";
import type { SimWeb } from "../simweb/index.js";

export interface Served {
  url: string;
  port: number;
  ctx: ServeRuntime;
  app: FastifyInstance;
  /** The directory standing in for cwd and home: config file and .env of this instance. */
  dir: string;
  logs: string[];
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** A new conversation id, issued by this instance. */
  conversation(headers?: Record<string, string>): Promise<string>;
  close(): Promise<void>;
}

/** One `websift serve` in process on a loopback port, its library pointed at the simulated web. */
export async function serve(
  web: SimWeb,
  options: {
    env?: Record<string, string | undefined>;
    context?: Partial<ServeContextOptions>;
    app?: ServeAppOptions;
  } = {},
): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), "websift-serve-"));
  const logs: string[] = [];
  const ctx = createServeContext({
    cwd: dir,
    home: dir,
    env: { WEBSIFT_STORE: "memory", ...options.env },
    overrides: { ...web.netConfig, settings: { ddgRetryDelayMs: 5 }, timeoutMs: 15_000 },
    session: { waitMs: 50 },
    log: (line) => logs.push(line),
    ...options.context,
  });
  const app = await buildServeApp(ctx, options.app);
  const where = await listen(app, ctx, { port: 0, token: options.app?.token });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${where.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  return {
    url: where.url,
    port: where.port,
    ctx,
    app,
    dir,
    logs,
    post,
    conversation: (headers) => conversationAt(where.url, headers),
    async close() {
      await app.close();
      await ctx.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts a conversation on the service at `url` and returns the id it issued. */
export async function conversationAt(url: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${url}/v1/conversations`, { method: "POST", headers });
  if (res.status !== 201) throw new Error(`POST /v1/conversations answered ${res.status}`);
  return ((await res.json()) as { conversation_id: string }).conversation_id;
}

/** A door the simulated web waits behind: requests hang until the test opens it. */
export function gate(): { wait: Promise<void>; open(): void } {
  let open = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

export interface EventStream {
  /** The next `landed` event's data. */
  next(): Promise<{ id: string; event: string; data: Record<string, unknown> }>;
  /** Comment lines seen so far (": connected", ": keep-alive"). */
  comments: string[];
  /** Reads on until the comment line `text` came. */
  comment(text: string): Promise<void>;
  close(): void;
}

/** A Server-Sent Events reader over fetch, as a browser-less client would read the stream. */
export async function openEvents(url: string, headers: Record<string, string> = {}): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  if (res.status !== 200 || !res.body) throw new Error(`event stream answered ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const queued: Array<{ id: string; event: string; data: Record<string, unknown> }> = [];
  const comments: string[] = [];
  let buffer = "";
  const readOne = async () => {
    const { value, done } = await reader.read();
    if (done) throw new Error("event stream ended");
    buffer += value;
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields: Record<string, string> = {};
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) comments.push(line);
        else {
          const at = line.indexOf(":");
          fields[line.slice(0, at)] = line.slice(at + 1).trimStart();
        }
      }
      if (fields.event)
        queued.push({ id: fields.id ?? "", event: fields.event, data: JSON.parse(fields.data ?? "{}") });
      end = buffer.indexOf("\n\n");
    }
  };
  return {
    comments,
    async next() {
      while (queued.length === 0) await readOne();
      return queued.shift() as { id: string; event: string; data: Record<string, unknown> };
    },
    async comment(text) {
      while (!comments.includes(text)) await readOne();
    },
    close: () => abort.abort(),
  };
}
