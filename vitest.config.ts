import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The packed-package test runs on its own (npm run test:package): it rebuilds dist/ while CLI tests run it.
    exclude: [...configDefaults.exclude, "test/package/**"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
