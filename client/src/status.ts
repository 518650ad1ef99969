/**
 * The language status item of a cloud-init document: what kind of part the
 * server says it is and its effective merge spec. Clicking it opens the output.
 * Also keeps the `cloudConfigMerge.isCloudConfig` context key (editor title
 * button) in step with the active editor: set when the server says cloud-init
 * merges the document (not a seed's meta-data nor a network-config).
 */
import * as vscode from 'vscode';
import { DocumentInfoRequest } from '../../server/src/protocol';
import { Server } from './client';
import { DOCUMENT_SELECTOR, isCloudConfigDocument } from './documents';

const UPDATE_DELAY_MS = 300;

export class StatusItem implements vscode.Disposable {
  private item: vscode.LanguageStatusItem | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;
  /** The document whose preview button is set (the server's answer for it stays while it is edited). */
  private documentShown: string | undefined;

  constructor(private readonly server: Server) {
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document) this.schedule();
      }),
      server.onDidStart(() => this.schedule()),
      // The server has the document once it publishes its diagnostics: asked before, it may not have known it.
      vscode.languages.onDidChangeDiagnostics((e) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active && e.uris.some((u) => u.toString() === active)) this.schedule();
      }),
    );
    this.update();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.update(), UPDATE_DELAY_MS);
  }

  private update(): void {
    const doc = vscode.window.activeTextEditor?.document;
    const isCloudConfig = !!doc && isCloudConfigDocument(doc);
    // Another document: its preview button waits for the server's word that it is merged.
    const generation = ++this.generation;
    if (doc?.uri.toString() !== this.documentShown) setMerged(false);
    this.documentShown = doc?.uri.toString();
    if (!doc || !isCloudConfig) {
      this.item?.dispose();
      this.item = undefined;
      return;
    }
    if (!this.item) {
      this.item = vscode.languages.createLanguageStatusItem('cloudConfigMerge.status', DOCUMENT_SELECTOR);
      this.item.name = 'Cloud-Config Merge';
      this.item.command = { title: 'Show Output', command: 'cloudConfigMerge.showOutput' };
    }
    const item = this.item;
    if (!this.server.isRunning) {
      item.text = 'cloud-config';
      item.detail = 'starting the language server…';
      item.busy = true;
      return;
    }
    this.server.request(DocumentInfoRequest, { uri: doc.uri.toString() }).then(
      (info) => {
        if (generation !== this.generation || this.item !== item) return;
        setMerged(info.merged);
        item.busy = false;
        item.text = info.kind ?? 'not cloud-init input';
        item.detail = info.spec ? `merge: ${info.spec}` : undefined;
        // Sentences of their own: each loses a final period before they are joined, so none ends in "..".
        item.accessibilityInformation = { label: accessibleLabel([info.kind, info.spec ? `merge: ${info.spec}` : null, ...info.summary]) };
        item.severity = vscode.LanguageStatusSeverity.Information;
      },
      (e: unknown) => {
        if (generation !== this.generation || this.item !== item) return;
        item.busy = false;
        item.text = 'cloud-config';
        item.detail = `no information: ${e instanceof Error ? e.message : String(e)}`;
        item.severity = vscode.LanguageStatusSeverity.Warning;
      },
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.item?.dispose();
    this.disposables.forEach((d) => void d.dispose());
  }
}

/** The editor title's preview button shows where this is true. */
function setMerged(merged: boolean): void {
  void vscode.commands.executeCommand('setContext', 'cloudConfigMerge.isCloudConfig', merged);
}

/** `cloud-config. merge: list(append)+…. mappings: …` without doubled periods. */
export function accessibleLabel(pieces: Array<string | null | undefined>): string {
  return pieces
    .map((p) => (p ?? '').trim().replace(/\.+$/, ''))
    .filter(Boolean)
    .join('. ') + '.';
}
