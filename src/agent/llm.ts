import { settingsFromEnv } from "../config/load.js";
import type { LlmSettings as ModelSettings } from "../config/settings.js";
import { Deadline } from "../core/deadline.js";
import type { Attempt, Failure } from "../core/status.js";
import type { Net } from "../net/client.js";

/**
 * An OpenAI-compatible chat client (OpenAI, Ollama, llama.cpp server, vLLM) over the instance's `net`, so the
 * endpoint obeys the same deadline, byte caps and address policy as everything else: it may live on a private
 * address only because the operator named it in WEBSIFT_LLM_BASE_URL (createWebsift trusts that origin).
 * The key travels in the Authorization header only; no failure message ever carries it.
 */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatOptions {
  deadline: Deadline;
  maxTokens?: number;
}

export type LlmCode = "timeout" | "http_status" | "malformed" | "empty" | "offline" | "cancelled" | "error";

export interface LlmFailure extends Failure {
  ok: false;
  code: LlmCode;
  httpStatus?: number;
}

export interface LlmReply {
  ok: true;
  text: string;
  ms: number;
}

export interface LlmClient {
  readonly model: string;
  chat(messages: ChatMessage[], options: ChatOptions): Promise<LlmReply | LlmFailure>;
}

export interface LlmSettings {
  net: Net;
  /** The model's settings as the loader read them (WEBSIFT_LLM_BASE_URL, _API_KEY, _MODEL). */
  llm?: ModelSettings;
  /** Without `llm`: an environment to read them from, through the loader (default process.env). */
  env?: Record<string, string | undefined>;
}

/** Whether the settings name a model (createLlm gives a client exactly then). */
export function llmConfigured(llm: ModelSettings): boolean {
  return !!llm.baseUrl;
}

/** The configured client, or undefined when WEBSIFT_LLM_BASE_URL is not set (callers then use their rules). */
export function createLlm({ net, llm, env }: LlmSettings): LlmClient | undefined {
  const settings = llm ?? settingsFromEnv(env).llm;
  if (!settings.baseUrl) return undefined;
  const endpoint = `${settings.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const key = settings.apiKey;
  // llama.cpp serves whatever it loaded and ignores the name; the others need WEBSIFT_LLM_MODEL.
  const model = settings.model || "default";
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  const scrub = (text: string) => (key ? text.split(key).join("[key]") : text);

  return {
    model,
    async chat(messages, { deadline, maxTokens = 256 }) {
      const started = Date.now();
      const body = JSON.stringify({ model, messages, temperature: 0, max_tokens: maxTokens, stream: false });
      const res = await net.request(endpoint, {
        deadline,
        method: "POST",
        headers,
        body,
        maxBytes: 2_000_000,
        trusted: true,
      });
      if (!res.ok) {
        const code: LlmCode =
          res.code === "timeout" || res.code === "offline" || res.code === "cancelled" ? res.code : "error";
        return llmFailure(code, `the language model could not be reached: ${scrub(res.message)}`);
      }
      if (res.status >= 400) {
        return llmFailure("http_status", `the language model answered HTTP ${res.status}`, res.status);
      }
      const data = res.json<ChatCompletion>();
      if (data === undefined || typeof data !== "object" || data === null) {
        return llmFailure("malformed", "the language model's reply was not JSON");
      }
      const choices = Array.isArray(data.choices) ? data.choices : undefined;
      if (!choices) return llmFailure("malformed", "the language model's reply has no choices list");
      const content = choices[0]?.message?.content;
      if (typeof content !== "string" || !content.trim()) {
        return llmFailure("empty", "the language model returned no text");
      }
      return { ok: true, text: content.trim(), ms: Date.now() - started };
    },
  };
}

interface ChatCompletion {
  choices?: { message?: { content?: unknown } }[];
}

function llmFailure(code: LlmCode, message: string, httpStatus?: number): LlmFailure {
  const status: LlmFailure["status"] =
    code === "timeout"
      ? "timeout"
      : code === "offline"
        ? "offline"
        : code === "http_status" && httpStatus === 429
          ? "rate_limited"
          : "error";
  return { ok: false, status, code, message, ...(httpStatus === undefined ? {} : { httpStatus }) };
}

/** One model call as an Attempt, so results show what the model cost and how it went. */
export function llmAttempt(result: LlmReply | LlmFailure, ms: number): Attempt {
  return result.ok
    ? { provider: "llm", status: "ok", ms }
    : { provider: "llm", status: result.status, ms, error: result.message };
}

/** A budget for one model call: at most `maxMs`, never past the caller's deadline. */
export function modelBudget(deadline: Deadline | undefined, maxMs: number): Deadline {
  return deadline ? deadline.child(maxMs) : Deadline.after(maxMs);
}
