/**
 * Requests about sets of parts, for the client's preview commands, and the
 * notification by which the client says which previews are open (each is a set):
 * `cloudConfigMerge/setOf` (the saved set a file belongs to, so the title
 * bar's preview button previews it) and `cloudConfigMerge/saveSet` (the text
 * of cloud-config-merge.yaml with a preview's selection saved as a named set,
 * edited with the `yaml` package so the rest of the file keeps its
 * formatting and comments; the client applies it).
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMap, isScalar, parseDocument, stringify } from 'yaml';
import { PreviewSetNotification, PreviewSetParams, SaveSetRequest, SetOfRequest, SaveSetParams, SaveSetResult, SetOfParams, SetOfResult } from '../protocol';
import { SET_FILE_NAME } from '../engine/sets';
import { ServerContext } from './common/context';
import { guardRequest } from './common/guard';
import { OpenSet, PartSets, filePath } from './common/partSets';
import { isInside } from './common/workspaceIncludes';

/** @param setsChanged called when an open preview's set appears, changes or goes (diagnostics and hints follow). */
export function registerSetRequests(ctx: ServerContext, sets: PartSets, setsChanged: () => void): void {
  ctx.connection.onRequest(SetOfRequest.method, guardRequest(ctx.log, 'setOf', (params: SetOfParams) => setOf(sets, params)));
  ctx.connection.onRequest(SaveSetRequest.method, guardRequest(ctx.log, 'saveSet', (params: SaveSetParams) => saveSet(ctx, params)));
  ctx.connection.onNotification(PreviewSetNotification.method, (params: PreviewSetParams) => {
    if (!params || typeof params.id !== 'string') return;
    sets.setPreview(params.id, previewSet(ctx, params.preview));
    setsChanged();
  });
}

/** An open preview's selection as a set (file URIs only; anything malformed is no set). */
function previewSet(ctx: ServerContext, preview: PreviewSetParams['preview']): Omit<OpenSet, 'key' | 'label'> | null {
  const mode = preview?.mode;
  if (!preview || !(mode === 'user-data' || mode === 'confd' || mode === 'boot' || mode === 'chef')) return null;
  const files = (uris: unknown) => (Array.isArray(uris) ? uris.flatMap((u) => (typeof u === 'string' && filePath(u) ? [filePath(u) as string] : [])) : []);
  const one = (uri: unknown) => (typeof uri === 'string' ? (filePath(uri) ?? undefined) : undefined);
  const boot = preview.boot;
  return {
    mode,
    folder: ctx.workspaceFolders()[0] ?? '/',
    files: files(preview.files),
    boot: { vendor: one(boot?.vendor), vendor2: one(boot?.vendor2), cloudCfg: one(boot?.cloudCfg), dsConfig: one(boot?.dsConfig), confd: boot?.confd ? files(boot.confd) : undefined },
    includeMap: [],
  };
}

export function setOf(sets: PartSets, params: SetOfParams): SetOfResult | null {
  const file = typeof params?.uri === 'string' ? filePath(params.uri) : null;
  if (!file) return null;
  const set = sets.declaredSets().find((s) => s.files.includes(file) || Object.values(s.boot).flat().includes(file));
  if (!set) return null;
  const uri = (f: string) => pathToFileURL(f).href;
  const boot: SetOfResult['boot'] = {};
  for (const role of ['vendor', 'vendor2', 'cloudCfg', 'dsConfig'] as const) if (set.boot[role]) boot[role] = uri(set.boot[role] as string);
  if (set.boot.confd) boot.confd = set.boot.confd.map(uri);
  return { name: set.label.replace(/^set /, ''), mode: set.mode, files: set.files.map(uri), ...(Object.keys(boot).length ? { boot } : {}) };
}

const SET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function saveSet(ctx: ServerContext, params: SaveSetParams): SaveSetResult {
  if (typeof params?.name !== 'string' || !SET_NAME.test(params.name)) return { error: 'A set name is letters, digits, ".", "_" or "-", starting with a letter or digit.' };
  const files = (Array.isArray(params.files) ? params.files : []).map((u) => (typeof u === 'string' ? filePath(u) : null));
  if (!files.length || files.some((f) => !f)) return { error: 'Only files on disk can be saved in a set.' };
  const folder = ctx.workspaceFolders().find((f) => files.every((file) => isInside(file as string, f)));
  if (!folder) return { error: 'The files of a set must all be inside one workspace folder.' };
  const relative = (f: string) => path.relative(folder, f).split(path.sep).join('/');
  const setFile = path.join(folder, SET_FILE_NAME);
  const uri = pathToFileURL(setFile).href;
  const existing = params.currentText ?? '';
  const doc = parseDocument(existing);
  if (doc.errors.length) return { error: `${SET_FILE_NAME} has YAML errors: fix them first (${doc.errors[0].message.split('\n')[0]})` };
  const entry: Array<[string, string | string[]]> = [];
  if (params.mode && params.mode !== 'user-data') entry.push(['mode', params.mode]);
  entry.push(['files', (files as string[]).map(relative)]);
  for (const role of ['vendor', 'vendor2', 'cloudCfg', 'dsConfig'] as const) {
    const f = params.boot?.[role] ? filePath(params.boot[role] as string) : null;
    if (f && isInside(f, folder)) entry.push([role, relative(f)]);
  }
  const confd = (params.boot?.confd ?? []).map((u) => filePath(u)).filter((f): f is string => !!f && isInside(f, folder));
  if (confd.length) entry.push(['confd', confd.map(relative)]);
  return { uri, text: withSet(existing, doc, params.name, entry) };
}

/**
 * The set file's text with the set added as a block at the end of `sets` (or replacing a set of that
 * name): the rest of the text is kept byte for byte.
 */
function withSet(text: string, doc: ReturnType<typeof parseDocument>, name: string, entry: Array<[string, string | string[]]>): string {
  const scalar = (v: string) => stringify(v).trimEnd();
  const block = (indent: string) => {
    const lines = [`${indent}${scalar(name)}:`];
    for (const [key, value] of entry) {
      if (Array.isArray(value)) lines.push(`${indent}  ${key}:`, ...value.map((v) => `${indent}    - ${scalar(v)}`));
      else lines.push(`${indent}  ${key}: ${scalar(value)}`);
    }
    return lines.join('\n') + '\n';
  };
  const sets = isMap(doc.contents) ? doc.contents.get('sets', true) : undefined;
  if (!isMap(sets) || sets.flow || !sets.range) {
    // No block mapping of sets to add to: a `sets` mapping is appended (an empty or flow one replaced).
    if (isMap(doc.contents) && doc.contents.has('sets')) {
      doc.setIn(['sets', name], doc.createNode(Object.fromEntries(entry)));
      return doc.toString();
    }
    return `${text}${text && !text.endsWith('\n') ? '\n' : ''}sets:\n${block('  ')}`;
  }
  const first = sets.items[0]?.key;
  const start = isScalar(first) && first.range ? first.range[0] : sets.range[0];
  const indent = ' '.repeat(start - (text.lastIndexOf('\n', start - 1) + 1));
  const same = sets.items.find((p) => isScalar(p.key) && p.key.value === name);
  if (same && isScalar(same.key) && same.key.range) {
    // Replace the old entry: from its key's line to the end of its value's last line (comments after it stay).
    const from = text.lastIndexOf('\n', same.key.range[0] - 1) + 1;
    const valueEnd = (same.value as { range?: [number, number, number] } | null)?.range?.[1] ?? same.key.range[1];
    const lineEnd = text.indexOf('\n', Math.max(valueEnd - 1, from));
    const to = lineEnd < 0 ? text.length : lineEnd + 1;
    return text.slice(0, from) + block(indent) + text.slice(to);
  }
  const end = sets.range[1];
  const before = text.slice(0, end);
  return `${before}${before.endsWith('\n') ? '' : '\n'}${block(indent)}${text.slice(end)}`;
}
