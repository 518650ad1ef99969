/**
 * Completion inside merge specs: merger names; inside `name(` … `)` only
 * the options that merger reads and that are not given yet; `name:` and
 * `settings:` values of the list form; whole-spec recipes; and the
 * `merge_how` key itself at the top level. Contexts are read from the
 * text around the cursor, because the YAML is often invalid mid-typing.
 */
import { CompletionItem, CompletionItemKind, CompletionItemTag, CompletionParams, InsertTextFormat, Range, TextEdit } from 'vscode-languageserver';
import { MERGERS, MERGER_NAMES, MERGE_HOW_KEY_DOC, MergerName, OptionName, RECIPES, optionsReadBy } from '../engine/spec/catalogue';
import { ServerContext } from './common/context';
import { DocumentState } from './common/analysisCache';
import { guardRequest } from './common/guard';
import { markup, mergerMarkdown, optionMarkdown } from './common/docs';
import { mergerOf, normalizeWord, scanStringSpec } from './common/specText';
import { pyStrip } from '../engine/py/str';
import { documentSchema, isSystemKind, schemaKeyMarkdown, systemKeyMarkdown, systemOnlyKeys } from './common/schemaDocs';
import type { SchemaVersion } from '../engine/schema/data';
import { notReadOnImage, planKeyMarkdown } from './common/planDocs';
import { planTargetOf } from './common/planTarget';
import { describeTypes, enumValues, keysOf, schemaAt, type NavSegment } from '../engine/schema/navigate';
import { siblingKeys, textCursorAt } from '../engine/schema/textPath';
import { metaDataCompletion } from './metaDataDocs';
import { autoinstallCompletion } from './common/autoinstallDocs';
import { loadYaml } from '../engine/yaml/load';
import { PyDict } from '../engine/py/values';
import { jinjaCompletionItems } from './jinjaCompletion';
import { instanceDataFor } from './common/instanceData';

/** Where a spec starts or goes on: `merge_how: "` and `'` open a quoted spec, `(` a merger's options. */
export const TRIGGER_CHARACTERS = ['(', ',', '+', '[', '"', "'"];

/** Whole-spec recipes offered where a spec starts. */

/** Where the cursor is, in spec terms. */
export type SpecCursor =
  | { kind: 'merger-name'; range: Range; present: Set<MergerName>; recipes: boolean; valueRange: Range; needsParens: boolean }
  | { kind: 'option'; range: Range; merger: MergerName; given: Set<string> }
  | { kind: 'top-level-key'; range: Range };

export function registerCompletion(ctx: ServerContext): void {
  ctx.connection.onCompletion(
    guardRequest(ctx.log, 'completion', (params: CompletionParams): CompletionItem[] | null => {
      const document = ctx.documents.get(params.textDocument.uri);
      if (!document) return null;
      const state = ctx.state(document);
      const offset = state.offsetAt(params.position);
      const jinja = jinjaCompletionItems(state, offset, instanceDataFor(state.settings, document.uri, ctx.workspaceFolders()));
      if (jinja) return jinja;
      const metaData = metaDataCompletion(state, offset, ctx.support.markdownCompletion);
      if (metaData) return metaData;
      const autoinstall = autoinstallCompletion(state, offset, ctx.support.markdownCompletion);
      if (autoinstall) return autoinstall;
      const cursor = specCursorAt(state, offset);
      const client = { snippets: ctx.support.snippets, markdown: ctx.support.markdownCompletion };
      const items = cursor ? completionItems(cursor, client, state.custom.descriptions) : null;
      if (cursor && cursor.kind !== 'top-level-key') return items;
      // The spec key's own item (with its recipes) stands for merge_how: the schema's is left out.
      const schema = schemaCompletion(state, offset, client.markdown)?.filter((i) => !items?.some((x) => x.label === i.label));
      return items || schema ? [...(items ?? []), ...(schema ?? [])] : null;
    }),
  );
}

const SPEC_KINDS = new Set(['cloud-config', 'jinja', 'confd', 'cloud-cfg', 'mime']);

export function specCursorAt(state: DocumentState, offset: number): SpecCursor | null {
  const kind = state.analysis.info?.kind;
  if (!kind || !SPEC_KINDS.has(kind)) return null;
  const line = state.lineAt(offset);
  const column = offset - line.start;
  const before = line.text.slice(0, column);
  const range = (from: number, to: number): Range => ({ start: state.positionAt(line.start + from), end: state.positionAt(line.start + to) });

  // String form on the key's line: `merge_how: list(app|`, or a MIME `Merge-Type: ...` header.
  const key = kind === 'mime' ? /^((?:x-)?merge-type)(\s*):[ \t]*/i.exec(line.text) ?? topLevelKey(line.text) : topLevelKey(line.text);
  if (key && column >= key[0].length) {
    const value = valueExtent(line.text, key[0].length, /^(?:x-)?merge-type$/i.test(key[1]));
    if (value && column >= value.start && column <= value.end) return stringSpecCursor(line.text.slice(value.start, value.end), value.start, column, range);
    return null;
  }

  // List form: `- name: li|`, `settings: [append, |`, or an item of a block `settings:` list.
  const listCursor = listFormCursor(state, line, column, before, range);
  if (listCursor !== undefined) return listCursor;

  // The key itself, at the top level of a cloud-config without a spec.
  if (kind !== 'mime' && /^[A-Za-z_]*$/.test(before) && /^[A-Za-z_]*\s*$/.test(line.text.slice(column)) && !hasSpecKey(state)) {
    return { kind: 'top-level-key', range: range(0, line.text.trimEnd().length) };
  }
  return null;
}

function hasSpecKey(state: DocumentState): boolean {
  return state.memo('hasSpecKey', () => /^(merge_how|merge_type)[ \t]*:/m.test(state.text));
}

function topLevelKey(text: string): RegExpExecArray | null {
  return /^(merge_how|merge_type)(\s*):[ \t]*/.exec(text);
}

/** Where a string value sits on its line: inside quotes, or a plain scalar up to a comment. */
function valueExtent(text: string, start: number, header: boolean): { start: number; end: number } | null {
  const quote = text[start];
  if (!header && (quote === '"' || quote === "'")) {
    const close = text.indexOf(quote, start + 1);
    return { start: start + 1, end: close < 0 ? text.length : close };
  }
  if (!header && (quote === '[' || quote === '{' || quote === '|' || quote === '>')) return null;
  const comment = header ? -1 : text.search(/\s#/);
  const end = comment >= start ? comment : text.trimEnd().length;
  return { start, end: Math.max(start, end) };
}

/**
 * The merger or option word that ends `text`. Scanned backwards: the regex /[A-Za-z0-9_-]*$/ tries
 * every start position, so a 100,000-letter word followed by '(' took ten seconds.
 */
function wordAtEnd(text: string): string {
  let start = text.length;
  while (start > 0 && /[A-Za-z0-9_-]/.test(text[start - 1])) start--;
  return text.slice(start);
}

function stringSpecCursor(value: string, valueStart: number, column: number, range: (a: number, b: number) => Range): SpecCursor | null {
  const local = column - valueStart;
  const head = value.slice(0, local);
  const pieceStart = head.lastIndexOf('+') + 1;
  const piece = head.slice(pieceStart);
  const open = piece.indexOf('(');
  const word = wordAtEnd(head);
  const wordStart = column - word.length;
  const rest = value.slice(local);
  const wordEnd = column + /^[A-Za-z0-9_-]*/.exec(rest)![0].length;
  if (open >= 0 && !piece.slice(open).includes(')')) {
    const merger = mergerOf(piece.slice(0, open));
    if (!merger) return null;
    // Options already written in these parentheses, on both sides of the cursor.
    const closeAt = rest.search(/[)+]/);
    const inner = piece.slice(open + 1, piece.length - word.length) + ',' + rest.slice(wordEnd - column, closeAt < 0 ? rest.length : closeAt);
    const given = new Set(inner.split(',').map(normalizeWord).filter(Boolean));
    return { kind: 'option', range: range(wordStart, wordEnd), merger, given };
  }
  if (pyStrip(piece.slice(0, piece.length - word.length)) !== '') return null;
  const present = new Set<MergerName>();
  scanStringSpec(value, 0).forEach((m) => {
    const inside = m.nameSpan.start <= local && local <= m.nameSpan.end;
    const merger = mergerOf(m.name);
    if (merger && !inside) present.add(merger);
  });
  const onlyThisWord = pyStrip(value) === '' || pyStrip(value) === word;
  const needsParens = !/^[A-Za-z0-9_-]*\s*\(/.test(rest);
  return { kind: 'merger-name', range: range(wordStart, wordEnd), present, recipes: onlyThisWord, valueRange: range(valueStart, valueStart + value.length), needsParens };
}

/** `undefined`: not a list-form line at all (other contexts may apply); `null`: a list-form line with nothing to offer. */
function listFormCursor(
  state: DocumentState,
  line: { text: string; start: number; line: number },
  column: number,
  before: string,
  range: (a: number, b: number) => Range,
): SpecCursor | null | undefined {
  const nameMatch = /^(\s*)(?:-\s+)?name\s*:\s*(["']?)([A-Za-z0-9_-]*)$/.exec(before);
  const flowSettings = /^(\s*)(?:-\s+)?settings\s*:\s*\[([^\]]*)$/.exec(before);
  const blockItem = /^(\s*)-[ \t]*([A-Za-z0-9_-]*)$/.exec(before);
  if (!nameMatch && !flowSettings && !blockItem) return undefined;
  if (!insideTopLevelSpec(state, line.start)) return undefined;
  const wordLength = (nameMatch?.[3] ?? blockItem?.[2] ?? wordAtEnd(before)).length;
  const after = /^[A-Za-z0-9_-]*/.exec(line.text.slice(column))![0].length;
  const wordRange = range(column - wordLength, column + after);
  if (nameMatch) {
    return { kind: 'merger-name', range: wordRange, present: new Set(), recipes: false, valueRange: wordRange, needsParens: false };
  }
  let settingsLine: { text: string; start: number; line: number } = line;
  let given: string[];
  if (flowSettings) {
    const open = line.text.lastIndexOf('[', column - 1);
    const closing = line.text.indexOf(']', column);
    given = [];
    let at = open + 1;
    for (const word of line.text.slice(open + 1, closing < 0 ? line.text.length : closing).split(',')) {
      if (!(at <= column && column <= at + word.length)) given.push(unquote(word));
      at += word.length + 1;
    }
  } else {
    const parent = parentLine(state, line);
    if (!parent || !/^\s*(?:-\s+)?settings\s*:\s*$/.test(parent.text)) return null;
    settingsLine = parent;
    given = siblingItems(state, line)
      .filter((l) => l.line !== line.line)
      .map((l) => unquote(l.text.replace(/^\s*-/, '')));
  }
  const merger = entryMergerName(state, settingsLine);
  if (!merger) return null;
  return { kind: 'option', range: wordRange, merger, given: new Set(given.filter(Boolean)) };
}

function unquote(word: string): string {
  return word.trim().replace(/^["']|["']$/g, '');
}

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

function isContent(text: string): boolean {
  const t = text.trim();
  return t !== '' && !t.startsWith('#');
}

/** Lines above `from`, nearest first. */
function* linesAbove(state: DocumentState, fromLine: number): Generator<{ text: string; start: number; line: number }> {
  for (let l = fromLine - 1; l >= 0; l--) yield state.lineAt(state.lines.lineStart(l));
}

function* linesBelow(state: DocumentState, fromLine: number): Generator<{ text: string; start: number; line: number }> {
  for (let l = fromLine + 1; l < state.lines.lineCount; l++) yield state.lineAt(state.lines.lineStart(l));
}

/**
 * Where the block values of top-level `merge_how:` / `merge_type:` keys lie: from the key to the next
 * top-level line (a `- ` at column 0 still belongs to the key). Found once per document version.
 */
function specBlocks(state: DocumentState): Array<{ start: number; end: number }> {
  return state.memo('specBlocks', () => {
    const blocks: Array<{ start: number; end: number }> = [];
    const key = /^(?:merge_how|merge_type)[ \t]*:[ \t]*(?:#[^\r\n]*)?\r?$/gm;
    for (let m = key.exec(state.text); m; m = key.exec(state.text)) {
      const next = /\n(?=[^\s#-])/g;
      next.lastIndex = m.index + m[0].length;
      const found = next.exec(state.text);
      blocks.push({ start: m.index, end: found ? found.index : state.text.length });
    }
    return blocks;
  });
}

/** Whether a line lies in the value of a top-level merge_how / merge_type key. */
function insideTopLevelSpec(state: DocumentState, lineStart: number): boolean {
  return specBlocks(state).some((b) => b.start < lineStart && lineStart <= b.end);
}

/** The line a block-list item belongs to: the nearest line above that is less indented, or a key at the same indentation. */
function parentLine(state: DocumentState, line: { text: string; line: number }): { text: string; start: number; line: number } | null {
  const indent = indentOf(line.text);
  for (const l of linesAbove(state, line.line)) {
    if (!isContent(l.text)) continue;
    const i = indentOf(l.text);
    if (i < indent || (i === indent && !l.text.trimStart().startsWith('-'))) return l;
  }
  return null;
}

/** Block-list items at the same indentation as `line`, contiguous with it. */
function siblingItems(state: DocumentState, line: { text: string; line: number; start: number }): Array<{ text: string; line: number }> {
  const indent = indentOf(line.text);
  const items: Array<{ text: string; line: number }> = [line];
  const same = (l: { text: string }) => indentOf(l.text) === indent && /^\s*-/.test(l.text);
  for (const l of linesAbove(state, line.line)) {
    if (!isContent(l.text)) continue;
    if (!same(l)) break;
    items.push(l);
  }
  for (const l of linesBelow(state, line.line)) {
    if (!isContent(l.text)) continue;
    if (!same(l)) break;
    items.push(l);
  }
  return items;
}

/** Column where a line's key starts, past indentation and any `- ` markers. */
function keyColumnOf(text: string): number {
  return /^(\s*(?:-\s+)*)/.exec(text)![1].length;
}

/** The `name:` of the list-form entry that holds a `settings:` line. */
function entryMergerName(state: DocumentState, settings: { text: string; line: number }): MergerName | undefined {
  const column = keyColumnOf(settings.text);
  const isEntryStart = (text: string) => text.trimStart().startsWith('-') && keyColumnOf(text) === column;
  const nameAt = (text: string): string | undefined => {
    const m = /^\s*(?:-\s+)*name\s*:\s*["']?([A-Za-z0-9_-]+)/.exec(text);
    return m && keyColumnOf(text) === column ? m[1] : undefined;
  };
  if (!isEntryStart(settings.text)) {
    for (const l of linesAbove(state, settings.line)) {
      if (!isContent(l.text)) continue;
      if (indentOf(l.text) < column && !isEntryStart(l.text)) break;
      const n = nameAt(l.text);
      if (n) return mergerOf(n);
      if (isEntryStart(l.text)) break;
    }
  }
  for (const l of linesBelow(state, settings.line)) {
    if (!isContent(l.text)) continue;
    if (isEntryStart(l.text) || indentOf(l.text) < column) break;
    const n = nameAt(l.text);
    if (n) return mergerOf(n);
  }
  return undefined;
}

export function completionItems(cursor: SpecCursor, client: { snippets: boolean; markdown: boolean }, custom: ReadonlyMap<string, string> = new Map()): CompletionItem[] {
  switch (cursor.kind) {
    case 'merger-name': {
      const items: CompletionItem[] = MERGER_NAMES.filter((m) => !cursor.present.has(m)).map((m, i) => {
        const snippet = client.snippets && cursor.needsParens;
        const insert = cursor.needsParens ? (snippet ? `${m}($1)` : `${m}()`) : m;
        return {
          label: m,
          kind: CompletionItemKind.Function,
          detail: MERGERS[m].summary,
          documentation: markup(mergerMarkdown(m), client.markdown),
          textEdit: TextEdit.replace(cursor.range, insert),
          insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
          sortText: `1${i}`,
        };
      });
      for (const [name, description] of custom) {
        const snippet = client.snippets && cursor.needsParens;
        items.push({
          label: name,
          kind: CompletionItemKind.Function,
          detail: `custom merger: ${description}`,
          textEdit: TextEdit.replace(cursor.range, cursor.needsParens ? (snippet ? `${name}($1)` : `${name}()`) : name),
          insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
          sortText: `2${name}`,
        });
      }
      if (cursor.recipes) {
        RECIPES.forEach((r, i) =>
          items.push({
            label: r.spec,
            kind: CompletionItemKind.Snippet,
            detail: `${r.label}: ${r.detail}`,
            documentation: markup(`**${r.label}**: ${r.detail}.\n\n\`\`\`yaml\nmerge_how: ${r.spec}\n\`\`\``, client.markdown),
            filterText: r.spec,
            textEdit: TextEdit.replace(cursor.valueRange, r.spec),
            insertTextFormat: InsertTextFormat.PlainText,
            sortText: `0${i}`,
          }),
        );
      }
      return items;
    }
    case 'option': {
      const readable: OptionName[] = optionsReadBy(cursor.merger);
      return readable
        .filter((o) => !cursor.given.has(o))
        .map((o, i) => ({
          label: o,
          kind: CompletionItemKind.EnumMember,
          detail: `${cursor.merger}() option`,
          documentation: markup(optionMarkdown(o, cursor.merger), client.markdown),
          textEdit: TextEdit.replace(cursor.range, o),
          sortText: String(i).padStart(2, '0'),
        }));
    }
    case 'top-level-key': {
      const choices = RECIPES.map((r) => r.spec.replace(/[,|\\$}]/g, (c) => '\\' + c)).join(',');
      return [
        {
          label: 'merge_how',
          kind: CompletionItemKind.Property,
          detail: 'How this part merges into the parts before it',
          documentation: markup(
            `${MERGE_HOW_KEY_DOC}\n\n${RECIPES.map((r) => `- \`${r.spec}\`: ${r.detail}`).join('\n')}`,
            client.markdown,
          ),
          textEdit: TextEdit.replace(cursor.range, client.snippets ? `merge_how: \${1|${choices}|}` : `merge_how: ${RECIPES[0].spec}`),
          insertTextFormat: client.snippets ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
        },
      ];
    }
  }
}

/* ------------------------------------------------------------------ cloud-init's schema */

/**
 * Keys the schema names for the mapping under the cursor (those already written left out, deprecated
 * ones last and tagged), and enum or boolean values after `key:`. Read from the text, so it works while
 * the document does not load.
 */
export function schemaCompletion(state: DocumentState, offset: number, markdown: boolean): CompletionItem[] | null {
  const version = documentSchema(state.analysis.info?.kind, state.text, state.settings.cloudInitVersion, state.settings.schema.enable);
  if (!version) return null;
  const cursor = textCursorAt(state.text, offset);
  if (!cursor?.key) return null;
  const range = (start: number, end: number): Range => state.range({ start, end });
  if (cursor.at === 'value') {
    const path = [...cursor.parent, cursor.key.text];
    const values = enumValues(schemaAt(version, path));
    if (!values.length || !cursor.value) return null;
    return values.map((v, i) => {
      const text = yamlScalar(v);
      return { label: text, kind: CompletionItemKind.EnumMember, textEdit: TextEdit.replace(range(cursor.value!.start, cursor.value!.end), text), sortText: String(i).padStart(3, '0') };
    });
  }
  const view = schemaAt(version, cursor.parent);
  if (!view.nodes.length) return null;
  // Keys already written: from the loaded YAML when it loads, else read from the text around the cursor.
  const present = presentKeys(state, cursor.parent, cursor.key.text) ?? siblingKeys(state.text, cursor.key.start);
  present.delete(cursor.key.text);
  const afterKey = state.text.slice(cursor.key.end, cursor.key.end + 1) === ':';
  const items: CompletionItem[] = [];
  const target = cursor.parent.length || state.analysis.info?.kind === 'network-config' ? undefined : planTargetOf(state.settings);
  for (const k of keysOf(version, view, cursor.parent)) {
    if (present.has(k.key)) continue;
    const path = [...cursor.parent, k.key];
    // A top-level key no module of the image reads is offered last, saying so.
    const unread = target && notReadOnImage(target, k.key);
    items.push({
      label: k.key,
      kind: CompletionItemKind.Property,
      detail: [unread, describeTypes(k.view)].filter(Boolean).join(' — ') || undefined,
      documentation: markup(schemaKeyMarkdown(version, path, k.view) + (unread ? planKeyMarkdown(target, k.key) : ''), markdown),
      tags: k.deprecated ? [CompletionItemTag.Deprecated] : undefined,
      textEdit: TextEdit.replace(range(cursor.key.start, cursor.key.end), afterKey ? k.key : `${k.key}: `),
      sortText: `${k.deprecated ? 'z' : unread ? 'y' : 'm'}${k.key}`,
    });
  }
  // System config's own keys, at a drop-in's or cloud.cfg's top level (the schema does not describe them).
  if (!cursor.parent.length && isSystemKind(state.analysis.info?.kind) && !version.startsWith('network:')) {
    const schemaKeys = new Set(keysOf(version, view, []).map((k) => k.key));
    for (const key of systemOnlyKeys(version as SchemaVersion, schemaKeys)) {
      if (present.has(key)) continue;
      items.push({
        label: key,
        kind: CompletionItemKind.Property,
        detail: 'system config',
        documentation: markup(systemKeyMarkdown(version as SchemaVersion, key) ?? '', markdown),
        textEdit: TextEdit.replace(range(cursor.key.start, cursor.key.end), afterKey ? key : `${key}: `),
        sortText: `m${key}`,
      });
    }
  }
  return items;
}

/**
 * Keys already written in the mapping at `parent`, when the document loads, the path has no list item
 * and the key being typed is in it (so the loaded mapping is the one on screen); else undefined.
 */
function presentKeys(state: DocumentState, parent: NavSegment[], typing: string): Set<string> | undefined {
  if (parent.some((s) => typeof s !== 'string')) return undefined;
  const loaded = state.analysis.yaml?.ok && state.analysis.yamlBase === 0 ? state.analysis.yaml : undefined;
  let node = loaded?.ok ? loaded.value : undefined;
  for (const seg of parent) node = node instanceof PyDict && typeof seg === 'string' ? node.get(seg) : undefined;
  if (!(node instanceof PyDict) || !node.has(typing)) return undefined;
  return new Set(node.keys().filter((k): k is string => typeof k === 'string'));
}

/** A value as YAML writes it so that PyYAML reads it back as the same value (`'off'` stays a string). */
function yamlScalar(v: unknown): string {
  if (typeof v !== 'string') return JSON.stringify(v);
  const loaded = loadYaml(`k: ${v}\n`);
  const same = loaded.ok && loaded.value instanceof PyDict && loaded.value.get('k') === v;
  return same ? v : `'${v.replace(/'/g, "''")}'`;
}
