/** Helpers for the extension-host tests. */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { readFileSync, readdirSync } from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'cloud-config-merge.cloud-config-merge';
export const PREVIEW_SCHEME = 'cloud-config-merge-preview';
export const REPO = process.env.CLOUD_CONFIG_MERGE_REPO ?? path.resolve(__dirname, '../../../..');

export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the fixture workspace is open');
  return folder.uri;
}

export function fileUri(relative: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRoot(), ...relative.split('/'));
}

/** Polls until `fn` returns something truthy. */
export async function waitFor<T>(what: string, fn: () => T | undefined | null | false | Promise<T | undefined | null | false>, ms = 20000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function open(relative: string, column = vscode.ViewColumn.One): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(fileUri(relative));
  return vscode.window.showTextDocument(doc, { viewColumn: column, preview: false });
}

/** What the CLI prints for these workspace files (relative paths, run in the workspace folder). */
export function cli(args: string[]): string {
  return execFileSync(process.execPath, [path.join(REPO, 'bin/cloud-config-merge.js'), ...args], {
    cwd: workspaceRoot().fsPath,
    encoding: 'utf8',
  });
}

export function previewEditors(): vscode.TextEditor[] {
  return vscode.window.visibleTextEditors.filter((e) => e.document.uri.scheme === PREVIEW_SCHEME);
}

/** Resolves with the preview's text once it satisfies `ok` (previews refresh asynchronously). */
export async function previewText(uri: vscode.Uri, ok: (text: string) => boolean = () => true, ms = 20000): Promise<string> {
  return waitFor(`preview text of ${uri.path}`, async () => {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ?? (await vscode.workspace.openTextDocument(uri));
    const text = doc.getText();
    return ok(text) ? text : undefined;
  }, ms);
}

/** The text of a hover, joined. */
export async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n');
}

export function positionOf(doc: vscode.TextDocument, needle: string, offsetInNeedle = 0): vscode.Position {
  const at = doc.getText().indexOf(needle);
  assert.ok(at >= 0, `"${needle}" not found in ${doc.uri.path}`);
  return doc.positionAt(at + offsetInNeedle);
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Process ids of this extension's language servers (Linux /proc: the test never asks the extension). */
export function serverPids(): number[] {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, 'the extension is installed');
  const main = path.join(extension.extensionPath, 'dist', 'server.js');
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(main)) pids.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}
