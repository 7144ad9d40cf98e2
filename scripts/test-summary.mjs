// Prints the plain closing line CI reads ("N passed, N failed"), from one or more of vitest's JSON reports
// (.ci/run adds up the main suite and test:clients). A report that is missing counts as a failure.
import { existsSync, readFileSync } from "node:fs";

const [label = "tests", ...files] = process.argv[2]?.endsWith(".json")
  ? ["tests", ...process.argv.slice(2)]
  : process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files) {
  if (!existsSync(file)) {
    console.error(`test-summary: ${file} is missing (that run did not finish)`);
    failed++;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
}
console.log(`${label}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
