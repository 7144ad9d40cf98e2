import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import type { ProviderQuery } from "../../../src/search/provider.js";
import {
  childEnv,
  findGeminiBinary,
  geminiCli,
  geminiCliPrompt,
  parseGeminiCliOutput,
  sourcesIn,
} from "../../../src/search/providers/gemini-cli.js";
import { fixtureText, type Harness, startHarness } from "./harness.js";

const q = (over: Partial<ProviderQuery> = {}): ProviderQuery => ({
  query: "capital of France",
  limit: 5,
  ...over,
});

const ANSWER =
  "Paris is the capital of France.[1] It is also its largest city.[2]\n\nSources:\n" +
  "[1] wikipedia.org (https://vertexaisearch.cloud.google.com/grounding-api-redirect/PARIS1)\n" +
  "[2] Paris - Britannica (https://www.britannica.com/place/Paris)";

// A stand-in `gemini`: behaves as FAKE_GEMINI_MODE says and records its argv, env, cwd and pid.
const FAKE = `#!/usr/bin/env node
const fs = require("node:fs");
const { spawn } = require("node:child_process");
const record = process.env.FAKE_GEMINI_RECORD;
const write = (extra) => fs.writeFileSync(record, JSON.stringify({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd(), pid: process.pid, ...extra }));
const mode = process.env.FAKE_GEMINI_MODE;
if (mode === "hang") {
  const grandchild = spawn("sleep", ["600"], { stdio: "ignore" });
  write({ grandchild: grandchild.pid });
  setInterval(() => {}, 1000);
} else {
  write({});
  if (mode === "ok") process.stdout.write(JSON.stringify({ session_id: "s", response: ${JSON.stringify(ANSWER)}, stats: {} }));
  if (mode === "auth") { process.stdout.write(${JSON.stringify(fixtureText("gemini/gemini-cli-output-json-error.SCHEMA-DERIVED.json"))}); process.exit(41); }
  if (mode === "quota") { process.stdout.write(JSON.stringify({ error: { type: "Error", message: "[API Error: RESOURCE_EXHAUSTED quota exceeded]", code: 1 } })); process.exit(1); }
  if (mode === "badjson") { process.stderr.write("warning: something\\n"); process.stdout.write("Loaded cached credentials.\\nnot json at all"); }
}
`;

describe("parseGeminiCliOutput", () => {
  it("reads the documented JSON output: an answer without sources is empty, with the answer", () => {
    const out = parseGeminiCliOutput(fixtureText("gemini/gemini-cli-output-json.FROM-DOCS.json"), 0);
    expect(out).toMatchObject({
      status: "empty",
      answer: { text: "The capital of France is Paris.", kind: "model", modelGenerated: true },
    });
  });

  it("maps the auth error (code 41) to not_logged_in", () => {
    const out = parseGeminiCliOutput(
      fixtureText("gemini/gemini-cli-output-json-error.SCHEMA-DERIVED.json"),
      41,
    );
    expect(out).toMatchObject({ status: "error", code: "not_logged_in" });
    expect(parseGeminiCliOutput("", 41)).toMatchObject({ code: "not_logged_in" });
  });

  it("tolerates stray lines around the JSON, and fails typed on garbage", () => {
    const noisy = `Loaded cached credentials.\n${JSON.stringify({ response: ANSWER })}\n`;
    expect(parseGeminiCliOutput(noisy, 0).status).toBe("ok");
    expect(parseGeminiCliOutput("nope", 0)).toMatchObject({ status: "error", code: "bad_response" });
    expect(parseGeminiCliOutput(JSON.stringify({ response: "x" }), 1)).toMatchObject({ code: "cli_error" });
  });

  it("treats stream-json output (the wrong mode) as a typed failure", () => {
    const out = parseGeminiCliOutput(fixtureText("gemini/gemini-cli-output-stream-json.FROM-DOCS.jsonl"), 0);
    expect(out).toMatchObject({ status: "error", code: "bad_response" });
  });

  it("finds sources as numbered lines, markdown links and bare URLs, once each", () => {
    const hits = sourcesIn(
      `${ANSWER}\nSee [MDN](https://developer.mozilla.org/x) and https://example.org/a.`,
    );
    expect(hits.map((h) => [h.title, h.url])).toEqual([
      ["wikipedia.org", "https://vertexaisearch.cloud.google.com/grounding-api-redirect/PARIS1"],
      ["Paris - Britannica", "https://www.britannica.com/place/Paris"],
      ["MDN", "https://developer.mozilla.org/x"],
      ["example.org", "https://example.org/a"],
    ]);
    expect(hits[1].snippet).toBe("It is also its largest city.");
  });

  it("never lets a query reach the CLI's @file expansion", () => {
    expect(geminiCliPrompt("read @/etc/passwd")).not.toContain("@");
    expect(geminiCliPrompt("read @/etc/passwd")).toContain("/etc/passwd");
  });
});

describe("gemini-cli as a real child process", () => {
  let h: Harness;
  let dir: string;
  let record: string;
  beforeAll(async () => {
    h = await startHarness();
    dir = mkdtempSync(join(tmpdir(), "websift-fake-gemini-"));
    mkdirSync(join(dir, "bin"));
    writeFileSync(join(dir, "bin", "gemini"), FAKE);
    chmodSync(join(dir, "bin", "gemini"), 0o755);
    record = join(dir, "record.json");
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    h.sim.reset();
    rmSync(record, { force: true });
  });
  const env = (mode: string) => ({
    PATH: `${join(dir, "bin")}${delimiter}${process.env.PATH}`,
    HOME: dir,
    FAKE_GEMINI_MODE: mode,
    FAKE_GEMINI_RECORD: record,
    GEMINI_API_KEY: "test-SECRET-gemini-cli-1",
    GOOGLE_API_KEY: "test-SECRET-google-cli-2",
    BRAVE_API_KEY: "test-SECRET-brave-cli-3",
  });
  const run = (mode: string, ms = 10_000) => geminiCli.search(q(), h.ctx(env(mode)), Deadline.after(ms));
  const recorded = () => JSON.parse(readFileSync(record, "utf8"));

  it("runs `gemini -p <prompt> -o json --skip-trust` without the API keys, in an empty directory", async () => {
    h.sim.route("vertexaisearch.cloud.google.com", "/grounding-api-redirect/PARIS1", {
      status: 302,
      headers: { location: "https://en.wikipedia.org/wiki/Paris" },
    });
    const out = await run("ok");
    expect(out.status).toBe("ok");
    if (out.status !== "ok") return;
    expect(out.hits.map((x) => x.url)).toEqual([
      "https://en.wikipedia.org/wiki/Paris",
      "https://www.britannica.com/place/Paris",
    ]);
    expect(out.answer).toMatchObject({ modelGenerated: true });
    const seen = recorded();
    expect(seen.argv).toEqual(["-p", geminiCliPrompt("capital of France"), "-o", "json", "--skip-trust"]);
    expect(seen.env.GEMINI_API_KEY).toBeUndefined();
    expect(seen.env.GOOGLE_API_KEY).toBeUndefined();
    expect(seen.env.BRAVE_API_KEY).toBeUndefined();
    expect(seen.env.FAKE_GEMINI_MODE).toBe("ok");
    expect(seen.cwd).toContain("websift-gemini-");
  });

  it("keeps to the limit", async () => {
    const out = await geminiCli.search(q({ limit: 1 }), h.ctx(env("ok")), Deadline.after(10_000));
    expect(out.status === "ok" && out.hits.map((x) => x.title)).toEqual([
      "wikipedia.org (unresolved Google redirect link)",
    ]);
  });

  it("drops a NUL byte from the query instead of throwing with the query in the message", async () => {
    const out = await geminiCli.search(
      q({ query: "capital\0 of France" }),
      h.ctx(env("ok")),
      Deadline.after(10_000),
    );
    expect(out.status).toBe("ok");
    expect(recorded().argv[1]).toContain("Question: capital of France");
  });

  it.each([
    ["auth", "error", "not_logged_in"],
    ["quota", "quota", "quota"],
    ["badjson", "error", "bad_response"],
  ])("turns mode %s into a typed failure", async (mode, status, code) => {
    expect(await run(mode)).toMatchObject({ status, code });
  });

  it("kills the CLI and what it started when the deadline comes", async () => {
    const out = await run("hang", 4000);
    expect(out).toMatchObject({ status: "timeout", code: "timeout" });
    const { pid, grandchild } = recorded();
    for (const p of [pid, grandchild]) expect(await gone(p)).toBe(true);
  });

  it("finds the binary on PATH, else in ~/.local/bin, else reports it missing", async () => {
    expect(findGeminiBinary({ PATH: join(dir, "bin") })).toBe(join(dir, "bin", "gemini"));
    const home = mkdtempSync(join(tmpdir(), "websift-home-"));
    try {
      expect(findGeminiBinary({ PATH: "/nonexistent", HOME: home })).toBeUndefined();
      mkdirSync(join(home, ".local", "bin"), { recursive: true });
      writeFileSync(join(home, ".local", "bin", "gemini"), FAKE);
      chmodSync(join(home, ".local", "bin", "gemini"), 0o755);
      expect(findGeminiBinary({ PATH: "/nonexistent", HOME: home })).toBe(
        join(home, ".local", "bin", "gemini"),
      );
      const missing = await geminiCli.search(
        q(),
        h.ctx({ PATH: "/nonexistent", HOME: dir }),
        Deadline.after(2000),
      );
      expect(missing).toMatchObject({ status: "error", code: "not_installed" });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("strips every websift key and setting from the child's environment", () => {
    const env = {
      GEMINI_API_KEY: "test-SECRET-gemini",
      GOOGLE_API_KEY: "test-SECRET-google",
      BRAVE_API_KEY: "test-SECRET-brave",
      ACME_SEARCH_KEY: "test-SECRET-acme",
      WEBSIFT_LLM_API_KEY: "test-SECRET-llm",
      WEBSIFT_SERVE_TOKEN: "test-SECRET-serve",
      WEBSIFT_REDIS_URL: "redis://:test-SECRET-pass@localhost:6379",
      PATH: "/bin",
      HOME: "/home/u",
      X: undefined,
    };
    // ACME_SEARCH_KEY: a custom provider's declared key, held in the settings' keys like the built-in ones.
    expect(childEnv(env, ["BRAVE_API_KEY", "ACME_SEARCH_KEY"])).toEqual({ PATH: "/bin", HOME: "/home/u" });
  });
});

/**
 * Waits for a process to disappear: a SIGKILLed process is reaped asynchronously, and the grandchild is not
 * ours, so no exit event reaches us; the test's own timeout bounds the wait, not a count of looks.
 */
async function gone(pid: number): Promise<boolean> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
