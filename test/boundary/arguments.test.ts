import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BadInputError,
  createSession,
  createWebsift,
  cutAtParagraph,
  extractMarkdown,
  fenceUntrusted,
  guardQuery,
  redactSecrets,
  type Session,
  sizeText,
  stripInvisible,
  vetUrl,
  type Websift,
} from "../../src/index.js";
import { inbox, manualClock, page, results } from "../session/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";

// Wrong types reach a JavaScript caller's library as easily as right ones: every public door is tried with
// each kind of wrong value, and none may throw from inside, queue a lookup or send a request.
const URL_OK = "https://www.example.com/page";

let web: SimWeb;
let websift: Websift;
let session: Session;
let clock: ReturnType<typeof manualClock>;
let mail: ReturnType<typeof inbox>;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

beforeAll(async () => {
  web = await startSimWeb();
  process.on("unhandledRejection", onRejection);
});
afterAll(async () => {
  process.off("unhandledRejection", onRejection);
  await web.close();
});
beforeEach(() => {
  websift = createWebsift({ ...web.netConfig, env: {}, settings: { ddgRetryDelayMs: 5 } });
  clock = manualClock();
  mail = inbox();
  session = createSession(websift, { clock, onLanded: mail.onLanded });
  web.route(
    "www.example.com",
    "/page",
    page("A page", ["A page has a first paragraph long enough to keep."]),
  );
  web.route(
    "html.duckduckgo.com",
    "/html/",
    results([
      { title: "Tide tables Brest", url: "https://tides.example.org/brest" },
      { title: "Brest harbour", url: "https://www.example.com/harbour" },
      { title: "Sailing Brittany", url: "https://sail.example.net/" },
    ]),
  );
});
afterEach(async () => {
  await session.close();
  await websift.close();
  web.reset();
  // Lets any stray rejection of the test's background work reach the listener before it is checked.
  await new Promise((resolve) => setImmediate(resolve));
  expect(rejections).toEqual([]);
});

type Call = [label: string, run: () => Promise<{ status: string }>, argument: RegExp];
const wrongOptions = (
  name: "search" | "read" | "answer",
  run: (o: unknown) => Promise<{ status: string }>,
  fields: [string, unknown][],
): Call[] =>
  fields.map(([field, value]) => [
    `${name} ${field}=${JSON.stringify(value)}`,
    () => run({ [field]: value }),
    new RegExp(`${name}: options\\.${field}`),
  ]);

const calls = (): Call[] => [
  ["search(123)", () => websift.search(123 as never), /search: query must be a string \(got 123\)/],
  ["search({})", () => websift.search({} as never), /search: query must be a string \(got an object\)/],
  ["search(q, 'x')", () => websift.search("q", "x" as never), /search: options must be an object/],
  ["search(q, [])", () => websift.search("q", [] as never), /search: options must be an object/],
  ...wrongOptions("search", (o) => websift.search("q", o as never), [
    ["limit", "5"],
    ["limit", 2.5],
    ["limit", 0],
    ["safesearch", "very"],
    ["scope", "news"],
    ["allowedHosts", "a.com"],
    ["timeoutMs", -1],
    ["signal", {}],
    ["onAttempt", "log"],
  ]),
  ["read(null)", () => websift.read(null as never), /read: url must be a string \(got null\)/],
  ["read(url, 42)", () => websift.read(URL_OK, 42 as never), /read: options must be an object/],
  ...wrongOptions("read", (o) => websift.read(URL_OK, o as never), [
    ["maxChars", -5],
    ["maxChars", "abc"],
    ["maxChars", Number.NaN],
    ["offset", -10],
    ["offset", 1.5],
    ["mode", "bogus"],
    ["render", true],
    ["timeoutMs", -1],
    ["deadline", "soon"],
    ["links", "no"],
    ["pin", ["bing"]],
  ]),
  [
    "fetchBest(url, {maxChars})",
    () => websift.fetchBest(URL_OK, { maxChars: -1 }),
    /fetchBest: options\.maxChars/,
  ],
  ["answer(7)", () => websift.answer(7 as never), /answer: query must be a string/],
  ...wrongOptions("answer", (o) => websift.answer("q", o as never), [
    ["mode", "bogus"],
    ["route", "carrier-pigeon"],
    ["maxChars", 0],
    ["timeoutMs", "20s"],
    ["deadline", 20_000],
    ["onProgress", 1],
  ]),
  ["research(undefined)", () => websift.research(undefined as never), /research: question must be a string/],
  [
    "research(q, {maxHops})",
    () => websift.research("q", { maxHops: "3" as never }),
    /research: options\.maxHops/,
  ],
  [
    "research(q, {history})",
    () => websift.research("q", { history: "hi" as never }),
    /research: options\.history/,
  ],
];

describe("library calls refuse wrong arguments as a failure value naming the argument", () => {
  it.each(calls().map((c) => [c[0], c] as const))("%s", async (_label, [, run, argument]) => {
    const result = (await run()) as { status: string; error?: unknown; envelope?: string };
    expect(result.status).toBe("error");
    const message =
      typeof result.error === "string"
        ? result.error
        : ((result.error as { message?: string } | undefined)?.message ?? result.envelope ?? "");
    expect(message).toMatch(argument);
    const code = (result as { code?: string }).code ?? (result.error as { code?: string } | undefined)?.code;
    if (code !== undefined) expect(code).toBe("bad_input");
    expect(web.requests).toEqual([]);
  });

  it("never echoes the offending string, which may be a secret", async () => {
    const res = await websift.read(URL_OK, { lookingFor: 42 as never, mode: "test-SECRET-mode" as never });
    expect(JSON.stringify(res)).not.toContain("test-SECRET-mode");
  });
});

describe("no options is no options, whether left out or null", () => {
  it("search, read and answer with null options behave as without", async () => {
    const search = await websift.search("tide tables brest", null as never);
    expect(search.status).toBe("ok");
    expect(search.results.length).toBeGreaterThan(0);
    const read = await websift.read(URL_OK, null as never);
    expect(read.status).toBe("ok");
    expect(read.title).toBe("A page");
    const answer = await websift.answer("tide tables brest", null as never);
    expect(answer.status).not.toBe("error");
    expect(createWebsift(null as never).providers.length).toBeGreaterThan(0);
  });

  it("takes process.env as the environment (not a plain object, and what most callers pass)", async () => {
    const own = createWebsift({ env: process.env });
    expect(own.providers.length).toBeGreaterThan(0);
    await own.close();
    expect(() => createWebsift({ env: { A: 1 } as never })).toThrow(
      /config\.env must be an object of strings/,
    );
  });

  it("an option that is undefined is left out", async () => {
    const read = await websift.read(URL_OK, { maxChars: undefined, mode: undefined });
    expect(read.status).toBe("ok");
  });
});

describe("session calls refuse wrong arguments at once, and nothing is left running", () => {
  const sessionCalls = (): [string, () => Promise<{ status: string }>, RegExp][] => [
    ["read(c1, 42)", () => session.read("c1", 42 as never), /read: url must be a string \(got 42\)/],
    ["answer(c1, {})", () => session.answer("c1", {} as never), /answer: query must be a string/],
    [
      "search(c1, q, 'x')",
      () => session.search("c1", "q", "x" as never),
      /search: options must be an object/,
    ],
    ["search(7, q)", () => session.search(7 as never, "q"), /search: conversationId must be a string/],
    ["search('', q)", () => session.search("", "q"), /search: conversationId must not be empty/],
    [
      "read(c1, url, {maxChars: -5})",
      () => session.read("c1", URL_OK, { maxChars: -5 }),
      /read: options\.maxChars/,
    ],
    [
      "read(c1, url, {signal: 1})",
      () => session.read("c1", URL_OK, { signal: 1 as never }),
      /read: options\.signal/,
    ],
  ];

  it.each(sessionCalls().map((c) => [c[0], c] as const))("%s", async (_label, [, run, argument]) => {
    const result = (await run()) as { status: string; error?: unknown; envelope?: string; id?: string };
    expect(result.status).toBe("error");
    expect(typeof result.id).toBe("string");
    const message =
      typeof result.error === "string"
        ? result.error
        : ((result.error as { message?: string } | undefined)?.message ?? result.envelope ?? "");
    expect(message).toMatch(argument);
    expect(session.pending("c1")).toEqual([]);
    clock.advance(60_000);
    expect(mail.landed).toEqual([]);
    expect(web.requests).toEqual([]);
  });

  it("null options in a session are no options", async () => {
    const res = await session.read("c1", URL_OK, null as never);
    expect(res.status).toBe("ok");
  });

  it("follow, withdraw, pending and liveState throw BadInputError on a wrong id", () => {
    expect(() => session.follow(1 as never, "x")).toThrow(BadInputError);
    expect(() => session.withdraw("c1", null as never)).toThrow(/withdraw: id must be a string/);
    expect(() => session.pending({} as never)).toThrow(/pending: conversationId/);
    expect(() => session.liveState(5 as never)).toThrow(/liveState: conversationId/);
    expect(session.liveState()).toBe("");
  });

  it("createSession refuses a wrong options object and takes null as none", () => {
    expect(() => createSession(websift, { maxConcurrent: 0 })).toThrow(
      /createSession: options\.maxConcurrent/,
    );
    expect(() => createSession(websift, "fast" as never)).toThrow(BadInputError);
    expect(createSession(websift, null as never).pending("c1")).toEqual([]);
  });

  it("a lookup whose call breaks its promise still lands, and no rejection escapes", async () => {
    // A websift stand-in whose result is not a result at all: landing must survive what it cannot describe.
    const broken = {
      search: async () => undefined as never,
      read: async () => {
        throw new TypeError("text.replace is not a function");
      },
      answer: () => 42 as never,
    };
    const own = createSession(broken, { clock, onLanded: mail.onLanded });
    const [search, read, answer] = await Promise.all([
      own.search("c1", "q"),
      own.read("c1", URL_OK),
      own.answer("c1", "q"),
    ]);
    expect(read.status).toBe("error");
    expect(search).toHaveProperty("keepAs");
    expect(answer).toHaveProperty("keepAs");
    expect(own.pending("c1")).toEqual([]);
    await own.close();
  });
});

describe("exported helpers", () => {
  it.each([
    ["redactSecrets", () => redactSecrets(undefined as never), /redactSecrets: text must be a string/],
    ["guardQuery", () => guardQuery(123 as never), /guardQuery: query must be a string \(got 123\)/],
    ["stripInvisible", () => stripInvisible(null as never), /stripInvisible: text/],
    ["fenceUntrusted text", () => fenceUntrusted({} as never), /fenceUntrusted: text/],
    [
      "fenceUntrusted options",
      () => fenceUntrusted("x", { source: 3 as never }),
      /fenceUntrusted: options\.source/,
    ],
    ["sizeText", () => sizeText("x", { maxChars: "10" as never }), /sizeText: options\.maxChars/],
    ["cutAtParagraph", () => cutAtParagraph("x", -1), /cutAtParagraph: maxChars/],
  ] as const)("%s throws BadInputError", (_name, run, message) => {
    let thrown: unknown;
    try {
      run();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(BadInputError);
    expect((thrown as BadInputError).code).toBe("bad_input");
    expect((thrown as Error).message).toMatch(message);
  });

  it("extractMarkdown rejects with BadInputError; vetUrl answers its failure shape", async () => {
    await expect(extractMarkdown(null as never, URL_OK)).rejects.toThrow(/extractMarkdown: html/);
    await expect(extractMarkdown("<p>x</p>", 5 as never)).rejects.toBeInstanceOf(BadInputError);
    expect(await vetUrl(5 as never)).toEqual({
      ok: false,
      code: "bad_input",
      reason: expect.stringMatching(/vetUrl: url must be a string/),
    });
  });

  it("helpers given null options take them as none", () => {
    expect(fenceUntrusted("hello", null as never)).toContain("hello");
    expect(sizeText("hello", null as never).text).toBe("hello");
    expect(redactSecrets("plain words")).toEqual({ text: "plain words", found: [] });
  });
});
