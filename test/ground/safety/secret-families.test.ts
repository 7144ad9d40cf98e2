import { describe, expect, it } from "vitest";
import { guardQuery } from "../../../src/ground/query-guard.js";
import { redactSecrets } from "../../../src/ground/redact.js";
import { negatives, positives } from "./secret-corpus.js";

describe("redactSecrets: one fake per family of gitleaks' and trufflehog's rule sets", () => {
  it.each(positives().map((s) => [s.covers[0], s] as const))("%s", (_name, sample) => {
    const { text, found } = redactSecrets(sample.text);
    expect(text).not.toContain(sample.secret);
    expect(found.map((f) => f.kind)).toContain(sample.kind);
  });
});

describe("redactSecrets: no false positives on prose, code, hashes, UUIDs, lockfiles, images and styles", () => {
  it.each(negatives().map((n) => [n.slice(0, 60), n] as const))("%s", (_name, text) => {
    expect(redactSecrets(text)).toEqual({ text, found: [] });
  });
});

describe("redactSecrets is idempotent", () => {
  it.each(positives().map((s) => [s.covers[0], s] as const))("%s redacted twice", (_name, sample) => {
    const once = redactSecrets(sample.text).text;
    expect(redactSecrets(once)).toEqual({ text: once, found: [] });
  });

  it("a query holding only placeholders passes the query guard", () => {
    for (const sample of positives()) {
      const once = redactSecrets(sample.text).text;
      expect(guardQuery(once.replace(/\n/g, " "))).toEqual({ ok: true });
    }
  });
});

describe("redactSecrets stays linear on adversarial input", () => {
  // Each shape is a prefix or context repeated without the token it promises: a backtracking pattern would
  // retry every start. The figure compared is the work per character at two sizes, not wall time.
  const shapes = [
    "key=",
    "token: ",
    '"secret": "',
    "a".repeat(30),
    "ghp_",
    "sk-",
    "://a:",
    "://",
    "-----BEGIN PRIVATE KEY-----\n",
    "Bearer ",
    "private key ",
    "0123456789abcdef",
    "Password=x",
    "curl -u ",
    "eyJhbGciOi.",
    `${"A".repeat(17)}|`,
  ];
  it.each(shapes)("%j repeated", (shape) => {
    const at = (n: number) => {
      const text = shape.repeat(Math.ceil(n / shape.length)).slice(0, n);
      const start = process.cpuUsage();
      redactSecrets(text);
      const used = process.cpuUsage(start);
      return used.user + used.system;
    };
    at(20_000);
    const small = Math.max(at(50_000), 1000);
    const large = at(400_000);
    // 8× the input may cost at most ~8× the time (with room for noise): a quadratic rule costs 64×.
    expect(large / small).toBeLessThan(24);
  });
});
