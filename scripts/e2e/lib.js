// Shared pieces of the e2e harness: start the VS Code server that ships inside code-server's npm package,
// open its web workbench in Debian's headless chromium (playwright-core), and stop exactly what was started.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '../..');
const CODE_SERVER = path.join(ROOT, '.vscode-test/code-server/node_modules/code-server');
const VSCODE_SERVER_ROOT = process.env.VSCODE_SERVER_ROOT || path.join(CODE_SERVER, 'lib/vscode');

/** Settings that keep the workbench quiet and deterministic (no gallery, tips, welcome page, trust prompt, AI). */
const QUIET_SETTINGS = {
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'window.commandCenter': false,
  'editor.minimap.enabled': false,
  'files.autoSave': 'off',
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
};

function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitForHttp(port, urlPath, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const ok = await new Promise((resolve) => {
      http
        .get({ host: '127.0.0.1', port, path: urlPath, timeout: 1000 }, (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        })
        .on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the VS Code server did not answer on port ${port} within ${ms} ms`);
}

/**
 * Starts `server-main.js` (the VS Code server) in its own process group.
 * --enable-smoke-test-driver makes the built workbench honour the `payload` URL parameter
 * (extensionDevelopmentPath / extensionTestsPath) and expose window.codeAutomationLog/Exit.
 * Returns { port, host, dir, log, stop() }.
 */
async function startServer({ dir = tempDir('cc-e2e-'), userDataDir, extensionsDir, settings = {}, env = {} } = {}) {
  userDataDir ??= path.join(dir, 'user-data');
  extensionsDir ??= path.join(dir, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const settingsFile = path.join(userDataDir, 'User', 'settings.json');
  if (!fs.existsSync(settingsFile)) fs.writeFileSync(settingsFile, JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2));
  const port = await freePort();
  const log = path.join(dir, 'server.log');
  const fd = fs.openSync(log, 'a');
  const args = [
    path.join(VSCODE_SERVER_ROOT, 'out', 'server-main.js'),
    '--host', '127.0.0.1', '--port', String(port),
    '--without-connection-token', '--accept-server-license-terms', '--enable-smoke-test-driver',
    '--disable-telemetry', '--disable-workspace-trust',
    '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--server-data-dir', path.join(dir, 'server-data'),
  ];
  const child = spawn(process.env.SERVER_NODE || process.execPath, args, {
    // EXTENSIONS_GALLERY={}: no marketplace; private XDG dirs: nothing written to the home directory
    env: { ...process.env, ...env, EXTENSIONS_GALLERY: '{}', XDG_DATA_HOME: path.join(dir, 'xdg-data'), XDG_CONFIG_HOME: path.join(dir, 'xdg-config') },
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  fs.closeSync(fd);
  let stopped = false;
  // The extension host outlives a closed browser (reconnection grace time): end the whole group.
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  process.on('exit', stop);
  await waitForHttp(port, '/version', 60000);
  return { port, host: `127.0.0.1:${port}`, dir, log, userDataDir, extensionsDir, stop };
}

/** Headless Debian chromium with a throwaway profile. Returns { context, page, close() }. */
async function launchBrowser({ viewport = { width: 1280, height: 800 } } = {}) {
  const { chromium } = require('playwright-core');
  const profile = tempDir('cc-e2e-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport,
  });
  const page = context.pages()[0] || (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close().catch(() => {});
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The workbench URL for a folder, with optional payload entries ([[key, value], …]). */
function workbenchUrl(server, folder, payload = []) {
  let url = `http://${server.host}/?folder=${encodeURIComponent(path.resolve(folder))}`;
  if (payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

const remoteUri = (server, p) => `vscode-remote://${server.host}${path.resolve(p)}`;

/** Installs a .vsix into an extensions dir with the code-server CLI (as a user would with `code --install-extension`). */
function installVsix(vsix, { dir, userDataDir, extensionsDir }) {
  const { execFileSync } = require('child_process');
  return execFileSync(
    path.join(ROOT, '.vscode-test/code-server/node_modules/.bin/code-server'),
    ['--config', '/dev/null', '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix],
    { encoding: 'utf8', env: { ...process.env, EXTENSIONS_GALLERY: '{}', XDG_DATA_HOME: path.join(dir, 'xdg-data'), XDG_CONFIG_HOME: path.join(dir, 'xdg-config') } },
  );
}

module.exports = { ROOT, VSCODE_SERVER_ROOT, QUIET_SETTINGS, tempDir, freePort, startServer, launchBrowser, workbenchUrl, remoteUri, installVsix };
