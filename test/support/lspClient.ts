/**
 * Drives the BUILT language server (`node server/out/server.js --stdio`) as
 * an editor would: a child process and a JSON-RPC connection, with helpers
 * to open documents and wait for their diagnostics, and a `|` cursor marker
 * for positions in fixture text.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ClientCapabilities,
  CodeAction,
  CodeActionRequest,
  Command,
  CompletionItem,
  CompletionList,
  CompletionRequest,
  ConfigurationRequest,
  Diagnostic,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  Hover,
  HoverRequest,
  InitializeRequest,
  InitializeResult,
  InitializedNotification,
  LogMessageNotification,
  Position,
  ProtocolConnection,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  Range,
  RegistrationRequest,
  UnregistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  TextEdit,
  WorkspaceFoldersRequest,
  createProtocolConnection,
} from 'vscode-languageserver-protocol/node';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const SERVER_MAIN = path.join(REPO_ROOT, 'server', 'out', 'server.js');

/** What a typical editor (VS Code) announces; tests can override parts. */
export const EDITOR_CAPABILITIES: ClientCapabilities = {
  workspace: { configuration: true, workspaceFolders: true, didChangeConfiguration: { dynamicRegistration: true } },
  textDocument: {
    synchronization: { dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: true, versionSupport: true, tagSupport: { valueSet: [1, 2] }, codeDescriptionSupport: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
    codeAction: {
      codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'refactor.rewrite', 'source'] } },
      isPreferredSupport: true,
    },
  },
};

/**
 * A reader of the server's messages that never arms vscode-jsonrpc's partial-message timer: when a
 * test kills the server in the middle of a message, that timer re-arms itself every 10 s forever
 * (dispose() does not clear it), and the test process never exits.
 */
export function serverMessageReader(stream: NodeJS.ReadableStream): StreamMessageReader {
  const reader = new StreamMessageReader(stream);
  reader.partialMessageTimeout = 0;
  return reader;
}

export interface StartOptions {
  /** `cloudConfigMerge` settings answered to workspace/configuration. */
  settings?: Record<string, unknown>;
  /** Workspace folders, as file-system paths. */
  workspaceFolders?: string[];
  capabilities?: ClientCapabilities;
  /** Extra environment for the server process (e.g. CLOUD_CONFIG_MERGE_FAULTS). */
  env?: Record<string, string>;
  /** Sent with initialize (e.g. `{ trusted: true }`). */
  initializationOptions?: unknown;
}

/** A fixture with one `|` (or `marker`) where the cursor is: the text without it, and the position. */
export function cursor(textWithMarker: string, marker = '|'): { text: string; position: Position; offset: number } {
  const offset = textWithMarker.indexOf(marker);
  if (offset < 0) throw new Error(`no cursor marker '${marker}' in fixture`);
  if (textWithMarker.indexOf(marker, offset + marker.length) >= 0) throw new Error(`more than one cursor marker '${marker}' in fixture (pass another marker)`);
  const text = textWithMarker.slice(0, offset) + textWithMarker.slice(offset + marker.length);
  return { text, position: positionAt(text, offset), offset };
}

export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

/** The range of the `occurrence`-th (0-based) appearance of `needle` in `text`. */
export function rangeOf(text: string, needle: string, occurrence = 0): Range {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' (occurrence ${occurrence}) not in text`);
  }
  return { start: positionAt(text, at), end: positionAt(text, at + needle.length) };
}

/** Applies LSP text edits to a text (for checking what a quick fix produces). */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const offset = (p: Position) => {
    const lines = text.split('\n');
    let o = 0;
    for (let l = 0; l < p.line; l++) o += lines[l].length + 1;
    return o + p.character;
  };
  const sorted = edits.map((e) => ({ start: offset(e.range.start), end: offset(e.range.end), text: e.newText })).sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** A document URI for a fixture name (nothing is written to disk). */
export function fixtureUri(name: string): string {
  return name.includes('://') ? name : pathToFileURL(path.join('/fixtures', name)).href;
}

export class LspClient {
  readonly logs: string[] = [];
  stderr = '';
  settings: Record<string, unknown>;
  /** Settings of one scope (a workspace folder's), as VS Code answers them per document; `settings` elsewhere. */
  scopedSettings: ((scopeUri: string | undefined) => Record<string, unknown> | undefined) | undefined;
  initializeResult!: InitializeResult;
  readonly exited: Promise<number | null>;
  private readonly published = new Map<string, PublishDiagnosticsParams[]>();
  private readonly listeners = new Set<() => void>();
  private readonly versions = new Map<string, number>();
  /** While set, workspace/configuration answers wait for it (to hold a server mid-request). */
  private configurationGate: Promise<void> | null = null;
  /** How many workspace/configuration requests the server sent. */
  configurationRequests = 0;
  /** What the server registered dynamically (client/registerCapability), in order. */
  readonly registrations: Array<{ id: string; method: string; registerOptions?: unknown }> = [];
  /** The ids the server unregistered (client/unregisterCapability). */
  readonly unregistrations: string[] = [];

  private constructor(
    readonly process: ChildProcess,
    readonly connection: ProtocolConnection,
    readonly folders: string[],
    settings: Record<string, unknown>,
  ) {
    this.settings = settings;
    this.exited = new Promise((resolve) => process.once('exit', (code) => resolve(code)));
    process.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    connection.onRequest(ConfigurationRequest.type, async (params) => {
      this.configurationRequests++;
      for (const l of [...this.listeners]) l();
      if (this.configurationGate) await this.configurationGate;
      return params.items.map((item) => (item.section === 'cloudConfigMerge' ? (this.scopedSettings?.(item.scopeUri) ?? this.settings) : null));
    });
    connection.onRequest(WorkspaceFoldersRequest.type, () => folders.map((f) => ({ uri: pathToFileURL(f).href, name: path.basename(f) })));
    connection.onRequest(RegistrationRequest.type, (params) => {
      this.registrations.push(...params.registrations);
      return undefined;
    });
    connection.onRequest(UnregistrationRequest.type, (params) => {
      this.unregistrations.push(...params.unregisterations.map((u) => u.id));
      return undefined;
    });
    connection.onNotification(LogMessageNotification.type, (m) => {
      this.logs.push(m.message);
      for (const l of [...this.listeners]) l();
    });
    connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      const list = this.published.get(p.uri) ?? [];
      list.push(p);
      this.published.set(p.uri, list);
      for (const l of [...this.listeners]) l();
    });
  }

  static async start(options: StartOptions = {}): Promise<LspClient> {
    if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: build first (npx tsc -b)`);
    const child = spawn(process.execPath, [SERVER_MAIN, '--stdio'], { env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createProtocolConnection(serverMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const folders = options.workspaceFolders ?? [];
    const client = new LspClient(child, connection, folders, options.settings ?? {});
    connection.listen();
    client.initializeResult = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: folders[0] ? pathToFileURL(folders[0]).href : null,
      workspaceFolders: folders.length ? folders.map((f) => ({ uri: pathToFileURL(f).href, name: path.basename(f) })) : null,
      capabilities: options.capabilities ?? EDITOR_CAPABILITIES,
      initializationOptions: options.initializationOptions,
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** Holds every workspace/configuration answer until the returned function is called. */
  holdConfiguration(): () => void {
    let release!: () => void;
    this.configurationGate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.configurationGate = null;
      release();
    };
  }

  /** Every publishDiagnostics received for a URI, oldest first. */
  diagnosticsLog(uri: string): PublishDiagnosticsParams[] {
    return this.published.get(uri) ?? [];
  }

  /** The next publishDiagnostics for `uri` after the first `since` ones (optionally one that matches). */
  waitForDiagnostics(uri: string, since = this.diagnosticsLog(uri).length, match: (p: PublishDiagnosticsParams) => boolean = () => true, timeoutMs = 10000): Promise<PublishDiagnosticsParams> {
    return this.waitUntil(() => this.diagnosticsLog(uri).slice(since).find(match), timeoutMs, () => `no matching publishDiagnostics for ${uri} within ${timeoutMs} ms (got ${this.diagnosticsLog(uri).length - since})`);
  }

  /** The first log line (window/logMessage) after the first `since` ones that matches. */
  waitForLog(pattern: RegExp, since = 0, timeoutMs = 10000): Promise<string> {
    return this.waitUntil(() => this.logs.slice(since).find((l) => pattern.test(l)), timeoutMs, () => `no log line matching ${pattern} within ${timeoutMs} ms`);
  }

  /** Resolves once the server has asked for settings (workspace/configuration) more than `since` times. */
  waitForConfigurationRequest(since = 0, timeoutMs = 10000): Promise<number> {
    return this.waitUntil(() => (this.configurationRequests > since ? this.configurationRequests : undefined), timeoutMs, () => `no workspace/configuration request within ${timeoutMs} ms`);
  }

  /** Resolves with what `found` returns once it returns something, checked on every message from the server. */
  private waitUntil<T>(found: () => T | undefined, timeoutMs: number, failure: () => string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = found();
        if (value === undefined) return;
        cleanup();
        resolve(value);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(failure()));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
      check();
    });
  }

  /** Opens a document and resolves with the diagnostics published for it. */
  async open(uri: string, text: string, languageId = 'yaml', version = 1): Promise<Diagnostic[]> {
    const since = this.diagnosticsLog(uri).length;
    this.openNoWait(uri, text, languageId, version);
    return (await this.waitForDiagnostics(uri, since)).diagnostics;
  }

  openNoWait(uri: string, text: string, languageId = 'yaml', version = 1): void {
    this.versions.set(uri, version);
    void this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version, text } });
  }

  /** Replaces the whole text; returns the new version. */
  change(uri: string, text: string): number {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    void this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    return version;
  }

  /** An incremental edit; returns the new version. */
  edit(uri: string, range: Range, text: string): number {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    void this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ range, text }] });
    return version;
  }

  close(uri: string): void {
    this.versions.delete(uri);
    void this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** New settings, announced as the editor does (the server then asks for them again). */
  async changeSettings(settings: Record<string, unknown>): Promise<void> {
    this.settings = settings;
    await this.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { cloudConfigMerge: settings } });
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  }

  async completion(uri: string, position: Position): Promise<CompletionItem[]> {
    const result: CompletionItem[] | CompletionList | null = await this.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position });
    if (!result) return [];
    return Array.isArray(result) ? result : result.items;
  }

  async codeActions(uri: string, range: Range, diagnostics: Diagnostic[] = [], only?: string[]): Promise<CodeAction[]> {
    const result = await this.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics, only } });
    return (result ?? []).filter((a): a is CodeAction => !Command.is(a));
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest<R>(method, params);
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      /* already gone */
    }
    const exited = await Promise.race([this.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 2000))]);
    if (!exited) this.process.kill();
    this.connection.dispose();
  }
}
