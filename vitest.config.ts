import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The real MCP clients run apart, with npm run test:clients (vitest.clients.config.ts).
    exclude: ["test/clients/**", "**/node_modules/**"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
