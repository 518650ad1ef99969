/**
 * The web extension (package.json `browser`): the same client (client/src/extension.ts), with the language server in
 * a Web Worker. The server reads no disk there: open documents are analysed and previewed; set files, includes and
 * parts that are not open are not read, and custom mergers (code) cannot run.
 */
import * as vscode from 'vscode';
import { activate as activateClient, deactivate, type CloudConfigMergeApi } from '../../client/src/extension';
import { setServerScript } from './languageclientNode';

export function activate(context: vscode.ExtensionContext): CloudConfigMergeApi {
  setServerScript(vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'server.js'));
  return activateClient(context);
}

export { deactivate };
