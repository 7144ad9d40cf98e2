import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { defaultStatePath, SqliteStore } from "../../src/store/sqlite.js";

const dir = mkdtempSync(join(tmpdir(), "websift-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SqliteStore", () => {
  it("lives in ~/.cache/websift/state.db unless XDG_CACHE_HOME moves it", () => {
    expect(defaultStatePath({ HOME: "/home/ada" })).toBe("/home/ada/.cache/websift/state.db");
    expect(defaultStatePath({ HOME: "/home/ada", XDG_CACHE_HOME: "/var/cache/ada" })).toBe(
      "/var/cache/ada/websift/state.db",
    );
  });

  it("creates its directory 0700 and its file 0600", async () => {
    const path = join(dir, "private", "websift", "state.db");
    const store = new SqliteStore(path);
    await store.set("k", 1, 60_000);
    expect(statSync(join(dir, "private", "websift")).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(`${path}-wal`).mode & 0o777).toBe(0o600);
    await store.close();
  });

  it("keeps values between runs and uses WAL so processes can share the file", async () => {
    const path = join(dir, "persist.db");
    const first = new SqliteStore(path);
    await first.set("search:abc", { response: "cached" }, 60_000);
    await first.close();
    const second = new SqliteStore(path);
    expect(await second.get("search:abc")).toEqual({ response: "cached" });
    await second.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    raw.close();
  });

  it("sweeps expired entries and past slots out of the file", async () => {
    const path = join(dir, "sweep.db");
    const store = new SqliteStore(path);
    // The store keeps time by Date.now(): moved by hand, the entries expire without a wait.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      for (let i = 0; i < 10; i++) await store.set(`old:${i}`, i, 1);
      await store.set("fresh", "kept", 60_000);
      await store.reserveSlot("rate:past", 1);
      vi.setSystemTime(Date.now() + 20);
      expect(store.sweep()).toBe(11);
      expect(await store.get("fresh")).toBe("kept");
    } finally {
      vi.useRealTimers();
      await store.close();
    }
  });

  // The timeout is a hang guard: a second Node process compiling TypeScript on a busy machine can take most of
  // the default one to start.
  it("books slots that never overlap when two processes share one file", async () => {
    const path = join(dir, "shared.db");
    const interval = 60_000;
    const count = 40;
    await new SqliteStore(path).close();

    const childScript = fileURLToPath(new URL("./reserve-child.ts", import.meta.url));
    const child = spawn(
      process.execPath,
      ["--import", "tsx", childScript, path, "rate:brave", String(count), String(interval)],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let out = "";
    const ready = new Promise<void>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("ready")) resolve();
      });
    });
    await ready;

    const store = new SqliteStore(path);
    const mine: number[] = [];
    for (let i = 0; i < count; i++) {
      mine.push(Date.now() + (await store.reserveSlot("rate:brave", interval)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await store.close();
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    const theirs: number[] = JSON.parse(out.split("\n")[1]);

    const all = [...mine, ...theirs];
    const first = Math.min(...all);
    // Slot k falls k intervals after the first, give or take the ms between booking and reading the clock.
    const indices = all.map((t) => Math.round((t - first) / interval)).sort((a, b) => a - b);
    expect(indices).toEqual(Array.from({ length: 2 * count }, (_, k) => k));
  }, 60_000);
});
