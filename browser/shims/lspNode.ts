/**
 * `vscode-languageserver/node` for the server's Web Worker: the browser library, and a connection over the
 * worker's own messages (postMessage) whatever transport server.ts asks for.
 */
import { BrowserMessageReader, BrowserMessageWriter, ProposedFeatures, createConnection as createBrowserConnection, type Connection } from 'vscode-languageserver/browser';

export * from 'vscode-languageserver/browser';

/** Not used in a worker (server.ts asks for IPC only when it was forked by Node). */
export class IPCMessageReader {}
export class IPCMessageWriter {}

export function createConnection(features: typeof ProposedFeatures.all = ProposedFeatures.all): Connection {
  // The worker's global scope speaks as a Worker does (postMessage, message events).
  const scope = self as unknown as Worker;
  return createBrowserConnection(features, new BrowserMessageReader(scope), new BrowserMessageWriter(scope));
}
