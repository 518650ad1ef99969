#!/usr/bin/env bash
# Packages the extension as `npm run package` does (build, then vsce package) and runs the install smoke
# test against the .vsix. vsce needs README.md and LICENSE: while they are missing, the package is made
# from a staging copy with placeholders, so nothing is created in the repository.
# E2E_SKIP_BUILD=1: dist/ is already built.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
export TMPDIR="${TMPDIR:-$ROOT/.tmp}"
VSIX="$ROOT/cloud-config-merge.vsix"
VSCE="$ROOT/node_modules/.bin/vsce"
# Same flags as `npm run package`: no repository is published yet, so README links stay relative.
VSCE_FLAGS="--no-dependencies --allow-missing-repository --no-rewrite-relative-links"
die() { echo "[vsix] $*"; echo "0 passed, 1 failed"; exit 1; }
rm -f "$VSIX"
if [ "${E2E_SKIP_BUILD:-}" != 1 ]; then npm run -s build || die "build failed"; fi
if [ -f README.md ] && [ -f LICENSE ]; then
  "$VSCE" package $VSCE_FLAGS --out "$VSIX" >"$TMPDIR/vsce.log" 2>&1 || { cat "$TMPDIR/vsce.log"; die "vsce package failed"; }
else
  echo "[vsix] README.md or LICENSE missing: packaging a staging copy with placeholders"
  STAGE="$TMPDIR/vsix-stage"; rm -rf "$STAGE"; mkdir -p "$STAGE/docs"
  cp -r package.json .vscodeignore dist syntaxes images "$STAGE/"
  cp -r docs/walkthrough "$STAGE/docs/"
  for f in README.md CHANGELOG.md LICENSE; do
    if [ -f "$f" ]; then cp "$f" "$STAGE/"; else echo "Placeholder $f for a test package." > "$STAGE/$f"; fi
  done
  (cd "$STAGE" && "$VSCE" package $VSCE_FLAGS --out "$VSIX") >"$TMPDIR/vsce.log" 2>&1 || { cat "$TMPDIR/vsce.log"; die "vsce package failed"; }
fi
grep -E "DONE|WARNING" "$TMPDIR/vsce.log" || true
E2E_VSIX="$VSIX" node out/test/e2e/ui/run.js vsix
