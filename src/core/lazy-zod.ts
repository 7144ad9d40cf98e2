import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type * as Zod from "zod";

/**
 * zod, loaded at its first use rather than when the package is imported: its ~95 modules are a third of what
 * the root would load, and a caller that never checks an argument or parses an API's answer need not pay for
 * them. Every schema of the library is built from this one instance, inside a `lazySchema` builder.
 *
 * The first use may be synchronous (`createWebsift` refuses a bad option as it is called), so zod is required,
 * not imported. It is required by the file its `import` condition names, so that Node's `require(esm)` hands
 * back the ES module instance that `import "zod"` gives the MCP SDK and the surfaces: one zod per process, not
 * its CommonJS build beside the ES one (`require(esm)` is on by default from Node 20.19, the package's floor).
 */
let loaded: typeof Zod | undefined;

export function zod(): typeof Zod {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  loaded = require(fileURLToPath(import.meta.resolve("zod"))) as typeof Zod;
  return loaded;
}

/** A schema built on its first use, from the one zod, and kept: `const Body = lazySchema((z) => z.object(…))`. */
export function lazySchema<T>(build: (z: typeof Zod.z) => T): () => T {
  let built: { schema: T } | undefined;
  return () => {
    built ??= { schema: build(zod().z) };
    return built.schema;
  };
}
