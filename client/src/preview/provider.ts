/**
 * The read-only preview documents. Their text is whatever the language server
 * answers to `cloudConfigMerge/preview` for the files in the URI; the client
 * never merges. A preview is refreshed (debounced) when any of its sources is
 * edited, saved, created, deleted or renamed, and when the settings change.
 */
import * as vscode from 'vscode';
import { PreviewSetNotification, PreviewUpdateRequest, previewBody, previewLines, type PreviewLineInfo, type PreviewParams, type PreviewResult } from '../../../server/src/protocol';
import { applyPreviewDelta } from '../../../server/src/previewDelta';
import { Server, log } from '../client';
import { PREVIEW_SCHEME, type PreviewState, fromPreviewUri, headerWidthSetting, sourcesOf, toParams } from './uri';
import { RefreshDebouncer } from './debounce';

const REFRESH_DELAY_MS = 200;

/**
 * A deliberately broken client, for proving the end-to-end suites go red:
 * with this variable set the preview's last line is dropped.
 */
const BREAK_PREVIEW = process.env.CLOUD_CONFIG_MERGE_E2E_BREAK_PREVIEW === '1';

export class PreviewProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;
  private readonly resultEmitter = new vscode.EventEmitter<vscode.Uri>();
  /** Fired when a preview's text (and so its provenance data) has been recomputed. */
  readonly onDidUpdate = this.resultEmitter.event;

  private readonly results = new Map<string, ShownPreview>();
  /** The server's last answer for each preview, as it sent it (before a data-only view cut it), and its version. */
  private readonly held = new Map<string, { version: number; result: PreviewResult }>();
  /** The data lines of each preview, expanded from the answer's compact map on first use (a hover, a jump). */
  private readonly lines = new Map<string, PreviewLineInfo[]>();
  private readonly refreshes = new RefreshDebouncer((uri) => this.refresh(uri), REFRESH_DELAY_MS);
  /** Open previews told to refresh whose text VS Code has not asked for yet. */
  private readonly refreshing = new Set<string>();
  /** Preview requests sent, and those not answered yet. */
  private requestsSent = 0;
  private inFlight = 0;
  private readonly disposables: vscode.Disposable[] = [];
  private watcher: vscode.FileSystemWatcher | undefined;
  /** The previews the server was told are open (each is a set: its files show their fates), by URI. */
  private readonly registered = new Set<string>();

  constructor(private readonly server: Server) {
    this.disposables.push(
      this.changeEmitter,
      this.resultEmitter,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length) this.sourceChanged(e.document.uri);
      }),
      vscode.workspace.onDidSaveTextDocument((d) => this.sourceChanged(d.uri, true)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.uri.scheme === PREVIEW_SCHEME) this.forget(d.uri);
        // an unsaved editor that is closed stops overriding the file on disk
        else this.sourceChanged(d.uri);
      }),
      vscode.workspace.onDidCreateFiles((e) => e.files.forEach((f) => this.sourceChanged(f, true))),
      vscode.workspace.onDidDeleteFiles((e) => e.files.forEach((f) => this.sourceChanged(f, true))),
      vscode.workspace.onDidRenameFiles((e) => e.files.forEach((f) => (this.sourceChanged(f.oldUri, true), this.sourceChanged(f.newUri, true)))),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('cloudConfigMerge')) this.openPreviews().forEach((u) => this.schedule(u));
      }),
      server.onDidStart(() => {
        // A new server knows no preview yet.
        this.registered.clear();
        this.held.clear();
        this.syncSets();
        this.openPreviews().forEach((u) => this.schedule(u));
      }),
      vscode.window.tabGroups.onDidChangeTabs(() => this.syncSets()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.syncSets()),
    );
    this.syncSets();
  }

  /** The server's last answer for a preview, for hovers and links. */
  resultFor(uri: vscode.Uri): ShownPreview | undefined {
    return this.results.get(uri.toString());
  }

  /** Where each data line of a preview came from. */
  linesFor(uri: vscode.Uri): PreviewLineInfo[] {
    const key = uri.toString();
    const result = this.results.get(key);
    if (!result) return [];
    let lines = this.lines.get(key);
    if (!lines) {
      lines = shiftLines(previewLines(result.lineMap), result.lineShift ?? 0);
      this.lines.set(key, lines);
    }
    return lines;
  }

  /**
   * What the previews are doing, for tests that wait on it rather than on the clock: how many preview
   * requests were sent, and whether a refresh is scheduled, asked for or waiting for its answer.
   */
  activity(): PreviewActivity {
    return { requestsSent: this.requestsSent, busy: this.inFlight > 0 || this.refreshing.size > 0 || this.refreshes.pending > 0 };
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    this.refreshing.delete(uri.toString());
    this.ensureWatcher();
    let state;
    try {
      state = fromPreviewUri(uri);
    } catch (e) {
      return `# Cloud-Config Merge: this preview address cannot be read (${message(e)}).\n`;
    }
    try {
      this.requestsSent++;
      this.inFlight++;
      let result: ShownPreview;
      try {
        result = await this.requestPreview(uri.toString(), { ...toParams(state), headerWidth: headerWidthSetting(state) }, token);
      } finally {
        this.inFlight--;
      }
      if (state.view === 'data') result = dataOnly(result);
      let text = result.text;
      if (BREAK_PREVIEW) text = text.replace(/[^\n]*\n?$/, '');
      this.results.set(uri.toString(), { ...result, text });
      this.lines.delete(uri.toString());
      this.resultEmitter.fire(uri);
      return text;
    } catch (e) {
      if (token.isCancellationRequested) return this.results.get(uri.toString())?.text ?? '';
      log(this.server.output, `Preview failed for ${uri.toString()}: ${message(e)}`);
      this.results.delete(uri.toString());
      this.held.delete(uri.toString());
      this.lines.delete(uri.toString());
      return `# Cloud-Config Merge: the preview could not be made.\n# ${message(e).replace(/\n/g, '\n# ')}\n# Details are in the "Cloud-Config Merge" output.\n`;
    }
  }

  /**
   * The server's answer for a preview: what changed since the answer held for it (applied here), or the
   * whole answer on open, after a restart, or when the held one is not the one the changes were made for.
   */
  private async requestPreview(id: string, params: PreviewParams, token: vscode.CancellationToken): Promise<PreviewResult> {
    const held = this.held.get(id);
    let answer = await this.server.request(PreviewUpdateRequest, { ...params, id, ...(held ? { base: held.version } : {}) }, token);
    let result: PreviewResult;
    const now = this.held.get(id);
    if ('delta' in answer) {
      if (now && now.version === answer.base) result = applyPreviewDelta(now.result, answer.delta);
      else {
        // Another answer came in meanwhile: ask for the whole preview.
        answer = await this.server.request(PreviewUpdateRequest, { ...params, id }, token);
        if ('delta' in answer) throw new Error('the server answered a request for the whole preview with changes');
        result = answer.result;
      }
    } else result = answer.result;
    this.held.set(id, { version: answer.version, result });
    return result;
  }

  /** Recompute a preview now (as the refresh timers do). */
  refresh(uri: vscode.Uri): void {
    // VS Code asks again for the text of an open document only.
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) this.refreshing.add(uri.toString());
    this.changeEmitter.fire(uri);
  }

  /**
   * Tells the server which plain previews are open, so that each file shows exactly the fates of the
   * sets open now. Open means shown in a tab: VS Code keeps a preview's document (and sends no close)
   * for minutes after its tab closed, and refreshes it on edits meanwhile, so a document-based
   * registration kept the old order's set beside the new one after Change Merge Order.
   */
  private syncSets(): void {
    // Nothing reaches a server that is not running; its start registers them all.
    if (!this.server.isRunning) return;
    const shown = new Map<string, PreviewState>();
    for (const uri of shownPreviews()) {
      try {
        const state = fromPreviewUri(uri);
        if (isSetPreview(state)) shown.set(uri.toString(), state);
      } catch {
        // not an address we made: no set
      }
    }
    for (const id of [...this.registered]) {
      if (shown.has(id)) continue;
      this.registered.delete(id);
      this.server.notify(PreviewSetNotification, { id, preview: null });
    }
    for (const [id, state] of shown) {
      if (this.registered.has(id)) continue;
      this.registered.add(id);
      this.server.notify(PreviewSetNotification, { id, preview: { mode: state.mode, files: state.files, boot: state.boot } });
    }
  }

  private openPreviews(): vscode.Uri[] {
    return vscode.workspace.textDocuments.filter((d) => d.uri.scheme === PREVIEW_SCHEME && !d.isClosed).map((d) => d.uri);
  }

  /**
   * A file changed. Previews that read it refresh: the files they name and
   * the `#include` targets the server read for them. Saves, creations and
   * deletions refresh every preview (a new file can be an include target
   * that was missing).
   */
  private sourceChanged(source: vscode.Uri, anyPreview = false): void {
    if (source.scheme === PREVIEW_SCHEME || source.scheme === 'output') return;
    const key = source.toString();
    for (const uri of this.openPreviews()) {
      if (anyPreview) {
        this.schedule(uri);
        continue;
      }
      try {
        // The files the preview names, and those the server read for it (`#include` targets).
        const read = this.results.get(uri.toString())?.sources ?? [];
        if ([...sourcesOf(fromPreviewUri(uri)), ...read].some((f) => sameUri(f, key))) this.schedule(uri);
      } catch {
        // not ours to refresh
      }
    }
  }

  private schedule(uri: vscode.Uri): void {
    this.refreshes.schedule(uri);
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.refreshes.cancel(uri);
    this.refreshing.delete(key);
    this.results.delete(key);
    this.held.delete(key);
    this.lines.delete(key);
    if (!this.openPreviews().length) {
      this.watcher?.dispose();
      this.watcher = undefined;
    }
  }

  /** Changes made outside VS Code (git checkout, another editor) while a preview is open. */
  private ensureWatcher(): void {
    if (this.watcher) return;
    this.watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.watcher.onDidCreate((u) => this.sourceChanged(u, true));
    this.watcher.onDidDelete((u) => this.sourceChanged(u, true));
    this.watcher.onDidChange((u) => {
      // an open editor already reports its own changes
      if (!vscode.workspace.textDocuments.some((d) => d.uri.toString() === u.toString())) this.sourceChanged(u);
    });
  }

  dispose(): void {
    this.refreshes.dispose();
    this.watcher?.dispose();
    this.disposables.forEach((d) => void d.dispose());
  }
}

export interface PreviewActivity {
  requestsSent: number;
  busy: boolean;
}

/** A plain preview's files are a set (not a comparison's sides, a data-only view or Terraform's or a blob's one file). */
function isSetPreview(state: PreviewState): boolean {
  return !state.exclude && !state.source && state.view !== 'data';
}

/** The previews shown in a tab, on either side of a diff too. */
function shownPreviews(): vscode.Uri[] {
  const out: vscode.Uri[] = [];
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    const input = tab.input;
    if (input instanceof vscode.TabInputText) out.push(input.uri);
    else if (input instanceof vscode.TabInputTextDiff) out.push(input.original, input.modified);
  }
  return out.filter((u) => u.scheme === PREVIEW_SCHEME);
}

/** The line every data-only view starts with: the same on both sides of a comparison. */
export const DATA_ONLY_TITLE = "# Merged data only (the preview's header and cloud-init's part comments are left out)";

/** A preview as the client shows it: a data-only view's lines are `lineShift` lines above the server's. */
export interface ShownPreview extends PreviewResult {
  lineShift?: number;
}

/** Data lines `shift` lines up; those that would leave the view (above its title line) are dropped. */
function shiftLines(lines: PreviewLineInfo[], shift: number): PreviewLineInfo[] {
  return shift ? lines.filter((l) => l.line - shift >= 1).map((l) => ({ ...l, line: l.line - shift })) : lines;
}

/**
 * A preview reduced to its merged data, for comparisons: the document from its `---` line on, under one
 * fixed title line; provenance lines are renumbered to match (`lineShift`), so hovers and links still work.
 */
export function dataOnly(result: PreviewResult): ShownPreview {
  const body = previewBody(result);
  const headerLines = result.text.slice(0, result.bodyStart).split('\n').length - 1;
  const bodyLines = body.split('\n');
  const start = bodyLines.findIndex((l) => l === '---' || l.startsWith('--- '));
  if (!body || start < 0) {
    const why = result.failure ? `nothing merged: ${result.failure}` : 'nothing merged';
    return { ...result, text: `${DATA_ONLY_TITLE}\n# (${why.replace(/[\r\n]+/g, ' ')})\n`, lineMap: { files: [], rows: [], paths: [], history: [] }, headerLinks: [], headerSections: [], dataFolds: [] };
  }
  const data = bodyLines.slice(start).join('\n');
  const shift = headerLines + start - 1;
  return { ...result, text: `${DATA_ONLY_TITLE}\n${data}`, headerLinks: [], lineShift: shift };
}

export function sameUri(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return vscode.Uri.parse(a).toString() === vscode.Uri.parse(b).toString();
  } catch {
    return false;
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
