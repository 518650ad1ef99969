/**
 * A diff that gets the whole editor area. VS Code draws a diff inline when its editor is narrower than
 * `diffEditor.renderSideBySideInlineBreakpoint` (900 px), which a preview beside its source always is;
 * so the diff's group is maximized while the diff is open and restored when it closes, as the user
 * would with "View: Toggle Maximize Editor Group" (the user's settings are left alone).
 */
import * as vscode from 'vscode';

const TOGGLE_MAXIMIZE = 'workbench.action.toggleMaximizeEditorGroup';

/** The group maximized for a diff, and the diff's sides; VS Code itself restores the group when another one is activated. */
let maximized: { column: vscode.ViewColumn; original: string; modified: string } | undefined;

/** Watches the tabs: restores the group when its diff closes. */
export function registerFullWidthDiffs(): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.window.tabGroups.onDidChangeTabs((e) => void restoreWhenClosed(e.closed)),
    // activating another group ends the maximized view (VS Code's rule): nothing to restore then
    vscode.window.tabGroups.onDidChangeTabGroups(() => {
      if (maximized && vscode.window.tabGroups.activeTabGroup.viewColumn !== maximized.column) maximized = undefined;
    }),
    { dispose: () => (maximized = undefined) },
  );
}

/** Opens `vscode.diff` in `column` and, when other groups share the width, maximizes its group until the diff closes. */
export async function openFullWidthDiff(original: vscode.Uri, modified: vscode.Uri, title: string, column: vscode.ViewColumn): Promise<void> {
  await vscode.commands.executeCommand('vscode.diff', original, modified, title, { viewColumn: column, preview: false } satisfies vscode.TextDocumentShowOptions);
  const group = vscode.window.tabGroups.activeTabGroup;
  // A lone group has the whole width already; an already maximized group stays as it is.
  if (vscode.window.tabGroups.all.length < 2 || maximized?.column === group.viewColumn) {
    if (maximized) maximized = { ...maximized, original: original.toString(), modified: modified.toString() };
    return;
  }
  await vscode.commands.executeCommand(TOGGLE_MAXIMIZE);
  maximized = { column: group.viewColumn, original: original.toString(), modified: modified.toString() };
}

async function restoreWhenClosed(closed: readonly vscode.Tab[]): Promise<void> {
  const diff = maximized;
  if (!diff) return;
  const isTheDiff = (t: vscode.Tab) => t.input instanceof vscode.TabInputTextDiff && t.input.original.toString() === diff.original && t.input.modified.toString() === diff.modified;
  if (!closed.some(isTheDiff)) return;
  maximized = undefined;
  if (vscode.window.tabGroups.all.length > 1 && vscode.window.tabGroups.activeTabGroup.viewColumn === diff.column) await vscode.commands.executeCommand(TOGGLE_MAXIMIZE);
}
