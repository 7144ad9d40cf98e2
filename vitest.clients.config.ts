import { defineConfig } from "vitest/config";

// npm run test:clients: the real MCP clients against websift (scripts/test-clients.sh installs them and runs
// this inside a network namespace with loopback only). Kept out of the default run: it installs ~800 MB of
// client binaries and drives whole agent turns.
export default defineConfig({
  test: {
    include: ["test/clients/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    pool: "forks",
    fileParallelism: false,
  },
});
