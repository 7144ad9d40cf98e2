import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// No Docker engine and no hadolint here (hadolint ships on neither npm nor Debian), so the test reads the
// Dockerfile itself. The grammar it needs is small (instructions, `\` continuations, comments, stages), so a
// reader of a few lines stands in for a parser dependency.
interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending: Instruction | undefined;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!pending && (line === "" || line.startsWith("#"))) return;
    if (pending && line.startsWith("#")) return;
    const continues = line.endsWith("\\");
    const body = continues ? line.slice(0, -1).trim() : line;
    if (pending) pending.args = `${pending.args} ${body}`.trim();
    else {
      const [keyword = "", ...rest] = body.split(/\s+/);
      pending = { keyword: keyword.toUpperCase(), args: rest.join(" "), line: i + 1 };
    }
    if (!continues) {
      out.push(pending);
      pending = undefined;
    }
  });
  return out;
}

const all = instructions(readFileSync(new URL("../../Dockerfile", import.meta.url), "utf8"));
const stages: Instruction[][] = [];
for (const ins of all) {
  if (ins.keyword === "FROM") stages.push([]);
  stages.at(-1)?.push(ins);
}
const final = stages.at(-1) ?? [];
const last = (keyword: string) => final.filter((i) => i.keyword === keyword).at(-1);
const SECRET_NAME = /TOKEN|KEY|SECRET|PASSWORD|CREDENTIAL|REDIS_URL/i;

describe("the Dockerfile of websift serve", () => {
  it("is made of known instructions, every stage from a pinned Node 20 image", () => {
    const known = new Set([
      "FROM",
      "RUN",
      "COPY",
      "ENV",
      "WORKDIR",
      "USER",
      "EXPOSE",
      "HEALTHCHECK",
      "CMD",
      "STOPSIGNAL",
      "ARG",
      "LABEL",
      "ENTRYPOINT",
    ]);
    for (const ins of all) expect(known, `line ${ins.line}: ${ins.keyword}`).toContain(ins.keyword);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage[0]?.args).toMatch(/^node:20[.\w-]*(\s+AS\s+\w+)?$/i);
  });

  it("runs as a user other than root", () => {
    const user = last("USER")?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    // Nothing after USER switches back or writes into the image as root.
    const at = final.findIndex((i) => i.keyword === "USER");
    expect(final.slice(at + 1).map((i) => i.keyword)).not.toContain("RUN");
  });

  it("bakes no secret in: no token, key or password set by ENV or ARG, no .env copied", () => {
    for (const ins of all.filter((i) => i.keyword === "ENV" || i.keyword === "ARG"))
      for (const [name] of ins.args.matchAll(/([A-Z_][A-Z0-9_]*)(?==)/gi))
        expect(name, `line ${ins.line}`).not.toMatch(SECRET_NAME);
    for (const ins of all.filter((i) => i.keyword === "COPY")) expect(ins.args).not.toMatch(/\.env\b/);
    const ignored = readFileSync(new URL("../../.dockerignore", import.meta.url), "utf8").split("\n");
    expect(ignored).toEqual(expect.arrayContaining([".env", ".env.*", "node_modules"]));
  });

  it("serves on every interface with a health check against /v1/health, stopping on SIGTERM", () => {
    expect(last("HEALTHCHECK")?.args).toMatch(/\/v1\/health/);
    expect(last("HEALTHCHECK")?.args).toMatch(/WEBSIFT_SERVE_TOKEN/);
    expect(last("STOPSIGNAL")?.args).toBe("SIGTERM");
    expect(JSON.parse(last("ENTRYPOINT")?.args ?? "[]")).toEqual(["node", "dist/cli/main.js"]);
    expect(JSON.parse(last("CMD")?.args ?? "[]")[0]).toBe("serve");
    const env = final
      .filter((i) => i.keyword === "ENV")
      .map((i) => i.args)
      .join(" ");
    expect(env).toMatch(/WEBSIFT_SERVE_HOST=0\.0\.0\.0/);
    expect(last("EXPOSE")?.args).toBe("8788");
  });

  it("writes only under /tmp at run time, so the root filesystem can be read-only", () => {
    const env = final
      .filter((i) => i.keyword === "ENV")
      .map((i) => i.args)
      .join(" ");
    expect(env).toMatch(/HOME=\/tmp\b/);
    expect(env).toMatch(/XDG_CACHE_HOME=\/tmp\//);
    // sqlite would write ~/.cache: the image defaults to memory (or Redis through WEBSIFT_REDIS_URL).
    expect(env).toMatch(/WEBSIFT_STORE=(memory|redis)\b/);
  });
});
