/**
 * Where each line of a preview came from, from the server's `lines` data:
 * a hover (the file and line that supplied the value, and what it replaced or
 * what lost to it), Go to Definition (jumps to that line), and document links
 * on the header's part list (opens each part's file).
 */
import * as vscode from 'vscode';
import type { PreviewLineInfo, PreviewLocation, PreviewResult } from '../../../server/src/protocol';
import { PreviewProvider } from './provider';
import { PREVIEW_SCHEME, baseName, fromPreviewUri } from './uri';

const SELECTOR: vscode.DocumentSelector = { scheme: PREVIEW_SCHEME };

export function registerProvenance(previews: PreviewProvider): vscode.Disposable {
  const lineInfo = (doc: vscode.TextDocument, line: number): PreviewLineInfo | undefined =>
    previews.resultFor(doc.uri)?.lines.find((l) => l.line === line);

  const hover: vscode.HoverProvider = {
    provideHover(doc, position) {
      const info = lineInfo(doc, position.line);
      if (!info) return undefined;
      return new vscode.Hover(describeLine(info), keyRange(doc, info.line));
    },
  };

  const definition: vscode.DefinitionProvider = {
    provideDefinition(doc, position) {
      const info = lineInfo(doc, position.line);
      if (!info?.source) return undefined;
      const target = toRange(info.source);
      const link: vscode.LocationLink = {
        originSelectionRange: keyRange(doc, info.line),
        targetUri: vscode.Uri.parse(info.source.uri),
        targetRange: target,
        targetSelectionRange: target,
      };
      return [link];
    },
  };

  const links: vscode.DocumentLinkProvider = {
    provideDocumentLinks(doc) {
      const result = previews.resultFor(doc.uri);
      return result ? partLinks(doc, result) : [];
    },
  };

  return vscode.Disposable.from(
    vscode.languages.registerHoverProvider(SELECTOR, hover),
    vscode.languages.registerDefinitionProvider(SELECTOR, definition),
    vscode.languages.registerDocumentLinkProvider(SELECTOR, links),
  );
}

/** The markdown a hover shows for one preview line. */
export function describeLine(info: PreviewLineInfo): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
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
    if (h.what === 'overrode') line = `**Replaced** ${from ? `the value from ${from}` : 'an earlier value'}${at ? ` with the one at ${at}` : ''}`;
    else if (h.what === 'deleted') line = `**Deleted** ${from ? `the value from ${from}` : 'an earlier value'}${at ? ` (by ${at})` : ''}`;
    else line = `**Lost:** ${at ? `the value at ${at}` : 'a later value'}${from ? ` lost to the one from ${from}` : ' was dropped'}`;
    md.appendMarkdown(`- ${line}: ${escapeText(h.reason)}\n`);
  }
  return md;
}

function locationLink(loc: PreviewLocation): string {
  const uri = vscode.Uri.parse(loc.uri);
  const label = `${baseName(loc.uri)}:${loc.line + 1}`;
  const target = uri.with({ fragment: `L${loc.line + 1},${loc.character + 1}` });
  return `[${escapeText(label)}](${target.toString()})`;
}

function toRange(loc: PreviewLocation): vscode.Range {
  return new vscode.Range(loc.line, loc.character, loc.endLine, loc.endCharacter);
}

/** The key (or list dash) at the start of a preview line: what Ctrl+hover underlines. */
function keyRange(doc: vscode.TextDocument, line: number): vscode.Range {
  if (line >= doc.lineCount) return new vscode.Range(line, 0, line, 0);
  const text = doc.lineAt(line).text;
  const start = text.length - text.trimStart().length;
  const m = /^(?:- )*(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:#]*?)(?=:(?:\s|$))/.exec(text.slice(start));
  const end = m && m[0].length ? start + m[0].length : text.length;
  return new vscode.Range(line, start, line, Math.max(end, start));
}

/** Links from the header's "N. part from FILE: …" lines to the files. */
function partLinks(doc: vscode.TextDocument, result: PreviewResult): vscode.DocumentLink[] {
  let files: Array<{ uri: vscode.Uri; names: string[] }>;
  try {
    files = fromPreviewUri(doc.uri).files.map((f) => ({ uri: vscode.Uri.parse(f), names: candidateNames(f) }));
  } catch {
    return [];
  }
  const out: vscode.DocumentLink[] = [];
  // the header is what precedes the body (the part equal to the CLI's output)
  const header = result.text.endsWith(result.body) ? result.text.slice(0, result.text.length - result.body.length) : result.text;
  const headerLines = Math.min(doc.lineCount, header.split('\n').length - 1);
  for (let line = 0; line < headerLines; line++) {
    const text = doc.lineAt(line).text;
    const m = /^#\s+(\d+)\. .*? from (.+?): (?:merged|DROPPED|not merged)/.exec(text);
    if (!m) continue;
    const name = m[2];
    const part = result.parts[Number(m[1]) - 1];
    // the server names parts by URI; a name shown in the text is matched against the preview's files
    const target = (part && /^[a-z][\w+.-]+:/.test(part.file) ? vscode.Uri.parse(part.file) : undefined) ?? files.find((f) => f.names.includes(name))?.uri;
    if (!target) continue;
    const start = m.index + m[0].indexOf(` from ${name}:`) + ' from '.length;
    const link = new vscode.DocumentLink(new vscode.Range(line, start, line, start + name.length), target);
    link.tooltip = `Open ${name}`;
    out.push(link);
  }
  return out;
}

/** The ways a file may be named in the header: relative path, absolute path, base name. */
function candidateNames(uri: string): string[] {
  const u = vscode.Uri.parse(uri);
  const names = [uri, u.fsPath, u.path, baseName(uri), vscode.workspace.asRelativePath(u, false), vscode.workspace.asRelativePath(u, true)];
  return [...new Set(names)];
}

function escapeText(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+!|<>]/g, '\\$&');
}

function escapeCode(s: string): string {
  return s.replace(/`/g, "'");
}
