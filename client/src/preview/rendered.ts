/**
 * "Show Rendered Part": a read-only view of a `## template: jinja` document as cloud-init renders
 * it with the chosen instance data. The server renders (`cloudConfigMerge/renderedPart`); this
 * only shows its answer, refreshed (debounced) while the template is edited, when the settings
 * change and when the instance-data file changes on disk. The view's URI holds the template's URI, so it survives a reload; it ends in `.yaml`.
 *
 *   cloud-config-merge-rendered:/user-data (rendered).yaml?file%3A%2F%2F%2F…%2Fuser-data.yaml
 */
import * as vscode from 'vscode';
import { DocumentInfoRequest, RenderedPartRequest } from '../../../server/src/protocol';
import { documentKindOf, isCloudConfigDocument } from '../documents';
import { Server, log } from '../client';
import { stemName } from './uri';
import { RefreshDebouncer } from './debounce';

export const RENDERED_SCHEME = 'cloud-config-merge-rendered';
const REFRESH_DELAY_MS = 200;

export function renderedUri(source: vscode.Uri, part?: number): vscode.Uri {
  const name = `${stemName(source.toString())} (rendered${part === undefined ? '' : ` part ${part}`}).yaml`.replace(/[/\\]/g, '_');
  return vscode.Uri.from({ scheme: RENDERED_SCHEME, path: '/' + name, query: source.toString(), fragment: part === undefined ? '' : `part=${part}` });
}

function sourceOf(uri: vscode.Uri): string {
  return uri.query;
}

function partOf(uri: vscode.Uri): number | undefined {
  const match = /^part=(\d+)$/.exec(uri.fragment);
  return match ? Number(match[1]) : undefined;
}

class RenderedPartProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;
  private readonly refreshes = new RefreshDebouncer((uri) => this.changeEmitter.fire(uri), REFRESH_DELAY_MS);
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly server: Server) {
    this.disposables = [
      this.changeEmitter,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length) this.openViews().filter((u) => sourceOf(u) === e.document.uri.toString()).forEach((u) => this.refreshes.schedule(u));
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('cloudConfigMerge')) this.openViews().forEach((u) => this.refreshes.schedule(u));
      }),
      // the server watches the instance-data file and says when it changed on disk
      server.onDidChangeInstanceData(() => this.openViews().forEach((u) => this.refreshes.schedule(u))),
    ];
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    try {
      const result = await this.server.request(RenderedPartRequest, { uri: sourceOf(uri), part: partOf(uri) }, token);
      return result.text;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      log(this.server.output, `Rendering failed for ${sourceOf(uri)}: ${message}`);
      return `# Cloud-Config Merge: the part could not be rendered.\n# ${message.replace(/\n/g, '\n# ')}\n`;
    }
  }

  private openViews(): vscode.Uri[] {
    return vscode.workspace.textDocuments.filter((d) => d.uri.scheme === RENDERED_SCHEME && !d.isClosed).map((d) => d.uri);
  }


  dispose(): void {
    this.refreshes.dispose();
    this.disposables.forEach((d) => void d.dispose());
  }
}

/**
 * Opens the rendered view of a template (the active editor's by default) beside it; in a MIME
 * multipart, of the `text/jinja2` part under the cursor. Returns the view's URI.
 */
async function showRenderedPart(server: Server, resource?: unknown): Promise<vscode.Uri | undefined> {
  const editor = vscode.window.activeTextEditor;
  const source = resource instanceof vscode.Uri ? resource : editor?.document.uri;
  if (!source || source.scheme === RENDERED_SCHEME) {
    void vscode.window.showInformationMessage('Open a "## template: jinja" document to show it rendered.');
    return undefined;
  }
  let part: number | undefined;
  const template = vscode.workspace.textDocuments.find((d) => d.uri.toString() === source.toString());
  // A document that starts as a template renders whole; a multipart renders the template part under the cursor.
  if (template && isMultipart(template)) {
    // Which part: the server finds the one under the cursor (when an editor shows this document).
    const position = editor?.document === template ? editor.selection.active : undefined;
    const found = await server.request(RenderedPartRequest, { uri: source.toString(), position: position && { line: position.line, character: position.character } });
    part = found.part;
  }
  const uri = renderedUri(source, part);
  const view = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(view, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  return uri;
}

/** MIME user-data with a template part in it (cloud-init finds the real parts; this only shows a button). */
function isMultipart(document: vscode.TextDocument): boolean {
  return documentKindOf(document)?.kind === 'mime' && /text\/jinja2|^##\s*template:\s*jinja/im.test(document.getText());
}

/**
 * `cloudConfigMerge.isJinjaTemplate`: the active editor is a template or a multipart with one (the
 * title-bar button shows). Whether a document is a template the server decides, as cloud-init does; a
 * multipart only needs a template part somewhere (the server renders the one under the cursor). Only
 * documents the server is started for are asked about.
 */
function contextUpdater(server: Server): () => void {
  let generation = 0;
  const set = (value: boolean) => void vscode.commands.executeCommand('setContext', 'cloudConfigMerge.isJinjaTemplate', value);
  return () => {
    const current = ++generation;
    const document = vscode.window.activeTextEditor?.document;
    if (!document || !isCloudConfigDocument(document)) return set(false);
    server.request(DocumentInfoRequest, { uri: document.uri.toString() }).then(
      (info) => current === generation && set(info.template === true || isMultipart(document)),
      () => current === generation && set(false),
    );
  };
}

export function registerRenderedPart(server: Server): vscode.Disposable {
  const provider = new RenderedPartProvider(server);
  const updateContext = contextUpdater(server);
  updateContext();
  return vscode.Disposable.from(
    provider,
    vscode.window.onDidChangeActiveTextEditor(updateContext),
    vscode.workspace.onDidSaveTextDocument(updateContext),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === vscode.window.activeTextEditor?.document && e.contentChanges.some((c) => c.range.start.line === 0)) updateContext();
    }),
    vscode.workspace.registerTextDocumentContentProvider(RENDERED_SCHEME, provider),
    vscode.commands.registerCommand('cloudConfigMerge.showRenderedPart', (resource?: unknown) => showRenderedPart(server, resource)),
  );
}
