/**
 * Drives a language server over stdio as an editor would, and times it:
 * start-up to the `initialize` result, didOpen -> first publishDiagnostics,
 * didChange -> the next publishDiagnostics, hover and completion latency,
 * the preview request, and the server's peak RSS (VmHWM).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { rng } from './generate.mjs';

const require = createRequire(import.meta.url);
const P = require('vscode-languageserver-protocol/node');

const CAPABILITIES = {
  workspace: { configuration: true, workspaceFolders: true, didChangeConfiguration: { dynamicRegistration: true } },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false },
    publishDiagnostics: { relatedInformation: true, versionSupport: true, tagSupport: { valueSet: [1, 2] }, codeDescriptionSupport: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'source'] } } },
  },
};

export function vmHWM(pid) {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

const withTimeout = (promise, ms, what) =>
  Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms).unref())]);

/**
 * The language server as the VS Code client starts it: dist/server.js forked over IPC with the
 * node flags of the `run` ServerOptions in client/src/client.ts (read from there, so they cannot drift).
 */
export function clientServerStart(root) {
  const source = readFileSync(path.join(root, 'client', 'src', 'client.ts'), 'utf8');
  const flags = /run:\s*\{[^}]*execArgv:\s*\[([^\]]*)\]/.exec(source)?.[1] ?? '';
  const execArgv = [...flags.matchAll(/'([^']*)'/g)].map((m) => m[1]);
  return { module: path.join(root, 'dist', 'server.js'), execArgv };
}

export class Session {
  /**
   * @param {object} o
   * @param {string[]} [o.argv]       node arguments (script and flags), the server talking over stdio
   * @param {{ module: string, execArgv: string[] }} [o.ipc]  instead: the server forked as vscode-languageclient
   *                                   forks it with TransportKind.ipc (node flags, module, --node-ipc)
   * @param {(section: string) => unknown} o.settings   answers workspace/configuration
   * @param {string[]} [o.folders]    workspace folders (paths)
   */
  static async start(o) {
    const s = new Session();
    s.settings = o.settings;
    s.published = new Map();
    s.listeners = new Set();
    s.sections = new Set();
    s.versions = new Map();
    s.stderr = '';
    const t0 = performance.now();
    const prof = process.env.BENCH_SERVER_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_CPU_PROF}`] : [];
    const argv = o.ipc ? [...o.ipc.execArgv, ...prof, o.ipc.module, '--node-ipc', `--clientProcessId=${process.pid}`] : o.argv;
    s.child = spawn(process.execPath, argv, { stdio: ['pipe', 'pipe', 'pipe', ...(o.ipc ? ['ipc'] : [])], env: { ...process.env, ...(o.env ?? {}) } });
    s.pid = s.child.pid;
    s.child.stderr.on('data', (d) => {
      s.stderr = (s.stderr + d.toString()).slice(-4000);
    });
    s.exited = new Promise((resolve) => s.child.once('exit', (code) => resolve(code)));
    // A server that dies mid-message must not leave vscode-jsonrpc's partial-message timer re-arming forever.
    const reader = o.ipc ? new P.IPCMessageReader(s.child) : new P.StreamMessageReader(s.child.stdout);
    if (!o.ipc) reader.partialMessageTimeout = 0;
    else s.child.stdout.resume();
    const conn = P.createProtocolConnection(reader, o.ipc ? new P.IPCMessageWriter(s.child) : new P.StreamMessageWriter(s.child.stdin));
    s.conn = conn;
    conn.onRequest(P.ConfigurationRequest.type, (params) =>
      params.items.map((item) => {
        s.sections.add(item.section ?? '');
        return s.settings(item.section ?? '');
      }),
    );
    const folders = o.folders ?? [];
    conn.onRequest(P.WorkspaceFoldersRequest.type, () => folders.map((f) => ({ uri: pathToFileURL(f).href, name: path.basename(f) })));
    conn.onRequest(P.RegistrationRequest.type, () => null);
    conn.onRequest(P.UnregistrationRequest.type, () => null);
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.onRequest(P.ShowMessageRequest.type, () => null);
    conn.onNotification(P.LogMessageNotification.type, () => undefined);
    conn.onNotification(P.ShowMessageNotification.type, () => undefined);
    conn.onNotification(P.TelemetryEventNotification.type, () => undefined);
    conn.onNotification((method) => void method);
    conn.onNotification(P.PublishDiagnosticsNotification.type, (p) => {
      const at = performance.now();
      const list = s.published.get(p.uri) ?? [];
      list.push({ ...p, at });
      s.published.set(p.uri, list);
      for (const l of [...s.listeners]) l();
    });
    conn.listen();
    s.initializeResult = await withTimeout(
      conn.sendRequest(P.InitializeRequest.type, {
        processId: process.pid,
        rootUri: folders[0] ? pathToFileURL(folders[0]).href : null,
        workspaceFolders: folders.length ? folders.map((f) => ({ uri: pathToFileURL(f).href, name: path.basename(f) })) : null,
        capabilities: CAPABILITIES,
        initializationOptions: o.initializationOptions,
      }),
      60000,
      'initialize',
    );
    s.startupMs = performance.now() - t0;
    await conn.sendNotification(P.InitializedNotification.type, {});
    return s;
  }

  /** Announces the settings and waits until the server has pulled `section` (when it pulls settings). */
  async configure(settings, section) {
    await this.conn.sendNotification(P.DidChangeConfigurationNotification.type, { settings });
    if (!section) return;
    const t0 = performance.now();
    while (!this.sections.has(section) && performance.now() - t0 < 10000) await sleep(10);
    await sleep(100);
  }

  log(uri) {
    return this.published.get(uri) ?? [];
  }

  /** The first publishDiagnostics for `uri` after the `since`-th one that matches. */
  waitForDiagnostics(uri, since, match = () => true, timeoutMs = 120000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.log(uri).slice(since).find(match);
        if (!found) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no publishDiagnostics for ${uri} within ${timeoutMs} ms; stderr: ${this.stderr.slice(-500)}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
      check();
    });
  }

  /** didOpen, and the time to the first diagnostics of that version. */
  async open(uri, text, version = 1) {
    this.versions.set(uri, version);
    const since = this.log(uri).length;
    const t0 = performance.now();
    await this.conn.sendNotification(P.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version, text } });
    const p = await this.waitForDiagnostics(uri, since, (d) => d.version === undefined || d.version === version);
    return { ms: p.at - t0, diagnostics: p.diagnostics.length };
  }

  async close(uri) {
    const since = this.log(uri).length;
    await this.conn.sendNotification(P.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    await this.waitForDiagnostics(uri, since, () => true, 10000).catch(() => undefined);
  }

  /** An incremental edit; resolves when it has been sent. Returns the new version. */
  async edit(uri, range, text) {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.conn.sendNotification(P.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ range, text }] });
    return version;
  }

  /** didChange, and the time to the diagnostics of the new version. */
  async editAndWait(uri, range, text) {
    const since = this.log(uri).length;
    const t0 = performance.now();
    const version = await this.edit(uri, range, text);
    const p = await this.waitForDiagnostics(uri, since, (d) => d.version === undefined || d.version === version);
    return { ms: p.at - t0, diagnostics: p.diagnostics.length, version };
  }

  async timeRequest(type, params) {
    const t0 = performance.now();
    const result = await withTimeout(this.conn.sendRequest(type, params), 120000, typeof type === 'string' ? type : type.method);
    return { ms: performance.now() - t0, result };
  }

  peakRSS() {
    return vmHWM(this.pid);
  }

  async stop() {
    try {
      await withTimeout(this.conn.sendRequest(P.ShutdownRequest.type), 5000, 'shutdown');
      await this.conn.sendNotification(P.ExitNotification.type);
    } catch {
      /* already gone */
    }
    const exited = await Promise.race([this.exited.then(() => true), sleep(3000).then(() => false)]);
    if (!exited) this.child.kill();
    this.conn.dispose();
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Deterministic request positions over a document: a quarter inside the
 * merge_how block (lines `specLines`), the rest anywhere, at varied columns.
 */
export function requestPositions(text, count, seed, specLines) {
  const r = rng(seed);
  const lines = text.split('\n');
  const positions = [];
  for (let i = 0; i < count; i++) {
    const inSpec = specLines && i % 4 === 0;
    const line = inSpec ? specLines[0] + Math.floor(r() * (specLines[1] - specLines[0] + 1)) : Math.floor(r() * Math.max(1, lines.length - 1));
    const len = lines[line]?.length ?? 0;
    positions.push({ line, character: Math.floor(r() * (len + 1)), inSpec: Boolean(inSpec) });
  }
  return positions;
}

export { P };
