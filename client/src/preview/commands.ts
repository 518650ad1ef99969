/**
 * The preview commands:
 *  - Preview Merged User-Data: from the Explorer (multi-select), an editor's
 *    title bar, or the Command Palette (pick files);
 *  - Change Merge Order…, Compare Without Part…, Change Preview Mode… on the
 *    active preview.
 * Each also takes its choices as arguments, so it can be scripted (and tested).
 */
import * as vscode from 'vscode';
import { findCloudConfigFiles, isCloudConfigDocument, looksLikeChefJson } from '../documents';
import { isConfDDropIn, sortConfD, sortInWorkspaceOrder } from '../order';
import { PREVIEW_MODES, PreviewMode, PreviewState, baseName, fromPreviewUri, isPreviewUri, toPreviewUri } from './uri';

type Boot = NonNullable<PreviewState['boot']>;

export function registerPreviewCommands(): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand('cloudConfigMerge.preview', previewCommand),
    vscode.commands.registerCommand('cloudConfigMerge.changeOrder', changeOrderCommand),
    vscode.commands.registerCommand('cloudConfigMerge.compareWithoutPart', compareWithoutPartCommand),
    vscode.commands.registerCommand('cloudConfigMerge.changeMode', changeModeCommand),
  );
}

/**
 * `(clicked, selected[])` from the Explorer, `(resource)` from an editor's
 * title bar, nothing from the palette (then a pick list of the workspace's
 * cloud-init files). Returns the preview's URI.
 */
async function previewCommand(clicked?: unknown, selected?: unknown): Promise<vscode.Uri | undefined> {
  let uris = Array.isArray(selected) && selected.length ? selected.filter((u): u is vscode.Uri => u instanceof vscode.Uri) : [];
  if (!uris.length && clicked instanceof vscode.Uri) uris = [clicked];
  if (!uris.length) {
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
  return openPreview(await stateFor(uris), { beside: true });
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
  const cloudCfg = uris.filter((u) => /\/cloud\.cfg$/.test(u.path));
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
  qp.title = 'Preview Merged User-Data';
  qp.placeholder = 'Pick the parts to merge (they merge in the order listed; reorder later with "Change Merge Order…")';
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
    files = await pickOrder(state.files);
  }
  if (!files || files.every((f, i) => f === state.files[i])) return uri;
  return replacePreview(uri, { ...state, files, exclude: undefined });
}

interface OrderItem extends vscode.QuickPickItem {
  file?: string;
}

function pickOrder(initial: string[]): Promise<string[] | undefined> {
  const order = [...initial];
  const up: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('arrow-up'), tooltip: 'Merge earlier' };
  const down: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('arrow-down'), tooltip: 'Merge later' };
  const apply: OrderItem = { label: '$(check) Apply this order', description: 'later parts merge over earlier ones', alwaysShow: true };
  const qp = vscode.window.createQuickPick<OrderItem>();
  qp.title = 'Change Merge Order';
  qp.placeholder = 'Enter on a part moves it up; the arrow buttons move it up or down';
  const render = (activeFile?: string) => {
    const items: OrderItem[] = [
      apply,
      ...order.map((file, i) => ({
        file,
        label: `${i + 1}. ${baseName(file)}`,
        description: vscode.workspace.asRelativePath(vscode.Uri.parse(file), true),
        buttons: [...(i > 0 ? [up] : []), ...(i < order.length - 1 ? [down] : [])],
      })),
    ];
    qp.items = items;
    const active = items.find((i) => i.file !== undefined && i.file === activeFile);
    if (active) qp.activeItems = [active];
  };
  const move = (file: string, by: number) => {
    const i = order.indexOf(file);
    const j = i + by;
    if (i < 0 || j < 0 || j >= order.length) return;
    [order[i], order[j]] = [order[j], order[i]];
    render(file);
  };
  render();
  return new Promise((resolve) => {
    qp.onDidTriggerItemButton((e) => e.item.file && move(e.item.file, e.button === up ? -1 : 1));
    qp.onDidAccept(() => {
      const item = qp.activeItems[0];
      if (item?.file) return move(item.file, -1);
      resolve([...order]);
      qp.hide();
    });
    qp.onDidHide(() => {
      resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}

/** Opens a diff of the merged result without one part (left) and with it (right). */
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
  const withPart = toPreviewUri({ ...state, exclude: undefined });
  const withoutPart = toPreviewUri({ ...state, exclude: index });
  const name = baseName(state.files[index - 1]);
  await vscode.commands.executeCommand('vscode.diff', withoutPart, withPart, `Merged: without ${name} ↔ with ${name}`, {
    viewColumn: columnOf(uri) ?? vscode.ViewColumn.Beside,
    preview: false,
  } satisfies vscode.TextDocumentShowOptions);
  return withoutPart;
}

/** Switches the active preview between user-data, cloud.cfg.d and boot-time layering. */
async function changeModeCommand(previewArg?: unknown, mode?: PreviewMode, boot?: Boot): Promise<vscode.Uri | undefined> {
  const uri = targetPreview(previewArg);
  if (!uri) return noPreview();
  const state = fromPreviewUri(uri);
  let newMode = mode;
  if (!newMode) {
    const picked = await vscode.window.showQuickPick(
      [
        { label: 'user-data', detail: 'Each file is one user-data blob, merged in order as cloud-init merges user-data.', mode: 'user-data' as const },
        { label: 'confd', detail: 'The files are /etc/cloud/cloud.cfg.d drop-ins, merged in cloud-init\'s order.', mode: 'confd' as const },
        { label: 'boot', detail: 'The files are user-data, laid over vendor-data and system config you pick next.', mode: 'boot' as const },
        { label: 'chef', detail: 'The files are Chef roles, environments or attribute files, deep-merged in order (later wins).', mode: 'chef' as const },
      ].map((i) => ({ ...i, description: i.mode === state.mode ? '(current)' : undefined })),
      { title: 'Change Preview Mode', placeHolder: 'How should the files be read?' },
    );
    if (!picked) return undefined;
    newMode = picked.mode;
  }
  if (!PREVIEW_MODES.includes(newMode)) throw new Error(`changeMode: unknown mode ${newMode}`);
  let newBoot: Boot | undefined = newMode === 'user-data' ? undefined : state.boot;
  if (newMode === 'boot') {
    newBoot = boot ?? (await pickBootLayers(state));
    if (!newBoot) return undefined;
  }
  return replacePreview(uri, { mode: newMode, files: state.files, boot: newBoot });
}

/** Asks which workspace files play the boot-time roles besides user-data. */
async function pickBootLayers(state: PreviewState): Promise<Boot | undefined> {
  const all = sortInWorkspaceOrder(await findCloudConfigFiles());
  const others = all.filter((u) => !state.files.includes(u.toString()));
  const none = { label: '(none)', uri: undefined as vscode.Uri | undefined };
  const asItems = (uris: vscode.Uri[]) => uris.map((uri) => ({ label: baseName(uri.toString()), description: vscode.workspace.asRelativePath(uri, true), uri }));
  const vendor = await vscode.window.showQuickPick([none, ...asItems(others.filter((u) => !/\.cfg$/.test(u.path)))], {
    title: 'Boot-time layering (1/3)', placeHolder: 'Which file is the vendor-data?',
  });
  if (!vendor) return undefined;
  const cloudCfg = await vscode.window.showQuickPick([none, ...asItems(others.filter((u) => /(^|\/)cloud\.cfg$/.test(u.path) || (/\.cfg$/.test(u.path) && !isConfDDropIn(u))))], {
    title: 'Boot-time layering (2/3)', placeHolder: 'Which file is /etc/cloud/cloud.cfg?',
  });
  if (!cloudCfg) return undefined;
  const dropIns = others.filter(isConfDDropIn);
  let confd: vscode.Uri[] = [];
  if (dropIns.length) {
    const picked = await vscode.window.showQuickPick(asItems(sortConfD(dropIns)), {
      title: 'Boot-time layering (3/3)', placeHolder: 'Which /etc/cloud/cloud.cfg.d drop-ins apply?', canPickMany: true,
    });
    if (!picked) return undefined;
    confd = picked.map((p) => p.uri);
  }
  return {
    vendor: vendor.uri?.toString(),
    cloudCfg: cloudCfg.uri?.toString(),
    confd: confd.length ? confd.map(String) : undefined,
  };
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
