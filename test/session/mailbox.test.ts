import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Mailbox } from "../../src/session/mailbox.js";
import { createSession, type Landing } from "../../src/session/session.js";
import { RedisMailboxStore } from "../../src/store/redis-mailbox.js";
import { RedisServer } from "../store/redis-server.js";
import { manualClock } from "./harness.js";

let redis: RedisServer;
beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(async () => {
  await redis?.kill();
});

const connected = (store: RedisMailboxStore) =>
  new Promise<RedisMailboxStore>((resolve) => {
    const stop = store.listen(
      () => {},
      () => {
        stop();
        resolve(store);
      },
    );
  });
const fleetMailbox = async () =>
  new Mailbox({
    store: await connected(new RedisMailboxStore({ url: redis.url, log: () => {} })),
    reapEveryMs: 60_000,
  });
/** A fleet instance's mailbox whose retention and reaper run on a clock the test moves. */
const clockedFleetMailbox = async (clock: ReturnType<typeof manualClock>) =>
  new Mailbox({
    store: await connected(new RedisMailboxStore({ url: redis.url, log: () => {}, now: clock.now })),
    // A minute of the test's clock: on wall time the reaper would not look within the test's time at all.
    reapEveryMs: 60_000,
    clock,
  });
const heldSearch = () => {
  let release = () => {};
  const slow = new Promise<void>((resolve) => {
    release = resolve;
  });
  const websift = {
    search: async (query: string) => {
      await slow;
      return { status: "ok" as const, query, results: [], attempted: [], scope: "general" as const };
    },
    read: async () => {
      throw new Error("not used");
    },
    answer: async () => {
      throw new Error("not used");
    },
  };
  return { websift, release: () => release() };
};

describe("the session's mailbox", () => {
  it("holds what a session owes, and the library's onLanded hears it from there", async () => {
    const mailbox = new Mailbox();
    const heard: Landing[] = [];
    const { websift, release } = heldSearch();
    const session = createSession(websift, { waitMs: 0, mailbox, onLanded: (l) => void heard.push(l) });
    const pending = await session.search("c1", "tide tables");
    expect(pending.status).toBe("pending");
    const posted = new Promise<Landing>((resolve) => mailbox.onPosted(resolve));
    release();
    const landing = await posted;
    expect(landing).toMatchObject({ id: pending.id, conversationId: "c1", kind: "search" });
    expect(heard).toEqual([landing]);
    expect((await mailbox.after("c1")).map((m) => m.landing)).toEqual([landing]);
    expect(session.mailbox).toBe(mailbox);
    await session.close();
    await mailbox.close();
  });

  it("keeps a session's landings by the session's clock: handed once, gone after its keep time", async () => {
    const clock = manualClock();
    const { websift, release } = heldSearch();
    const session = createSession(websift, { waitMs: 0, clock });
    try {
      const first = session.search("c1", "tide tables");
      clock.advance(0);
      const pending = await first;
      expect(pending.status).toBe("pending");
      const posted = new Promise<Landing>((resolve) => session.mailbox.onPosted(resolve));
      release();
      await posted;
      const { keepMs } = session.mailbox.retention;
      expect(await session.mailbox.take("c2", pending.id)).toBeUndefined();
      expect((await session.mailbox.find("c1", pending.id))?.landing.id).toBe(pending.id);
      clock.advance(keepMs);
      expect((await session.mailbox.take("c1", pending.id))?.landing.id).toBe(pending.id);
      expect(await session.mailbox.take("c1", pending.id)).toBeUndefined();
      clock.advance(1);
      expect(await session.mailbox.find("c1", pending.id)).toBeUndefined();
    } finally {
      await session.close();
    }
  });

  it("lands a stopped instance's owed lookup as a named failure of its kind, once", async () => {
    const owner = await fleetMailbox();
    const others = [await fleetMailbox(), await fleetMailbox()];
    try {
      owner.owe("lost-1", "conv-lost", "read", "https://www.example.com/slow", Date.now() + 20_000);
      owner.owe("lost-2", "conv-lost", "answer", "tide tables", Date.now() + 20_000);
      await owner.after("conv-lost"); // the leases are written before this read on the same connection
      expect(await others[0]?.reap()).toBe(0);
      await owner.close();
      const reaped = await Promise.all(others.map((m) => m.reap()));
      expect(reaped.reduce((a, b) => a + b, 0)).toBe(2);
      const landed = ((await others[1]?.after("conv-lost"))?.map((m) => m.landing) ?? []).sort((a, b) =>
        a.id.localeCompare(b.id),
      );
      expect(landed.map((l) => l.id)).toEqual(["lost-1", "lost-2"]);
      expect(landed[0]).toMatchObject({
        kind: "read",
        result: { status: "error", url: "https://www.example.com/slow" },
      });
      expect(JSON.stringify(landed[0]?.result)).toMatch(/instance_lost|stopped before it finished/);
      expect(landed[1]).toMatchObject({ kind: "answer", result: { status: "error" } });
      expect(landed[1]?.keepAs).toMatch(/tide tables/);
    } finally {
      await Promise.all(others.map((m) => m.close()));
    }
  });

  it("keeps a fleet's landings by the session's clock too: gone from Redis after the keep time", async () => {
    const clock = manualClock();
    const mailbox = await clockedFleetMailbox(clock);
    const held = heldSearch();
    const session = createSession(held.websift, { waitMs: 0, clock, mailbox });
    try {
      const first = session.search("conv-kept", "tide tables");
      clock.advance(0);
      const pending = await first;
      expect(pending.status).toBe("pending");
      const posted = new Promise<Landing>((resolve) => mailbox.onPosted(resolve));
      held.release();
      await posted;
      clock.advance(mailbox.retention.keepMs);
      expect((await mailbox.find("conv-kept", pending.id))?.landing.id).toBe(pending.id);
      clock.advance(1);
      expect(await mailbox.find("conv-kept", pending.id)).toBeUndefined();
    } finally {
      await session.close();
      await mailbox.close();
    }
  });

  it("reaps a stopped instance's lookups when the clock reaches its next look, not before", async () => {
    const clock = manualClock();
    const owner = await fleetMailbox();
    const reaper = await clockedFleetMailbox(clock);
    try {
      owner.owe("reaped-1", "conv-reaped", "search", "tide tables", Date.now() + 20_000);
      await owner.after("conv-reaped"); // the lease is written before this read on the same connection
      await owner.close();
      const heard: string[] = [];
      const landed = new Promise<string>((resolve) =>
        reaper.listen((mail) => {
          heard.push(mail.id);
          resolve(mail.id);
        }),
      );
      clock.advance(59_999);
      // A reap started now would have claimed the lease by the time this read on its connection answers.
      expect(await reaper.after("conv-reaped")).toEqual([]);
      expect(heard).toEqual([]);
      clock.advance(1);
      expect(await landed).toBe("reaped-1");
      const [mail] = await reaper.after("conv-reaped");
      expect(mail?.landing).toMatchObject({
        kind: "search",
        result: { status: "error", code: "instance_lost" },
      });
    } finally {
      await reaper.close();
    }
  });
});
