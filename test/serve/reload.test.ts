import { writeFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { until } from "../session/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { gate, openEvents, type Served, serve } from "./harness.js";

let web: SimWeb;
let server: Served;
beforeAll(async () => {
  web = await startSimWeb();
  server = await serve(web);
});
afterAll(async () => {
  await server.close();
  await web.close();
});
afterEach(() => web.reset());

const page = (title: string) => ({
  headers: { "content-type": "text/html" },
  body: `<html><head><title>${title}</title></head><body><main><article><h1>${title}</h1><p>${"Reloading the settings never drops a call that is already on its way. ".repeat(5)}</p></article></main></body></html>`,
});

describe("reload", () => {
  it("uses the new settings for the next call while calls in flight finish on the old instance", async () => {
    const door = gate();
    web.route("www.example.com", /^\/inflight/, async () => {
      await door.wait;
      return page("In flight");
    });
    const cid = await server.conversation();
    const stream = await openEvents(`${server.url}/v1/conversations/${cid}/events`);
    try {
      const direct = server.post("/v1/read", { url: "https://www.example.com/inflight-1" });
      const conversation = await (
        await server.post("/v1/read", {
          url: "https://www.example.com/inflight-2",
          conversation_id: cid,
        })
      ).json();
      expect(conversation.status).toBe("pending");
      await until(() => web.requests.length >= 2);

      expect(server.ctx.configPath.startsWith(server.dir)).toBe(true);
      writeFileSync(server.ctx.configPath, JSON.stringify({ enabled: false }));
      await server.ctx.reload();
      const after = await (await server.post("/v1/search", { query: "anything" })).json();
      expect(after.status).toBe("disabled");
      expect((await (await fetch(`${server.url}/v1/health`)).json()).abilities.web).toBe("off");

      door.open();
      const finished = await (await direct).json();
      expect(finished.status).toBe("ok");
      expect(finished.text).toMatch(/<<<WEB_CONTENT nonce=[\s\S]*In flight/);
      // The session outlived the reload: its lookup still lands on the conversation's stream.
      const landed = await stream.next();
      expect(landed.data).toMatchObject({ id: conversation.id, status: "ok" });
      expect(landed.data.text).toMatch(/<<<WEB_CONTENT nonce=[\s\S]*In flight/);
    } finally {
      stream.close();
    }
  });

  it("keeps the running instance when the new config is broken", async () => {
    writeFileSync(server.ctx.configPath, "{ not json");
    await expect(server.ctx.reload()).rejects.toThrow(/not valid JSON/);
    writeFileSync(server.ctx.configPath, JSON.stringify({ enabled: true }));
    await server.ctx.reload();
    web.route("www.example.com", "/after", page("After"));
    const read = await (await server.post("/v1/read", { url: "https://www.example.com/after" })).json();
    expect(read.status).toBe("ok");
  });
});
