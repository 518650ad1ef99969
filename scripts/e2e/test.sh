#!/usr/bin/env bash
# The end-to-end tests, in a real VS Code 1.100.3 (server + web workbench from code-server, headless chromium).
#   test.sh [all|grammar|ext|ui|vsix]   (default all; run scripts/e2e/setup.sh first)
#   grammar  the TextMate injection, tokenized by VS Code's own vscode-textmate
#   ext      mocha inside the extension host (real vscode API, real language server over IPC)
#   ui       Playwright: Explorer context menu, hover, Problems panel, read-only preview, compare
#   vsix     `npm run package`, --install-extension, activation + preview from the installed artifact
# Prints one final "N passed, N failed" line and exits non-zero when anything failed or did not run.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
export TMPDIR="$ROOT/.tmp"; mkdir -p "$TMPDIR"
WHAT="${1:-all}"
pass=0; fail=0
LOGS="$TMPDIR/e2e-logs"; mkdir -p "$LOGS"

# Adds a suite's "N passed, N failed" to the totals; a suite that printed no such line, or that exited
# non-zero without counting a failure, counts as one failure.
run_suite() {
  local name="$1"; shift
  local log="$LOGS/$name.log"
  echo "=== $name"
  local t0=$SECONDS
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local line; line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  local p=0 f=1
  if [ -n "$line" ]; then p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}; fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  pass=$((pass + p)); fail=$((fail + f))
  echo "=== $name: $p passed, $f failed ($((SECONDS - t0)) s)"
}

want() { [ "$WHAT" = all ] || [ "$WHAT" = "$1" ]; }

# scratch dirs of the previous run (kept after a failure, for its logs)
rm -rf "$TMPDIR"/cc-shim-* "$TMPDIR"/cc-ui-* "$TMPDIR"/cc-vsix-* "$TMPDIR"/cc-e2e-* "$TMPDIR"/cc-e2e-chromium-* "$TMPDIR"/vscode-*.sock

echo "=== build"
# E2E_SKIP_BUILD=1: dist/ is already built (by `npm run build`) and only the tests need compiling
if ! { { [ "${E2E_SKIP_BUILD:-}" = 1 ] || npm run -s build; } && node_modules/.bin/tsc -p test/e2e; }; then
  echo "0 passed, 1 failed"; exit 1
fi

want grammar && run_suite grammar node scripts/e2e/grammar-check.js
want ext && run_suite extension-host node out/test/e2e/runTest.js
want ui && run_suite ui node out/test/e2e/ui/run.js ui
want vsix && E2E_SKIP_BUILD=1 run_suite vsix bash scripts/e2e/vsix.sh

echo "${pass} passed, ${fail} failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
