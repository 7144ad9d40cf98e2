import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { loadIoredis } from "./backend-modules.js";
import {
  afterId,
  DEFAULT_KEEP_MS,
  DEFAULT_PER_CONVERSATION,
  type Lease,
  type MailboxRetention,
  type MailboxStore,
  type MailItem,
  MemoryMailboxStore,
} from "./mailbox-store.js";

export interface RedisMailboxOptions extends MailboxRetention {
  url: string;
  log: (line: string) => void;
  /** An instance that has not said it is alive for this long has stopped (default 3 s)… */
  aliveMs?: number;
  /** …and says so this often (default 1 s). */
  heartbeatMs?: number;
  /**
   * The time retention is judged by (`keepMs` against each item's `at`), the mailbox's clock, so a test moves
   * it by hand. The heartbeat stays on wall time: it races Redis's own key expiry.
   */
  now?: () => number;
}

const PREFIX = "websift:mail:";
const CHANNEL = "websift:mail";
const LEASES = `${PREFIX}leases`;
const ALIVE = `${PREFIX}alive:`;

// One round trip per landing: drop the lease (when it must still be ours), append once by id, trim, expire,
// and tell the fleet.
const APPEND = `
if ARGV[5] == '1' and redis.call('HDEL', KEYS[3], ARGV[1]) == 0 then return 0 end
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 2 end
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 1
`;

// Leases whose owner's alive key has expired, taken in one step so two reapers never land the same one. The
// alive keys are named from the leases' contents, which a standalone Redis (not a cluster) allows.
const CLAIM_ORPHANS = `
local all = redis.call('HGETALL', KEYS[1])
local claimed = {}
local alive = {}
for i = 1, #all, 2 do
  local ok, lease = pcall(cjson.decode, all[i + 1])
  local owner = ok and lease.owner or ''
  if alive[owner] == nil then alive[owner] = redis.call('EXISTS', ARGV[1] .. owner) == 1 end
  if not alive[owner] then
    redis.call('HDEL', KEYS[1], all[i])
    if ok then table.insert(claimed, all[i + 1]) end
  end
end
return claimed
`;

type MailRedis = Redis & {
  websiftMailAppend(
    list: string,
    ids: string,
    leases: string,
    id: string,
    raw: string,
    maxLen: number,
    keepMs: number,
    leased: string,
    channel: string,
    message: string,
  ): Promise<number>;
  websiftClaimOrphans(leases: string, alivePrefix: string): Promise<string[]>;
};

/**
 * The fleet's mailbox in Redis: a list per conversation, a set of the ids taken by a stream, one channel that
 * tells every instance of each append, and leases on owed lookups with a heartbeat per instance. While Redis is
 * away, items go to a local mailbox and an outbox; once it is back the outbox is written through (each id once)
 * and listeners are told of the gap, so a stream re-reads what it may have missed: nothing that landed is lost.
 */
export class RedisMailboxStore implements MailboxStore {
  readonly shared = true;
  readonly retention: MailboxStore["retention"];
  private readonly cmd: MailRedis;
  private readonly sub: Redis;
  private readonly local: MemoryMailboxStore;
  private readonly outbox: Array<{ conversationId: string; item: MailItem }> = [];
  private readonly listeners = new Set<(conversationId: string, item: MailItem) => void>();
  private readonly gapListeners = new Set<() => void>();
  /** Leases written to Redis (a lease that went nowhere while Redis was away must not block its landing). */
  private readonly leasedHere = new Set<string>();
  private readonly instance = randomUUID();
  private readonly keepMs: number;
  private readonly perConversation: number;
  private readonly aliveMs: number;
  private readonly now: () => number;
  private readonly heartbeat: NodeJS.Timeout;
  private away = false;
  private subscribed = false;
  private closed = false;

  constructor(private readonly options: RedisMailboxOptions) {
    this.keepMs = options.keepMs ?? DEFAULT_KEEP_MS;
    this.perConversation = options.perConversation ?? DEFAULT_PER_CONVERSATION;
    this.retention = { keepMs: this.keepMs, perConversation: this.perConversation };
    this.aliveMs = options.aliveMs ?? 3000;
    this.now = options.now ?? Date.now;
    this.local = new MemoryMailboxStore(options, this.now);
    const { Redis } = loadIoredis();
    this.cmd = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      retryStrategy: (attempt) => Math.min(100 * attempt, 1000),
    }) as MailRedis;
    this.cmd.defineCommand("websiftMailAppend", { numberOfKeys: 3, lua: APPEND });
    this.cmd.defineCommand("websiftClaimOrphans", { numberOfKeys: 1, lua: CLAIM_ORPHANS });
    // A subscribed connection can do nothing else. It waits for Redis however long it is away and subscribes
    // on each connect itself: ioredis's own re-subscription is sent after "ready", with no word of when it holds,
    // and what the fleet published between the two would go unheard without a catch-up after it.
    this.sub = new Redis(options.url, {
      maxRetriesPerRequest: null,
      autoResubscribe: false,
      retryStrategy: (attempt) => Math.min(100 * attempt, 1000),
    });
    for (const conn of [this.cmd, this.sub]) {
      conn.on("error", (err: Error) => this.wentAway(err.message));
      conn.on("close", () => {
        if (conn === this.sub) this.subscribed = false;
        this.wentAway("connection lost");
      });
    }
    this.cmd.on("ready", () => void this.cameBack());
    this.sub.on("ready", () => {
      this.sub.subscribe(CHANNEL).then(
        () => {
          this.subscribed = true;
          void this.cameBack();
        },
        (err: Error) => this.wentAway(err.message),
      );
    });
    this.sub.on("message", (_channel: string, message: string) => this.fromFleet(message));
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs ?? 1000);
    this.heartbeat.unref();
    this.cmd.once("ready", () => this.beat());
  }

  status() {
    const up = this.cmd.status === "ready" && this.subscribed && this.outbox.length === 0;
    return { backend: "redis" as const, degraded: !up };
  }

  async append(conversationId: string, item: MailItem, options: { leased?: boolean } = {}): Promise<boolean> {
    const mustHold = options.leased === true && this.leasedHere.delete(item.id);
    if (this.cmd.status === "ready") {
      try {
        const done = await this.appendRemote(conversationId, item, mustHold);
        if (done === 0) {
          this.options.log(
            `mailbox: ${item.id} was landed as lost by another instance; this result is dropped`,
          );
          return false;
        }
        if (done === 1) this.tell(conversationId, item);
        return done === 1;
      } catch (err) {
        this.wentAway(err instanceof Error ? err.message : String(err));
      }
    }
    // Away: this instance's streams get it now, the fleet once Redis is back.
    this.outbox.push({ conversationId, item });
    if (!this.local.appendNow(conversationId, item)) return false;
    this.tell(conversationId, item);
    return true;
  }

  async after(conversationId: string, lastId?: string): Promise<MailItem[]> {
    return afterId(await this.kept(conversationId), lastId);
  }

  async unhanded(conversationId: string): Promise<MailItem[]> {
    const items = await this.kept(conversationId);
    const taken = new Set(await this.takenHere(conversationId));
    if (this.cmd.status === "ready")
      for (const id of await this.cmd.smembers(`${this.key(conversationId)}:handed`).catch(() => []))
        taken.add(id);
    return items.filter((item) => !taken.has(item.id));
  }

  async markHanded(conversationId: string, id: string): Promise<boolean> {
    const first = await this.local.markHanded(conversationId, id);
    if (this.cmd.status !== "ready") return first;
    const key = `${this.key(conversationId)}:handed`;
    const done = await this.cmd
      .multi()
      .sadd(key, id)
      .pexpire(key, this.keepMs)
      .exec()
      .catch(() => null);
    // SADD answers 1 to the one instance that added the id: the fleet's first taker.
    const added = done?.[0]?.[1];
    return typeof added === "number" ? added === 1 : first;
  }

  listen(listener: (conversationId: string, item: MailItem) => void, onGap?: () => void): () => void {
    this.listeners.add(listener);
    if (onGap) this.gapListeners.add(onGap);
    return () => {
      this.listeners.delete(listener);
      if (onGap) this.gapListeners.delete(onGap);
    };
  }

  async lease(lease: Lease): Promise<void> {
    if (this.cmd.status !== "ready") return;
    try {
      await this.cmd.hset(LEASES, lease.id, JSON.stringify({ ...lease, owner: this.instance }));
      this.leasedHere.add(lease.id);
    } catch {}
  }

  async release(id: string): Promise<void> {
    if (!this.leasedHere.delete(id) || this.cmd.status !== "ready") return;
    await this.cmd.hdel(LEASES, id).catch(() => {});
  }

  async claimOrphans(): Promise<Lease[]> {
    if (this.cmd.status !== "ready") return [];
    try {
      const claimed = await this.cmd.websiftClaimOrphans(LEASES, ALIVE);
      return claimed.map((raw) => JSON.parse(raw) as Lease);
    } catch {
      return [];
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    this.listeners.clear();
    this.gapListeners.clear();
    const conns = [this.cmd, this.sub];
    // An instance that stops cleanly says so at once: its leases are orphans now, not in aliveMs.
    if (this.cmd.status === "ready") await this.cmd.del(`${ALIVE}${this.instance}`).catch(() => {});
    // QUIT only where Redis is there to answer it: queued on a connection that is away, it would wait forever.
    await Promise.allSettled(conns.filter((c) => c.status === "ready").map((c) => c.quit()));
    for (const c of conns) c.disconnect();
    await this.local.close();
  }

  private key(conversationId: string): string {
    return `${PREFIX}${conversationId}`;
  }

  private async kept(conversationId: string): Promise<MailItem[]> {
    const local = await this.local.after(conversationId);
    if (this.cmd.status !== "ready") return local;
    try {
      const now = this.now();
      const raw = await this.cmd.lrange(this.key(conversationId), 0, -1);
      const items = raw.map((r) => JSON.parse(r) as MailItem).filter((item) => now - item.at <= this.keepMs);
      // What landed here while Redis was away and is not written through yet.
      const known = new Set(items.map((i) => i.id));
      const pending = this.outbox.filter((o) => o.conversationId === conversationId && !known.has(o.item.id));
      return [...items, ...pending.map((o) => o.item)];
    } catch {
      return local;
    }
  }

  /** Ids a stream of this instance took while they sat in the local mailbox. */
  private async takenHere(conversationId: string): Promise<string[]> {
    const open = new Set((await this.local.unhanded(conversationId)).map((i) => i.id));
    return (await this.local.after(conversationId)).filter((i) => !open.has(i.id)).map((i) => i.id);
  }

  private tell(conversationId: string, item: MailItem): void {
    for (const listener of this.listeners) listener(conversationId, item);
  }

  private fromFleet(message: string): void {
    try {
      const { from, conversationId, item } = JSON.parse(message) as {
        from: string;
        conversationId: string;
        item: MailItem;
      };
      if (from === this.instance || typeof conversationId !== "string" || typeof item?.id !== "string")
        return;
      this.tell(conversationId, item);
    } catch {
      this.options.log("mailbox: ignored a malformed message on the fleet channel");
    }
  }

  private beat(): void {
    if (this.cmd.status !== "ready" || this.closed) return;
    this.cmd.set(`${ALIVE}${this.instance}`, "1", "PX", this.aliveMs).catch(() => {});
  }

  private wentAway(reason: string): void {
    if (this.away || this.closed) return;
    this.away = true;
    this.options.log(
      `mailbox: redis unavailable (${reason}); landings stay on this instance until it is back`,
    );
  }

  /** Runs APPEND for one item: 1 appended, 2 already kept, 0 its lease was no longer ours (landed as lost). */
  private appendRemote(conversationId: string, item: MailItem, mustHold: boolean) {
    const raw = JSON.stringify(item);
    const message = `{"from":${JSON.stringify(this.instance)},"conversationId":${JSON.stringify(conversationId)},"item":${raw}}`;
    return this.cmd.websiftMailAppend(
      this.key(conversationId),
      `${this.key(conversationId)}:ids`,
      LEASES,
      item.id,
      raw,
      this.perConversation,
      this.keepMs,
      mustHold ? "1" : "0",
      CHANNEL,
      message,
    );
  }

  /** Both connections back: write the outbox through, then let listeners catch up on what they missed. */
  private async cameBack(): Promise<void> {
    if (this.closed || this.cmd.status !== "ready" || !this.subscribed) return;
    this.beat();
    const waiting = this.outbox.splice(0);
    for (const { conversationId, item } of waiting) {
      try {
        await this.appendRemote(conversationId, item, false);
      } catch {
        this.outbox.push({ conversationId, item });
      }
    }
    // What this instance's streams took while Redis was away is taken for the fleet too.
    for (const conversationId of new Set(waiting.map((w) => w.conversationId)))
      for (const id of await this.takenHere(conversationId)) await this.markHanded(conversationId, id);
    if (this.away) this.options.log("mailbox: redis is back; landings are shared again");
    this.away = false;
    for (const gap of this.gapListeners) gap();
  }
}
