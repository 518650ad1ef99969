/**
 * The language server built for a browser (dist/web/server.js, `node scripts/web/build.mjs`) in a real Web Worker of
 * Debian's Chromium, spoken to over LSP as a browser client speaks to it (postMessage): it starts, analyses an open
 * document and publishes the findings `cloud-config-merge --lint` gives for the same text, answers a hover, and
 * previews open documents exactly as the CLI's `--format preview` merges them. Offline: nothing is requested but the
 * page and the worker's script, from a local server.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const ROOT = resolve(__dirname, '..', '..', '..');
const SERVER = join(ROOT, 'dist', 'web', 'server.js');
const CLI = join(ROOT, 'dist', 'cli.js');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const BASE = '#cloud-config\nmerge_how: list(appendd)+dict()+str()\nruncmd: [echo base]\npackages: [nginx]\n';
const APP = '#cloud-config\nruncmd: [echo app]\npackagez: [htop]\n';

let http: Server;
let browser: Browser;
let page: Page;
const requested: string[] = [];

before(async () => {
  assert.ok(existsSync(SERVER), 'dist/web/server.js is missing: run `node scripts/web/build.mjs` (npm run test:web does)');
  http = createServer((req, res) => {
    if (req.url === '/server.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(readFileSync(SERVER));
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>worker</title>');
    }
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as AddressInfo).port;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  page = await browser.newPage();
  page.on('request', (r) => requested.push(r.url().replace(`http://127.0.0.1:${port}`, '')));
  await page.goto(`http://127.0.0.1:${port}/`);
  // A client in the page: it answers the server's own requests (configuration, registrations) and keeps every message.
  await page.evaluate(() => {
    const w = new Worker('/server.js');
    const g = globalThis as unknown as { lsp: { messages: unknown[]; send(m: unknown): void } };
    g.lsp = { messages: [], send: (m) => w.postMessage(m) };
    w.onmessage = (e: MessageEvent) => {
      const m = e.data as { id?: number; method?: string; params?: { items?: unknown[] } };
      g.lsp.messages.push(m);
      if (m.method !== undefined && m.id !== undefined) {
        const result = m.method === 'workspace/configuration' ? (m.params?.items ?? []).map(() => null) : null;
        w.postMessage({ jsonrpc: '2.0', id: m.id, result });
      }
    };
  });
});

after(async () => {
  await browser?.close();
  http?.close();
});

let nextId = 1;
async function request(method: string, params: unknown): Promise<unknown> {
  const id = nextId++;
  await page.evaluate((m) => (globalThis as unknown as { lsp: { send(m: unknown): void } }).lsp.send(m), { jsonrpc: '2.0', id, method, params });
  const handle = await page.waitForFunction((id) => (globalThis as unknown as { lsp: { messages: Array<{ id?: number; method?: string }> } }).lsp.messages.find((m) => m.id === id && m.method === undefined), id, { timeout: 60000 });
  const answer = (await handle.jsonValue()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

async function notify(method: string, params: unknown): Promise<void> {
  await page.evaluate((m) => (globalThis as unknown as { lsp: { send(m: unknown): void } }).lsp.send(m), { jsonrpc: '2.0', method, params });
}

interface Diagnostic {
  range: { start: { line: number; character: number } };
  severity: number;
  code?: string | number;
  message: string;
}

async function diagnosticsOf(uri: string): Promise<Diagnostic[]> {
  const handle = await page.waitForFunction(
    (uri) => (globalThis as unknown as { lsp: { messages: Array<{ method?: string; params?: { uri: string; diagnostics: unknown[] } }> } }).lsp.messages.filter((m) => m.method === 'textDocument/publishDiagnostics' && m.params?.uri === uri && m.params.diagnostics.length).pop()?.params?.diagnostics,
    uri,
    { timeout: 60000 },
  );
  return (await handle.jsonValue()) as Diagnostic[];
}

/** The CLI on files written under their names in a scratch folder. */
function cli(args: string[], files: Record<string, string>): { stdout: string; code: number } {
  const dir = mkdtempSync(join(tmpdir(), 'cc-webserver-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const r = spawnSync(process.execPath, [CLI, ...args, ...Object.keys(files)], { cwd: dir, encoding: 'utf8' });
    return { stdout: r.stdout, code: r.status ?? -1 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the server starts in a Web Worker and says what it can do', async () => {
  const result = (await request('initialize', { processId: null, rootUri: null, capabilities: {}, initializationOptions: { settings: {}, trusted: false } })) as { capabilities: Record<string, unknown> };
  await notify('initialized', {});
  assert.ok(result.capabilities.hoverProvider, 'hover');
  assert.ok(result.capabilities.completionProvider, 'completion');
  assert.ok(result.capabilities.codeActionProvider, 'code actions');
});

test("an open part's diagnostics are --lint's findings for the same text", async () => {
  await notify('textDocument/didOpen', { textDocument: { uri: 'file:///work/10-base.yaml', languageId: 'yaml', version: 1, text: BASE } });
  const diagnostics = await diagnosticsOf('file:///work/10-base.yaml');
  const lint = cli(['--lint'], { '10-base.yaml': BASE }).stdout.trim().split('\n').filter(Boolean);
  const severity = ['', 'error', 'warning', 'info', 'hint'];
  const ours = diagnostics.map((d) => `10-base.yaml:${d.range.start.line + 1}:${d.range.start.character + 1}: ${severity[d.severity]}: ${d.message} [${String(d.code)}]`);
  assert.ok(lint.length > 0, 'the CLI finds something');
  for (const line of lint) assert.ok(ours.includes(line), `the worker's diagnostics lack ${line}\n${ours.join('\n')}`);
});

test('a hover on merge_how explains the spec', async () => {
  const hover = (await request('textDocument/hover', { textDocument: { uri: 'file:///work/10-base.yaml' }, position: { line: 1, character: 3 } })) as { contents: { value?: string } | string } | null;
  assert.ok(hover, 'a hover');
  const text = typeof hover.contents === 'string' ? hover.contents : (hover.contents.value ?? '');
  assert.match(text, /list/);
});

test("the preview of open documents is the CLI's --format preview of the same files", async () => {
  await notify('textDocument/didOpen', { textDocument: { uri: 'file:///work/20-app.yaml', languageId: 'yaml', version: 1, text: APP } });
  const preview = (await request('cloudConfigMerge/preview', { mode: 'user-data', files: ['file:///work/10-base.yaml', 'file:///work/20-app.yaml'] })) as { text: string };
  const run = cli(['--format', 'preview'], { '10-base.yaml': BASE, '20-app.yaml': APP });
  const body = (t: string) => t.slice(t.indexOf('# ---- what cloud-init writes ----'));
  assert.ok(preview.text.includes('# ---- what cloud-init writes ----'), preview.text.slice(0, 400));
  assert.equal(body(preview.text), body(run.stdout));
});

test('nothing is requested but the page and the worker', () => {
  assert.deepEqual([...new Set(requested)].sort(), ['/', '/server.js']);
});
