import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MailboxStore, type MailItem, MemoryMailboxStore } from "../../src/store/mailbox-store.js";
import { RedisMailboxStore } from "../../src/store/redis-mailbox.js";
import { RedisServer } from "./redis-server.js";

let redis: RedisServer;
beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(async () => {
  await redis?.kill();
});

let n = 0;
const item = (id: string, at = Date.now()): MailItem => ({ id, at, body: { id, text: `landing ${id}` } });
const conversation = () => `conv-${++n}-${Math.random().toString(36).slice(2)}`;

/** Resolves with the next item `store` hears for `conversationId`. */
function heard(store: MailboxStore, conversationId: string): Promise<MailItem> {
  return new Promise((resolve) => {
    const stop = store.listen((c, i) => {
      if (c !== conversationId) return;
      stop();
      resolve(i);
    });
  });
}

function gap(store: MailboxStore): Promise<void> {
  return new Promise((resolve) => {
    const stop = store.listen(
      () => {},
      () => {
        stop();
        resolve();
      },
    );
  });
}

const ready = async (store: RedisMailboxStore) => {
  // The first gap is the first connection: both connections are up and subscribed.
  await gap(store);
  return store;
};

const backends: Array<[string, (retention?: object) => Promise<MailboxStore>]> = [
  ["memory", async (retention = {}) => new MemoryMailboxStore(retention)],
  [
    "redis",
    async (retention = {}) => ready(new RedisMailboxStore({ url: redis.url, log: () => {}, ...retention })),
  ],
];

describe.each(backends)("%s mailbox", (_name, open) => {
  it("keeps a conversation's items in landing order, each id once, apart from other conversations", async () => {
    const store = await open();
    try {
      const c = conversation();
      const other = conversation();
      expect(await store.append(c, item("a"))).toBe(true);
      expect(await store.append(c, item("b"))).toBe(true);
      expect(await store.append(c, item("a"))).toBe(false);
      await store.append(other, item("x"));
      expect((await store.after(c)).map((i) => i.id)).toEqual(["a", "b"]);
      expect((await store.after(c, "a")).map((i) => i.id)).toEqual(["b"]);
      expect(await store.after(c, "b")).toEqual([]);
      expect((await store.after(c, "unknown")).map((i) => i.id)).toEqual(["a", "b"]);
      expect((await store.after(other)).map((i) => i.id)).toEqual(["x"]);
      expect((await store.after(c))[0]?.body).toEqual({ id: "a", text: "landing a" });
    } finally {
      await store.close();
    }
  });

  it("tells what no stream took yet", async () => {
    const store = await open();
    try {
      const c = conversation();
      for (const id of ["a", "b", "c"]) await store.append(c, item(id));
      expect(await store.markHanded(c, "b")).toBe(true);
      expect((await store.unhanded(c)).map((i) => i.id)).toEqual(["a", "c"]);
      // A landing is handed once: a second view asking for it is told it was taken.
      expect(await store.markHanded(c, "b")).toBe(false);
    } finally {
      await store.close();
    }
  });

  it("bounds what it keeps in count and age", async () => {
    const store = await open({ perConversation: 2 });
    try {
      const c = conversation();
      for (const id of ["a", "b", "c"]) await store.append(c, item(id));
      expect((await store.after(c)).map((i) => i.id)).toEqual(["b", "c"]);
      const old = conversation();
      await store.append(old, item("stale", Date.now() - 16 * 60_000));
      await store.append(old, item("fresh"));
      expect((await store.after(old)).map((i) => i.id)).toEqual(["fresh"]);
    } finally {
      await store.close();
    }
  });

  it("tells its listeners of each append", async () => {
    const store = await open();
    try {
      const c = conversation();
      const next = heard(store, c);
      await store.append(c, item("a"));
      expect((await next).id).toBe("a");
    } finally {
      await store.close();
    }
  });
});

describe("a fleet's mailbox in Redis", () => {
  it("every instance hears every append and reads every item", async () => {
    const a = await ready(new RedisMailboxStore({ url: redis.url, log: () => {} }));
    const b = await ready(new RedisMailboxStore({ url: redis.url, log: () => {} }));
    try {
      const c = conversation();
      const atA = heard(a, c);
      await b.append(c, item("from-b"));
      expect((await atA).id).toBe("from-b");
      expect((await a.after(c)).map((i) => i.id)).toEqual(["from-b"]);
      expect(await a.markHanded(c, "from-b")).toBe(true);
      expect(await b.unhanded(c)).toEqual([]);
      // Handed once across the fleet: the other instance's view is told another took it.
      expect(await b.markHanded(c, "from-b")).toBe(false);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("lands a stopped instance's leases once, on one other instance, and drops the owner's late result", async () => {
    const owner = await ready(new RedisMailboxStore({ url: redis.url, log: () => {} }));
    const x = await ready(new RedisMailboxStore({ url: redis.url, log: () => {} }));
    const y = await ready(new RedisMailboxStore({ url: redis.url, log: () => {} }));
    const late = await ready(new RedisMailboxStore({ url: redis.url, log: () => {} }));
    try {
      const c = conversation();
      const lease = {
        id: `lease-${c}`,
        conversationId: c,
        kind: "read",
        subject: "https://x.test/",
        deadlineAt: 1,
      };
      await owner.lease(lease);
      // Alive, it keeps its lease.
      expect(await x.claimOrphans()).toEqual([]);
      await owner.close();
      const [first, second] = await Promise.all([x.claimOrphans(), y.claimOrphans()]);
      expect([...first, ...second]).toEqual([expect.objectContaining(lease)]);

      // An owner that was only presumed dead cannot deliver what was already landed for it.
      const held = { ...lease, id: `held-${c}` };
      await late.lease(held);
      await x.release("not-ours");
      // Reaped behind its back (the way claimOrphans takes a lease), then it lands.
      const raw = await new RedisServerClient(redis.url).hdel("websift:mail:leases", held.id);
      expect(raw).toBe(1);
      expect(await late.append(c, item(held.id), { leased: true })).toBe(false);
      expect((await x.after(c)).map((i) => i.id)).not.toContain(held.id);
    } finally {
      await Promise.all([x.close(), y.close(), late.close()]);
    }
  });

  it("while Redis is away keeps items here, and once it is back writes them through and hears the fleet again", async () => {
    const logs: string[] = [];
    let noticed = () => {};
    const awayNoticed = new Promise<void>((resolve) => {
      noticed = resolve;
    });
    const log = (line: string) => {
      logs.push(line);
      if (/redis unavailable/.test(line)) noticed();
    };
    const a = await ready(new RedisMailboxStore({ url: redis.url, log }));
    const b = await ready(new RedisMailboxStore({ url: redis.url, log: () => {} }));
    try {
      const c = conversation();
      await redis.kill();
      // Away: B's own listeners still hear it at once; A cannot yet.
      const atB = heard(b, c);
      await awayNoticed;
      expect(await b.append(c, item("during-outage"))).toBe(true);
      expect((await atB).id).toBe("during-outage");
      expect((await b.after(c)).map((i) => i.id)).toEqual(["during-outage"]);

      const aBack = gap(a);
      const bBack = gap(b);
      await redis.start();
      await Promise.all([aBack, bBack]);
      // Written through: A reads what landed on B during the outage.
      expect((await a.after(c)).map((i) => i.id)).toEqual(["during-outage"]);
      // Subscribed again: a landing after the restart reaches A over the channel alone.
      const atA = heard(a, c);
      await b.append(c, item("after-restart"));
      expect((await atA).id).toBe("after-restart");
      expect(logs.some((l) => /redis is back/.test(l))).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

/** A plain client for reaching behind the stores' backs. */
class RedisServerClient {
  constructor(private readonly url: string) {}
  async hdel(key: string, field: string): Promise<number> {
    const { Redis } = await import("ioredis");
    const r = new Redis(this.url);
    try {
      return await r.hdel(key, field);
    } finally {
      r.disconnect();
    }
  }
}
