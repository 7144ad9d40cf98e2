import type { z } from "zod";
import { Deadline } from "./core/deadline.js";
import { lazySchema } from "./core/lazy-zod.js";

/**
 * The arguments of every public call, as one set of schemas. A caller's wrong type is refused at the door with
 * the argument's name, instead of surfacing as a TypeError from deep inside (or, in a session's background
 * lookup, as an unhandled rejection). Calls whose result carries a status answer bad input with that status
 * (`error`, code `bad_input`, as the search chain always has); calls with no status to carry it throw
 * `BadInputError`.
 *
 * The option schemas are loose objects: they check the fields they know and pass the object through untouched
 * (signals, Deadlines and callbacks must arrive as the same objects), so a caller's extra field is not an error.
 * `undefined` and `null` in place of an options object mean "no options".
 */
export class BadInputError extends TypeError {
  readonly code = "bad_input";
  constructor(
    /** The call and argument, e.g. `read: options.maxChars`. */
    readonly argument: string,
    problem: string,
  ) {
    super(`${argument} ${problem}`);
    this.name = "BadInputError";
  }
}

/**
 * Every schema, built at the first check (zod loads then, not with the package): one builder, so the pieces
 * they share (an integer's wording, an options object) are made once.
 */
const schemas = lazySchema((z) => {
  function integer(min: number, max?: number) {
    const say =
      max === undefined ? `must be an integer, ${min} or more` : `must be an integer from ${min} to ${max}`;
    const base = z.int({ error: say }).min(min, { error: say });
    return max === undefined ? base : base.max(max, { error: say });
  }

  const positive = z.number({ error: "must be a number of milliseconds" }).positive({
    error: "must be a number of milliseconds, more than 0",
  });
  const text = z.string({ error: "must be a string" });
  const texts = z.array(text, { error: "must be an array of strings" });
  const flag = z.boolean({ error: "must be true or false" });
  const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
    z.enum(values, { error: `must be one of ${values.join(", ")}` });
  const callback = z.custom<(...args: never[]) => unknown>((v) => typeof v === "function", {
    error: "must be a function",
  });
  const signal = z.custom<AbortSignal>((v) => v instanceof AbortSignal, { error: "must be an AbortSignal" });
  const deadline = z.custom<Deadline>((v) => v instanceof Deadline, { error: "must be a Deadline" });

  /** An options object, or nothing; unknown fields pass. */
  const options = <S extends z.core.$ZodLooseShape>(shape: S) =>
    z.looseObject(shape, { error: "must be an object of options (or left out)" }).nullish();

  const QUERY = text;
  const TEXT_ARGUMENT = text;
  const URL_ARGUMENT = text;
  const CONVERSATION_ID = z.string({ error: "must be a string" }).min(1, { error: "must not be empty" });

  const SEARCH_OPTIONS = options({
    limit: integer(1, 20).optional(),
    provider: text.optional(),
    region: text.optional(),
    language: text.optional(),
    safesearch: oneOf(["off", "moderate", "strict"]).optional(),
    timeRange: oneOf(["d", "w", "m", "y"]).optional(),
    scope: oneOf(["general", "code"]).optional(),
    allowedHosts: texts.optional(),
    timeoutMs: positive.optional(),
    deadline: deadline.optional(),
    signal: signal.optional(),
    cache: flag.optional(),
    exclude: texts.optional(),
    onAttempt: callback.optional(),
  });

  const READ_OPTIONS = options({
    maxChars: integer(1).optional(),
    lookingFor: text.optional(),
    mode: oneOf(["passages", "cut", "head-tail"]).optional(),
    offset: integer(0).optional(),
    render: oneOf(["auto", "never", "always"]).optional(),
    timeoutMs: positive.optional(),
    // A number is the deprecated spelling of timeoutMs.
    deadline: z
      .union([positive, deadline], { error: "must be a Deadline (or timeoutMs a number of milliseconds)" })
      .optional(),
    links: flag.optional(),
    signal: signal.optional(),
    pin: z.array(oneOf(["tavily", "exa"]), { error: "must be an array of tavily, exa" }).optional(),
    robots: oneOf(["respect", "ignore", "automated"]).optional(),
  });

  const ANSWER_OPTIONS = options({
    language: text.optional(),
    route: oneOf(["browser", "gemini-cli", "gemini-api"]).optional(),
    mode: oneOf(["text", "sources"]).optional(),
    maxChars: integer(1).optional(),
    timeoutMs: positive.optional(),
    deadline: deadline.optional(),
    signal: signal.optional(),
    onProgress: callback.optional(),
  });

  const RESEARCH_OPTIONS = options({
    maxHops: integer(1).optional(),
    history: z
      .array(z.object({ role: oneOf(["user", "assistant"]), content: text }), {
        error: "must be an array of { role, content } turns",
      })
      .optional(),
    pagesPerHop: integer(0).optional(),
    timeoutMs: positive.optional(),
    deadline: deadline.optional(),
    signal: signal.optional(),
    onProgress: callback.optional(),
  });

  const TURN_OPTIONS = options({ signal: signal.optional() });

  const SIZE_LIMIT = integer(1);
  const SIZE_OPTIONS = options({
    maxChars: SIZE_LIMIT.optional(),
    lookingFor: text.optional(),
    mode: oneOf(["passages", "cut", "head-tail"]).optional(),
    offset: integer(0).optional(),
  });

  const seconds = z
    .number({ error: "must be a number of seconds" })
    .min(0, { error: "must be 0 seconds or more" });
  const milliseconds = z
    .number({ error: "must be a number of milliseconds" })
    .min(0, { error: "must be 0 milliseconds or more" });
  const SESSION_OPTIONS = options({
    waitMs: z
      .union([milliseconds, callback], { error: "must be a number of milliseconds or a function" })
      .optional(),
    lookupTimeoutMs: milliseconds.optional(),
    waitSeconds: z
      .union([seconds, callback], { error: "must be a number of seconds or a function" })
      .optional(),
    deadlineSeconds: seconds.optional(),
    maxConcurrent: integer(1).optional(),
    onLanded: callback.optional(),
    clock: z.object({}, { error: "must be a Clock" }).loose().optional(),
  });

  const WEBSIFT_CONFIG = options({
    store: z.object({}, { error: "must be a Store" }).loose().optional(),
    // Not z.record: it refuses process.env, which is not a plain object, and that is the env most callers pass.
    env: z
      .custom<Record<string, string | undefined>>(
        (v) =>
          typeof v === "object" &&
          v !== null &&
          !Array.isArray(v) &&
          Object.values(v).every((x) => x === undefined || typeof x === "string"),
        { error: "must be an object of strings" },
      )
      .optional(),
    resolved: z
      .object(
        { search: z.object({}).loose(), keys: z.object({}).loose() },
        { error: "must be loaded Settings" },
      )
      .loose()
      .optional(),
    providers: z
      .array(z.object({ name: text }).loose(), { error: "must be an array of providers" })
      .optional(),
    settings: z.record(z.string(), z.unknown(), { error: "must be an object" }).optional(),
    providerTimeoutMs: z
      .record(z.string(), positive, { error: "must be an object of milliseconds" })
      .optional(),
    budgets: z.record(z.string(), positive, { error: "must be an object of milliseconds" }).optional(),
    timeoutMs: positive.optional(),
    log: callback.optional(),
    enabled: z.union([flag, callback], { error: "must be true, false or a function" }).optional(),
    providerOrder: texts.optional(),
    defaults: options({
      limit: integer(1, 20).optional(),
      safesearch: oneOf(["off", "moderate", "strict"]).optional(),
      maxChars: integer(1).optional(),
      mode: oneOf(["passages", "cut", "head-tail"]).optional(),
    }).optional(),
  });

  const FENCE_OPTIONS = options({ source: text.optional(), nonce: text.optional() });
  const VET_OPTIONS = options({ resolve: callback.optional() });

  return {
    QUERY,
    TEXT_ARGUMENT,
    URL_ARGUMENT,
    CONVERSATION_ID,
    SEARCH_OPTIONS,
    READ_OPTIONS,
    ANSWER_OPTIONS,
    RESEARCH_OPTIONS,
    TURN_OPTIONS,
    SIZE_LIMIT,
    SIZE_OPTIONS,
    SESSION_OPTIONS,
    WEBSIFT_CONFIG,
    FENCE_OPTIONS,
    VET_OPTIONS,
  };
});

/** A schema of `schemas`, named as the checks name it; built when first used. */
const schema =
  <K extends keyof ReturnType<typeof schemas>>(name: K) =>
  () =>
    schemas()[name];

export const QUERY = schema("QUERY");
export const TEXT_ARGUMENT = schema("TEXT_ARGUMENT");
export const URL_ARGUMENT = schema("URL_ARGUMENT");
export const CONVERSATION_ID = schema("CONVERSATION_ID");
export const SEARCH_OPTIONS = schema("SEARCH_OPTIONS");
export const READ_OPTIONS = schema("READ_OPTIONS");
export const ANSWER_OPTIONS = schema("ANSWER_OPTIONS");
export const RESEARCH_OPTIONS = schema("RESEARCH_OPTIONS");
export const TURN_OPTIONS = schema("TURN_OPTIONS");
export const SIZE_LIMIT = schema("SIZE_LIMIT");
export const SIZE_OPTIONS = schema("SIZE_OPTIONS");
export const SESSION_OPTIONS = schema("SESSION_OPTIONS");
export const WEBSIFT_CONFIG = schema("WEBSIFT_CONFIG");
export const FENCE_OPTIONS = schema("FENCE_OPTIONS");
export const VET_OPTIONS = schema("VET_OPTIONS");

/**
 * The argument itself when it fits the schema (an options object left out or null comes back as `{}`), else a
 * `BadInputError` naming `call: argument.field`. The offending value is described by its type only (a number by
 * its value), never echoed: it may be a secret.
 */
export function checkArgument<T>(
  call: string,
  name: string,
  schema: () => z.ZodType,
  value: T,
): NonNullable<T> {
  const parsed = schema().safeParse(value, { reportInput: true });
  if (parsed.success) return (value ?? {}) as NonNullable<T>;
  const issue = parsed.error.issues[0];
  const path = issue?.path.length ? `.${issue.path.map(String).join(".")}` : "";
  const got = describe(issue && "input" in issue ? issue.input : value);
  throw new BadInputError(`${call}: ${name}${path}`, `${issue?.message ?? "is not valid"} (got ${got})`);
}

/** The BadInputError a check threw, to be answered as the call's failure value; anything else is a bug. */
export function asBadInput(err: unknown): BadInputError {
  if (err instanceof BadInputError) return err;
  throw err;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return value === "" ? "an empty string" : "a string";
  if (typeof value === "object") return "an object";
  return typeof value === "undefined" ? "nothing" : `a ${typeof value}`;
}
