#!/usr/bin/env bash
# The whole test suite from a clean clone on a fresh Debian machine: system packages, npm packages,
# lint, type-check, tests. README.md and .ci/run both name this one command (npm run test:fresh).
set -uo pipefail
cd "$(dirname "$0")/.."

need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if ((${#need[@]})); then
  if [ "$(id -u)" = 0 ]; then
    echo "installing ${need[*]} with apt-get" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >&2 \
      || { echo "apt-get could not install ${need[*]}" >&2; exit 1; }
  else
    echo "websift's tests need these Debian packages: ${need[*]}. Install them with: sudo apt-get install ${need[*]}" >&2
    exit 1
  fi
fi

set -e
npm ci --no-audit --no-fund >&2
npm run build >&2   # the CLI tests run the built command, as users do
npm run lint
npm run typecheck
set +e
npx vitest run --reporter=default --reporter=json --outputFile=.test-results.json
status=$?
node scripts/test-summary.mjs .test-results.json || true
npm run -s test:package || status=1   # the packed package installed into a clean folder, used from there
exit $status
