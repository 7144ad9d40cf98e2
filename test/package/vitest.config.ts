import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `npm run test:package`: the packed package installed into a clean folder, apart from the default suite
// because packing rebuilds dist/ (which the CLI tests run) and installing compiles a native module.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL("../..", import.meta.url)),
    include: ["test/package/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 1_800_000,
    pool: "forks",
  },
});
