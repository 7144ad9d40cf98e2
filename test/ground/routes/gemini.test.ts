import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { settingsFromEnv } from "../../../src/config/load.js";
import { Deadline } from "../../../src/core/deadline.js";
import { GEMINI_SOURCE_LABEL, geminiRoute } from "../../../src/ground/routes/gemini.js";
import { runRoute } from "../../../src/ground/routes/index.js";
import { createNet, type Net } from "../../../src/net/client.js";
import type { ProviderContext } from "../../../src/search/provider.js";
import { MemoryStore } from "../../../src/store/store.js";
import { type SimWeb, startSimWeb } from "../../simweb/index.js";

const KEY = "test-SECRET-gemini-route-0005";
const API_HOST = "generativelanguage.googleapis.com";
const API_PATH = "/v1beta/models/gemini-2.5-flash:generateContent";
const REDIRECT_HOST = "vertexaisearch.cloud.google.com";
const SF = "gemini/gemini-2.5-pro-generatecontent-google-search-sf-weather.json";
const QUERY = "What is the weather in San Francisco today?";

let sim: SimWeb;
let net: Net;
let bin: string;
const ctx = (env: Record<string, string>): ProviderContext => ({
  net,
  config: settingsFromEnv(env),
  store: new MemoryStore(),
  log: () => {},
  settings: {},
});
const json = (body: string | Buffer, status = 200) => ({
  status,
  headers: { "content-type": "application/json" },
  body,
});

beforeAll(async () => {
  sim = await startSimWeb();
  net = createNet(sim.netConfig);
  bin = mkdtempSync(join(tmpdir(), "websift-gemini-route-"));
});
afterAll(async () => {
  rmSync(bin, { recursive: true, force: true });
  await net.close();
  await sim.close();
});
beforeEach(() => {
  sim.reset();
  sim.route(REDIRECT_HOST, /^\/grounding-api-redirect\//, {
    status: 302,
    headers: { location: "https://www.weather.gov/mtr/" },
  });
});

describe("gemini-api route", () => {
  it("answers with the model's text labelled as model-generated and the grounding links as sources", async () => {
    sim.route(API_HOST, API_PATH, json(sim.fixture(SF)));
    const out = await geminiRoute("gemini-api", QUERY, ctx({ GEMINI_API_KEY: KEY }), Deadline.after(10_000));
    expect(out.status).toBe("ok");
    expect(out.provider).toBe("gemini");
    expect(out.envelope).toContain(`Model-generated answer (not a page) from ${GEMINI_SOURCE_LABEL}:`);
    expect(out.envelope).toContain("Weather in San Francisco");
    expect(out.sources[0]).toEqual({
      n: 1,
      read: false,
      title: "Weather information for San Francisco, CA, US",
      url: "https://www.google.com/search?q=weather+in+San%20Francisco,%20CA,+US",
    });
    expect(out.sources[1]).toEqual({
      n: 2,
      read: false,
      title: "weather.gov",
      url: "https://www.weather.gov/mtr/",
    });
    expect(out.attempts).toEqual([expect.objectContaining({ provider: "gemini", status: "ok", count: 3 })]);
    expect(out.envelope).not.toContain(KEY);
    // The grounding pages themselves are never fetched.
    expect(sim.requests.some((r) => r.host === "www.weather.gov")).toBe(false);
  });

  it("keeps URLs out of the text in sources mode", async () => {
    sim.route(API_HOST, API_PATH, json(sim.fixture(SF)));
    const out = await runRoute(
      "gemini-api",
      QUERY,
      { ctx: ctx({ GEMINI_API_KEY: KEY }), sourcesApart: true },
      Deadline.after(10_000),
    );
    expect(out?.status).toBe("ok");
    expect(out?.envelope).not.toContain("https://www.weather.gov/");
    expect(out?.sources.length).toBe(3);
  });

  it("falls through on a quota error, keeping the attempt and never the key", async () => {
    sim.route(
      API_HOST,
      API_PATH,
      json(sim.fixture("gemini/gemini-error-429-resource-exhausted-retryinfo.json"), 429),
    );
    const out = await geminiRoute("gemini-api", QUERY, ctx({ GEMINI_API_KEY: KEY }), Deadline.after(10_000));
    expect(out.status).toBe("rate_limited");
    expect(out.sources).toEqual([]);
    expect(out.attempts).toEqual([expect.objectContaining({ provider: "gemini", status: "rate_limited" })]);
    expect(JSON.stringify(out)).not.toContain(KEY);
  });

  it("falls through on an answer without grounding (model memory is not a search)", async () => {
    sim.route(
      API_HOST,
      API_PATH,
      json(JSON.stringify({ candidates: [{ content: { parts: [{ text: "It is sunny." }] } }] })),
    );
    const out = await geminiRoute("gemini-api", QUERY, ctx({ GEMINI_API_KEY: KEY }), Deadline.after(10_000));
    expect(out.status).toBe("empty");
    expect(out.envelope).not.toContain("It is sunny.");
  });

  it("falls through without a key, sending nothing", async () => {
    const out = await geminiRoute("gemini-api", QUERY, ctx({}), Deadline.after(10_000));
    expect(out.status).not.toBe("ok");
    expect(sim.requests).toEqual([]);
  });
});

describe("gemini-cli route", () => {
  const fakeCli = (stdout: object, exitCode = 0) => {
    writeFileSync(join(bin, "out.json"), JSON.stringify(stdout));
    writeFileSync(join(bin, "gemini"), `#!/bin/sh\ncat "$(dirname "$0")/out.json"\nexit ${exitCode}\n`);
    chmodSync(join(bin, "gemini"), 0o755);
    return { PATH: `${bin}:/usr/bin:/bin`, HOME: bin };
  };

  it("answers from the CLI's grounded response, its source list moved into the sources", async () => {
    const env = fakeCli({
      response:
        "The Golden Gate Bridge opened in 1937 [1].\n\nSources:\n[1] Golden Gate Bridge history (https://www.goldengate.org/history/)",
    });
    const out = await geminiRoute(
      "gemini-cli",
      "When did the Golden Gate Bridge open?",
      ctx(env),
      Deadline.after(10_000),
    );
    expect(out.status).toBe("ok");
    expect(out.provider).toBe("gemini-cli");
    expect(out.sources).toEqual([
      { n: 1, read: false, title: "Golden Gate Bridge history", url: "https://www.goldengate.org/history/" },
    ]);
    expect(out.envelope).toContain("The Golden Gate Bridge opened in 1937 [1].");
    expect(out.envelope).toContain(`from ${GEMINI_SOURCE_LABEL}`);
    expect(out.envelope.match(/goldengate\.org/g)).toHaveLength(1);
  });

  it("falls through when the CLI is not signed in", async () => {
    const env = fakeCli({ error: { type: "AuthError", message: "Please sign in", code: 41 } }, 41);
    const out = await runRoute("gemini-cli", QUERY, { ctx: ctx(env) }, Deadline.after(10_000));
    expect(out?.status).toBe("error");
    expect(out?.attempts).toEqual([
      expect.objectContaining({
        provider: "gemini-cli",
        status: "error",
        error: expect.stringMatching(/signed in/),
      }),
    ]);
  });

  it("falls through when the CLI is missing", async () => {
    const out = await runRoute(
      "gemini-cli",
      QUERY,
      { ctx: ctx({ PATH: "/nonexistent", HOME: "/nonexistent" }) },
      Deadline.after(10_000),
    );
    expect(out?.status).toBe("error");
    expect(out?.attempts[0].error).toMatch(/no `gemini` binary/);
  });
});
