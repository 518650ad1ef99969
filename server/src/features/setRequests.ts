/**
 * Requests about sets of parts, for the client's preview commands, and the
 * notification by which the client says which previews are open (each is a set):
 * `cloudConfigMerge/setOf` (the saved set a file belongs to, else the NoCloud seed
 * folder it is a file of, so the title bar's preview button previews it) and `cloudConfigMerge/saveSet` (the text
 * of cloud-config-merge.yaml with a preview's selection saved as a named set,
 * written by engine/sets/setFile.ts so that it reads back as saved while the rest of
 * the file keeps its formatting and comments; the client applies it).
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PreviewSetNotification, PreviewSetParams, SaveSetRequest, SetOfRequest, SaveSetParams, SaveSetResult, SetOfParams, SetOfResult, SET_NAME_RULE, isEditorPreviewMode } from '../protocol';
import { SET_BOOT_ROLES, SET_FILE_NAME, SET_MODES, parseSetFile, writeSet } from '../engine/sets/setFile';
import { ServerContext } from './common/context';
import { guardRequest } from './common/guard';
import { OpenSet, PartSets, filePath } from '../sets/partSets';
import { isInside } from '../sets/workspaceIncludes';
import { readSeedFolder } from '../node/seed';
import { seedMerge } from '../engine/seed/seedFolder';

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

/** The set a file belongs to: its saved set, else the NoCloud seed folder it is a file of. */
export function setOf(sets: PartSets, params: SetOfParams): SetOfResult | null {
  const file = typeof params?.uri === 'string' ? filePath(params.uri) : null;
  if (!file) return null;
  // A saved set, else the NoCloud seed folder the file is the user-data or vendor-data of (its order is cloud-init's).
  const set = sets.declaredSets().find((s) => s.files.includes(file) || Object.values(s.boot).flat().includes(file)) ?? sets.seedSetOf(file);
  return set ? setResult(set) : null;
}

const fileUri = (f: string) => pathToFileURL(f).href;

/**
 * A set as the client previews it: URIs, a saved set's name without `set ` (a seed folder no set file names
 * has none), its seed folder when it is a seed.
 */
export function setResult(set: OpenSet): SetOfResult {
  const boot: SetOfResult['boot'] = {};
  for (const role of ['vendor', 'vendor2', 'cloudCfg', 'dsConfig'] as const) if (set.boot[role]) boot[role] = fileUri(set.boot[role]);
  if (set.boot.confd) boot.confd = set.boot.confd.map(fileUri);
  // Its seed folder (`seed:` as written, relative to the set file's folder).
  const seed = set.seed ? path.resolve(set.folder, set.seed.folder) : undefined;
  const saved = set.key.startsWith('file:');
  return { ...(saved ? { name: set.label.replace(/^set /, '') } : {}), mode: set.mode, files: set.files.map(fileUri), ...(Object.keys(boot).length ? { boot } : {}), ...(seed ? { seed: fileUri(seed) } : {}) };
}

export function saveSet(ctx: ServerContext, params: SaveSetParams): SaveSetResult {
  if (typeof params?.name !== 'string' || !SET_NAME_RULE.pattern.test(params.name)) return { error: SET_NAME_RULE.message };
  const mode = params.mode ?? 'user-data';
  if (!isEditorPreviewMode(mode)) return { error: `A set's mode is one of ${SET_MODES.join(', ')}.` };
  const boot = params.boot ?? {};
  const others = (['runtimeCfg', 'cmdlineCfg', 'builtinCfg'] as const).filter((layer) => boot[layer] !== undefined);
  if (others.length) return { error: `A set holds the layers ${[...SET_BOOT_ROLES, 'confd'].join(', ')}; this preview also has ${others.join(', ')}.` };
  const one = (u: unknown) => (typeof u === 'string' ? filePath(u) : null);
  const seedFolder = params.seed === undefined ? undefined : one(params.seed);
  if (seedFolder !== undefined && mode !== 'boot') return { error: `A NoCloud seed is merged in boot mode (its user-data over its vendor-data); this preview's mode is ${mode}.` };
  const files = (Array.isArray(params.files) ? params.files : []).map(one);
  const roles = SET_BOOT_ROLES.filter((role) => boot[role] !== undefined).map((role) => [role, one(boot[role])] as const);
  const confd = (Array.isArray(boot.confd) ? boot.confd : []).map(one);
  const all = [...files, ...roles.map(([, f]) => f), ...confd, ...(seedFolder !== undefined ? [seedFolder] : [])];
  if (!files.length || all.some((f) => !f)) return { error: 'Only files on disk can be saved in a set.' };
  const folder = ctx.workspaceFolders().find((f) => all.every((file) => file === f || isInside(file as string, f)));
  if (!folder) return { error: 'The files of a set, and its boot layers, must all be inside one workspace folder.' };
  const relative = (f: string | null) => path.relative(folder, f as string).split(path.sep).join('/') || '.';
  const existing = params.currentText ?? '';
  // What the preview does not carry (its include map, its instance data) stays as the set of that name has it;
  // its seed too, for a client that does not send it, while the preview still merges that seed.
  const before = parseSetFile(existing).sets.find((s) => s.name === params.name);
  const keptSeed = seedFolder === undefined && before?.seed && mode === 'boot' ? path.resolve(folder, before.seed) : undefined;
  const vendor = roles.find(([role]) => role === 'vendor')?.[1] ?? undefined;
  const keptMerge = keptSeed && isInside(keptSeed, folder) ? seedMerge(readSeedFolder(keptSeed)) : undefined;
  const seedDir = seedFolder ?? (keptMerge && files.includes(keptMerge.userData) && vendor === keptMerge.vendorData ? keptSeed : undefined);
  // A seed's own user-data and vendor-data are the seed's: it names them, they are not written again.
  const seed = seedDir ? seedMerge(readSeedFolder(seedDir)) : undefined;
  const ownFiles = files.filter((f) => f !== seed?.userData);
  const ownRoles = roles.filter(([role, f]) => !(role === 'vendor' && f === seed?.vendorData));
  const written = writeSet(existing, {
    name: params.name,
    mode,
    files: ownFiles.map(relative),
    boot: { ...Object.fromEntries(ownRoles.map(([role, f]) => [role, relative(f)])), ...(confd.length ? { confd: confd.map(relative) } : {}) },
    includeMap: before?.includeMap,
    instanceData: before?.instanceData,
    ...(seedDir ? { seed: seedDir === keptSeed && before?.seed ? before.seed : relative(seedDir) } : {}),
  });
  return 'error' in written ? written : { uri: pathToFileURL(path.join(folder, SET_FILE_NAME)).href, text: written.text };
}
