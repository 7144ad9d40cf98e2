#!/usr/bin/env bash
# npm run test:clients: the real MCP clients (Codex CLI, Claude Code, pinned in test/clients/package.json), the
# SDK client and the framework adapters against the built websift, each asserting on what the model receives.
# The third-party clients get no route off this machine: the tests run in a network namespace with loopback
# alone, where the loopback model stand-ins, the simulated web and websift run too.
set -uo pipefail
cd "$(dirname "$0")/.."

if ! command -v ip >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "installing iproute2 with apt-get (to bring up loopback in the test's network namespace)" >&2
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends iproute2 >&2
fi

# The clients' own install scripts only copy the binary that npm already placed (we run it from its package).
npm ls --prefix test/clients >/dev/null 2>&1 \
  || npm ci --prefix test/clients --ignore-scripts --no-audit --no-fund >&2 \
  || echo "test:clients: could not install the pinned clients; their tests will say so and skip" >&2
npm run build >&2 # the clients start the built server, as a user's client does

report=.test-clients-results.json
rm -f "$report"
run=(npx vitest run --config vitest.clients.config.ts --reporter=default --reporter=json --outputFile="$report" "$@")
if unshare -n true 2>/dev/null; then
  unshare -n sh -c 'ip link set lo up && exec "$@"' sh "${run[@]}"
elif unshare -rn true 2>/dev/null; then
  unshare -rn sh -c 'ip link set lo up && exec "$@"' sh "${run[@]}"
else
  echo "test:clients: cannot make a network namespace here (unshare -n); Codex CLI and Claude Code will skip" >&2
  "${run[@]}"
fi
status=$?
node scripts/test-summary.mjs clients "$report" || true
exit $status
