import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { bearerToken, checkRequest, guardFor, sameToken } from "../../src/surface/http-guard.js";

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe("the HTTP guard every surface shares", () => {
  const guard = guardFor("127.0.0.1", 8787, {
    hosts: ["proxy.example"],
    origins: ["https://app.example/"],
    token: "test-SECRET-token",
  });
  const auth = { authorization: "Bearer test-SECRET-token" };

  it("answers to the listener's own names and the operator's, a bare name on any port", () => {
    for (const host of [
      "127.0.0.1:8787",
      "localhost:8787",
      "[::1]:8787",
      "proxy.example",
      "proxy.example:443",
    ])
      expect(checkRequest(request({ host, ...auth }), guard)).toEqual({ ok: true });
    for (const host of ["127.0.0.1:9999", "evil.example:8787", ""])
      expect(checkRequest(request({ host, ...auth }), guard)).toMatchObject({ ok: false, status: 403 });
  });

  it("lets a browser in only from the listener's own origin or one the operator named", () => {
    const from = (origin: string) =>
      checkRequest(request({ host: "127.0.0.1:8787", origin, ...auth }), guard);
    expect(from("http://127.0.0.1:8787")).toEqual({ ok: true });
    expect(from("https://app.example")).toEqual({ ok: true });
    expect(from("https://evil.example")).toMatchObject({ ok: false, status: 403 });
  });

  it("wants the bearer token, compared whole", () => {
    const withAuth = (authorization?: string) =>
      checkRequest(request({ host: "127.0.0.1:8787", ...(authorization ? { authorization } : {}) }), guard);
    expect(withAuth("bearer  test-SECRET-token ")).toEqual({ ok: true });
    for (const wrong of [
      undefined,
      "Bearer test-SECRET-toke",
      "Bearer test-SECRET-tokenx",
      "Basic dGVzdA==",
      "Bearer ",
    ])
      expect(withAuth(wrong)).toMatchObject({ ok: false, status: 401 });
  });

  it("reads a bearer header and compares tokens the same way for MCP and serve", () => {
    expect(bearerToken("Bearer abc ")).toBe("abc");
    expect(bearerToken("Token abc")).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
    expect(sameToken("abc", "abc")).toBe(true);
    expect(sameToken("abd", "abc")).toBe(false);
    expect(sameToken("ab", "abc")).toBe(false);
    expect(sameToken(undefined, "abc")).toBe(false);
  });
});
