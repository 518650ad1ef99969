/**
 * `vscode-languageclient/node` for the web extension: the browser library, whose LanguageClient talks to the server
 * in a Web Worker (dist/web/server.js) instead of a Node process. client/src/client.ts is unchanged: it names the
 * server's module and a transport, which mean nothing in a browser; the worker's script is the one extension.ts set.
 */
import type * as vscode from 'vscode';
import { LanguageClient as BrowserLanguageClient, type LanguageClientOptions } from 'vscode-languageclient/browser';

export * from 'vscode-languageclient/browser';

/** Node's transports, named by client.ts's server options (unused here). */
export enum TransportKind {
  stdio = 0,
  ipc = 1,
  pipe = 2,
  socket = 3,
}

let serverScript: vscode.Uri | undefined;

/**
 * Where documents live in VS Code for the web besides `file` (a local folder opened in vscode.dev): github.dev's and
 * vscode.dev's repositories (`vscode-vfs`), and @vscode/test-web's mounted folder. The desktop selector's `file`
 * filters are repeated for them.
 */
const WEB_SCHEMES = ['vscode-vfs', 'vscode-test-web'];

function forTheWeb(selector: LanguageClientOptions['documentSelector']): LanguageClientOptions['documentSelector'] {
  return selector?.flatMap((f) => (typeof f !== 'string' && 'scheme' in f && f.scheme === 'file' ? [f, ...WEB_SCHEMES.map((scheme) => ({ ...f, scheme }))] : [f]));
}

/** The worker script of the server (extension.ts sets it from the extension's location). */
export function setServerScript(uri: vscode.Uri): void {
  serverScript = uri;
}

export class LanguageClient extends BrowserLanguageClient {
  constructor(id: string, name: string, _serverOptions: unknown, clientOptions: LanguageClientOptions) {
    if (!serverScript) throw new Error('the web extension did not set the language server script');
    super(id, name, new Worker(serverScript.toString(true)), { ...clientOptions, documentSelector: forTheWeb(clientOptions.documentSelector) });
  }
}
