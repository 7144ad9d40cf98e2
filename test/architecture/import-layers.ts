import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import ts from "typescript";

/**
 * The layers of src/, bottom to top, as ARCHITECTURE.md ("Layers and what each may import") lists them:
 * a module may import its own layer and the layers below it, never one above. Keys are top-level folders
 * or files of src/. Change this table and that section together.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["core", "types"],
  ["store"],
  ["config"],
  ["net"],
  // What providers of search and read share over HTTP: the keyed JSON call, API failures, Tavily's and Exa's dialects.
  ["provider-http"],
  ["search"],
  ["read"],
  ["ground"],
  ["agent"],
  // The library API: createWebsift and the checked entry points every surface calls.
  ["websift.ts", "arguments.ts", "public-helpers.ts"],
  ["session"],
  // What every surface shares, below all of them: the tool definitions, the HTTP Host/Origin guard, the call
  // limiter, the hooked library and doctor (the installation's check, run by the CLI and serve).
  ["surface"],
  // The surfaces, side by side: none imports another (SIDE_BY_SIDE).
  ["mcp", "serve", "adapters"],
  // The package root re-exports the library and the session; its deprecated startMcpHttp loads mcp on first
  // call. Nothing in src/ imports it.
  ["index.ts"],
  ["cli"],
];

/**
 * Units of one layer that stand side by side: none may import another, so what two of them need stands below
 * them (in `surface/`). The CLI, above them, starts each.
 */
export const SIDE_BY_SIDE: readonly string[] = ["mcp", "serve", "adapters"];

/** One import of a module of src/ by another, both named relative to src/ (`config/load.ts`). */
export interface ImportEdge {
  from: string;
  to: string;
}

export interface Violation extends ImportEdge {
  fromLayer: string;
  toLayer: string;
}

/** `config/load.ts` → `config`, `websift.ts` → `websift.ts`. */
export function unitOf(module: string): string {
  return module.split("/")[0];
}

/** The layer's index in LAYERS; undefined for a unit the table does not list. */
export function levelOf(unit: string): number | undefined {
  const level = LAYERS.findIndex((layer) => layer.includes(unit));
  return level === -1 ? undefined : level;
}

/**
 * Every relative import, re-export and dynamic `import()` in `source`, type-only ones included (a type from a
 * layer above ties a module to that layer's shapes as much as a value does). TypeScript's own pre-processor
 * reads them, so comments and strings that merely look like imports are not counted.
 */
export function relativeImports(source: string): string[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith("./") || name.startsWith("../"));
}

/** `../net/client.js` from `read/read.ts` → `net/client.ts` (NodeNext: specifiers name the emitted .js file). */
export function resolveImport(from: string, specifier: string, exists: (module: string) => boolean): string {
  const joined = join(dirname(from), specifier).split(sep).join("/");
  const candidates = [joined.replace(/\.js$/, ".ts"), joined.replace(/\.js$/, ".d.ts"), joined];
  const found = candidates.find(exists);
  if (!found) throw new Error(`${from}: cannot resolve "${specifier}" inside src/`);
  return found;
}

/** The import graph of the sources given as module → text. */
export function importEdges(sources: ReadonlyMap<string, string>): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const [from, text] of sources) {
    for (const specifier of relativeImports(text)) {
      edges.push({ from, to: resolveImport(from, specifier, (m) => sources.has(m)) });
    }
  }
  return edges;
}

/** Edges that run from a layer to one above it. Throws on a module whose place the table does not give. */
export function upwardImports(edges: readonly ImportEdge[]): Violation[] {
  const level = (module: string) => {
    const found = levelOf(unitOf(module));
    if (found === undefined) {
      throw new Error(
        `src/${module}: "${unitOf(module)}" has no layer; add it to LAYERS and ARCHITECTURE.md`,
      );
    }
    return found;
  };
  return edges
    .filter((edge) => level(edge.to) > level(edge.from))
    .map((edge) => ({ ...edge, fromLayer: unitOf(edge.from), toLayer: unitOf(edge.to) }));
}

/** Edges from one side-by-side unit to another. */
export function crossImports(edges: readonly ImportEdge[]): Violation[] {
  return edges
    .map((edge) => ({ ...edge, fromLayer: unitOf(edge.from), toLayer: unitOf(edge.to) }))
    .filter(
      (v) =>
        v.fromLayer !== v.toLayer && SIDE_BY_SIDE.includes(v.fromLayer) && SIDE_BY_SIDE.includes(v.toLayer),
    );
}

/** Every .ts file under `root`, as module name (relative, `/`-separated) → text. */
export function readSources(root: string): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts")) {
        sources.set(relative(root, path).split(sep).join("/"), readFileSync(path, "utf8"));
      }
    }
  };
  if (!existsSync(root)) throw new Error(`no sources at ${root}`);
  walk(root);
  return sources;
}
