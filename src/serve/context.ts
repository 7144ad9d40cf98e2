import type { ResolvedConfig } from "../config/load.js";
import type { Session } from "../session/session.js";
import type { StatusStore } from "../store/open-store.js";
import type { Websift } from "../websift.js";

/** One line of the service's recent activity: what the dashboard's Health page lists. */
export interface ActivityEntry {
  at: number;
  kind: "search" | "read" | "answer";
  /** The query or URL (already redacted the way the library redacts it). */
  subject: string;
  status: string;
  ms: number;
  /** Which client asked (token label or remote address), for per-client views. */
  client?: string;
}

/**
 * What every route of `websift serve` shares. The API (src/serve/api*) and the dashboard (src/serve/dashboard/*)
 * are registered on one Fastify app and see the same instance, so a settings change made in the dashboard is
 * what the next API call uses.
 */
export interface ServeContext {
  /** The current library instance; `reload()` swaps it, so always call this instead of keeping a reference. */
  websift(): Websift;
  /** Non-blocking lookups keyed by conversation id; its landings feed the per-conversation event stream. */
  session(): Session;
  /** The resolved configuration the current instance was built from (secrets masked by its consumers). */
  config(): ResolvedConfig;
  /** Re-reads the config file and `.env`, builds a new instance for the next calls and closes the old one. */
  reload(): Promise<void>;
  /** The config file settings are written to (created on first write). */
  configPath: string;
  /** The `.env` file API keys pasted in the dashboard are written to (mode 0600). */
  envPath: string;
  /** Shared state (sqlite by default, redis for fleets): the abilities switch lives here so every surface sees it. */
  store: StatusStore;
  /** The most recent API calls, newest first (bounded). */
  activity(): readonly ActivityEntry[];
  /** Operator log (stderr). */
  log(line: string): void;
}
