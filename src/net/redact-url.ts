/**
 * URLs as net's failures and messages show them: credentials (user:pass@) and the values of key-like query and
 * fragment parameters replaced, everything else kept as it was written, so an operator still sees which page
 * and which query failed. A provider's key travels in a query string (Google's `key=`, SerpApi's `api_key=`,
 * signed URLs' `X-Amz-Signature=`), and a redirect target can carry a token the caller never saw.
 *
 * Written here rather than taken from the ground layer's redaction: net sits below it and must not depend on it,
 * and this needs no rule table, only the URL's own structure.
 */
export const REDACTED = "[REDACTED]";

/** Parameter names, split into words, that say their value is a secret. */
const SECRET_WORDS = new Set([
  "key",
  "apikey",
  "token",
  "secret",
  "password",
  "passwd",
  "pwd",
  "pass",
  "sig",
  "signature",
  "auth",
  "authorization",
  "credential",
  "credentials",
  "session",
  "sessionid",
  "sid",
  "jwt",
  "bearer",
  "otp",
  "hmac",
]);

/** `api_key`, `apiKey`, `X-Amz-Signature`, `access_token`, `client-secret`: is any word of the name a secret word? */
export function isSecretParam(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, " "));
  } catch {
    // A malformed escape is judged as written.
  }
  const words = decoded
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => SECRET_WORDS.has(w));
}

/** `a=1&api_key=xyz&b` → `a=1&api_key=[REDACTED]&b`; pairs are rewritten in place, never re-encoded. */
function redactParams(params: string): string {
  if (!params.includes("=")) return params;
  return params
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq <= 0 || eq === pair.length - 1) return pair;
      return isSecretParam(pair.slice(0, eq)) ? `${pair.slice(0, eq + 1)}${REDACTED}` : pair;
    })
    .join("&");
}

/** One URL with its secrets replaced; a string that is no URL gets the same treatment by pattern. */
export function redactUrl(raw: string): string {
  if (typeof raw !== "string" || raw === "") return "";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return redactByPattern(raw);
  }
  if (!url.username && !url.password && !raw.includes("=")) return raw;
  // Rebuilt from the raw string so that what is kept reads exactly as it was written.
  const schemeEnd = raw.indexOf("//");
  let out = raw;
  if ((url.username || url.password) && schemeEnd !== -1) {
    const authorityStart = schemeEnd + 2;
    const rest = out.slice(authorityStart);
    const authorityEnd = rest.search(/[/?#]/);
    const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
    const at = authority.lastIndexOf("@");
    if (at !== -1) out = `${out.slice(0, authorityStart)}${REDACTED}${out.slice(authorityStart + at)}`;
  }
  return redactQueryAndFragment(out);
}

function redactQueryAndFragment(s: string): string {
  const hash = s.indexOf("#");
  const beforeHash = hash === -1 ? s : s.slice(0, hash);
  const fragment = hash === -1 ? undefined : s.slice(hash + 1);
  const q = beforeHash.indexOf("?");
  const base = q === -1 ? beforeHash : beforeHash.slice(0, q);
  const query = q === -1 ? undefined : beforeHash.slice(q + 1);
  return (
    base +
    (query === undefined ? "" : `?${redactParams(query)}`) +
    (fragment === undefined ? "" : `#${redactParams(fragment)}`)
  );
}

/** Not parseable: userinfo before an `@` after `//`, and key-like `name=value` pairs anywhere. */
function redactByPattern(raw: string): string {
  return raw
    .replace(/(\/\/)[^/?#@\s]*@/g, `$1${REDACTED}@`)
    .replace(/([?&#;]|^)([^=&?#;\s]+)=([^&#;\s]*)/g, (whole, lead: string, name: string) =>
      isSecretParam(name) ? `${lead}${name}=${REDACTED}` : whole,
    );
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** Every URL inside a message (an error text from below, a log line) with its secrets replaced. */
export function redactUrlsIn(text: string): string {
  if (!text.includes("://")) return text;
  return text.replace(URL_IN_TEXT, (u) => redactUrl(u));
}
