import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { readSources } from "./import-layers.js";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
/** The configuration loader reads the environment once; the CLI entry hands its own to the installers. */
const MAY_READ = ["config/", "cli/"];

/** Where `source` reads process.env: `process.env`, `process["env"]`, `const { env } = process`. */
function processEnvReads(source: string): number[] {
  const file = ts.createSourceFile("x.ts", source, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const isProcess = (n: ts.Node) => ts.isIdentifier(n) && n.text === "process";
  const visit = (node: ts.Node) => {
    const reads =
      (ts.isPropertyAccessExpression(node) && isProcess(node.expression) && node.name.text === "env") ||
      (ts.isElementAccessExpression(node) &&
        isProcess(node.expression) &&
        ts.isStringLiteralLike(node.argumentExpression) &&
        node.argumentExpression.text === "env") ||
      (ts.isVariableDeclaration(node) &&
        node.initializer !== undefined &&
        isProcess(node.initializer) &&
        ts.isObjectBindingPattern(node.name) &&
        node.name.elements.some((e) => (e.propertyName ?? e.name).getText(file) === "env"));
    if (reads) lines.push(file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return lines;
}

describe("process.env", () => {
  it("is read only by the configuration loader and the CLI entry", () => {
    const sources = readSources(SRC);
    expect(sources.size).toBeGreaterThan(100);
    const reads = [...sources]
      .filter(([module]) => !MAY_READ.some((dir) => module.startsWith(dir)))
      .flatMap(([module, text]) => processEnvReads(text).map((line) => `src/${module}:${line}`));
    expect(reads).toEqual([]);
  });

  it("is found in every form a read takes, and not in comments, strings or patterns", () => {
    expect(processEnvReads("const a = process.env.X;")).toEqual([1]);
    expect(processEnvReads('const b = process["env"];')).toEqual([1]);
    expect(processEnvReads("const { env } = process;")).toEqual([1]);
    expect(processEnvReads("const { env: e } = process;")).toEqual([1]);
    expect(
      processEnvReads(
        '// process.env.X\n/** process.env */\nconst s = "process.env";\nconst r = /process\\.env/;\nconst o = { env: 1 }.env;',
      ),
    ).toEqual([]);
  });
});
