// Drives the built language server (`node server/out/server.js --stdio`) over the protocol for
// the fuzzer: open or change documents, ask for hovers, completions, code actions, document info
// and previews, and tell crashes (the process exits, an error response, an error logged) and
// hangs (a request that takes more than its budget of the server's CPU time) apart from answers.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const root = new URL('../../', import.meta.url).pathname;
const rpc = require('vscode-languageserver-protocol/node');

export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}

export function rssBytes(pid) {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Error codes that are answers, not failures (the client or the server cancelled). */
const BENIGN = new Set([rpc.ErrorCodes?.RequestCancelled ?? -32800, rpc.LSPErrorCodes?.RequestCancelled ?? -32800, rpc.LSPErrorCodes?.ContentModified ?? -32801, rpc.LSPErrorCodes?.ServerCancelled ?? -32802]);

export class FuzzServer {
  constructor(workspace, { hangCpuMs = 2000, wallCapMs = 30000 } = {}) {
    this.workspace = workspace;
    this.hangCpuMs = hangCpuMs;
    this.wallCapMs = wallCapMs;
    this.versions = new Map();
    /** The text of every open document (a hang can come from analysing any of them). */
    this.texts = new Map();
    this.logs = [];
    this.stderr = '';
    this.exited = null;
    this.requests = 0;
    this.slow = 0;
    /** The request that came nearest its CPU budget: { share, method, cpuMs, budgetMs, iteration }. */
    this.iteration = null;
    this.peak = null;
  }

  async start() {
    this.child = spawn(process.execPath, [`${root}server/out/server.js`, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (d) => {
      if (this.stderr.length < 200000) this.stderr += d.toString();
    });
    this.child.on('exit', (code, signal) => (this.exited = { code, signal }));
    // A server killed after a hang: notifications still queued for it must not crash the fuzzer (EPIPE).
    this.child.stdin.on('error', () => {});
    // A server killed mid-message must not leave vscode-jsonrpc's partial-message timer re-arming forever.
    const reader = new rpc.StreamMessageReader(this.child.stdout);
    reader.partialMessageTimeout = 0;
    this.connection = rpc.createProtocolConnection(reader, new rpc.StreamMessageWriter(this.child.stdin));
    this.connection.onRequest('workspace/configuration', (p) => p.items.map(() => ({})));
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onRequest('workspace/workspaceFolders', () => [{ uri: pathToFileURL(this.workspace).href, name: 'ws' }]);
    this.connection.onNotification('window/logMessage', (m) => {
      this.logs.push(m);
      if (this.logs.length > 500) this.logs.shift();
    });
    this.connection.onNotification('textDocument/publishDiagnostics', () => {});
    this.connection.onError(() => {});
    this.connection.onClose(() => {});
    this.connection.listen();
    await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(this.workspace).href,
      workspaceFolders: [{ uri: pathToFileURL(this.workspace).href, name: 'ws' }],
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true },
        textDocument: { hover: { contentFormat: ['markdown'] }, completion: { completionItem: { snippetSupport: true } }, codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor.rewrite'] } } } },
      },
    });
    await this.connection.sendNotification('initialized', {});
    this.versions.clear();
    this.texts.clear();
  }

  get pid() {
    return this.child?.pid;
  }

  /** Errors the server logged since `from` (window/logMessage type 1), e.g. "[diagnostics] failed". */
  loggedErrors(from = 0) {
    return this.logs.slice(from).filter((m) => m.type === 1 || /uncaught|unhandled rejection/.test(m.message));
  }

  /** A notification; one to a server that just died is dropped (the next request reports the death). */
  notify(method, params) {
    return this.connection.sendNotification(method, params).catch(() => {});
  }

  /** didOpen the first time, a full didChange after. */
  sync(uri, text, languageId = 'yaml') {
    this.texts.set(uri, text);
    const v = this.versions.get(uri);
    if (v === undefined) {
      this.versions.set(uri, 1);
      return this.notify('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    }
    this.versions.set(uri, v + 1);
    return this.notify('textDocument/didChange', { textDocument: { uri, version: v + 1 }, contentChanges: [{ text }] });
  }

  close(uri) {
    this.versions.delete(uri);
    this.texts.delete(uri);
    return this.notify('textDocument/didClose', { textDocument: { uri } });
  }

  /**
   * One request; resolves with { ok } or { failure: { kind: 'crash' | 'hang' | 'error-response', message } }.
   * A hang is more than `hangCpuMs` of the server's CPU time for the request (and more than that in wall time),
   * or no answer within the wall cap.
   */
  async request(method, params, hangCpuMs = this.hangCpuMs) {
    this.requests++;
    const pid = this.pid;
    const cpu0 = cpuMs(pid);
    const t0 = Date.now();
    let timer;
    const watchdog = new Promise((resolve) => {
      const poll = () => {
        if (this.exited) return resolve({ failure: { kind: 'crash', message: `the server exited (${this.exited.code ?? this.exited.signal}) during ${method}` } });
        const cpu = cpuMs(pid);
        const wall = Date.now() - t0;
        if ((cpu !== null && cpu0 !== null && cpu - cpu0 > hangCpuMs && wall > hangCpuMs) || wall > this.wallCapMs) {
          return resolve({ failure: { kind: 'hang', message: `${method}: no answer after ${wall} ms (${cpu !== null && cpu0 !== null ? cpu - cpu0 : '?'} ms of server CPU)` } });
        }
        timer = setTimeout(poll, 50);
      };
      timer = setTimeout(poll, 50);
    });
    const answer = this.connection.sendRequest(method, params).then(
      (result) => ({ ok: true, result }),
      (e) => {
        if (e && BENIGN.has(e.code)) return { ok: true, result: null };
        if (this.exited) return { failure: { kind: 'crash', message: `the server exited (${this.exited.code ?? this.exited.signal}) during ${method}` } };
        return { failure: { kind: 'error-response', message: `${method}: ${e?.code ?? ''} ${e?.message ?? e}` } };
      },
    );
    const outcome = await Promise.race([answer, watchdog]);
    clearTimeout(timer);
    const cpu = cpuMs(pid);
    if (outcome.ok && cpu !== null && cpu0 !== null && (!this.peak || (cpu - cpu0) / hangCpuMs > this.peak.share)) {
      this.peak = { share: (cpu - cpu0) / hangCpuMs, method, cpuMs: cpu - cpu0, budgetMs: hangCpuMs, iteration: this.iteration };
    }
    if (Date.now() - t0 > this.hangCpuMs) this.slow++;
    return outcome;
  }

  async stop() {
    if (!this.child) return;
    try {
      if (!this.exited) {
        await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
        await this.connection.sendNotification('exit');
      }
    } catch {
      /* gone */
    }
    await new Promise((r) => setTimeout(r, 200));
    if (!this.exited) this.child.kill('SIGKILL');
    try {
      this.connection.dispose();
    } catch {
      /* gone */
    }
  }

  kill() {
    if (this.child && !this.exited) this.child.kill('SIGKILL');
    try {
      this.connection?.dispose();
    } catch {
      /* gone */
    }
  }
}
