import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  readWebAbility,
  WEB_ABILITY_KEY,
  webAbilityGate,
  writeWebAbility,
} from "../../src/config/abilities.js";
import { SqliteStore } from "../../src/store/sqlite.js";
import { MemoryStore } from "../../src/store/store.js";
import { createWebsift } from "../../src/websift.js";
import { ddgResultsPage } from "../ground/answer/ddg-page.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";

let web: SimWeb;
let dir: string;
beforeAll(async () => {
  web = await startSimWeb();
  dir = mkdtempSync(join(tmpdir(), "websift-abilities-"));
});
afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => web.reset());

const serveResults = () =>
  web.route("html.duckduckgo.com", "/html/", {
    headers: { "content-type": "text/html; charset=utf-8" },
    body: ddgResultsPage(
      ["a", "b", "c"].map((n) => ({
        title: `Zugspitze ${n}`,
        url: `https://www.example.com/${n}`,
        snippet: `The Zugspitze, part ${n}`,
      })),
    ),
  });

describe("the web ability switch", () => {
  it("is on until the operator turns it off, and the choice survives a new process on the same state file", async () => {
    const path = join(dir, "state.db");
    const first = new SqliteStore(path);
    expect(await readWebAbility(first)).toEqual({ on: true });
    const written = await writeWebAbility(first, false);
    expect(written.on).toBe(false);
    await first.close();

    const second = new SqliteStore(path);
    const seen = await readWebAbility(second);
    expect(seen.on).toBe(false);
    expect(seen.changedAt).toBe(written.changedAt);
    await writeWebAbility(second, true);
    await second.close();
    const third = new SqliteStore(path);
    expect((await readWebAbility(third)).on).toBe(true);
    await third.close();
  });

  it("off: every call of an instance answers disabled and the simulated web sees no request; on again: it searches", async () => {
    serveResults();
    const store = new MemoryStore();
    const websift = createWebsift({
      ...web.netConfig,
      store,
      enabled: webAbilityGate(store),
      settings: { ddgRetryDelayMs: 5 },
    });
    await writeWebAbility(store, false);
    const search = await websift.search("zugspitze", { cache: false });
    const page = await websift.read("https://www.example.com/a");
    const answer = await websift.answer("how high is the zugspitze");
    expect(search.status).toBe("disabled");
    expect(page.status).toBe("disabled");
    expect(answer.status).toBe("disabled");
    expect(web.requests).toHaveLength(0);

    await writeWebAbility(store, true);
    const again = await websift.search("zugspitze", { cache: false });
    expect(again.status).toBe("ok");
    expect(web.requests.length).toBeGreaterThan(0);
    await websift.close();
  });

  it("a configured `enabled: false` wins over a switch that is on", async () => {
    const store = new MemoryStore();
    expect(await webAbilityGate(store, false)()).toBe(false);
    expect(await webAbilityGate(store, () => false)()).toBe(false);
    expect(await webAbilityGate(store, true)()).toBe(true);
  });

  it("a store standing in for an unreachable backend keeps the last state it read instead of turning on", async () => {
    const backing = new MemoryStore();
    let degraded = false;
    const store = Object.assign(backing, { status: () => ({ degraded }) });
    const gate = webAbilityGate(store);
    await writeWebAbility(store, false);
    expect(await gate()).toBe(false);
    degraded = true;
    await backing.delete(WEB_ABILITY_KEY);
    expect(await gate()).toBe(false);
    degraded = false;
    expect(await gate()).toBe(true);
  });
});
