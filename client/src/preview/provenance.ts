/**
 * Where each line of a preview came from, from the server's `lines` data:
 * a hover (the file and line that supplied the value, and what it replaced or
 * what lost to it); Go to Definition on every data line (Ctrl/Cmd+click, F12,
 * Peek) to the place that supplied it; and document links on the header's
 * part list (each part's file) and on every `file:line` of the header. Like
 * the Markdown preview's, navigation opens the source in the other column, so
 * the preview stays visible beside the editor. Data lines are not links: a
 * link is underlined at rest, and every key of the preview would be. Folding:
 * the header's sections and the data's keys and items (`previewFolds`).
 */
import * as vscode from 'vscode';
import type { PreviewLineInfo, PreviewLocation, PreviewResult } from '../../../server/src/protocol';
import { PreviewProvider, sameUri } from './provider';
import { PREVIEW_SCHEME, baseName, isPreviewUri } from './uri';
import { stepDone } from '../walkthrough';
import { previewFolds } from './folding';

const SELECTOR: vscode.DocumentSelector = { scheme: PREVIEW_SCHEME };

export const OPEN_SOURCE_COMMAND = 'cloudConfigMerge.openSource';

export function registerProvenance(previews: PreviewProvider): vscode.Disposable {
  const lineInfo = (doc: vscode.TextDocument, line: number): PreviewLineInfo | undefined =>
    previews.linesFor(doc.uri).find((l) => l.line === line);

  const hover: vscode.HoverProvider = {
    provideHover(doc, position) {
      const info = lineInfo(doc, position.line);
      if (!info) return undefined;
      return new vscode.Hover(describeLine(info), keyRange(doc, info.line));
    },
  };

  const links: vscode.DocumentLinkProvider = {
    provideDocumentLinks(doc) {
      const result = previews.resultFor(doc.uri);
      return result ? headerLinks(doc, result) : [];
    },
  };

  const beside = new KeepPreviewBeside();
  const definitions: vscode.DefinitionProvider = {
    provideDefinition(doc, position) {
      const info = lineInfo(doc, position.line);
      if (!info?.source || info.line >= doc.lineCount) return undefined;
      const origin = contentRange(doc, info.line);
      if (origin.isEmpty || !origin.contains(position)) return undefined;
      beside.expect(doc.uri, info.source);
      const s = info.source;
      return [{ originSelectionRange: origin, targetUri: vscode.Uri.parse(s.uri), targetRange: new vscode.Range(s.line, s.character, s.endLine, s.endCharacter) }];
    },
  };

  const folding: vscode.FoldingRangeProvider = {
    provideFoldingRanges(doc) {
      const result = previews.resultFor(doc.uri);
      // No answer (the preview could not be made): the editor folds by indentation.
      if (!result) return undefined;
      return previewFolds(result, doc.lineCount).map((f) => new vscode.FoldingRange(f.start, f.end, f.section ? vscode.FoldingRangeKind.Region : undefined));
    },
  };

  return vscode.Disposable.from(
    vscode.languages.registerHoverProvider(SELECTOR, hover),
    vscode.languages.registerFoldingRangeProvider(SELECTOR, folding),
    vscode.languages.registerDocumentLinkProvider(SELECTOR, links),
    vscode.languages.registerDefinitionProvider(SELECTOR, definitions),
    beside,
    vscode.commands.registerCommand(OPEN_SOURCE_COMMAND, openSource),
  );
}

/** A `command:` URI that opens a place in a source beside the preview. */
export function openSourceUri(loc: { uri: string; line?: number; character?: number; endLine?: number; endCharacter?: number }): vscode.Uri {
  return vscode.Uri.parse(`command:${OPEN_SOURCE_COMMAND}?${encodeURIComponent(JSON.stringify([loc]))}`);
}

/**
 * Opens a source at a place in the column beside the preview: the group that already shows it, else
 * the first group that is not the preview's, else a new one beside it. Never the preview's own group.
 */
export async function openSource(loc: { uri: string; line?: number; character?: number; endLine?: number; endCharacter?: number }, previewColumn = activePreviewColumn()): Promise<vscode.TextEditor | undefined> {
  if (!loc || typeof loc.uri !== 'string') return undefined;
  const uri = vscode.Uri.parse(loc.uri);
  const showing = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString() && e.viewColumn !== previewColumn);
  const other = vscode.window.tabGroups.all.find((g) => g.viewColumn !== previewColumn);
  const viewColumn = showing?.viewColumn ?? other?.viewColumn ?? vscode.ViewColumn.Beside;
  const line = Number.isInteger(loc.line) ? (loc.line as number) : 0;
  const character = Number.isInteger(loc.character) ? (loc.character as number) : 0;
  const start = new vscode.Position(line, character);
  const end = Number.isInteger(loc.endLine) ? new vscode.Position(loc.endLine as number, Number.isInteger(loc.endCharacter) ? (loc.endCharacter as number) : 0) : start;
  const editor = await vscode.window.showTextDocument(uri, { viewColumn, selection: new vscode.Range(start, end), preview: false });
  stepDone('navigated');
  return editor;
}

function activePreviewColumn(): vscode.ViewColumn | undefined {
  const active = vscode.window.activeTextEditor;
  return active && isPreviewUri(active.document.uri) ? active.viewColumn : vscode.window.tabGroups.activeTabGroup.viewColumn;
}

/**
 * Go to Definition opens its target in the active group, which is the preview's (VS Code has no option
 * for another). When a source the preview's definitions named turns up there, it is shown in the other
 * column instead and the preview comes back to the front of its group.
 */
class KeepPreviewBeside implements vscode.Disposable {
  /** Definitions are asked for on Ctrl+hover and on the jump itself; one asked long ago is not a jump. */
  private static readonly JUMP_WINDOW_MS = 15_000;
  private expected: { preview: vscode.Uri; target: PreviewLocation; column: vscode.ViewColumn; targetWasInGroup: boolean; at: number } | undefined;
  private readonly watch = vscode.window.onDidChangeActiveTextEditor((editor) => void this.landed(editor));

  expect(preview: vscode.Uri, target: PreviewLocation): void {
    const column = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === preview.toString())?.viewColumn;
    if (!column) return;
    this.expected = { preview, target, column, targetWasInGroup: !!tabOf(column, target.uri), at: Date.now() };
  }

  private async landed(editor: vscode.TextEditor | undefined): Promise<void> {
    const jump = this.expected;
    if (!editor || !jump || editor.document.uri.scheme === PREVIEW_SCHEME) return;
    this.expected = undefined;
    if (Date.now() - jump.at > KeepPreviewBeside.JUMP_WINDOW_MS || editor.viewColumn !== jump.column || !sameUri(editor.document.uri.toString(), jump.target.uri)) return;
    await openSource(jump.target, jump.column);
    // The tab the jump opened (the tab model may lag the editor event by a moment).
    const landedTab = jump.targetWasInGroup ? undefined : tabOf(jump.column, jump.target.uri);
    if (landedTab) await vscode.window.tabGroups.close(landedTab, true);
    else await vscode.window.showTextDocument(jump.preview, { viewColumn: jump.column, preserveFocus: true, preview: false });
  }

  dispose(): void {
    this.watch.dispose();
  }
}

/** The text tab of `uri` in the group of `column`. */
function tabOf(column: vscode.ViewColumn, uri: string): vscode.Tab | undefined {
  const group = vscode.window.tabGroups.all.find((g) => g.viewColumn === column);
  return group?.tabs.find((t) => t.input instanceof vscode.TabInputText && sameUri(t.input.uri.toString(), uri));
}

/** Links on the header's part files and `file:line` places, where the server says they are. */
function headerLinks(doc: vscode.TextDocument, result: PreviewResult): vscode.DocumentLink[] {
  return (result.headerLinks ?? [])
    .filter((l) => l.line < doc.lineCount)
    .map((l) => {
      const link = new vscode.DocumentLink(new vscode.Range(l.line, l.character, l.line, l.endCharacter), openSourceUri(l.target));
      link.tooltip = `Open ${doc.lineAt(l.line).text.slice(l.character, l.endCharacter)} beside the preview`;
      return link;
    });
}

/** The markdown a hover shows for one preview line. */
export function describeLine(info: PreviewLineInfo): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  // Its links run one command: open the place beside the preview.
  md.isTrusted = { enabledCommands: [OPEN_SOURCE_COMMAND] };
  md.appendMarkdown(`\`${escapeCode(info.path || '(top level)')}\``);
  if (info.source) {
    md.appendMarkdown(` comes from ${locationLink(info.source)}`);
    if (info.source.note) md.appendMarkdown(` (${escapeText(info.source.note)})`);
  } else {
    md.appendMarkdown(' has no single source line');
  }
  md.appendMarkdown('\n\n');
  for (const h of info.history) {
    const from = h.from ? locationLink(h.from) : undefined;
    const at = h.at ? locationLink(h.at) : undefined;
    let line: string;
    if (h.what === 'replaced') line = `**Replaced** ${from ? `the value from ${from}` : 'an earlier value'}${at ? ` with the one at ${at}` : ''}`;
    else if (h.what === 'deleted') line = `**Deleted** ${from ? `the value from ${from}` : 'an earlier value'}${at ? ` (by ${at})` : ''}`;
    else line = `**Lost:** ${at ? `the value at ${at}` : 'a later value'}${from ? ` lost to the one from ${from}` : ' was dropped'}`;
    md.appendMarkdown(`- ${line}: ${escapeText(h.reason)}\n`);
  }
  return md;
}

function locationLink(loc: PreviewLocation): string {
  const label = `${baseName(loc.uri)}:${loc.line + 1}`;
  return `[${escapeText(label)}](${openSourceUri(loc).toString()} "Open ${escapeText(label)} beside the preview")`;
}

/** A preview line without its indentation: what Ctrl+hover underlines. */
function contentRange(doc: vscode.TextDocument, line: number): vscode.Range {
  const text = doc.lineAt(line).text;
  return new vscode.Range(line, text.length - text.trimStart().length, line, text.trimEnd().length);
}

/** The key (or list dash) at the start of a preview line: the range a hover is shown for. */
function keyRange(doc: vscode.TextDocument, line: number): vscode.Range {
  if (line >= doc.lineCount) return new vscode.Range(line, 0, line, 0);
  const text = doc.lineAt(line).text;
  const start = text.length - text.trimStart().length;
  const m = /^(?:- )*(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:#]*?)(?=:(?:\s|$))/.exec(text.slice(start));
  const end = m && m[0].length ? start + m[0].length : text.length;
  return new vscode.Range(line, start, line, Math.max(end, start));
}

function escapeText(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+!|<>]/g, '\\$&');
}

function escapeCode(s: string): string {
  return s.replace(/`/g, "'");
}
