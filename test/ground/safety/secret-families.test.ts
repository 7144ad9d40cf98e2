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
  // retry every start. At two million characters a linear pass takes well under a second and a quadratic one
  // days, so the test's own timeout tells them apart without timing anything (the speed itself is measured in
  // bench/redaction.bench.mjs).
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
    const text = shape.repeat(Math.ceil(2_000_000 / shape.length)).slice(0, 2_000_000);
    const { text: out } = redactSecrets(text);
    // Nothing is lost or invented: what stays is the input, or the input with whole spans marked.
    expect(out.length).toBeGreaterThan(0);
    if (!out.includes("[REDACTED")) expect(out).toBe(text);
  });
});
