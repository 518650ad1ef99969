/**
 * The language client, started lazily: activation only registers things, and
 * the server process starts when the first cloud-init document or preview
 * needs it. Everything the extension knows about merging comes from here.
 */
import * as vscode from 'vscode';

import type { LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import { DOCUMENT_SELECTOR } from './documents';
import { InstanceDataChangedNotification, type NotificationType, type RequestType, WorkspaceTrustNotification } from '../../server/src/protocol';
import { forwardInstanceDataEdits } from './instanceDataEdits';
import { filesValidatedByRedHatYaml, redHatYamlState, withRedHatYamlFiles } from './redHatYaml';

export const CLIENT_ID = 'cloudConfigMerge';
const CLIENT_NAME = 'Cloud-Config Merge';

export class Server implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<LanguageClient> | undefined;
  private readonly didStartEmitter = new vscode.EventEmitter<void>();
  /** Fired each time the server has (re)started. */
  readonly onDidStart = this.didStartEmitter.event;
  private readonly instanceDataChangedEmitter = new vscode.EventEmitter<string>();
  /** The server saw an instance-data file change on disk (its path). */
  readonly onDidChangeInstanceData = this.instanceDataChangedEmitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly output: vscode.LogOutputChannel,
  ) {}

  get isRunning(): boolean {
    return this.client?.isRunning() ?? false;
  }

  /** The running client, starting the server on first use. */
  start(): Promise<LanguageClient> {
    this.starting ??= this.create().catch((e) => {
      this.starting = undefined;
      log(this.output, `The language server did not start: ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    });
    return this.starting;
  }

  async request<P, R>(type: RequestType<P, R>, params: P, token?: vscode.CancellationToken): Promise<R> {
    const client = await this.start();
    return client.sendRequest<R>(type.method, params, token);
  }

  /** A notification to the server, when it runs (none is started for it). */
  notify<P>(type: NotificationType<P>, params: P): void {
    if (this.client?.isRunning()) void this.client.sendNotification(type.method, params).catch(() => undefined);
  }

  async restart(): Promise<void> {
    const old = this.starting;
    this.starting = undefined;
    this.client = undefined;
    if (old) await (await old.catch(() => undefined))?.dispose();
    await this.start();
  }

  private async create(): Promise<LanguageClient> {
    const t0 = Date.now();
    // loaded on first use, not at activation: the client library is most of the bundle
    const lc = await import('vscode-languageclient/node');
    const module = this.context.asAbsolutePath('dist/server.js');
    const serverOptions: ServerOptions = {
      // A young generation of 8 MB: half V8's default keeps the server's peak memory on a 20,000-line file
      // under 150 MB; 4 MB did too, but a 100-part preview refresh then spent a quarter of its time in
      // garbage collection (docs/benchmarks.md).
      run: { module, transport: lc.TransportKind.ipc, options: { execArgv: ['--max-semi-space-size=8'] } },
      debug: { module, transport: lc.TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: DOCUMENT_SELECTOR,
      outputChannel: this.output,
      synchronize: { configurationSection: 'cloudConfigMerge' },
      // Custom merger modules are code: the server loads them only in a trusted workspace. A function,
      // so that a server restarted after trust was granted is told so.
      initializationOptions: () => ({ settings: ourSettings(), trusted: vscode.workspace.isTrusted }),
      middleware: {
        workspace: {
          // Our section carries the files Red Hat YAML validates with cloud-init's schema (see redHatYaml.ts).
          configuration: async (params, token, next) => {
            const answers = await next(params, token);
            if (!Array.isArray(answers)) return answers;
            return answers.map((a: unknown, i) => (params.items[i]?.section === 'cloudConfigMerge' ? explicitVersionOnly(withRedHatYamlFiles(a, filesValidatedByRedHatYaml(redHatYamlState())), params.items[i].scopeUri) : a));
          },
        },
      },
    };
    const client = new lc.LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
    // Before start: the server says which instance-data files are in use as soon as a document opens.
    this.context.subscriptions.push(forwardInstanceDataEdits(client));
    await client.start();
    this.context.subscriptions.push(
      client.onNotification(InstanceDataChangedNotification.method, (params: { file?: unknown }) => this.instanceDataChangedEmitter.fire(typeof params?.file === 'string' ? params.file : '')),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void client.sendNotification(WorkspaceTrustNotification.method, { trusted: true } satisfies NonNullable<typeof WorkspaceTrustNotification.types>['params'])),
      // Red Hat YAML installed, removed or reconfigured: the server asks for our settings again.
      vscode.extensions.onDidChange(() => void client.sendNotification(lc.DidChangeConfigurationNotification.type, { settings: null })),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('yaml')) void client.sendNotification(lc.DidChangeConfigurationNotification.type, { settings: null });
      }),
      // The client library restarts a server that died: previews and the status item then ask again,
      // so a request that failed while it was down does not stay failed.
      client.onDidChangeState((e) => {
        if (e.newState !== lc.State.Running || this.client !== client) return;
        log(this.output, 'Language server restarted');
        this.didStartEmitter.fire();
      }),
    );
    this.client = client;
    log(this.output, `Language server started in ${Date.now() - t0} ms`);
    this.didStartEmitter.fire();
    return client;
  }

  async dispose(): Promise<void> {
    this.didStartEmitter.dispose();
    this.instanceDataChangedEmitter.dispose();
    const client = this.client;
    this.client = undefined;
    this.starting = undefined;
    if (client) await client.dispose();
  }
}

function ourSettings(): unknown {
  return explicitVersionOnly(withRedHatYamlFiles(vscode.workspace.getConfiguration('cloudConfigMerge'), filesValidatedByRedHatYaml(redHatYamlState())));
}

/**
 * `cloudConfigMerge.cloudInitVersion` overrides the image's version only where the user set it: its default
 * is not sent, so `cloudConfigMerge.image` decides the version.
 */
function explicitVersionOnly(settings: unknown, scope?: string): unknown {
  if (!settings || typeof settings !== 'object') return settings;
  const seen = vscode.workspace.getConfiguration('cloudConfigMerge', scope ? vscode.Uri.parse(scope) : undefined).inspect('cloudInitVersion');
  const values = seen ? [seen.globalValue, seen.workspaceValue, seen.workspaceFolderValue, seen.globalLanguageValue, seen.workspaceLanguageValue, seen.workspaceFolderLanguageValue] : [];
  if (values.some((v) => v !== undefined)) return settings;
  const { cloudInitVersion: _default, ...rest } = settings as Record<string, unknown>;
  return rest;
}

export function log(output: vscode.LogOutputChannel, message: string): void {
  output.info(message);
}
