import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  crossImports,
  importEdges,
  LAYERS,
  readSources,
  relativeImports,
  upwardImports,
  type Violation,
} from "./import-layers.js";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

/**
 * Imports that run up a layer today, each to be moved, with why it exists. An import listed here that no
 * longer happens fails the test too, so the list shrinks as the code is fixed and never hides a new one.
 */
const KNOWN_UPWARD: readonly { from: string; to: string; reason: string }[] = [];

const key = (edge: { from: string; to: string }) => `${edge.from} -> ${edge.to}`;

describe("the import rules of src/", () => {
  const sources = readSources(SRC);
  const upward = upwardImports(importEdges(sources));

  it("has no import from a layer above its own, beyond the named exceptions", () => {
    const known = new Set(KNOWN_UPWARD.map(key));
    const unexpected = upward.filter((v) => !known.has(key(v)));
    // Move the imported code down, or the importing code up (ARCHITECTURE.md, "Layers and what each may
    // import"); a new exception needs a reason and a plan to remove it.
    expect(unexpected.map(describeViolation)).toEqual([]);
  });

  it("has no import from one surface into another: what they share stands below them", () => {
    expect(crossImports(importEdges(sources)).map((v) => `src/${v.from} imports src/${v.to}`)).toEqual([]);
  });

  it("lists only exceptions that still happen", () => {
    const happening = new Set(upward.map(key));
    expect(KNOWN_UPWARD.filter((e) => !happening.has(key(e))).map(key)).toEqual([]);
  });

  it("reads a graph of the whole tree, every module placed in a layer", () => {
    expect(sources.size).toBeGreaterThan(100);
    const units = new Set([...sources.keys()].map((m) => m.split("/")[0]));
    expect([...units].filter((u) => !LAYERS.some((layer) => layer.includes(u)))).toEqual([]);
  });
});

describe("the import-rule check itself", () => {
  const graph = (files: Record<string, string>) => upwardImports(importEdges(new Map(Object.entries(files))));

  it("finds a lower layer importing a higher one, in every form an import takes", () => {
    const found = graph({
      "net/client.ts": [
        'import { chain } from "../search/chain.js";',
        'import type { Websift } from "../websift.js";',
        'export { session } from "../session/session.js";',
        'const late = () => import("../cli/main.js");',
      ].join("\n"),
      "search/chain.ts": "",
      "websift.ts": "",
      "session/session.ts": "",
      "cli/main.ts": "",
    });
    expect(found.map((v) => v.to).sort()).toEqual([
      "cli/main.ts",
      "search/chain.ts",
      "session/session.ts",
      "websift.ts",
    ]);
  });

  it("allows imports within a layer and downwards, and ignores packages and text that only looks like one", () => {
    expect(
      graph({
        "cli/main.ts": 'import "../serve/app.js";\nimport { x } from "../core/status.js";\nimport "undici";',
        "serve/app.ts":
          'import "../adapters/openai.js";\n// import "../cli/main.js"\nconst s = \'from "../cli/main.js"\';',
        "adapters/openai.ts": "",
        "core/status.ts": "",
      }),
    ).toEqual([]);
  });

  it("finds one surface importing another, and lets each import itself and what stands below", () => {
    const edges = importEdges(
      new Map(
        Object.entries({
          "serve/guard.ts":
            'import "../mcp/http-guard.js";\nimport "./app.js";\nimport "../surface/call-limit.js";',
          "adapters/openai.ts": 'import type { WebTool } from "../mcp/tools.js";',
          "mcp/http-guard.ts": "",
          "mcp/tools.ts": 'import "../surface/tools.js";',
          "serve/app.ts": "",
          "surface/call-limit.ts": "",
          "surface/tools.ts": "",
        }),
      ),
    );
    expect(crossImports(edges).map((v) => `${v.from} -> ${v.to}`)).toEqual([
      "serve/guard.ts -> mcp/http-guard.ts",
      "adapters/openai.ts -> mcp/tools.ts",
    ]);
  });

  it("refuses an import it cannot resolve and a module with no layer, rather than passing them", () => {
    expect(() => graph({ "net/client.ts": 'import "../nowhere.js";' })).toThrow(/cannot resolve/);
    expect(() => graph({ "newplace/x.ts": 'import "../core/status.js";', "core/status.ts": "" })).toThrow(
      /has no layer/,
    );
  });

  it("reads the import syntax TypeScript reads", () => {
    expect(
      relativeImports('import a, { b } from "./a.js";\nexport * from "../b.js";\nimport "node:fs";'),
    ).toEqual(["./a.js", "../b.js"]);
  });
});

function describeViolation(v: Violation): string {
  const level = (unit: string) => LAYERS.findIndex((layer) => layer.includes(unit));
  return `src/${v.from} (${v.fromLayer}, layer ${level(v.fromLayer)}) imports src/${v.to} (${v.toLayer}, layer ${level(v.toLayer)})`;
}
