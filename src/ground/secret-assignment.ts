import { rule, type SecretRule, shannonEntropy } from "./secret-rule.js";

/**
 * Generic `NAME=value`, `name: value`, `"name": "value"` and `'name' => 'value'` assignments (.env, shell, YAML,
 * JSON, TOML, PHP, query strings) whose name says secret and whose value looks generated: gitleaks'
 * generic-api-key, written as two tests a regex cannot make: what the name means, and how random the value is.
 *
 * The name counts by its last word (`SLACK_SIGNING_SECRET`, `apiKey`, `db_password`, `x-api-key`), so
 * `token_url`, `secret_name`, `keyboard` and `monkey` are not secret names. A bare `key`, `auth` or `pass` is weak
 * (React keys, cache keys): its value must be long and random. Values that are words, identifiers, references
 * (`$VAR`, `${VAR}`, `{{ var }}`, `process.env.X`), URLs, paths, numbers or placeholders stay; hashes and UUIDs stay
 * unless the name is a strong secret name (a signing secret is often hex, a Heroku key a UUID).
 */

const SECRET_WORD = "(?:key|token|secret|passw(?:or)?d|pwd|pass|passphrase|credentials?|creds|auth)";
// A value quoted three ways, or bare up to a delimiter; the bare run is taken whole (a lookahead capture), so a
// value that does not end at a delimiter fails at once instead of being retried one character shorter.
// Groups 1-4 of the whole pattern, so the bare run is backreference 4. A bare value holds no `=` (but its base64
// padding) and no `:`, so a run of `key=key=…` or `a:b:…` ends each try at once instead of 2048 characters on.
const VALUE = String.raw`(?:"([^"\s\\]{8,2048})"|'([^'\s\\]{8,2048})'|\x60([^\x60\s\\]{8,2048})\x60|(?=([^\s"'\x60<>;,&(){}[\]\\|=:]{8,2048}={0,3}))\4(?=[\s"'\x60<>;,&)}\]|]|\\[nr]|$))`;

const STRONG_WORDS = new Set([
  "secret",
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "token",
  "credential",
  "credentials",
  "creds",
  "apikey",
  "secretkey",
  "accesskey",
  "privatekey",
  "signingkey",
  "authtoken",
  "accesstoken",
  "apitoken",
  "refreshtoken",
  "clientsecret",
  "dbpassword",
]);
const WEAK_WORDS = new Set(["key", "auth", "pass"]);
/** Before `key`, these make it a secret's name: `api_key`, `LICENSE_KEY`, `encryptionKey`. */
const SECRET_KEY_QUALIFIERS = new Set([
  "api",
  "secret",
  "access",
  "private",
  "signing",
  "encryption",
  "master",
  "license",
  "licence",
  "client",
  "app",
  "application",
  "service",
  "account",
  "auth",
  "webhook",
  "session",
  "shared",
  "admin",
  "root",
  "storage",
  "subscription",
  "consumer",
  "developer",
  "hmac",
  "jwt",
]);
/** Before any secret word, these say it is not one: `public_key`, `csrf_token`, `next_page_token`, `primary_key`. */
const NOT_SECRET_QUALIFIERS = new Set([
  "public",
  "publishable",
  "pub",
  "primary",
  "foreign",
  "partition",
  "sort",
  "row",
  "cache",
  "lookup",
  "map",
  "unique",
  "composite",
  "hot",
  "short",
  "i18n",
  "translation",
  "object",
  "idempotency",
  "dedupe",
  "group",
  "csrf",
  "xsrf",
  "next",
  "page",
  "continuation",
  "pagination",
  "cursor",
  "sync",
  "anon",
  "design",
  "color",
  "colour",
]);

const SAFE_INT = /^\d+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^(?:0x)?[0-9a-f]+$/i;
const WORDS = /^[A-Za-z]+(?:[-_. ][A-Za-z]+)*$/;
// `settings.SECRET_KEY`, `self.token`, `req.body.password`: an identifier chain, not a value.
const IDENTIFIER_CHAIN = /^[A-Za-z_$][A-Za-z_$]*\d{0,2}(?:\.[A-Za-z_$][A-Za-z_$]*\d{0,2})+$/;
const REFERENCE = /^(?:\$|%|<|\{\{|#\{|@@?[A-Za-z])|process\.env|os\.environ|getenv|REDACTED|:\/\/|^\/\//i;

/** The words of an identifier: `SLACK_SIGNING_SECRET` → slack, signing, secret; `APIKey` → api, key. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

type Strength = "strong" | "weak" | "none";

function nameStrength(name: string): Strength {
  const words = wordsOf(name);
  const last = words.at(-1);
  if (last === undefined) return "none";
  if (words.some((w) => NOT_SECRET_QUALIFIERS.has(w))) return "none";
  if (STRONG_WORDS.has(last)) return "strong";
  if (!WEAK_WORDS.has(last)) return "none";
  const before = words.at(-2);
  if (last === "key" && before !== undefined && SECRET_KEY_QUALIFIERS.has(before)) return "strong";
  return "weak";
}

/** Random-looking letters: case flips often (`aZkPqLm`), where an identifier flips once a word (`someVariable`). */
function looksRandomLetters(value: string): boolean {
  if (value.length < 16) return false;
  let flips = 0;
  for (let i = 1; i < value.length; i++) {
    const a = value[i - 1] as string;
    const b = value[i] as string;
    if ((a >= "a" && a <= "z" && b >= "A" && b <= "Z") || (a >= "A" && a <= "Z" && b >= "a" && b <= "z"))
      flips++;
  }
  return flips / value.length > 0.3;
}

export function isSecretValue(value: string, strength: Exclude<Strength, "none">): boolean {
  if (REFERENCE.test(value) || SAFE_INT.test(value) || IDENTIFIER_CHAIN.test(value)) return false;
  if (/^[./~]/.test(value) || /^(.)\1+$/.test(value)) return false;
  if (WORDS.test(value) && !looksRandomLetters(value)) return false;
  const entropy = shannonEntropy(value);
  if (strength === "weak") {
    if (UUID.test(value) || HEX.test(value)) return false;
    return value.length >= 16 && entropy >= 3.5;
  }
  return entropy >= (value.length < 12 ? 2.5 : 3);
}

function nameBefore(text: string, end: number): string {
  let start = end;
  while (start > 0 && /[\w.-]/.test(text[start - 1] as string)) start--;
  return text.slice(start, end);
}

export const ASSIGNMENT_RULE: SecretRule = rule(
  "assigned-secret",
  // Anchored on the operator, with the name looked for behind it: `=` and `:` are rarer in a page than the first
  // letters of the secret words, and V8 would try those at nearly every position.
  String.raw`(?:=>|:=|=|:)(?<=${SECRET_WORD}["']?[ \t]*(?:=>|:=|=|:))[ \t]*${VALUE}`,
  {
    flags: "gi",
    group: [1, 2, 3, 4],
    accept(value, text, start) {
      // `start` is the value's; the name ends where the match's secret word does, before the quote and operator.
      const head = text.slice(Math.max(0, start - 80), start);
      const op = /(["']?)[ \t]*(?:=>|:=|=|:)[ \t]*["'\x60]?$/.exec(head);
      if (!op) return false;
      const nameEnd = start - (head.length - op.index);
      const strength = nameStrength(nameBefore(text, nameEnd));
      return strength !== "none" && isSecretValue(value, strength);
    },
  },
);
