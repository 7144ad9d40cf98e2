import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONVERSATION_HEADER, type McpHttpServer, startMcpHttp } from "../../src/mcp/http.js";
import { type Mail, Mailbox } from "../../src/session/mailbox.js";
import { RedisMailboxStore } from "../../src/store/redis-mailbox.js";
import { heldPage } from "../session/harness.js";
import { RedisServer } from "../store/redis-server.js";
import { type ToolResult, textOf, useHeldWeb } from "./harness.js";

// MCP clients over real sockets: several HTTP sessions of one named conversation, on one server and across two
// servers sharing a real redis-server, as a fleet of `websift mcp --http` instances would.
const shared = useHeldWeb();
const UNKNOWN = /^web_result: no running or landed lookup/;
const CONVERSATION = "test-conversation-harbour-0427";

let redis: RedisServer;
beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(async () => {
  await redis?.kill();
});

async function connect(server: McpHttpServer, conversation?: string): Promise<Client> {
  const headers: Record<string, string> = conversation ? { [CONVERSATION_HEADER]: conversation } : {};
  const client = new Client({ name: "websift-conversation-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  shared.clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

/** A web_fetch of a held page that replies "still running": its id, and the page's door. */
async function pendingFetch(client: Client) {
  const page = heldPage(shared.web, shared.releases, "Harbour");
  const r = await call(client, "web_fetch", { url: page.url });
  expect(r.structuredContent).toMatchObject({ status: "pending" });
  return { id: String(r.structuredContent?.id), page };
}

/** Resolves when `mailbox` hears the landing `id` (on a Redis mailbox: landed anywhere in the fleet). */
function landing(mailbox: Mailbox, id: string): Promise<Mail> {
  return new Promise((resolve) => {
    const stop = mailbox.listen((mail) => {
      if (mail.id !== id) return;
      stop();
      resolve(mail);
    });
  });
}

/** A fleet instance's mailbox, once both of its Redis connections are up. */
function redisMailbox(): Promise<Mailbox> {
  const store = new RedisMailboxStore({ url: redis.url, log: () => {} });
  return new Promise((resolve) => {
    const stop = store.listen(
      () => {},
      () => {
        stop();
        resolve(new Mailbox({ store, reapEveryMs: 60_000 }));
      },
    );
  });
}

describe("MCP over Streamable HTTP: one mailbox for a conversation's sessions", () => {
  it("a result landed for one session is taken once through another session of the same conversation", async () => {
    const server = await startMcpHttp({ websift: shared.websift, port: 0, waitMs: 0 });
    try {
      const first = await connect(server, CONVERSATION);
      const { id, page } = await pendingFetch(first);
      const landed = landing(server.mailbox, id);
      page.release();
      await landed;

      const stranger = await connect(server);
      expect(textOf(await call(stranger, "web_result", { id }))).toMatch(UNKNOWN);
      const second = await connect(server, CONVERSATION);
      const got = await call(second, "web_result", { id });
      expect(got.isError).toBeFalsy();
      expect(textOf(got)).toContain("The harbour page has a first paragraph");
      // Handed once: neither the session that asked nor the second one gets it again.
      expect(textOf(await call(first, "web_result", { id }))).toMatch(UNKNOWN);
      expect(textOf(await call(second, "web_result", { id }))).toMatch(UNKNOWN);
    } finally {
      await server.close();
    }
  });

  it("sessions without a conversation name stay conversations of their own in the shared mailbox", async () => {
    const server = await startMcpHttp({ websift: shared.websift, port: 0, waitMs: 0 });
    try {
      const owner = await connect(server);
      const other = await connect(server);
      const { id, page } = await pendingFetch(owner);
      const landed = landing(server.mailbox, id);
      page.release();
      await landed;
      expect(textOf(await call(other, "web_result", { id }))).toMatch(UNKNOWN);
      expect(textOf(await call(owner, "web_result", { id }))).toContain("The harbour page");
    } finally {
      await server.close();
    }
  });

  it("refuses a conversation name that could be guessed, naming the header", async () => {
    const server = await startMcpHttp({ websift: shared.websift, port: 0 });
    try {
      const client = new Client({ name: "websift-conversation-test", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { [CONVERSATION_HEADER]: "short" } },
      });
      await expect(client.connect(transport)).rejects.toThrow(/websift-conversation must be 16 to 128/);
      await client.close();
    } finally {
      await server.close();
    }
  });

  it("two servers on one redis-server: a result landed through one instance is taken through the other, once", async () => {
    const [mailboxA, mailboxB] = await Promise.all([redisMailbox(), redisMailbox()]);
    const a = await startMcpHttp({ websift: shared.websift, port: 0, waitMs: 0, mailbox: mailboxA });
    const b = await startMcpHttp({ websift: shared.websift, port: 0, waitMs: 0, mailbox: mailboxB });
    try {
      expect(a.mailbox).toBe(mailboxA);
      const onA = await connect(a, CONVERSATION);
      const { id, page } = await pendingFetch(onA);
      // Heard on B over the fleet's channel: the landing is in Redis.
      const heardOnB = landing(mailboxB, id);
      page.release();
      expect((await heardOnB).landing.conversationId).toBe(`mcp-named:${CONVERSATION}`);

      const elsewhere = await connect(b);
      expect(textOf(await call(elsewhere, "web_result", { id }))).toMatch(UNKNOWN);
      const onB = await connect(b, CONVERSATION);
      const got = await call(onB, "web_result", { id });
      expect(got.isError).toBeFalsy();
      expect(textOf(got)).toContain("The harbour page has a first paragraph");
      // Handed once across the fleet: the instance the lookup ran on has nothing left to hand.
      expect(textOf(await call(onA, "web_result", { id }))).toMatch(UNKNOWN);
    } finally {
      await Promise.all([a.close(), b.close()]);
      // The caller closes a mailbox it passed in: the servers left these open.
      expect(mailboxA.status().backend).toBe("redis");
      await Promise.all([mailboxA.close(), mailboxB.close()]);
    }
  });
});
