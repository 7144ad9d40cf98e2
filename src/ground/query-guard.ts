import { stripInvisible } from "./fence.js";
import { redactSecrets } from "./redact.js";

export type QueryVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Decides, before any request, whether a query may leave the machine. Agents paste what they hold: a
 * local path or a key in a query would be sent to a search engine and logged there for good.
 *
 * The rule:
 * 1. Any secret the redactor recognises: refused.
 * 2. Home-directory paths are refused whatever the phrasing: `~/…` and `~user/…`, `/Users/<name>`,
 *    `/home/<name>`, `/root/…`, macOS `/private/var/folders/…`. They name a person and their files.
 *    Paths rooted in an environment variable are home paths too, in every shell's spelling: `$HOME/…`,
 *    `${HOME}/…`, `"$HOME"/…`, `%USERPROFILE%\…`, `%APPDATA%\…`, `$env:USERPROFILE\…`, `${env:APPDATA}\…`, any
 *    variable name. The one bare `$NAME/` shape left alone is a ticker pair (`$BTC/USD`): three to five
 *    capitals on each side.
 * 3. Windows drive paths (`C:\…`, `C:/…`) and UNC paths (`\\server\share`) and `file:` URLs: refused.
 * 4. Glob patterns (`/foo/*`, `src/*.js`, a `**` path segment as in `**` + `/*.ts`): refused. A lone
 *    C comment marker and arithmetic (`2**10`, `3*4/2`) are not globs.
 * 5. Other absolute paths under a system root (`/etc`, `/var`, `/usr`, `/opt`, `/tmp`, `/proc`, …, and
 *    the bare `/root`, `/home`, `/Users`):
 *    - the few paths that appear in ordinary code (`/dev/null`, `/usr/bin/env`, `/bin/sh`) pass anywhere;
 *    - any other is allowed only when the query is phrased as a question ("what is /etc/fstab used
 *      for", "why does /var/log fill up") and the path is short (at most four segments) and made of
 *      plain names, the shape of a documented location rather than a machine-specific one;
 *    - otherwise refused.
 * A path counts only where it starts a token: the path inside a URL (`https://x.org/etc/passwd`) or a
 * fraction (`3/4`) is not a filesystem path. Invisible characters are stripped and the query is
 * NFKC-normalised first, so that zero-width spaces and fullwidth slashes cannot dress a path or key up.
 */
export function guardQuery(query: string): QueryVerdict {
  const text = stripInvisible(query).normalize("NFKC");
  const secrets = redactSecrets(text).found;
  if (secrets.length > 0) {
    return refuse(`the query contains a secret (${secrets.map((s) => s.kind).join(", ")})`);
  }
  if (TILDE_PATH.test(text)) return refuse("the query contains a home-directory path (~/…)");
  const rooted = envRootedPath(text);
  if (rooted) return refuse(`the query contains a path rooted in an environment variable (${rooted}…)`);
  if (WINDOWS_PATH.test(text) || UNC_PATH.test(text)) return refuse("the query contains a Windows file path");
  if (FILE_URL.test(text)) return refuse("the query contains a file: URL");
  const glob = findGlob(text);
  if (glob) return refuse(`the query contains a glob pattern (${glob})`);
  const question = isQuestion(text);
  for (const match of text.matchAll(ABSOLUTE_PATH)) {
    const path = trimPath(match[0]);
    const problem = judgePath(path, question);
    if (problem) return refuse(`the query contains ${problem} (${path})`);
  }
  return { ok: true };
}

function refuse(reason: string): QueryVerdict {
  return { ok: false, reason: `${reason}; nothing was sent` };
}

const TILDE_PATH = /(?<![\w~])~(?:[A-Za-z_][\w.-]*)?[/\\]/;
// `${HOME}`, `${env:APPDATA}`, `$env:USERPROFILE`, `%APPDATA%`, `$HOME`, each optionally quoted, then a separator.
const ENV_ROOTED_PATH =
  /(?<![\w$%])["']?(\$\{[A-Za-z_][\w:]*\}|\$env:[A-Za-z_]\w*|%[A-Za-z_][\w()]*%|\$([A-Za-z_]\w*))["']?[\\/]([^\s\\/]*)/gi;
const TICKER_PAIR = /^[A-Z]{3,5}$/;

function envRootedPath(text: string): string | undefined {
  for (const match of text.matchAll(ENV_ROOTED_PATH)) {
    const [, root, bare, next] = match;
    if (bare !== undefined && TICKER_PAIR.test(bare) && TICKER_PAIR.test(next ?? "")) continue;
    return `${root}/`;
  }
  return undefined;
}

const WINDOWS_PATH = /(?<![\p{L}\p{N}])[A-Za-z]:[\\/]/u;
const UNC_PATH = /(?<![\w\\])\\\\[\w.$-]+\\[\w.$-]/;
const FILE_URL = /\bfile:\/\//i;

const HOME_ROOTS = new Set(["Users", "home", "root"]);
const SYSTEM_ROOTS = new Set([
  "etc",
  "var",
  "usr",
  "opt",
  "tmp",
  "proc",
  "sys",
  "dev",
  "bin",
  "sbin",
  "lib",
  "lib32",
  "lib64",
  "boot",
  "srv",
  "run",
  "mnt",
  "media",
  "snap",
  "nix",
  "private",
  "Library",
  "System",
  "Applications",
  "Volumes",
  "cores",
]);

/** Paths that turn up in ordinary code (`2>/dev/null`, `#!/usr/bin/env node`) and reveal nothing. */
const FAMOUS_PATHS = new Set([
  "/dev/null",
  "/dev/zero",
  "/dev/random",
  "/dev/urandom",
  "/dev/stdin",
  "/dev/stdout",
  "/dev/stderr",
  "/usr/bin/env",
  "/bin/bash",
  "/bin/sh",
  "/bin/zsh",
]);

// A slash that starts a token: not inside a URL, a fraction or a word.
const ABSOLUTE_PATH = /(?<![\p{L}\p{N}_./\\%-])\/[^\s"'`<>|;,()[\]{}]*/gu;

function trimPath(raw: string): string {
  return raw.replace(/[.?!:]+$/, "");
}

function judgePath(path: string, question: boolean): string | undefined {
  const segments = path.split("/").filter(Boolean);
  const root = segments[0];
  if (root === undefined) return undefined;
  if (HOME_ROOTS.has(root) && segments.length > 1) return "a home-directory path";
  if (root === "private" && segments[1] === "var" && segments[2] === "folders")
    return "a home-directory path";
  if (!SYSTEM_ROOTS.has(root) && !HOME_ROOTS.has(root)) return undefined;
  if (FAMOUS_PATHS.has(path.replace(/\/+$/, ""))) return undefined;
  if (question && segments.length <= 4 && segments.every(isPlainName)) return undefined;
  return "an absolute filesystem path";
}

/** A name a manual would print: no run of digits, no hash-like chunk, nothing generated per machine. */
function isPlainName(segment: string): boolean {
  return /^[A-Za-z][\w.+-]{0,39}$/.test(segment) && !/\d{4,}|[0-9a-f]{8,}/i.test(segment);
}

const QUESTION_START =
  /^(?:what|what's|whats|why|how|where|when|which|who|whose|is|are|does|do|did|can|could|should|would|will|explain|define|meaning|purpose|was|warum|wie|wo|wozu|wofür|welche[rs]?|cosa|che|perché|perche|come|dove|quale|quali|qu'est-ce|que|quoi|pourquoi|comment|où|quel|quelle|qué|por|cómo|como|dónde|donde|cuál|cual|para)(?=[\s,?]|$)/iu;
const QUESTION_PHRASE = /\b(?:what (?:is|are|does)|used for|purpose of|meaning of|difference between)\b/i;

function isQuestion(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.endsWith("?") || QUESTION_START.test(trimmed) || QUESTION_PHRASE.test(trimmed);
}

/** The first whitespace-separated token that is a glob, if any. */
function findGlob(text: string): string | undefined {
  for (const token of text.split(/\s+/)) {
    const word = token.replace(/^["'`([{]+|["'`)\]},;.:!?]+$/g, "");
    if (!word.includes("*") || /^[a-z][a-z0-9+.-]*:\/\//i.test(word) || /^[a-z]+:[^/]/i.test(word)) continue;
    if (word.includes("**/") || word.includes("/**")) return word;
    const hasName = /[\p{L}\p{N}]/u.test(word);
    if (hasName && (word.includes("/*") || word.includes("*/"))) return word;
  }
  return undefined;
}
