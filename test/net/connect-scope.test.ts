import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { ConnectingSockets } from "../../src/net/connector.js";
import { BLACKHOLE_HOST } from "../simweb/index.js";
import { expectFailure, useSimWeb } from "./harness.js";

const ctx = useSimWeb();

/** Connections to the black hole still in SYN_SENT, as the kernel lists them: the attempts nobody has ended. */
function pendingConnects(): number {
  const port = ctx.sim.ports.blackHole.toString(16).toUpperCase().padStart(4, "0");
  return readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .filter((line) => {
      const f = line.trim().split(/\s+/);
      return f[2]?.endsWith(`:${port}`) && f[3] === "02";
    }).length;
}

/**
 * Waits until `check` holds. The kernel's socket table sends no events, so it is read again every few
 * milliseconds; no wait of ours bounds it (a busy machine closes sockets late), the test's timeout does.
 */
async function eventually(check: () => boolean): Promise<boolean> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
  return true;
}

describe("a deadline ends only its own call's connection attempts", () => {
  it.each(["http", "https"])(
    "%s: a short call that times out while connecting leaves a longer call to the same host waiting",
    async (scheme) => {
      const base = pendingConnects();
      const long = Deadline.after(3000);
      const longCall = ctx.net.request(`${scheme}://${BLACKHOLE_HOST}/long`, { deadline: long });
      const shorts = await Promise.all(
        [200, 300, 400].map((ms) =>
          ctx.net.request(`${scheme}://${BLACKHOLE_HOST}/short`, { deadline: Deadline.after(ms) }),
        ),
      );
      for (const r of shorts) expect(expectFailure(r, "timeout").phase).toBe("connect");
      // Each short call ended its own attempt; the long call's is still under way.
      expect(await eventually(() => pendingConnects() === base + 1)).toBe(true);
      const r = expectFailure(await longCall, "timeout");
      expect(r.phase).toBe("connect");
      // It ended at its own deadline, not when the others gave up.
      expect(long.expired()).toBe(true);
      expect(await eventually(() => pendingConnects() === base)).toBe(true);
    },
    20_000,
  );
});

describe("ConnectingSockets", () => {
  const socket = () => {
    const s = {
      destroyed: false,
      destroy() {
        s.destroyed = true;
      },
    };
    return s;
  };

  it("abandons the attempts of one owner only", () => {
    const c = new ConnectingSockets();
    const a = {};
    const b = {};
    const [a1, a2, b1, loose] = [socket(), socket(), socket(), socket()];
    c.owner = a;
    c.add(a1);
    c.add(a2);
    c.owner = b;
    const forgetB1 = c.add(b1);
    c.owner = undefined;
    c.add(loose);
    expect(c.has(a) && c.has(b)).toBe(true);
    c.abandon(a, new Error("deadline"));
    expect([a1.destroyed, a2.destroyed, b1.destroyed, loose.destroyed]).toEqual([true, true, false, false]);
    expect(c.has(a)).toBe(false);
    forgetB1();
    expect(c.has(b)).toBe(false);
    c.abandon(b, new Error("deadline"));
    expect(b1.destroyed).toBe(false);
  });
});
