import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { type McpHttpServer, startMcpHttp } from "../../src/mcp/http.js";
import { heldPage, until } from "../session/harness.js";
import { connectInProcess, useHeldWeb } from "./harness.js";

const shared = useHeldWeb();

const slowPage = () => heldPage(shared.web, shared.releases, "Tasked");

async function inProcess(): Promise<Client> {
  // A wait far longer than the test: a task never waits, whatever the server's wait.
  const client = await connectInProcess({ websift: shared.websift, waitMs: 600_000 });
  shared.clients.push(client);
  return client;
}

/** A task-augmented tools/call, as a client with tasks makes it; the stream ends with the result or an error. */
function callAsTask(client: Client, url: string) {
  return client.experimental.tasks.callToolStream({ name: "web_fetch", arguments: { url } }, undefined, {
    task: { ttl: 60_000 },
  });
}

async function next<T>(stream: AsyncGenerator<T>): Promise<T> {
  const { value, done } = await stream.next();
  if (done) throw new Error("the stream ended");
  return value;
}

describe("MCP tasks backed by the session", () => {
  it("advertises tasks for tools/call and optional task support on the lookup tools", async () => {
    const client = await inProcess();
    expect(client.getServerCapabilities()?.tasks?.requests?.tools?.call).toBeDefined();
    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
    expect(support).toMatchObject({ web_search: "optional", web_fetch: "optional", web_answer: "optional" });
    expect(support.web_result).not.toBe("optional");
  });

  it("a task-augmented call returns a task at once; the result arrives through the task when the lookup lands", async () => {
    const client = await inProcess();
    const route = slowPage();
    const stream = callAsTask(client, route.url);
    const created = await next(stream);
    expect(created.type).toBe("taskCreated");
    const taskId = created.type === "taskCreated" ? created.task.taskId : "";
    await route.arrived;
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe("working");

    route.release();
    let last = await next(stream);
    while (last.type === "taskStatus") last = await next(stream);
    expect(last.type).toBe("result");
    const result = last.type === "result" ? last.result : undefined;
    expect(result?.isError).toBeFalsy();
    expect(JSON.stringify(result?.content)).toContain("Tasked page");
    expect(result?.structuredContent).toMatchObject({
      status: "ok",
      text: expect.stringContaining("Tasked page"),
    });
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe("completed");
    expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(taskId);
  });

  it("tasks/cancel stops a lookup nobody else waits for", async () => {
    const client = await inProcess();
    const route = slowPage();
    const created = await next(callAsTask(client, route.url));
    const taskId = created.type === "taskCreated" ? created.task.taskId : "";
    await route.arrived;
    await client.experimental.tasks.cancelTask(taskId);
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe("cancelled");
    await until(() => route.dropped());
  });

  it("another client cannot see or read a client's task (Streamable HTTP, one server)", async () => {
    const server: McpHttpServer = await startMcpHttp({ websift: shared.websift, port: 0 });
    try {
      const connect = async () => {
        const client = new Client({ name: "websift-tasks-http", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        shared.clients.push(client);
        return client;
      };
      const [owner, other] = [await connect(), await connect()];
      const route = slowPage();
      const stream = callAsTask(owner, route.url);
      const created = await next(stream);
      const taskId = created.type === "taskCreated" ? created.task.taskId : "";
      await expect(other.experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i);
      expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);

      route.release();
      let last = await next(stream);
      while (last.type === "taskStatus") last = await next(stream);
      expect(last.type === "result" && JSON.stringify(last.result.content)).toContain("Tasked page");
    } finally {
      await Promise.all(shared.clients.splice(0).map((c) => c.close()));
      await server.close();
    }
  });
});
