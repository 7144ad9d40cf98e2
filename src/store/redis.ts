import type { Redis } from "ioredis";
import { loadIoredis } from "./backend-modules.js";
import { BackendHealth, type StoreStatus } from "./fallback.js";
import { withinResponsiveTime } from "./responsive-timeout.js";
import { MemoryStore, type Store } from "./store.js";

export interface RedisStoreOptions {
  /** `WEBSIFT_REDIS_URL`, e.g. `redis://:password@cache.internal:6379/0`. */
  url: string;
  log: (line: string) => void;
  /** Answers while Redis is unreachable; a MemoryStore unless a test wants to look inside. */
  fallback?: Store;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
}

// Books the next slot on the server's clock, not the caller's: a fleet's machines disagree by more than a Brave
// interval often enough. The slot key expires once its slot is past, so idle limiters leave nothing behind.
const RESERVE_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local maxWait = tonumber(ARGV[2])
local next = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
if maxWait < 0 or next - now <= maxWait then
  redis.call('SET', KEYS[1], next + interval, 'PX', next + interval - now + 1000)
end
return next - now
`;

type ReservingRedis = Redis & {
  /** maxWaitMs < 0: no bound. */
  websiftReserveSlot(key: string, intervalMs: number, maxWaitMs: number): Promise<number>;
};

/**
 * Shared state for a fleet: one cache, one memory of suspended providers, one rate limit per paid key. Redis being
 * down never fails a call: each one answers from the local fallback and `status()` says so until Redis is back.
 */
export class RedisStore implements Store {
  readonly kind = "redis";
  private readonly redis: ReservingRedis;
  private readonly fallback: Store;
  private readonly health: BackendHealth;
  private readonly firstContact: Promise<void>;
  private lastError: string | undefined;
  private readonly commandTimeoutMs: number;

  constructor(options: RedisStoreOptions) {
    this.fallback = options.fallback ?? new MemoryStore();
    this.health = new BackendHealth("redis", options.log);
    const connectTimeout = options.connectTimeoutMs ?? 2000;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 1000;
    const { Redis } = loadIoredis();
    this.redis = new Redis(options.url, {
      keyPrefix: "websift:",
      connectTimeout,
      // A search's reads before its first request (the web switch, one MGET of its cache entry and its first
      // engine's cooldowns) are issued in one tick: they go out in one write and come back in one read.
      enableAutoPipelining: true,
      // Fail fast while disconnected instead of queueing searches behind a reconnect.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
    }) as ReservingRedis;
    this.redis.defineCommand("websiftReserveSlot", { numberOfKeys: 1, lua: RESERVE_SLOT });

    this.redis.on("error", (error: Error) => {
      this.lastError = error.message;
    });
    this.redis.on("close", () => {
      if (this.redis.status !== "end") this.health.degrade(this.lastError ?? "connection lost");
    });
    this.redis.on("ready", () => this.health.recover());

    // The first call waits for the first connection attempt (bounded), so a CLI run does not start degraded.
    this.firstContact = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, connectTimeout);
      timer.unref();
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.redis.once("ready", done);
      this.redis.once("error", done);
    });
  }

  async get<T>(key: string): Promise<T | undefined> {
    return this.run(
      async (r) => {
        const raw = await r.get(key);
        return raw === null ? undefined : (JSON.parse(raw) as T);
      },
      () => this.fallback.get<T>(key),
    );
  }

  async getMany<T>(keys: readonly string[]): Promise<(T | undefined)[]> {
    if (keys.length === 0) return [];
    return this.run(
      async (r) => (await r.mget(...keys)).map((raw) => (raw === null ? undefined : (JSON.parse(raw) as T))),
      () => Promise.all(keys.map((key) => this.fallback.get<T>(key))),
    );
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    const px = Math.max(1, Math.ceil(ttlMs));
    await this.run(
      async (r) => {
        await r.set(key, JSON.stringify(value), "PX", px);
      },
      () => this.fallback.set(key, value, ttlMs),
    );
  }

  async delete(key: string): Promise<void> {
    await this.run(
      async (r) => {
        await r.del(key);
      },
      () => this.fallback.delete(key),
    );
  }

  async reserveSlot(key: string, intervalMs: number, maxWaitMs?: number): Promise<number> {
    const bound =
      maxWaitMs === undefined || !Number.isFinite(maxWaitMs) ? -1 : Math.max(0, Math.round(maxWaitMs));
    return this.run(
      (r) => r.websiftReserveSlot(key, Math.max(0, Math.round(intervalMs)), bound),
      () => this.fallback.reserveSlot(key, intervalMs, maxWaitMs),
    );
  }

  status(): StoreStatus {
    return this.health.status();
  }

  async close(): Promise<void> {
    if (this.redis.status === "ready") await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
    await this.fallback.close();
  }

  private async run<T>(op: (redis: ReservingRedis) => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    await this.firstContact;
    if (this.redis.status !== "ready") {
      this.health.degrade(this.lastError ?? `connection ${this.redis.status}`);
      return fallback();
    }
    try {
      // No fixed command timeout: see withinResponsiveTime.
      const result = await withinResponsiveTime(op(this.redis), this.commandTimeoutMs, "redis");
      this.health.recover();
      return result;
    } catch (error) {
      this.health.degrade(error instanceof Error ? error.message : String(error));
      return fallback();
    }
  }
}
