import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Apart from the default run: the real MCP clients (npm run test:clients, vitest.clients.config.ts) and the
    // packed package (npm run test:package, test/package/vitest.config.ts), which rebuilds dist/ while CLI tests
    // run it.
    exclude: ["test/clients/**", "test/package/**", "**/node_modules/**"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
