/**
 * Unsaved edits of an instance-data file: the server reads the file from disk, so the client sends the
 * text of an open copy with unsaved changes (and null once it is saved, reverted or closed), for the
 * files the server says the open documents use. It only forwards text; the server renders.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { InstanceDataFilesNotification, InstanceDataTextNotification } from '../../server/src/protocol';

/** Windows paths compare without case (the drive letter's case differs between VS Code and node). */
const fileKey = (fsPath: string): string => (process.platform === 'win32' ? fsPath.toLowerCase() : fsPath);

export function forwardInstanceDataEdits(client: LanguageClient): vscode.Disposable {
  let used = new Set<string>();
  /** Files whose unsaved text the server holds. */
  const held = new Set<string>();
  const sync = (document: vscode.TextDocument, closed = false): void => {
    if (document.uri.scheme !== 'file') return;
    const key = fileKey(document.uri.fsPath);
    const text = !closed && document.isDirty ? document.getText() : null;
    // Unsaved text only for the files in use; the end of it for every file the server holds text of.
    if (text === null) {
      if (!held.delete(key)) return;
    } else {
      if (!used.has(key)) return;
      held.add(key);
    }
    const params: NonNullable<typeof InstanceDataTextNotification.types>['params'] = { file: document.uri.fsPath, text };
    void client.sendNotification(InstanceDataTextNotification.method, params).catch(() => undefined);
  };
  return vscode.Disposable.from(
    client.onNotification(InstanceDataFilesNotification.method, (params: { files?: unknown }) => {
      used = new Set((Array.isArray(params?.files) ? params.files : []).map((f) => fileKey(String(f))));
      // Sent again to a restarted server too (which holds none); the server ignores text it has.
      for (const document of vscode.workspace.textDocuments) sync(document);
    }),
    vscode.workspace.onDidChangeTextDocument((e) => sync(e.document)),
    vscode.workspace.onDidSaveTextDocument((document) => sync(document)),
    vscode.workspace.onDidCloseTextDocument((document) => sync(document, true)),
  );
}
