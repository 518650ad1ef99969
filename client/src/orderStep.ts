/**
 * The order step: before files given together are merged (a preview of a selection, of the palette's
 * pick or of a folder's files; Build MIME User-Data), a pick list shows the parts in the order they will
 * merge, top first, each with buttons that move it up or down, and "Merge in this order" to go on.
 * The order offered is a saved set's when one (cloud-config-merge.yaml) has exactly these files, else
 * the Explorer's name order; a NoCloud seed folder's user-data and vendor-data are the seed, whose order
 * is cloud-init's (user-data over vendor-data), so the step is not shown. The server says which (partOrder),
 * and which files are not user-data at all (a seed's meta-data, a network-config): those are left out.
 * A container given beside its own parts (a MIME built from them, an archive, gzip or base64 of them: the
 * server compares contents) is said there, and starts left out: its button puts it back. Change Merge
 * Order… on an open preview is the same list.
 *
 * VS Code gives a command the Explorer's selection in the Explorer's order: the order the files were
 * clicked in is not known, so it is shown and chosen here.
 */
import * as vscode from 'vscode';
import { PartOrderRequest, type PartOrderResult, type SetOfResult } from '../../server/src/protocol';
import type { Server } from './client';
import { sortInWorkspaceOrder } from './order';
import { baseName } from './preview/uri';

/** What a script passes instead of using the step: `default` takes the order offered, a list of URIs is the order. */
export type ScriptedOrder = 'default' | string[];

export interface OrderChoice {
  /** The files to merge, in merge order (those left out removed). */
  files: vscode.Uri[];
  /** The set the server says the files given are, when they are one (its mode and layers apply). */
  set?: SetOfResult;
  /** Files given that are not user-data (a seed's meta-data, a network-config), left out: the server's words why. */
  notUserData: string[];
}

/**
 * The order `uris` merge in: asked in the order step (two files or more), or as `scripted` says.
 * Undefined when the step is cancelled. What the files are is the server's answer (partOrder): files
 * that are not user-data are left out, and with `step.boot` the user-data and vendor-data of a NoCloud
 * seed folder merge as the seed (its user-data over its vendor-data), in cloud-init's order, not asked.
 */
export async function chooseOrder(server: Server | undefined, given: readonly vscode.Uri[], step: { title: string; accept: string; boot?: boolean }, scripted?: unknown): Promise<OrderChoice | undefined> {
  if (Array.isArray(scripted)) {
    const files = scripted.map((u) => (u instanceof vscode.Uri ? u : vscode.Uri.parse(String(u))));
    if (!files.length) throw new Error('the order must name at least one file');
    return { files, notUserData: [] };
  }
  const info = await orderInfo(server, given);
  const byPath = new Map(given.map((u) => [u.fsPath, u]));
  const refused = new Set((info.notUserData ?? []).map((n) => uriKey(n.file, byPath)));
  const notUserData = (info.notUserData ?? []).map((n) => n.message);
  const uris = given.filter((u) => !refused.has(u.toString()));
  if (!uris.length) return { files: [], notUserData };
  if (info.set?.seed && step.boot) return { files: info.set.files.map((f) => byPath.get(vscode.Uri.parse(f).fsPath) ?? vscode.Uri.parse(f)), set: info.set, notUserData };
  const fromSet = info.set?.files.map((f) => byPath.get(vscode.Uri.parse(f).fsPath)).filter((u): u is vscode.Uri => u !== undefined);
  const set = fromSet && fromSet.length === uris.length ? info.set : undefined;
  const ordered = set && fromSet ? fromSet : sortInWorkspaceOrder(uris);
  const notes = new Map(info.containers.map((c) => [uriKey(c.file, byPath), c]));
  const leftOut = new Set(notes.keys());
  if (uris.length < 2 || scripted === 'default') {
    const files = ordered.filter((u) => !leftOut.has(u.toString()));
    return { files, ...(set ? { set } : {}), notUserData };
  }
  const basis = set ? `the order of set ${set.name} (cloud-config-merge.yaml)` : 'name order, as the Explorer sorts';
  const chosen = await pickOrder(ordered.map(String), {
    title: `${step.title}: ${basis}`,
    accept: step.accept,
    notes: new Map([...notes].map(([file, c]) => [file, c.message])),
    leftOut,
  });
  if (!chosen) return undefined;
  return { files: chosen.map((f) => vscode.Uri.parse(f)), ...(set ? { set } : {}), notUserData };
}

/** The selected URI a server's URI names (the server writes file URIs its own way). */
function uriKey(uri: string, byPath: Map<string, vscode.Uri>): string {
  return (byPath.get(vscode.Uri.parse(uri).fsPath) ?? vscode.Uri.parse(uri)).toString();
}

async function orderInfo(server: Server | undefined, uris: readonly vscode.Uri[]): Promise<PartOrderResult> {
  if (!server || !uris.length) return { containers: [] };
  try {
    return await server.request(PartOrderRequest, { files: uris.map(String) });
  } catch {
    // No server (it failed to start): the name order, and nothing said about containers.
    return { containers: [] };
  }
}

interface OrderItem extends vscode.QuickPickItem {
  file?: string;
}

export interface OrderListOptions {
  title: string;
  /** The first item's label, which goes on (`Merge in this order`). */
  accept: string;
  /** What is said under a file (a container's contents); such a file has a button that leaves it out or puts it back. */
  notes?: ReadonlyMap<string, string>;
  /** Files (among those with a note) that start left out. */
  leftOut?: ReadonlySet<string>;
}

/**
 * The list of parts in merge order, top first: the arrow buttons (or Enter on a part) move a part,
 * a note's button leaves its file out or puts it back, the first item goes on. Resolves with the files
 * to merge in the chosen order, or undefined when dismissed.
 */
export function pickOrder(initial: readonly string[], options: OrderListOptions): Promise<string[] | undefined> {
  const order = [...initial];
  const out = new Set(options.leftOut ?? []);
  const notes = options.notes ?? new Map<string, string>();
  const up: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('arrow-up'), tooltip: 'Merge earlier' };
  const down: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('arrow-down'), tooltip: 'Merge later' };
  const leave: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('remove'), tooltip: 'Leave it out' };
  const back: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('add'), tooltip: 'Merge it too' };
  const qp = vscode.window.createQuickPick<OrderItem>();
  qp.title = options.title;
  qp.placeholder = 'Later parts merge over earlier ones. Move a part with its arrow buttons (Enter: up).';
  qp.ignoreFocusOut = true;
  const render = (activeFile?: string) => {
    const merged = order.filter((f) => !out.has(f));
    const accept: OrderItem = { label: `$(check) ${options.accept}`, description: `${merged.length} part${merged.length === 1 ? '' : 's'}, top first`, alwaysShow: true };
    const items: OrderItem[] = [
      accept,
      ...order.map((file, i) => {
        const note = notes.get(file);
        const left = out.has(file);
        return {
          file,
          label: left ? `$(circle-slash) ${baseName(file)} (left out)` : `${merged.indexOf(file) + 1}. ${baseName(file)}`,
          description: vscode.workspace.asRelativePath(vscode.Uri.parse(file), (vscode.workspace.workspaceFolders?.length ?? 0) > 1),
          ...(note ? { detail: left ? `${note}; left out` : `${note}; their parts merge twice` } : {}),
          buttons: [...(i > 0 ? [up] : []), ...(i < order.length - 1 ? [down] : []), ...(note ? [left ? back : leave] : [])],
        };
      }),
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
  const toggle = (file: string) => {
    if (!out.delete(file)) out.add(file);
    render(file);
  };
  render();
  return new Promise((resolve) => {
    qp.onDidTriggerItemButton((e) => {
      const file = e.item.file;
      if (!file) return;
      if (e.button === up || e.button === down) move(file, e.button === up ? -1 : 1);
      else toggle(file);
    });
    qp.onDidAccept(() => {
      const item = qp.activeItems[0];
      if (item?.file) return move(item.file, -1);
      const merged = order.filter((f) => !out.has(f));
      if (!merged.length) return;
      resolve(merged);
      qp.hide();
    });
    qp.onDidHide(() => {
      resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}
