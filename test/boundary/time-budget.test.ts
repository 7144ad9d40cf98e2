import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { createWebsift, type Websift } from "../../src/websift.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";

/**
 * One spelling of a time budget across the library: `timeoutMs` for a call's whole budget, `deadline` for a
 * Deadline the caller holds. Old spellings still work for one minor version and say so once on stderr.
 */
let web: SimWeb;
let websift: Websift;
const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);
beforeAll(async () => {
  web = await startSimWeb();
  process.on("warning", onWarning);
});
afterAll(async () => {
  process.off("warning", onWarning);
  await web.close();
});
beforeEach(() => {
  websift = createWebsift({ ...web.netConfig, env: {}, settings: { ddgRetryDelayMs: 5 } });
});
afterEach(async () => {
  await websift.close();
  web.reset();
});

const PAGE = "https://slow.example.org/article";
const hang = (): Promise<void> => new Promise<void>(() => {});
/** Warnings are emitted on the next tick: let them arrive before looking. */
const renamed = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  return warnings.filter((w) => (w as Error & { code?: string }).code === "websift-option-name");
};

describe("a call's time budget", () => {
  it("read: timeoutMs bounds the read, and it answers timeout", async () => {
    web.route("slow.example.org", "/article", hang);
    const page = await websift.read(PAGE, { timeoutMs: 150, render: "never" });
    expect(page.status).toBe("timeout");
    expect(await renamed()).toHaveLength(0);
  });

  it("read, search, answer and research run inside a Deadline the caller holds: one already over sends nothing", async () => {
    const over = () => {
      const d = Deadline.after(60_000);
      d.abort();
      return d;
    };
    const page = await websift.read(PAGE, { deadline: over(), render: "never" });
    const search = await websift.search("zugspitze glacier", { deadline: over(), cache: false });
    const answer = await websift.answer("zugspitze glacier", { deadline: over() });
    const research = await websift.research("zugspitze glacier", { deadline: over(), maxHops: 1 });
    for (const status of [page.status, search.status, answer.status, research.status])
      expect(status).not.toBe("ok");
    expect(web.requests).toHaveLength(0);
  });

  it("read: a number in deadline (the old spelling of timeoutMs) still bounds the read, with one warning", async () => {
    web.route("slow.example.org", "/article", hang);
    const first = await websift.read(PAGE, { deadline: 150, render: "never" });
    const again = await websift.read(`${PAGE}?again`, { deadline: 150, render: "never" });
    expect(first.status).toBe("timeout");
    expect(again.status).toBe("timeout");
    const said = await renamed();
    expect(said).toHaveLength(1);
    expect(said[0].name).toBe("DeprecationWarning");
    expect(said[0].message).toMatch(/deadline as a number of ms is deprecated, use timeoutMs/);
  });
});
