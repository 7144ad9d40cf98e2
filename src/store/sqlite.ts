import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type Database from "better-sqlite3";
import { loadBetterSqlite3 } from "./backend-modules.js";
import type { StoreStatus } from "./fallback.js";
import type { Store } from "./store.js";

/** `~/.cache/websift/state.db`, or under `$XDG_CACHE_HOME` when the user has moved their caches. */
export function defaultStatePath(env: Record<string, string | undefined>): string {
  const cache = env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
  return join(cache, "websift", "state.db");
}

// A sweep every this many writes keeps a long-running server's file from filling with expired pages.
const SWEEP_EVERY = 500;

/**
 * The default backend for the CLI and single-machine servers: survives between runs and is shared by every
 * websift process on the machine. WAL lets readers proceed while one process writes; the busy timeout makes a
 * writer wait for another instead of failing.
 */
export class SqliteStore implements Store {
  readonly kind = "sqlite";
  private readonly db: Database.Database;
  private readonly getStmt: Database.Statement<[string, number], { value: string }>;
  private readonly setStmt: Database.Statement<[string, string, number]>;
  private readonly deleteStmt: Database.Statement<[string]>;
  private readonly reserve: (key: string, intervalMs: number, maxWaitMs: number) => number;
  private writes = 0;

  constructor(readonly path: string) {
    // The file holds cached pages and search history: private to the user, like a browser profile.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, "a", 0o600));
    chmodSync(path, 0o600);

    const Sqlite = loadBetterSqlite3();
    this.db = new Sqlite(path, { timeout: 5000 });
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS slots (key TEXT PRIMARY KEY, next INTEGER NOT NULL) WITHOUT ROWID;
    `);
    this.getStmt = this.db.prepare("SELECT value FROM kv WHERE key = ? AND expires > ?");
    this.setStmt = this.db.prepare("INSERT OR REPLACE INTO kv (key, value, expires) VALUES (?, ?, ?)");
    this.deleteStmt = this.db.prepare("DELETE FROM kv WHERE key = ?");

    const readSlot = this.db.prepare<[string], { next: number }>("SELECT next FROM slots WHERE key = ?");
    const writeSlot = this.db.prepare("INSERT OR REPLACE INTO slots (key, next) VALUES (?, ?)");
    const book = this.db.transaction((key: string, intervalMs: number, maxWaitMs: number) => {
      const now = Date.now();
      const next = Math.max(now, readSlot.get(key)?.next ?? 0);
      if (next - now <= maxWaitMs) writeSlot.run(key, next + intervalMs);
      return next - now;
    });
    // IMMEDIATE takes the write lock before reading, so two processes cannot both read the same next slot.
    this.reserve = (key, intervalMs, maxWaitMs) => book.immediate(key, intervalMs, maxWaitMs);
    this.sweep();
  }

  async get<T>(key: string): Promise<T | undefined> {
    const row = this.getStmt.get(key, Date.now());
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    this.setStmt.run(key, JSON.stringify(value), Date.now() + ttlMs);
    if (++this.writes % SWEEP_EVERY === 0) this.sweep();
  }

  async delete(key: string): Promise<void> {
    this.deleteStmt.run(key);
  }

  async reserveSlot(key: string, intervalMs: number, maxWaitMs = Number.POSITIVE_INFINITY): Promise<number> {
    return this.reserve(key, intervalMs, maxWaitMs);
  }

  /** Deletes expired entries and slots already in the past; returns how many rows went. */
  sweep(): number {
    const now = Date.now();
    const kv = this.db.prepare("DELETE FROM kv WHERE expires <= ?").run(now).changes;
    const slots = this.db.prepare("DELETE FROM slots WHERE next <= ?").run(now).changes;
    return kv + slots;
  }

  status(): StoreStatus {
    return { backend: "sqlite", degraded: false };
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
