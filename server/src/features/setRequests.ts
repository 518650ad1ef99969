/**
 * Requests about sets of parts, for the client's preview commands:
 * `cloudConfigMerge/setOf` (the saved set a file belongs to, so the title
 * bar's preview button previews it) and `cloudConfigMerge/saveSet` (the text
 * of cloud-config-merge.yaml with a preview's selection saved as a named set,
 * edited with the `yaml` package so the rest of the file keeps its
 * formatting and comments; the client applies it).
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseDocument } from 'yaml';
import { SAVE_SET_REQUEST, SET_OF_REQUEST, SaveSetParams, SaveSetResult, SetOfParams, SetOfResult } from '../protocol';
import { SET_FILE_NAME } from '../engine/sets';
import { ServerContext } from './common/context';
import { guardRequest } from './common/guard';
import { PartSets, filePath } from './common/partSets';

export function registerSetRequests(ctx: ServerContext, sets: PartSets): void {
  ctx.connection.onRequest(SET_OF_REQUEST, guardRequest(ctx.log, 'setOf', (params: SetOfParams) => setOf(sets, params)));
  ctx.connection.onRequest(SAVE_SET_REQUEST, guardRequest(ctx.log, 'saveSet', (params: SaveSetParams) => saveSet(ctx, params)));
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
  const doc = parseDocument(existing || 'sets: {}\n');
  if (doc.errors.length) return { error: `${SET_FILE_NAME} has YAML errors: fix them first (${doc.errors[0].message.split('\n')[0]})` };
  const entry: Record<string, unknown> = {};
  if (params.mode && params.mode !== 'user-data') entry.mode = params.mode;
  entry.files = (files as string[]).map(relative);
  for (const role of ['vendor', 'vendor2', 'cloudCfg', 'dsConfig'] as const) {
    const f = params.boot?.[role] ? filePath(params.boot[role] as string) : null;
    if (f && isInside(f, folder)) entry[role] = relative(f);
  }
  const confd = (params.boot?.confd ?? []).map((u) => filePath(u)).filter((f): f is string => !!f && isInside(f, folder));
  if (confd.length) entry.confd = confd.map(relative);
  if (!doc.has('sets') || doc.get('sets') === null) doc.set('sets', doc.createNode({}));
  doc.setIn(['sets', params.name], doc.createNode(entry, { flow: false }));
  return { uri, text: doc.toString() };
}

function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
