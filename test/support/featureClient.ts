/**
 * The server's hover, completion and code-action features run in this process, without a transport:
 * the register functions the server calls are given a context whose connection only keeps their
 * handlers, and the tests call those handlers. Same methods as LspClient for what feature tests use,
 * so a test reads the same either way; stdio (LspClient) stays for lifecycle, faults and concurrency.
 *
 * Left out here: workspace folders, custom mergers and sets of parts (their features and tests talk
 * to the real server).
 */
import type { CancellationToken, ClientCapabilities, CodeAction, CodeActionParams, CompletionItem, CompletionList, CompletionParams, Connection, Diagnostic, Hover, HoverParams, Position, Range, TextDocuments } from 'vscode-languageserver';
import { CancellationTokenSource, Command, ResponseError } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { AnalysisCache } from '../../server/src/features/common/analysisCache';
import { ServerContext, clientSupport } from '../../server/src/features/common/context';
import { NO_CUSTOM_MERGERS } from '../../server/src/features/common/customMergers';
import { instanceDataFor, instanceDataKey } from '../../server/src/features/common/instanceData';
import type { Logger } from '../../server/src/features/common/log';
import { ServerSettings, normalizeSettings } from '../../server/src/features/common/settings';
import { registerCodeActions } from '../../server/src/features/codeActions';
import { registerCompletion } from '../../server/src/features/completion';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { registerHover } from '../../server/src/features/hover';
import { EDITOR_CAPABILITIES, StartOptions } from './lspClient';

type Handler<P, R> = (params: P, token: CancellationToken) => Promise<R | ResponseError<void>>;

const NO_FOLDERS: readonly string[] = [];

export class FeatureClient {
  /** `cloudConfigMerge` settings, read again for every request (as the editor answers them). */
  settings: Record<string, unknown>;
  private readonly open_ = new Map<string, TextDocument>();
  private readonly analyses = new AnalysisCache();
  private hoverHandler?: Handler<HoverParams, Hover | null>;
  private completionHandler?: Handler<CompletionParams, CompletionItem[] | CompletionList | null>;
  private codeActionHandler?: Handler<CodeActionParams, Array<CodeAction | Command> | null>;
  private readonly ctx: ServerContext;

  private constructor(capabilities: ClientCapabilities, settings: Record<string, unknown>) {
    this.settings = settings;
    const connection = {
      onHover: (handler: Handler<HoverParams, Hover | null>) => (this.hoverHandler = handler),
      onCompletion: (handler: Handler<CompletionParams, CompletionItem[] | CompletionList | null>) => (this.completionHandler = handler),
      onCodeAction: (handler: Handler<CodeActionParams, Array<CodeAction | Command> | null>) => (this.codeActionHandler = handler),
    } as unknown as Connection;
    const documents = { get: (uri: string) => this.open_.get(uri) } as unknown as TextDocuments<TextDocument>;
    const log: Logger = { level: 'off', error: (m) => console.error(m), warn: () => undefined, info: () => undefined, verbose: () => undefined };
    const ctx: ServerContext = (this.ctx = {
      connection,
      documents,
      log,
      support: clientSupport(capabilities),
      settings: async () => this.currentSettings(),
      knownSettings: () => this.currentSettings(),
      clientSettings: () => this.currentSettings(),
      state: (document) => {
        const settings = this.currentSettings();
        return this.analyses.get(document, settings, NO_CUSTOM_MERGERS, { key: instanceDataKey(settings, document.uri, NO_FOLDERS), choice: instanceDataFor(settings, document.uri, NO_FOLDERS) });
      },
      workspaceFolders: () => [...NO_FOLDERS],
      customMergers: () => NO_CUSTOM_MERGERS,
    });
    registerHover(ctx);
    registerCompletion(ctx);
    registerCodeActions(ctx);
  }

  static async start(options: Pick<StartOptions, 'settings' | 'capabilities'> = {}): Promise<FeatureClient> {
    return new FeatureClient(options.capabilities ?? EDITOR_CAPABILITIES, options.settings ?? {});
  }

  private currentSettings(): ServerSettings {
    return normalizeSettings(this.settings);
  }

  /** Opens a document and returns the diagnostics the server would publish for it. */
  async open(uri: string, text: string, languageId = 'yaml', version = 1): Promise<Diagnostic[]> {
    this.openNoWait(uri, text, languageId, version);
    return diagnosticsFor(this.ctx.state(this.open_.get(uri) as TextDocument));
  }

  openNoWait(uri: string, text: string, languageId = 'yaml', version = 1): void {
    this.open_.set(uri, TextDocument.create(uri, languageId, version, text));
  }

  close(uri: string): void {
    this.open_.delete(uri);
    this.analyses.delete(uri);
  }

  async hover(uri: string, position: Position): Promise<Hover | null> {
    return answer(await (this.hoverHandler as Handler<HoverParams, Hover | null>)({ textDocument: { uri }, position }, token()));
  }

  async completion(uri: string, position: Position): Promise<CompletionItem[]> {
    const result = answer(await (this.completionHandler as Handler<CompletionParams, CompletionItem[] | CompletionList | null>)({ textDocument: { uri }, position }, token()));
    if (!result) return [];
    return Array.isArray(result) ? result : result.items;
  }

  async codeActions(uri: string, range: Range, diagnostics: Diagnostic[] = [], only?: string[]): Promise<CodeAction[]> {
    const result = answer(await (this.codeActionHandler as Handler<CodeActionParams, Array<CodeAction | Command> | null>)({ textDocument: { uri }, range, context: { diagnostics, only } }, token()));
    return (result ?? []).filter((a): a is CodeAction => !Command.is(a));
  }

  async stop(): Promise<void> {
    this.open_.clear();
    this.analyses.clear();
  }
}

function token(): CancellationToken {
  return new CancellationTokenSource().token;
}

/** A handler's result; the error a guarded handler answers with is thrown, as the client would see it. */
function answer<R>(result: R | ResponseError<void>): R {
  if (result instanceof ResponseError) throw result;
  return result;
}
