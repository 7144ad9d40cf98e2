import type { Attempt } from "../core/status.js";

/** Progress lines for callbacks and the CLI's stderr: never part of the envelope. */
export const progressLine = {
  searching: (q: string) => `🌐 Searching the web for '${q}'…`,
  ddgBlocked: "🚧 DuckDuckGo served a bot-challenge page — search blocked, no results retrieved.",
  ddgEmpty: "⚠️ No DuckDuckGo results found.",
  wikipedia: (lang: string, q: string) => `📚 Searching Wikipedia (${lang}) for '${q}'…`,
  answered: (provider: string) => `✅ Answered via ${provider}.`,
  attempt: (a: Attempt) => `${a.provider}: ${a.status}${a.count !== undefined ? ` (${a.count})` : ""}`,
  read: (url: string, a: Attempt) => `📄 Read ${url}: ${a.status}${a.error ? ` (${a.error})` : ""}`,
};
