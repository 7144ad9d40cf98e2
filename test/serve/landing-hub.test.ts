import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LandedEvent, LandingHub } from "../../src/serve/landings.js";
import { until } from "../session/harness.js";
import { RedisServer } from "../store/redis-server.js";

// Three instances of the fleet's landing hub on one real Redis, no stream open anywhere when a lookup lands.
let redis: RedisServer;
let hubs: LandingHub[];
beforeAll(async () => {
  redis = await RedisServer.start();
  hubs = [0, 1, 2].map(() => new LandingHub({ redisUrl: redis.url, log: () => {} }));
  await Promise.all(hubs.map((h) => h.whenReady()));
});
afterAll(async () => {
  await Promise.all(hubs.map((h) => h.close()));
  await redis?.kill();
});

const event = (conversationId: string, id: string): LandedEvent => ({ conversationId, id, data: { id } });

function listen(hub: LandingHub, conversationId: string) {
  const got: string[] = [];
  const stop = hub.subscribe(conversationId, (e) => got.push(e.id));
  return { got, stop };
}

describe("landings across a fleet", () => {
  it("an unheard landing is delivered once: the instance whose stream takes it tells the others to drop it", async () => {
    const [a, b, c] = hubs as [LandingHub, LandingHub, LandingHub];
    a.publish(event("conv-1", "L1"));
    // Every instance keeps it until some stream connects; B's stream takes it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const onB = listen(b, "conv-1");
    expect(onB.got).toEqual(["L1"]);
    onB.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Reconnecting to A or C finds nothing left to replay.
    const onA = listen(a, "conv-1");
    const onC = listen(c, "conv-1");
    expect(onA.got).toEqual([]);
    expect(onC.got).toEqual([]);
    onA.stop();
    onC.stop();
  });

  it("a landing heard live on one instance is not kept by the others for a later stream", async () => {
    const [a, b] = hubs as [LandingHub, LandingHub];
    const live = listen(a, "conv-2");
    b.publish(event("conv-2", "L2"));
    await until(() => live.got.length > 0);
    expect(live.got).toEqual(["L2"]);
    live.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const later = listen(b, "conv-2");
    expect(later.got).toEqual([]);
    later.stop();
  });
});
