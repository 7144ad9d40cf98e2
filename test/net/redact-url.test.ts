import { describe, expect, it } from "vitest";
import { isSecretParam, REDACTED, redactUrl, redactUrlsIn } from "../../src/net/redact-url.js";
import { HOSTILE_HOST, HOSTILE_PATHS as P, PRIVATE_HOST, SILENT_HOST } from "../simweb/index.js";
import { expectFailure, get, useSimWeb } from "./harness.js";

const ctx = useSimWeb();
const SECRET = "test-SECRET-9f8e7d6c5b4a";

describe("redactUrl", () => {
  it.each([
    "key",
    "api_key",
    "apiKey",
    "API-KEY",
    "x-api-key",
    "access_token",
    "refresh_token",
    "id_token",
    "token",
    "client_secret",
    "password",
    "passwd",
    "pwd",
    "sig",
    "signature",
    "X-Amz-Signature",
    "X-Amz-Credential",
    "X-Amz-Security-Token",
    "X-Goog-Signature",
    "auth",
    "authorization",
    "session",
    "sessionid",
    "jwt",
    "subscription-key",
    "api%5Fkey",
  ])("a %s parameter is key-like", (name) => {
    expect(isSecretParam(name)).toBe(true);
    const out = redactUrl(`https://api.example.com/v1/search?q=rust+async&${name}=${SECRET}&page=2`);
    expect(out).toBe(`https://api.example.com/v1/search?q=rust+async&${name}=${REDACTED}&page=2`);
  });

  it.each([
    "q",
    "query",
    "page",
    "lang",
    "keyword",
    "monkey",
    "passport",
    "design",
    "hl",
    "kl",
    "offset",
    "id",
    "format",
    "utm_source",
  ])("a %s parameter is kept", (name) => {
    expect(isSecretParam(name)).toBe(false);
    const url = `https://www.example.com/search?${name}=some%20value&x=1`;
    expect(redactUrl(url)).toBe(url);
  });

  it.each([
    [`https://user:${SECRET}@api.example.com/x`, `https://${REDACTED}@api.example.com/x`],
    [`https://${SECRET}@api.example.com`, `https://${REDACTED}@api.example.com`],
    [`redis://:${SECRET}@cache.example.com:6379/0`, `redis://${REDACTED}@cache.example.com:6379/0`],
    [
      `https://a:b@x.example.com/p?token=${SECRET}#access_token=${SECRET}&state=s`,
      `https://${REDACTED}@x.example.com/p?token=${REDACTED}#access_token=${REDACTED}&state=s`,
    ],
    ["https://medium.com/@someone/post?x=1", "https://medium.com/@someone/post?x=1"],
    [`not a url //u:${SECRET}@h?key=${SECRET}`, `not a url //${REDACTED}@h?key=${REDACTED}`],
    ["https://www.example.com/", "https://www.example.com/"],
  ])("%s → %s", (raw, expected) => {
    expect(redactUrl(raw)).toBe(expected);
    expect(redactUrl(expected)).toBe(expected);
  });

  it("redacts every URL inside a message and leaves the rest of the text", () => {
    expect(
      redactUrlsIn(`fetch https://x.example.com/a?key=${SECRET} failed, then http://u:p@y.example.com/ too`),
    ).toBe(
      `fetch https://x.example.com/a?key=${REDACTED} failed, then http://${REDACTED}@y.example.com/ too`,
    );
  });
});

describe("no failure of net carries a secret", () => {
  const noSecret = (r: unknown) => expect(JSON.stringify(r)).not.toContain(SECRET);

  it("a failed request: its url keeps the page and the query, not the key", async () => {
    const r = expectFailure(
      await get(ctx.net, `http://${HOSTILE_HOST}${P.tooManyRequests}?q=weather&api_key=${SECRET}`, 5000, {
        failOnHttpError: true,
      }),
      "http_status",
    );
    expect(r.url).toBe(`http://${HOSTILE_HOST}${P.tooManyRequests}?q=weather&api_key=${REDACTED}`);
    noSecret(r);
  });

  it("a timeout and a refused URL with credentials", async () => {
    noSecret(expectFailure(await get(ctx.net, `http://${SILENT_HOST}/?sig=${SECRET}`, 300), "timeout"));
    const refused = expectFailure(await get(ctx.net, `https://me:${SECRET}@www.example.com/`), "blocked_url");
    expect(refused.url).toBe(`https://${REDACTED}@www.example.com/`);
    noSecret(refused);
  });

  it.each([
    ["a private host", `http://${PRIVATE_HOST}/callback?access_token=${SECRET}`, "blocked_url"],
    ["a silent host", `http://${SILENT_HOST}/callback?code=1&token=${SECRET}`, "timeout"],
    ["a loop", `/redirect/secret-loop?token=${SECRET}`, "too_many_redirects"],
    ["a page that fails", `http://${HOSTILE_HOST}${P.garbage}?X-Amz-Signature=${SECRET}`, "protocol"],
  ])("a redirect to %s: the target's secret is redacted", async (_name, location, code) => {
    ctx.sim.route("auth.example.com", "/login", { status: 302, headers: { location } });
    ctx.sim.route("auth.example.com", "/redirect/secret-loop", {
      status: 302,
      headers: { location: `/redirect/secret-loop?token=${SECRET}` },
    });
    const r = expectFailure(await get(ctx.net, "http://auth.example.com/login", 1500), code);
    expect(r.url).toContain(REDACTED);
    noSecret(r);
  });
});
