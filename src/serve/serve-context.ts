import { join } from "node:path";
import { webAbilityGate } from "../config/abilities.js";
import { CONFIG_FILE_NAME, loadConfig, type ResolvedConfig } from "../config/load.js";
import { PROVIDERS } from "../search/registry.js";
import { failedLookup, shuttingDown } from "../session/failed-lookup.js";
import type { LookupKind } from "../session/lookup-key.js";
import { Mailbox } from "../session/mailbox.js";
import { createSession, type Landing, type Session, type SessionOptions } from "../session/session.js";
import { MemoryMailboxStore } from "../store/mailbox-store.js";
import { openStore, type StatusStore } from "../store/open-store.js";
import { RedisMailboxStore } from "../store/redis-mailbox.js";
import type { Store } from "../store/store.js";
import { type ArgsOf, hookWebsift, type MethodHooks, type ResultOf } from "../surface/websift-hooks.js";
import { createWebsift, type Websift, type WebsiftConfig } from "../websift.js";
import type { ActivityEntry, ServeContext } from "./context.js";

/** Lookups the service runs at once across all conversations (the rest queue within their deadline). */
const SERVICE_LOOKUPS = 64;

export interface ServeContextOptions {
  cwd?: string;
  home?: string;
  /** The real environment (default process.env); `.env` in cwd sits below it. */
  env?: Record<string, string | undefined>;
  /** Library options that win over the config (tests: the simulated web's netConfig). */
  overrides?: Partial<WebsiftConfig>;
  /** Shared state; opened from the config (sqlite, or redis with WEBSIFT_REDIS_URL) when absent. */
  store?: StatusStore;
  /** lookupTimeoutMs, maxConcurrent of the conversation session; waitMs wins over the config's waitSeconds. */
  session?: Omit<SessionOptions, "onLanded" | "mailbox">;
  /** How often this instance looks for lookups of stopped instances (default 1 s), and their heartbeat. */
  mailbox?: { reapEveryMs?: number; aliveMs?: number; heartbeatMs?: number };
  log?: (line: string) => void;
  /** Recent API calls kept for the Health page (default 200). */
  activityLimit?: number;
}

/** The context plus what only the server itself uses: recording calls, hearing landings, shutting down. */
export interface ServeRuntime extends ServeContext {
  record(entry: ActivityEntry): void;
  /** Every lookup that outlived its turn, for the event streams; returns the unsubscribe function. */
  onLanded(listener: (landing: Landing) => void): () => void;
  /** Whether web access is on for the current instance (config, WEBSIFT_ENABLED, the switch in overrides). */
  enabled(): Promise<boolean>;
  /**
   * For a process told to stop: new calls answer `shutting_down` at once, calls in flight (direct ones and
   * conversations' lookups) get up to `graceMs` to finish, then are stopped and answer, or land, as
   * `shutting_down`. Resolves once every landing is in the mailbox; `close()` follows.
   */
  drain(graceMs: number): Promise<void>;
  /** True from the start of `drain()`: the health route says so, for a load balancer to stop sending. */
  draining(): boolean;
  close(): Promise<void>;
}

/** One built library instance and the calls still running on it. */
interface Generation {
  config: ResolvedConfig;
  enabled: () => Promise<boolean>;
  raw: Websift;
  view: Websift;
  running: number;
  retired: boolean;
  closed?: Promise<void>;
}

export function createServeContext(options: ServeContextOptions = {}): ServeRuntime {
  const log = options.log ?? ((line: string) => process.stderr.write(`websift: ${line}\n`));
  const cwd = options.cwd ?? process.cwd();
  const envPath = join(cwd, ".env");
  // The keys of every provider this instance runs, a custom one's included, are read with the rest.
  const keyNames = (options.overrides?.providers ?? PROVIDERS).flatMap((p) => p.keyEnv ?? []);
  const load = () => loadConfig({ cwd, home: options.home, env: options.env, envPath, keyNames });
  const first = load();
  const store = options.store ?? openStore({ ...first.values.store, log });
  // Every generation shares this store; closing a generation must not close it.
  const shared = keepOpen(store);
  const activity: ActivityEntry[] = [];
  const activityLimit = options.activityLimit ?? 200;
  const listeners = new Set<(landing: Landing) => void>();
  // Results owed to conversations: in Redis for a fleet (its instances deliver each other's landings and land a
  // stopped one's lookups as failures), else in this process.
  const redisUrl = store.status().backend === "redis" ? first.values.store.redisUrl : undefined;
  const mailbox = new Mailbox({
    store: redisUrl
      ? new RedisMailboxStore({ url: redisUrl, log, ...options.mailbox })
      : new MemoryMailboxStore(),
    reapEveryMs: options.mailbox?.reapEveryMs,
    log,
  });
  // Aborted when a drain's grace ends: what is still running is told to stop.
  const stopping = new AbortController();
  let draining = false;
  const idle = new Set<() => void>();
  const generations = new Set<Generation>();
  let current = build(first);

  function build(config: ResolvedConfig): Generation {
    const verbose = config.values.debug;
    const settings = config.toWebsiftConfig();
    const overridden = options.overrides?.enabled;
    // The config file, the caller's override and the dashboard's switch in the shared store must all allow.
    const enabled = webAbilityGate(store, async () => (await allows(settings.enabled)) && allows(overridden));
    const raw = createWebsift({
      ...settings,
      ...options.overrides,
      store: shared,
      enabled,
      log: verbose ? log : undefined,
    });
    const gen: Generation = { config, enabled, raw, view: raw, running: 0, retired: false };
    generations.add(gen);
    gen.view = trackedView(gen);
    return gen;
  }

  // Calls started on a generation finish on it; the generation closes once retired and idle. The context
  // closes the library itself, so the view's close does nothing.
  function trackedView(gen: Generation): Websift {
    return hookWebsift(gen.raw, {
      search: stoppable("search"),
      read: stoppable("read"),
      answer: stoppable("answer"),
      close: { before: () => ({ answer: undefined }) },
      every: {
        start: () => {
          gen.running++;
        },
        settled: () => {
          gen.running--;
          if (gen.retired && gen.running === 0) retire(gen);
          if (running() === 0) for (const done of idle) done();
        },
      },
    });
  }

  // The calls a stopping service cuts off at the end of its grace, answering in their kind's shape: at once
  // while draining, and when stopped without an answer of their own.
  function stoppable<K extends LookupKind>(kind: K): MethodHooks<K> {
    // failedLookup answers in the shape of its kind, and every lookup takes (subject, options with a signal);
    // TypeScript cannot tie either to K.
    const stopped = (subject: unknown) => failedLookup(kind, String(subject), shuttingDown) as ResultOf<K>;
    return {
      before: (args) => {
        if (draining) return { answer: stopped(args[0]) };
        const [subject, given = {}] = args as [string, { signal?: AbortSignal }?];
        const signal = given.signal ? AbortSignal.any([given.signal, stopping.signal]) : stopping.signal;
        return { args: [subject, { ...given, signal }] as unknown as ArgsOf<K> };
      },
      after: (result, args) => {
        const cutOff = stopping.signal.aborted && result.status !== "ok" && result.status !== "partial";
        return cutOff ? stopped(args[0]) : result;
      },
    };
  }

  function running(): number {
    let n = 0;
    for (const gen of generations) n += gen.running;
    return n;
  }

  function retire(gen: Generation): Promise<void> {
    gen.retired = true;
    if (gen.running > 0) return Promise.resolve();
    // Only the instance's own connections: the headless browser is the process's and serves the next instance
    // too (Websift.close() would shut it under a render in flight); ctx.close() ends it with the last instance.
    generations.delete(gen);
    gen.closed ??= gen.raw.net.close().catch((err) => log(`serve: closing the old instance: ${String(err)}`));
    return gen.closed;
  }

  // The session outlives reloads: each lookup asks for the instance current when it starts.
  const session: Session = createSession(
    {
      search: (query, o) => current.view.search(query, o),
      read: (url, o) => current.view.read(url, o),
      answer: (query, o) => current.view.answer(query, o),
    },
    {
      // Read on every turn, so the wait set in the dashboard applies after its reload without a new session.
      ...(options.session?.waitMs === undefined && options.session?.waitSeconds === undefined
        ? { waitMs: () => secondsToMs(current.config.waitSeconds) }
        : {}),
      // One session serves every client of the service: the library default of 3 running lookups is one
      // conversation's, and would let three slow reads from one client queue everybody else's.
      maxConcurrent: SERVICE_LOOKUPS,
      ...options.session,
      mailbox,
      onLanded(landing) {
        for (const listener of listeners) listener(landing);
      },
    },
  );

  return {
    configPath: first.file ?? join(cwd, CONFIG_FILE_NAME),
    envPath,
    store,
    websift: () => current.view,
    session: () => session,
    config: () => current.config,
    async reload() {
      // A broken config file keeps the running instance: the error goes to the caller, nothing is swapped.
      const next = build(load());
      const old = current;
      current = next;
      void retire(old);
    },
    activity: () => activity,
    log,
    record(entry) {
      activity.unshift(entry);
      if (activity.length > activityLimit) activity.length = activityLimit;
    },
    onLanded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async enabled() {
      if (!current.config.values.search.enabled) return false;
      return current.enabled();
    },
    draining: () => draining,
    async drain(graceMs) {
      draining = true;
      const direct = async () => {
        let timer: NodeJS.Timeout | undefined;
        if (running() > 0)
          await new Promise<void>((resolve) => {
            idle.add(resolve);
            timer = setTimeout(resolve, graceMs);
          });
        clearTimeout(timer);
        idle.clear();
        stopping.abort(new Error(shuttingDown.message));
      };
      await Promise.all([direct(), session.drain(graceMs)]);
      // Calls told to stop answer within moments; the HTTP server's close waits for their replies.
    },
    async close() {
      await session.close();
      await mailbox.close();
      await current.raw.close().catch((err) => log(`serve: closing: ${String(err)}`));
      await store.close();
    },
  };
}

async function allows(setting: WebsiftConfig["enabled"]): Promise<boolean> {
  return (typeof setting === "function" ? await setting() : setting) !== false;
}

function keepOpen(store: StatusStore): Store & { status: StatusStore["status"] } {
  return {
    kind: store.kind,
    get: (key) => store.get(key),
    getMany: store.getMany?.bind(store),
    set: (key, value, ttlMs) => store.set(key, value, ttlMs),
    delete: (key) => store.delete(key),
    reserveSlot: (key, intervalMs, maxWaitMs) => store.reserveSlot(key, intervalMs, maxWaitMs),
    status: () => store.status(),
    close: async () => {},
  };
}

const secondsToMs = (seconds: number | undefined) => (seconds === undefined ? undefined : seconds * 1000);
