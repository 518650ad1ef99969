/**
 * The orders a preview's parts are listed in when the user does not give one.
 *
 * Workspace order is what the Explorer shows with its default sort: folder by
 * folder (workspace folders in their order, then subfolders before files at
 * each level), names compared as the Explorer compares them (a numeric-aware
 * collator, so `part-2` comes before `part-10`, case only breaking ties).
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { systemFileKind } from '../../common/detect';

const collator = new Intl.Collator(undefined, { numeric: true });

/** Compares two file or folder names the way the Explorer's default sort does. */
export function compareNames(a: string, b: string): number {
  const c = collator.compare(a, b);
  if (c !== 0) return c;
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Compares two slash-separated relative paths in Explorer order: at the first
 * segment where they differ, a folder (the path that goes on) sorts before a file.
 */
export function compareRelativePaths(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  const n = Math.min(sa.length, sb.length);
  for (let i = 0; i < n; i++) {
    if (sa[i] === sb[i]) continue;
    const aIsFolder = i < sa.length - 1;
    const bIsFolder = i < sb.length - 1;
    if (aIsFolder !== bIsFolder) return aIsFolder ? -1 : 1;
    return compareNames(sa[i], sb[i]);
  }
  return sa.length - sb.length;
}

interface OrderKey {
  folder: number;
  relative: string;
}

function orderKey(uri: vscode.Uri): OrderKey {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (folder) {
    const relative = path.posix.relative(folder.uri.path, uri.path);
    return { folder: folder.index, relative };
  }
  // outside every workspace folder (or untitled): after the workspace, by full path
  return { folder: Number.MAX_SAFE_INTEGER, relative: uri.scheme === 'file' ? uri.path.replace(/^\//, '') : uri.toString() };
}

/** Sorts URIs into workspace (Explorer) order; returns a new array. */
export function sortInWorkspaceOrder(uris: readonly vscode.Uri[]): vscode.Uri[] {
  const keyed = uris.map((uri) => ({ uri, key: orderKey(uri) }));
  keyed.sort((x, y) => x.key.folder - y.key.folder || compareRelativePaths(x.key.relative, y.key.relative));
  return keyed.map((k) => k.uri);
}

/** True for `…/cloud.cfg.d/NAME.cfg`. */
export function isConfDDropIn(uri: vscode.Uri): boolean {
  return systemFileKind(uri.path) === 'confd';
}

/**
 * cloud.cfg.d drop-ins in cloud-init's order of precedence: names by
 * descending code point, so the highest-priority file comes first. (The
 * server sorts drop-ins itself; this order is only what the user sees.)
 */
export function sortConfD(uris: readonly vscode.Uri[]): vscode.Uri[] {
  const base = (u: vscode.Uri) => u.path.slice(u.path.lastIndexOf('/') + 1);
  return [...uris].sort((a, b) => compareCodePoints(base(b), base(a)) || compareCodePoints(b.path, a.path));
}

/** Python's string order (by code point), which differs from `<` on UTF-16 for characters beyond U+FFFF. */
export function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
