#!/usr/bin/env node
// A stand-in for the VS Code executable, for @vscode/test-electron's runTests({ vscodeExecutablePath }).
// It takes the command line runTests builds for desktop VS Code:
//   --extensionDevelopmentPath=DIR --extensionTestsPath=FILE [--user-data-dir=DIR] [--extensions-dir=DIR] [FOLDER]
// and runs the tests in the VS Code server from code-server's npm package instead: a real Node extension host
// (so the language server runs as a child process over IPC) plus the web workbench in headless chromium.
// The development and tests paths go to the workbench through its `payload` URL parameter; the mocha result
// comes back through window.codeAutomationExit and becomes this process's exit code.
//
// Environment: VSCODE_SERVER_ROOT, SERVER_NODE, CHROMIUM (see lib.js); E2E_TIMEOUT_MS (default 300000);
// E2E_SCREENSHOT=file.png (taken when the tests end); E2E_VERBOSE=1 (browser console too); KEEP_TMP=1.
'use strict';
const fs = require('fs');
const path = require('path');
const util = require('util');
const { startServer, launchBrowser, workbenchUrl, remoteUri, tempDir } = require('./lib');

function parseCommandLine(argv) {
  const o = { dev: [], tests: undefined, userDataDir: undefined, extensionsDir: undefined, folder: undefined };
  const withValue = new Set(['extensionDevelopmentPath', 'extensionTestsPath', 'user-data-dir', 'extensions-dir', 'folder-uri']);
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) {
      o.folder ??= argv[i];
      continue;
    }
    const key = m[1];
    const value = m[2] ?? (withValue.has(key) ? argv[++i] : undefined);
    switch (key) {
      case 'extensionDevelopmentPath': o.dev.push(path.resolve(value)); break;
      case 'extensionTestsPath': o.tests = path.resolve(value); break;
      case 'user-data-dir': o.userDataDir = path.resolve(value); break;
      case 'extensions-dir': o.extensionsDir = path.resolve(value); break;
      case 'folder-uri': o.folder = decodeURIComponent(value.replace(/^file:\/\//, '')); break;
      default: break; // desktop-only switches (--disable-extensions, --no-sandbox, …) mean nothing here
    }
  }
  return o;
}

// lines of workbench chatter that say nothing about the tests
const NOISE = /^(Resolving connection|Resolved connection|Creating a socket|Updating additional|\[Service Worker\]|getaddrinfo ENOTFOUND|Ignoring fetching additional builtin|\[ChatModelSelection\]|ChatSessionStore)/;

async function main() {
  const t0 = Date.now();
  const o = parseCommandLine(process.argv.slice(2));
  if (!o.tests || !o.dev.length) {
    console.error('usage: code-shim.js --extensionDevelopmentPath=DIR --extensionTestsPath=FILE [--user-data-dir=DIR] [--extensions-dir=DIR] [FOLDER]');
    return 2;
  }
  const dir = tempDir('cc-shim-');
  let server;
  let browser;
  let code = 1;
  try {
    server = await startServer({ dir, userDataDir: o.userDataDir, extensionsDir: o.extensionsDir });
    console.log(`[shim] VS Code server ready on ${server.host} after ${Date.now() - t0} ms`);
    browser = await launchBrowser();
    const { page } = browser;
    if (process.env.E2E_VERBOSE) page.on('console', (m) => console.log('[browser]', m.text()));
    page.on('pageerror', (e) => console.log('[pageerror]', e.message));
    let exit;
    const exited = new Promise((resolve) => (exit = resolve));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = util.format(...(args || []));
      if (process.env.E2E_VERBOSE || !NOISE.test(line)) (type === 'error' ? process.stderr : process.stdout).write(line + '\n');
    });
    await page.exposeFunction('codeAutomationExit', (c) => exit(c));
    const payload = [...o.dev.map((d) => ['extensionDevelopmentPath', remoteUri(server, d)]), ['extensionTestsPath', remoteUri(server, o.tests)], ['skipWelcome', 'true']];
    await page.goto(workbenchUrl(server, o.folder ?? dir, payload));
    const timeout = Number(process.env.E2E_TIMEOUT_MS || 300000);
    const result = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), timeout))]);
    if (process.env.E2E_SCREENSHOT) await page.screenshot({ path: process.env.E2E_SCREENSHOT }).catch(() => {});
    if (result === 'timeout') console.error(`[shim] the tests did not finish within ${timeout} ms`);
    else console.log(`[shim] extension tests exited with ${result} after ${Date.now() - t0} ms`);
    code = typeof result === 'number' ? result : 1;
  } catch (e) {
    console.error('[shim]', (e && e.stack) || e);
    code = 1;
  } finally {
    if (browser) await browser.close();
    server?.stop();
    if (code === 0 && !process.env.KEEP_TMP) fs.rmSync(dir, { recursive: true, force: true });
    else console.log(`[shim] server log kept: ${path.join(dir, 'server.log')}`);
  }
  return code;
}

main().then((c) => process.exit(c), (e) => { console.error(e); process.exit(1); });
