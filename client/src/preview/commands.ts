/**
 * The preview commands:
 *  - Preview Merged User-Data: from the Explorer (multi-select), an editor's
 *    title bar, or the Command Palette (pick files);
 *  - Change Merge Order…, Compare Without Part…, Change Preview Mode… on the
 *    active preview.
 * Each also takes its choices as arguments, so it can be scripted (and tested).
 */
import * as vscode from 'vscode';
import { proposedVendorData, tickedUserData } from './bootLayers';
import { findCloudConfigFiles, isCloudConfigDocument, looksLikeChefJson } from '../documents';
import { isConfDDropIn, sortConfD, sortInWorkspaceOrder } from '../order';
import { systemFileKind } from '../../../common/detect';
import { stepDone } from '../walkthrough';
import { chooseOrder, pickOrder } from '../orderStep';
import { openFullWidthDiff, registerFullWidthDiffs } from './fullWidth';
import { PREVIEW_MODES, PreviewMode, PreviewState, baseName, fromPreviewUri, isPreviewUri, stemName, toPreviewUri } from './uri';
import { SET_NAME_RULE, SaveSetRequest, SetOfRequest, type SetOfResult } from '../../../server/src/protocol';
import type { Server } from '../client';
import type { PreviewProvider } from './provider';

type Boot = NonNullable<PreviewState['boot']>;

/** The last set of files the user previewed together (the title bar button previews it again). */
const LAST_SELECTION_KEY = 'cloudConfigMerge.lastSelection';
let memento: vscode.Memento | undefined;
let languageServer: Server | undefined;
let previewProvider: PreviewProvider | undefined;

export function registerPreviewCommands(workspaceState?: vscode.Memento, server?: Server, previews?: PreviewProvider): vscode.Disposable {
  memento = workspaceState;
  languageServer = server;
  previewProvider = previews;
  return vscode.Disposable.from(
    vscode.commands.registerCommand('cloudConfigMerge.preview', previewCommand),
    vscode.commands.registerCommand('cloudConfigMerge.changeOrder', changeOrderCommand),
    vscode.commands.registerCommand('cloudConfigMerge.compareWithoutPart', compareWithoutPartCommand),
    vscode.commands.registerCommand('cloudConfigMerge.changeMode', changeModeCommand),
    registerFullWidthDiffs(),
    vscode.commands.registerCommand('cloudConfigMerge.saveSet', saveSetCommand),
    vscode.commands.registerCommand('cloudConfigMerge.showInPreview', showInPreviewCommand),
  );
}

/**
 * `(clicked, selected[])` from the Explorer, `(resource, context)` from an
 * editor's title bar, nothing from the palette (then a pick list of the
 * workspace's cloud-init files). Returns the preview's URI.
 *
 * Two files or more go through the order step (orderStep.ts) before the preview opens: the parts in
 * the order they will merge, changeable there. Drop-ins merge in cloud-init's own order and skip it.
 * `order` (for scripts) skips it too: `default` takes the order it offers, a list of URIs is the order.
 *
 * The title bar button previews the set the file belongs to, not the file
 * alone: its saved set (cloud-config-merge.yaml, asked from the server), else
 * the last set previewed together if it holds the file (in the order chosen then), else the
 * cloud-init files of its folder (a `cloud.cfg.d` folder's drop-ins).
 */
async function previewCommand(clicked?: unknown, selected?: unknown, order?: unknown): Promise<vscode.Uri | undefined> {
  let uris = Array.isArray(selected) && selected.length ? selected.filter((u): u is vscode.Uri => u instanceof vscode.Uri) : [];
  const fromTitleBar = !uris.length && clicked instanceof vscode.Uri && !Array.isArray(selected);
  if (!uris.length && clicked instanceof vscode.Uri) uris = [clicked];
  let chosen = false;
  if (fromTitleBar) {
    const saved = await savedSetOf(clicked);
    if (saved) {
      const hasEditor = vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme !== 'output');
      const preview = await openPreview(saved, hasEditor ? { beside: true } : { column: vscode.ViewColumn.Active });
      stepDone('previewed');
      return preview;
    }
    ({ uris, chosen } = await setOf(clicked));
  } else if (!uris.length) {
    const picked = await pickFiles();
    if (!picked) return undefined;
    uris = picked;
  } else {
    uris = sortInWorkspaceOrder(await expandFolders(uris));
  }
  if (!uris.length) {
    void vscode.window.showInformationMessage('Cloud-Config: there is no cloud-init file to preview here.');
    return undefined;
  }
  let state = await stateFor(uris);
  if (!chosen && state.mode !== 'confd') {
    const picked = await chooseOrder(languageServer, uris, { title: 'Merge Order', accept: 'Merge in this order', boot: true }, order);
    if (!picked) return undefined;
    // A seed's meta-data or a network-config is never merged: said, and left out (the server says which).
    if (picked.notUserData.length) void vscode.window.showInformationMessage(`Cloud-Config: ${picked.notUserData.join(' ')}`);
    if (!picked.files.length) return undefined;
    uris = picked.files;
    state = picked.set ? { ...setState(picked.set), files: uris.map(String) } : { ...state, files: uris.map(String) };
  }
  if (uris.length > 1) await memento?.update(LAST_SELECTION_KEY, uris.map(String));
  // With no editor open, "beside" would leave an empty first group.
  const hasEditor = vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme !== 'output');
  const preview = await openPreview(state, hasEditor ? { beside: true } : { column: vscode.ViewColumn.Active });
  stepDone('previewed');
  return preview;
}

/**
 * The set a file belongs to, as a preview's state: the server resolves it (its saved set in
 * cloud-config-merge.yaml, else the NoCloud seed folder it is a file of).
 */
async function savedSetOf(file: vscode.Uri): Promise<PreviewState | undefined> {
  try {
    const set = await languageServer?.request(SetOfRequest, { uri: file.toString() });
    return set ? setState(set) : undefined;
  } catch {
    return undefined;
  }
}

/** A set the server resolved, as a preview's state. */
function setState(set: SetOfResult): PreviewState {
  return { mode: set.mode, files: set.files, ...(set.boot ? { boot: set.boot } : {}), ...(set.seed ? { seed: set.seed } : {}) };
}

/**
 * Opens a set's preview beside the editor with the line of `path` (`runcmd[0]`) selected, or of its
 * nearest parent when the merge left it out (a deleted key). From the code action on a fate diagnostic.
 * Returns the 0-based line, or undefined.
 */
async function showInPreviewCommand(state: PreviewState, path: string): Promise<number | undefined> {
  if (!state || !Array.isArray(state.files)) return undefined;
  const uri = await openPreview({ mode: state.mode, files: state.files, ...(state.boot ? { boot: state.boot } : {}) }, { beside: true });
  const deadline = Date.now() + 10000;
  let result = previewProvider?.resultFor(uri);
  while (!result && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    result = previewProvider?.resultFor(uri);
  }
  const lines = result ? (previewProvider?.linesFor(uri) ?? []) : [];
  // The path, then its parents: `a.b[0]`, `a.b`, `a`.
  const candidates = [path];
  for (let p = path; /(\[\d+\]|\.[^.[\]]+)$/.test(p); ) candidates.push((p = p.replace(/(\[\d+\]|\.[^.[\]]+)$/, '')));
  const line = candidates.map((c) => lines.find((l) => l.path === c)?.line).find((l) => l !== undefined);
  const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
  if (editor && line !== undefined) {
    const range = editor.document.lineAt(line).range;
    editor.selection = new vscode.Selection(range.start, range.end);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
  return line;
}

/**
 * Saves the active preview's selection as a named set in the workspace folder's cloud-config-merge.yaml
 * (the server writes the new text, keeping the file's formatting). `name` for scripts and tests: only a
 * string is a name, since a menu passes its own context object there (the editor's … menu: `(uri, {groupId, …})`).
 */
async function saveSetCommand(previewArg?: unknown, name?: unknown): Promise<vscode.Uri | undefined> {
  const uri = targetPreview(previewArg);
  if (!uri) return noPreview();
  const state = fromPreviewUri(uri);
  const setName = (typeof name === 'string' ? name : undefined) ?? (await vscode.window.showInputBox({ title: 'Save as Set', prompt: 'A name for these files (cloud-config-merge.yaml)', value: 'default', validateInput: (v) => (SET_NAME_RULE.pattern.test(v) ? undefined : SET_NAME_RULE.message) }));
  if (!setName || !languageServer) return undefined;
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(state.files[0] ?? ''));
  const setFile = folder ? vscode.Uri.joinPath(folder.uri, 'cloud-config-merge.yaml') : undefined;
  let currentText = '';
  if (setFile) {
    try {
      currentText = (await vscode.workspace.openTextDocument(setFile)).getText();
    } catch {
      currentText = '';
    }
  }
  const result = await languageServer.request(SaveSetRequest, { name: setName, mode: state.mode, files: state.files, boot: state.boot, ...(state.seed ? { seed: state.seed } : {}), currentText });
  if ('error' in result) {
    void vscode.window.showWarningMessage(`Cloud-Config: the set was not saved: ${result.error}`);
    return undefined;
  }
  const target = vscode.Uri.parse(result.uri);
  const edit = new vscode.WorkspaceEdit();
  edit.createFile(target, { ignoreIfExists: true });
  edit.replace(target, new vscode.Range(0, 0, Number.MAX_SAFE_INTEGER, 0), result.text);
  if (!(await vscode.workspace.applyEdit(edit))) return undefined;
  await (await vscode.workspace.openTextDocument(target)).save();
  return target;
}

/**
 * The files previewed with `file` from the title bar: the last set that holds it (`chosen`: in the order
 * chosen then), else its folder's cloud-init files.
 */
async function setOf(file: vscode.Uri): Promise<{ uris: vscode.Uri[]; chosen: boolean }> {
  const last = memento?.get<string[]>(LAST_SELECTION_KEY);
  if (Array.isArray(last) && last.includes(file.toString())) return { uris: last.map((u) => vscode.Uri.parse(u)), chosen: true };
  const folder = vscode.Uri.joinPath(file, '..');
  if (folder.path.endsWith('/cloud.cfg.d')) return { uris: sortInWorkspaceOrder(await expandFolders([folder])), chosen: false };
  const prefix = folder.toString() + '/';
  const siblings = (await findCloudConfigFiles()).filter((u) => u.toString().startsWith(prefix) && !u.toString().slice(prefix.length).includes('/'));
  if (!siblings.some((u) => u.toString() === file.toString())) siblings.push(file);
  return { uris: sortInWorkspaceOrder(siblings), chosen: false };
}

/** Chef role and environment files: JSON with default/override attributes and a Chef type. */
async function isChefFile(uri: vscode.Uri): Promise<boolean> {
  if (!/\.json$/i.test(uri.path)) return false;
  try {
    return looksLikeChefJson(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
  } catch {
    return false;
  }
}

/**
 * A selection made only of cloud.cfg.d drop-ins (and cloud.cfg) previews in confd mode, one made only
 * of Chef role/environment files in chef mode; otherwise the setting decides.
 */
async function stateFor(uris: vscode.Uri[]): Promise<PreviewState> {
  if ((await Promise.all(uris.map(isChefFile))).every(Boolean)) return { mode: 'chef', files: uris.map(String) };
  const cloudCfg = uris.filter((u) => systemFileKind(u.path) === 'cloud-cfg');
  const dropIns = uris.filter(isConfDDropIn);
  if (dropIns.length && dropIns.length + cloudCfg.length === uris.length) {
    return { mode: 'confd', files: sortConfD(dropIns).map(String), boot: cloudCfg.length ? { cloudCfg: cloudCfg[0].toString() } : undefined };
  }
  const configured = vscode.workspace.getConfiguration('cloudConfigMerge', uris[0]).get<string>('defaultMode', 'user-data');
  const mode = PREVIEW_MODES.includes(configured as PreviewMode) ? (configured as PreviewMode) : 'user-data';
  return { mode, files: uris.map(String) };
}

async function expandFolders(uris: vscode.Uri[]): Promise<vscode.Uri[]> {
  const out: vscode.Uri[] = [];
  for (const uri of uris) {
    let stat: vscode.FileStat | undefined;
    try {
      stat = await vscode.workspace.fs.stat(uri);
    } catch {
      stat = undefined;
    }
    if (!stat || !(stat.type & vscode.FileType.Directory)) {
      out.push(uri);
      continue;
    }
    const entries = await vscode.workspace.fs.readDirectory(uri);
    const files = entries.filter(([, t]) => t & vscode.FileType.File).map(([name]) => vscode.Uri.joinPath(uri, name));
    // Loops, not push(...): a folder of a few hundred thousand files would overflow the stack.
    if (uri.path.endsWith('/cloud.cfg.d')) {
      for (const f of files) if (f.path.endsWith('.cfg')) out.push(f);
    } else {
      const found = await findCloudConfigFiles();
      const prefix = uri.toString() + '/';
      for (const f of found) if (f.toString().startsWith(prefix)) out.push(f);
    }
  }
  return [...new Map(out.map((u) => [u.toString(), u])).values()];
}

interface FileItem extends vscode.QuickPickItem {
  uri: vscode.Uri;
}

/** The palette's multi-select list of the workspace's cloud-init files, in Explorer order. */
async function pickFiles(): Promise<vscode.Uri[] | undefined> {
  const qp = vscode.window.createQuickPick<FileItem>();
  qp.title = 'Preview Merged User-Data: pick the parts (their merge order is shown next)';
  qp.placeholder = 'Pick the parts to merge';
  qp.canSelectMany = true;
  qp.matchOnDescription = true;
  qp.busy = true;
  qp.show();
  const cts = new vscode.CancellationTokenSource();
  const done = new Promise<vscode.Uri[] | undefined>((resolve) => {
    qp.onDidAccept(() => {
      resolve(qp.selectedItems.map((i) => i.uri));
      qp.hide();
    });
    qp.onDidHide(() => resolve(undefined));
  });
  try {
    const files = sortInWorkspaceOrder(await findCloudConfigFiles(cts.token));
    const active = vscode.window.activeTextEditor?.document;
    qp.items = files.map((uri) => ({ uri, label: baseName(uri.toString()), description: vscode.workspace.asRelativePath(uri, true) }));
    if (active && isCloudConfigDocument(active)) qp.selectedItems = qp.items.filter((i) => i.uri.toString() === active.uri.toString());
    if (!files.length) qp.placeholder = 'No #cloud-config, MIME user-data or cloud.cfg files in this workspace';
    qp.busy = false;
    const picked = await done;
    return picked && picked.length ? picked : undefined;
  } finally {
    cts.cancel();
    cts.dispose();
    qp.dispose();
  }
}

/** The preview a command applies to: its argument, else the active editor or tab. */
function targetPreview(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri && isPreviewUri(arg)) return arg;
  if (typeof arg === 'string' && arg.startsWith('cloud-config-merge-preview:')) return vscode.Uri.parse(arg);
  const editorUri = vscode.window.activeTextEditor?.document.uri;
  if (isPreviewUri(editorUri)) return editorUri;
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputText && isPreviewUri(input.uri)) return input.uri;
  if (input instanceof vscode.TabInputTextDiff && isPreviewUri(input.modified)) return input.modified;
  return undefined;
}

function noPreview(): undefined {
  void vscode.window.showInformationMessage('Cloud-Config: open a merged preview first ("Cloud-Config: Preview Merged User-Data").');
  return undefined;
}

/**
 * Reorders the active preview's parts. `order` (for scripts) is the new
 * order as 1-based indexes into the current file list, or as URIs.
 */
async function changeOrderCommand(previewArg?: unknown, order?: Array<number | string>): Promise<vscode.Uri | undefined> {
  const uri = targetPreview(previewArg);
  if (!uri) return noPreview();
  const state = fromPreviewUri(uri);
  let files: string[] | undefined;
  if (Array.isArray(order)) {
    files = order.map((o) => (typeof o === 'number' ? state.files[o - 1] : o));
    const valid = files.length === state.files.length && files.every((f) => f !== undefined && state.files.includes(f)) && new Set(files).size === files.length;
    if (!valid) throw new Error('changeOrder: the order must name every part exactly once');
  } else {
    files = await pickOrder(state.files, { title: 'Change Merge Order', accept: 'Apply this order' });
  }
  if (!files) return uri;
  // "Reorder and compare" is done once an order was accepted, even the same one.
  stepDone('compared');
  if (files.every((f, i) => f === state.files[i])) return uri;
  return replacePreview(uri, { ...state, files, exclude: undefined });
}

/** Opens a diff of the merged data without one part (left) and with it (right), full width. */
async function compareWithoutPartCommand(previewArg?: unknown, part?: number): Promise<vscode.Uri | undefined> {
  const uri = targetPreview(previewArg);
  if (!uri) return noPreview();
  const state = fromPreviewUri(uri);
  let index = typeof part === 'number' ? part : undefined;
  if (index === undefined) {
    const picked = await vscode.window.showQuickPick(
      state.files.map((f, i) => ({ label: `${i + 1}. ${baseName(f)}`, description: vscode.workspace.asRelativePath(vscode.Uri.parse(f), true), index: i + 1 })),
      { title: 'Compare Without Part', placeHolder: 'Which part do you want to see the effect of?' },
    );
    if (!picked) return undefined;
    index = picked.index;
  }
  if (!Number.isInteger(index) || index < 1 || index > state.files.length) throw new Error(`compareWithoutPart: there is no part ${index}`);
  // The merged data only, on both sides: the header (part numbers, the part left out, what was lost) and
  // cloud-init's "# from N files" comments differ whenever a part is left out, even when the data does not.
  const withPart = toPreviewUri({ ...state, exclude: undefined, view: 'data' });
  const withoutPart = toPreviewUri({ ...state, exclude: index, view: 'data' });
  const name = stemName(state.files[index - 1]);
  // Side by side needs the width of the whole editor area, which a preview beside its source lacks.
  await openFullWidthDiff(withoutPart, withPart, `Merged data: without ${name} ↔ with ${name}`, columnOf(uri) ?? vscode.ViewColumn.Active);
  stepDone('compared');
  return withoutPart;
}

/**
 * Switches the active preview between user-data, cloud.cfg.d, boot-time layering and Chef. `boot` (for
 * scripts) gives the layers; from a cloud.cfg.d preview its drop-ins stay system config (`boot.confd`)
 * and `files` names the user-data.
 */
async function changeModeCommand(previewArg?: unknown, mode?: PreviewMode, boot?: Boot, files?: string[]): Promise<vscode.Uri | undefined> {
  const uri = targetPreview(previewArg);
  if (!uri) return noPreview();
  const state = fromPreviewUri(uri);
  let newMode = mode;
  if (!newMode) {
    const picked = await vscode.window.showQuickPick(
      [
        { label: 'user-data', detail: 'Each file is one user-data blob, merged in order as cloud-init merges user-data.', mode: 'user-data' as const },
        { label: 'confd', detail: 'The files are /etc/cloud/cloud.cfg.d drop-ins, merged in cloud-init\'s order.', mode: 'confd' as const },
        { label: 'boot', detail: 'User-data laid over vendor-data and system config (cloud.cfg, cloud.cfg.d): you pick each layer next.', mode: 'boot' as const },
        { label: 'chef', detail: 'The files are Chef roles, environments or attribute files, deep-merged in order (later wins).', mode: 'chef' as const },
      ].map((i) => ({ ...i, description: i.mode === state.mode ? '(current)' : undefined })),
      { title: 'Change Preview Mode', placeHolder: 'How should the files be read?' },
    );
    if (!picked) return undefined;
    newMode = picked.mode;
  }
  if (!PREVIEW_MODES.includes(newMode)) throw new Error(`changeMode: unknown mode ${newMode}`);
  if (newMode === 'boot') {
    const layers = boot ? scriptedBoot(state, boot, files) : await pickBootLayers(state);
    if (!layers) return undefined;
    return replacePreview(uri, { mode: 'boot', files: layers.files, boot: layers.boot });
  }
  // Leaving boot mode: its drop-ins become the files of a cloud.cfg.d preview, its user-data those of the others.
  if (state.mode === 'boot' && newMode === 'confd' && state.boot?.confd?.length) {
    return replacePreview(uri, { mode: 'confd', files: state.boot.confd, boot: state.boot.cloudCfg ? { cloudCfg: state.boot.cloudCfg } : undefined });
  }
  const newBoot: Boot | undefined = newMode === 'user-data' ? undefined : newMode === 'confd' && state.boot?.cloudCfg ? { cloudCfg: state.boot.cloudCfg } : undefined;
  return replacePreview(uri, { mode: newMode, files: state.files, boot: newBoot });
}

function scriptedBoot(state: PreviewState, boot: Boot, files?: string[]): { files: string[]; boot: Boot } {
  if (state.mode === 'confd') return { files: files ?? [], boot: { ...boot, confd: boot.confd ?? state.files, cloudCfg: boot.cloudCfg ?? state.boot?.cloudCfg } };
  return { files: files ?? state.files, boot };
}

interface LayerItem extends vscode.QuickPickItem {
  uri?: vscode.Uri;
  browse?: true;
}

const BOOT_STEPS = 4;

/**
 * Asks, in four steps always shown, which files play each boot-time role: user-data, vendor-data,
 * /etc/cloud/cloud.cfg and the cloud.cfg.d drop-ins. Each step lists the workspace's candidates and
 * "Browse…" for any file. Coming from a cloud.cfg.d preview, its drop-ins are the system config.
 */
async function pickBootLayers(state: PreviewState): Promise<{ files: string[]; boot: Boot } | undefined> {
  const all = sortInWorkspaceOrder(await findCloudConfigFiles());
  const fromConfd = state.mode === 'confd';
  const currentUserData = fromConfd ? [] : state.files;
  const currentConfd = fromConfd ? state.files : (state.boot?.confd ?? []);
  const isDropIn = (u: vscode.Uri) => isConfDDropIn(u);
  const isCloudCfg = (u: vscode.Uri) => systemFileKind(u.path) === 'cloud-cfg' || (/\.cfg$/.test(u.path) && !isDropIn(u));
  const asItem = (uri: vscode.Uri, picked = false): LayerItem => ({ label: baseName(uri.toString()), description: vscode.workspace.asRelativePath(uri, true), uri, picked });
  const browse: LayerItem = { label: '$(folder-opened) Browse…', description: 'any file, in or outside the workspace', browse: true, alwaysShow: true };
  const none: LayerItem = { label: '(none)', description: 'this layer is empty' };
  const title = (step: number, what: string) => `Boot-time layering (${step}/${BOOT_STEPS}): ${what}`;

  const userData = await pickMany(
    title(1, 'user-data'),
    'Which files are the user-data? (the highest layer; in merge order)',
    all.filter((u) => !isDropIn(u) && !isCloudCfg(u)).map((u) => asItem(u, tickedUserData(currentUserData).includes(u.toString()))),
    browse,
    'Use as user-data',
  );
  if (!userData) return undefined;
  const vendorCandidates = all.filter((u) => !isDropIn(u) && !isCloudCfg(u) && !userData.some((d) => d.toString() === u.toString()));
  const proposed = proposedVendorData(vendorCandidates.map(String), userData.map(String), state.boot?.vendor);
  const vendor = await pickOne(title(2, 'vendor-data'), 'Which file is the vendor-data?', [none, ...vendorCandidates.map((u) => asItem(u))], browse, 'Use as vendor-data', proposed);
  if (vendor === undefined) return undefined;
  const cloudCfg = await pickOne(title(3, '/etc/cloud/cloud.cfg'), 'Which file is /etc/cloud/cloud.cfg?', [none, ...all.filter(isCloudCfg).map((u) => asItem(u))], browse, 'Use as cloud.cfg', state.boot?.cloudCfg);
  if (cloudCfg === undefined) return undefined;
  const dropIns = sortConfD([...new Map([...all.filter(isDropIn), ...currentConfd.map((u) => vscode.Uri.parse(u))].map((u) => [u.toString(), u])).values()]);
  const confd = await pickMany(
    title(4, '/etc/cloud/cloud.cfg.d'),
    dropIns.length ? 'Which cloud.cfg.d drop-ins apply? (system config, below user-data and vendor-data)' : 'No cloud.cfg.d drop-ins in this workspace: Browse…, or Enter for none',
    dropIns.map((u) => asItem(u, currentConfd.includes(u.toString()))),
    browse,
    'Use as drop-ins',
  );
  if (!confd) return undefined;
  return {
    files: userData.map(String),
    boot: {
      vendor: vendor?.toString(),
      cloudCfg: cloudCfg?.toString(),
      confd: confd.length ? sortConfD(confd).map(String) : undefined,
    },
  };
}

/** One file or none (null); undefined when cancelled. "Browse…" opens the file dialog. */
async function pickOne(title: string, placeHolder: string, items: LayerItem[], browse: LayerItem, openLabel: string, current?: string): Promise<vscode.Uri | null | undefined> {
  const ordered = current ? [...items.filter((i) => i.uri?.toString() === current), ...items.filter((i) => i.uri?.toString() !== current)] : items;
  const picked = await vscode.window.showQuickPick([...ordered, browse], { title, placeHolder, ignoreFocusOut: true });
  if (!picked) return undefined;
  if (picked.browse) {
    const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel, title });
    return chosen?.[0] ?? undefined;
  }
  return picked.uri ?? null;
}

/** Several files (possibly none); undefined when cancelled. Ticking "Browse…" adds files from the file dialog. */
async function pickMany(title: string, placeHolder: string, items: LayerItem[], browse: LayerItem, openLabel: string): Promise<vscode.Uri[] | undefined> {
  const picked = await vscode.window.showQuickPick([...items, browse], { title, placeHolder, canPickMany: true, ignoreFocusOut: true });
  if (!picked) return undefined;
  const uris = picked.filter((p) => p.uri).map((p) => p.uri as vscode.Uri);
  if (picked.some((p) => p.browse)) {
    const chosen = await vscode.window.showOpenDialog({ canSelectMany: true, openLabel, title });
    if (!chosen) return undefined;
    for (const u of chosen) if (!uris.some((x) => x.toString() === u.toString())) uris.push(u);
  }
  return uris;
}

function columnOf(uri: vscode.Uri): vscode.ViewColumn | undefined {
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if (input instanceof vscode.TabInputText && input.uri.toString() === uri.toString()) return group.viewColumn;
    }
  }
  return undefined;
}

/** Opens a preview beside the active editor, leaving the focus where it is. */
export async function openPreview(state: PreviewState, where: { beside: true } | { column: vscode.ViewColumn }): Promise<vscode.Uri> {
  const uri = toPreviewUri(state);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, {
    viewColumn: 'column' in where ? where.column : vscode.ViewColumn.Beside,
    preserveFocus: true,
    preview: false,
  });
  return uri;
}

/** Shows a changed preview in the tab of the old one. */
async function replacePreview(old: vscode.Uri, state: PreviewState): Promise<vscode.Uri> {
  const column = columnOf(old);
  const uri = await openPreview(state, column ? { column } : { beside: true });
  if (uri.toString() !== old.toString()) {
    const stale = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === old.toString());
    if (stale.length) await vscode.window.tabGroups.close(stale, true);
  }
  return uri;
}
