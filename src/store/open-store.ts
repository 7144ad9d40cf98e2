import { warnDeprecated } from "../core/deprecation.js";
import type { StoreStatus } from "./fallback.js";
import { RedisStore } from "./redis.js";
import { defaultStatePath, SqliteStore } from "./sqlite.js";
import { MemoryStore, type Store } from "./store.js";

export type { StoreStatus } from "./fallback.js";

/** A Store that can say which backend it is and whether it is standing in for the one configured. */
export type StatusStore = Store & { status(): StoreStatus };

export interface OpenStoreOptions {
  /** WEBSIFT_STORE as the loader read it (`Settings.store.kind`): memory, sqlite or redis. */
  kind?: string;
  /** WEBSIFT_REDIS_URL (`Settings.store.redisUrl`). */
  redisUrl?: string;
  /** The sqlite file (`Settings.store.path`: `~/.cache/websift/state.db` unless the cache home moved). */
  path?: string;
  /**
   * @deprecated Pass `kind`, `redisUrl` and `path` (`Settings.store`, from `loadConfig().values`); an environment
   * given here is read for WEBSIFT_STORE, WEBSIFT_REDIS_URL and the cache home, for one minor version.
   */
  env?: Record<string, string | undefined>;
  log: (line: string) => void;
}

const BACKENDS = ["memory", "sqlite", "redis"] as const;

/**
 * Picks the backend: `WEBSIFT_STORE` when set, else redis when `WEBSIFT_REDIS_URL` names one (a fleet), else
 * sqlite (one machine). A backend that cannot open leaves websift on memory, never without a store.
 */
export function openStore(options: OpenStoreOptions): StatusStore {
  const { env, log } = options;
  if (env)
    warnDeprecated(
      "openStore.env",
      "websift: openStore({ env }) is deprecated, pass { ...loadConfig().values.store, log }; env goes in the next minor version",
      "websift-option-name",
    );
  const forced = options.kind ?? (env?.WEBSIFT_STORE?.trim().toLowerCase() || undefined);
  if (forced && !BACKENDS.includes(forced as (typeof BACKENDS)[number])) {
    log(
      `store: WEBSIFT_STORE=${forced} is not one of ${BACKENDS.join(", ")}; choosing from WEBSIFT_REDIS_URL`,
    );
  }
  const url = options.redisUrl ?? (env?.WEBSIFT_REDIS_URL?.trim() || undefined);
  const backend = BACKENDS.find((b) => b === forced) ?? (url ? "redis" : "sqlite");

  if (backend === "memory") return memoryStore({ backend: "memory", degraded: false });
  if (backend === "redis") {
    if (url) return new RedisStore({ url, log });
    return standIn("redis", "WEBSIFT_STORE=redis but WEBSIFT_REDIS_URL is not set", log);
  }
  try {
    return new SqliteStore(options.path ?? defaultStatePath(env ?? {}));
  } catch (error) {
    return standIn("sqlite", error instanceof Error ? error.message : String(error), log);
  }
}

function standIn(backend: StoreStatus["backend"], reason: string, log: (line: string) => void): StatusStore {
  log(`store: ${backend} unavailable (${reason}); using an in-process store, so nothing is shared or kept`);
  return memoryStore({ backend, degraded: true, reason });
}

function memoryStore(status: StoreStatus): StatusStore {
  return Object.assign(new MemoryStore(), { status: () => status });
}
