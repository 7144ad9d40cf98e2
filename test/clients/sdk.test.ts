import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectModelRead, SCRIPT } from "./pages.js";
import { type ClientWorld, MAIN, startWorld } from "./setup.js";

// The official SDK client against the built server, over stdio (the client starts it) and Streamable HTTP
// (bound to loopback with a token). A client may hand its model the text or the JSON of structuredContent:
// both channels must read as the model view.
type Result = { content: { type: string; text?: string }[]; structuredContent?: unknown };
const TOKEN = "test-SECRET-mcp-clients-token-01";

let world: ClientWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});

/** Each channel a client may hand its model, for each scripted call. */
async function channels(client: Client): Promise<{ text: string[]; structured: string[] }> {
  const text: string[] = [];
  const structured: string[] = [];
  for (const step of SCRIPT) {
    const r = (await client.callTool({ name: step.tool, arguments: step.args })) as Result;
    text.push(r.content.map((c) => c.text ?? "").join("\n"));
    structured.push(
      r.structuredContent === undefined ? (text.at(-1) ?? "") : JSON.stringify(r.structuredContent),
    );
  }
  return { text, structured };
}

function checks(connect: () => Promise<Client>) {
  let seen: { text: string[]; structured: string[] };
  beforeAll(async () => {
    const client = await connect();
    seen = await channels(client);
    await client.close();
  }, 60_000);
  for (const channel of ["text", "structured"] as const) {
    it(`${channel}: web_fetch reads fenced, with our status line, no secret`, () => {
      expectModelRead.page(seen[channel][0] ?? "");
    });
    it(`${channel}: web_search reads fenced, no secret`, () => {
      expectModelRead.search(seen[channel][1] ?? "");
    });
    it(`${channel}: the fetch past the wait tells the model to call web_result`, () => {
      expectModelRead.pending(seen[channel][2] ?? "");
    });
  }
}

describe("the SDK client over stdio", () => {
  checks(async () => {
    const client = new Client({ name: "websift-clients", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, "mcp"],
        env: world.serverEnv,
        stderr: "ignore",
      }),
    );
    return client;
  });
});

describe("the SDK client over Streamable HTTP, with the token in its headers", () => {
  let server: ChildProcess;
  let url: string;
  beforeAll(async () => {
    server = spawn(process.execPath, [MAIN, "mcp", "--http", "--port", "0"], {
      cwd: world.home,
      env: { ...world.serverEnv, WEBSIFT_MCP_TOKEN: TOKEN },
      stdio: ["ignore", "ignore", "pipe"],
    });
    url = await new Promise<string>((resolve, reject) => {
      let stderr = "";
      server.stderr?.on("data", (d) => {
        stderr += d;
        const m = /listening on (\S+)/.exec(stderr);
        if (m?.[1]) resolve(m[1]);
      });
      server.on("exit", (code) => reject(new Error(`websift mcp --http exited ${code}: ${stderr}`)));
    });
  }, 30_000);
  afterAll(() => {
    server.kill();
  });
  checks(async () => {
    const client = new Client({ name: "websift-clients", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    return client;
  });
  it("without the token, the SDK client is refused with the header to set", async () => {
    const client = new Client({ name: "websift-clients", version: "1.0.0" });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow(
      /Authorization: Bearer <WEBSIFT_MCP_TOKEN>/,
    );
  });
});
