#!/usr/bin/env bash
# Idempotent setup for the end-to-end tests (Debian 12, node 20, root; only apt and the npm registry are
# reachable). Installs:
#   - Debian packages: chromium (the browser the web workbench runs in), libkrb5-dev + pkg-config (a native
#     build inside code-server), ripgrep (stands in for a binary code-server would download from GitHub)
#   - code-server 4.100.3 (= VS Code 1.100.3, the last release on node 20) into .vscode-test/code-server
#   - the project's own npm dependencies (playwright-core, @vscode/vsce, mocha) if node_modules lacks them
# Already-installed pieces are detected and skipped: a second run takes a few seconds.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
export TMPDIR="$ROOT/.tmp"; mkdir -p "$TMPDIR"      # ripgrep cache, npm scratch, sockets stay in the repo
CS_VERSION="4.100.3"
RG_PKG_VERSION="1.15.11"                           # @vscode/ripgrep pinned by code-server 4.100.3's VS Code
RG_TAG="v13.0.0-10"
CS_PREFIX="$ROOT/.vscode-test/code-server"
log() { echo "[e2e setup] $*"; }

# 1. Debian packages
need=()
for p in chromium libkrb5-dev ripgrep pkg-config; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
if [ ${#need[@]} -gt 0 ]; then
  log "apt-get install ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# 2. code-server (with the recipe's four workarounds)
cs_version() {
  XDG_DATA_HOME="$TMPDIR/xdg-data" XDG_CONFIG_HOME="$TMPDIR/xdg-config" \
    "$CS_PREFIX/node_modules/.bin/code-server" --config /dev/null --version 2>/dev/null | awk '{print $1; exit}'
}
if [ -x "$CS_PREFIX/node_modules/.bin/code-server" ] && [ "$(cs_version)" = "$CS_VERSION" ]; then
  log "code-server $CS_VERSION present"
else
  log "installing code-server $CS_VERSION into $CS_PREFIX (about a minute)"
  # (a) @vscode/ripgrep's postinstall fetches rg from GitHub; it looks in this cache first: seed it with Debian's rg
  cache="$TMPDIR/vscode-ripgrep-cache-$RG_PKG_VERSION"; mkdir -p "$cache"
  stage="$(mktemp -d)"; cp /usr/bin/rg "$stage/rg"
  tar czf "$cache/ripgrep-$RG_TAG-x86_64-unknown-linux-musl.tar.gz" -C "$stage" rg; rm -rf "$stage"
  mkdir -p "$CS_PREFIX"
  [ -f "$CS_PREFIX/package.json" ] || echo '{"name":"e2e-code-server","private":true}' > "$CS_PREFIX/package.json"
  # (b) postinstall refuses root without unsafe-perm; (c) node-pty runs `npx node-gyp`, cancelled without yes=true;
  # (d) kerberos needs libkrb5-dev (step 1)
  (cd "$CS_PREFIX" && npm_config_unsafe_perm=true npm_config_yes=true \
     npm install --no-audit --no-fund --loglevel=error "code-server@$CS_VERSION" >"$TMPDIR/code-server-install.log" 2>&1) \
    || { tail -40 "$TMPDIR/code-server-install.log"; exit 1; }
  [ "$(cs_version)" = "$CS_VERSION" ] || { echo "code-server install did not produce $CS_VERSION"; exit 1; }
  log "code-server $CS_VERSION installed"
fi

# 3. the project's dev dependencies used by the harness
if [ ! -d "$ROOT/node_modules/playwright-core" ] || [ ! -d "$ROOT/node_modules/@vscode/vsce" ] || [ ! -d "$ROOT/node_modules/mocha" ]; then
  log "npm install (project)"
  (cd "$ROOT" && npm install --no-audit --no-fund --ignore-scripts)
fi
log "ready"
