import { type ChildProcessByStdio, spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import type { Readable } from "node:stream";
import type { Deadline } from "../../core/deadline.js";
import { optionalLine } from "../../core/one-line.js";
import type { Provider, ProviderAnswer, ProviderHit, ProviderOutcome } from "../provider.js";
import { resolveGroundingRedirects } from "./gemini.js";
import { citedFor } from "./perplexity.js";

const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
/** Below this there is no point starting a CLI that needs seconds to boot. */
const MIN_START_MS = 1000;
// The CLI must use the account login, and has no business holding websift's other keys either.
// A Gemini key would switch the CLI from the user's own login to billed API calls.
const GEMINI_KEYS = ["GEMINI_API_KEY", "GOOGLE_API_KEY"];

export const geminiCli: Provider = {
  name: "gemini-cli",
  kind: "model",
  paid: false,
  needs: "the gemini command on PATH",
  native: {},
  timeoutMs: 20_000,
  configured: (settings) => findGeminiBinary(settings.environment) !== undefined,
  async search(query, ctx, deadline) {
    const bin = findGeminiBinary(ctx.config.environment);
    if (!bin)
      return {
        status: "error",
        code: "not_installed",
        message: "gemini-cli: no `gemini` binary on PATH or in ~/.local/bin",
      };
    if (deadline.remaining() < MIN_START_MS)
      return {
        status: "timeout",
        code: "timeout",
        message: "gemini-cli: too little time left to start the CLI",
      };
    const run = await runGeminiCli(
      bin,
      geminiCliPrompt(query.query),
      childEnv(ctx.config.environment, Object.keys(ctx.config.keys)),
      deadline,
    );
    if (run.kind === "spawn_error")
      return run.code === "ENOENT" || run.code === "EACCES"
        ? { status: "error", code: "not_installed", message: `gemini-cli: cannot run ${bin} (${run.code})` }
        : { status: "error", code: "cli_error", message: `gemini-cli: failed to start (${run.code})` };
    if (run.kind === "timeout")
      return {
        status: "timeout",
        code: "timeout",
        message: "gemini-cli: no answer before the deadline (process killed)",
      };
    if (run.kind === "too_large")
      return { status: "error", code: "too_large", message: "gemini-cli: output over 4 MB (process killed)" };
    const parsed = parseGeminiCliOutput(run.stdout, run.exitCode);
    if (parsed.status !== "ok") return parsed;
    const hits = parsed.hits.slice(0, query.limit);
    return { ...parsed, hits: await resolveGroundingRedirects(hits, ctx.net, deadline, ctx.log) };
  },
};

/** `gemini` from the PATH of the environment websift was started in, else ~/.local/bin/gemini (where the npm user prefix usually puts it). */
export function findGeminiBinary(env: Record<string, string | undefined>): string | undefined {
  const dirs = (env.PATH ?? "").split(delimiter).filter(Boolean);
  dirs.push(join(env.HOME || homedir(), ".local", "bin"));
  for (const dir of dirs) {
    const candidate = join(dir, "gemini");
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return undefined;
}

/**
 * The CLI's environment: websift's own, without any provider key websift holds (`keyNames`, what the providers
 * declare), the Gemini keys, or any `WEBSIFT_` setting (the LLM key, the service tokens, the Redis URL with its
 * password are none of the CLI's business).
 */
export function childEnv(
  env: Record<string, string | undefined>,
  keyNames: Iterable<string>,
): Record<string, string> {
  const withheld = new Set([...GEMINI_KEYS, ...keyNames]);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env))
    if (v !== undefined && !withheld.has(k) && !k.startsWith("WEBSIFT_")) out[k] = v;
  return out;
}

/**
 * The CLI expands `@path` in a prompt into that file's contents: a query must never make it read local
 * files, so `@` is replaced by its full-width twin.
 */
export function geminiCliPrompt(query: string): string {
  return (
    "Use Google Search to answer the question below. After the answer, list every source you used under a " +
    'line "Sources:", one per line as "[n] Title (URL)".\n\nQuestion: ' +
    query.replace(/@/g, "＠").replace(/\0/g, "")
  );
}

type CliRun =
  | { kind: "exit"; exitCode: number | null; stdout: string }
  | { kind: "spawn_error"; code: string }
  | { kind: "timeout" }
  | { kind: "too_large" };

function runGeminiCli(
  bin: string,
  prompt: string,
  env: Record<string, string>,
  deadline: Deadline,
): Promise<CliRun> {
  // An empty working directory: the CLI reads GEMINI.md and files from where it runs.
  const cwd = mkdtempSync(join(tmpdir(), "websift-gemini-"));
  return new Promise<CliRun>((resolve) => {
    let settled = false;
    let child: ChildProcessByStdio<null, Readable, Readable> | undefined;
    const killGroup = () => {
      if (child?.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    };
    const onAbort = () => {
      killGroup();
      finish({ kind: "timeout" });
    };
    const finish = (run: CliRun) => {
      if (settled) return;
      settled = true;
      deadline.signal.removeEventListener("abort", onAbort);
      rmSync(cwd, { recursive: true, force: true });
      resolve(run);
    };
    try {
      // Its own process group, so the kill reaches anything the CLI started too.
      child = spawn(bin, ["-p", prompt, "-o", "json", "--skip-trust"], {
        cwd,
        env,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
    } catch (err) {
      // Thrown messages quote the arguments, i.e. the query: only the code leaves.
      return finish({
        kind: "spawn_error",
        code: (err as NodeJS.ErrnoException).code ?? "invalid_arguments",
      });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) {
        killGroup();
        finish({ kind: "too_large" });
      } else chunks.push(chunk);
    });
    // Warnings go to stderr; they are drained, never parsed or logged (they can quote the prompt).
    child.stderr.resume();
    child.on("error", (err: NodeJS.ErrnoException) =>
      finish({ kind: "spawn_error", code: err.code ?? "unknown" }),
    );
    child.on("close", (exitCode) =>
      finish({ kind: "exit", exitCode, stdout: Buffer.concat(chunks).toString("utf8") }),
    );
    if (deadline.signal.aborted) onAbort();
    else deadline.signal.addEventListener("abort", onAbort, { once: true });
  });
}

interface CliOutput {
  response?: unknown;
  error?: { type?: unknown; message?: unknown; code?: unknown };
}

export function parseGeminiCliOutput(stdout: string, exitCode: number | null): ProviderOutcome {
  const out = parseJsonObject(stdout);
  const error = out?.error;
  const errorCode = typeof error?.code === "number" ? error.code : undefined;
  const detail = optionalLine(error?.message, 200);
  if (exitCode === 41 || errorCode === 41)
    return {
      status: "error",
      code: "not_logged_in",
      message: "gemini-cli is not signed in: run `gemini` once interactively to log in",
    };
  if (error && typeof error === "object") {
    if (/quota|RESOURCE_EXHAUSTED|\b429\b|rate.?limit/i.test(detail ?? ""))
      return {
        status: "quota",
        code: "quota",
        message: `gemini-cli: quota or rate limit reached (${detail})`,
      };
    return {
      status: "error",
      code: "cli_error",
      message: `gemini-cli failed${detail ? `: ${detail}` : ""} (exit ${exitCode ?? "signal"})`,
    };
  }
  if (!out)
    return {
      status: "error",
      code: "bad_response",
      message: `gemini-cli printed output that is not JSON (exit ${exitCode ?? "signal"})`,
    };
  if (exitCode !== 0)
    return {
      status: "error",
      code: "cli_error",
      message: `gemini-cli exited with code ${exitCode ?? "signal"}`,
    };
  const text = typeof out.response === "string" ? out.response.trim() : "";
  if (!text) return { status: "empty", note: "gemini-cli returned an empty response" };
  const answer: ProviderAnswer = {
    text,
    kind: "model",
    modelGenerated: true,
    source: "gemini-cli (Google Search)",
  };
  const hits = sourcesIn(text);
  return hits.length > 0
    ? { status: "ok", hits, answer }
    : { status: "empty", answer, note: "gemini-cli answered without listing sources" };
}

/** stdout should hold one JSON object; tolerate stray lines around it. */
function parseJsonObject(stdout: string): CliOutput | undefined {
  const attempt = (s: string) => {
    try {
      const v = JSON.parse(s);
      return v && typeof v === "object" && !Array.isArray(v) ? (v as CliOutput) : undefined;
    } catch {
      return undefined;
    }
  };
  const trimmed = stdout.trim();
  if (!trimmed) return undefined;
  return attempt(trimmed) ?? attempt(trimmed.slice(trimmed.indexOf("{"), trimmed.lastIndexOf("}") + 1));
}

/** Sources the answer lists: "[n] Title (URL)" lines, markdown links, then bare URLs, in order of appearance. */
export function sourcesIn(text: string): ProviderHit[] {
  const hits: ProviderHit[] = [];
  const seen = new Set<string>();
  // The [n] markers that say what a source is cited for live in the prose above the list.
  const prose = text.split(/^\s*\**Sources:?\**\s*$/im)[0];
  const add = (rawUrl: string, title: string | undefined, n?: number) => {
    const url = cleanUrl(rawUrl);
    if (!url || seen.has(url)) return;
    seen.add(url);
    hits.push({
      title: optionalLine(title, 200) ?? new URL(url).hostname,
      url,
      snippet: n ? citedFor(prose, n) : "",
    });
  };
  for (const m of text.matchAll(/^\s*\[(\d+)\]\s*(.*?)\s*\((https?:\/\/[^\s)]+)\)\s*$/gm))
    add(m[3], m[2], Number(m[1]));
  for (const m of text.matchAll(/\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g)) add(m[2], m[1]);
  for (const m of text.matchAll(/https?:\/\/[^\s<>()[\]"'`]+/g)) add(m[0], undefined);
  return hits;
}

function cleanUrl(raw: string): string | undefined {
  try {
    const u = new URL(raw.replace(/[.,;:!?]+$/, ""));
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}
