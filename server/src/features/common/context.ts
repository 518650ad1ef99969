/**
 * What every feature gets from the server: the connection, the open
 * documents, what the client supports, settings, and the one cached
 * analysis per document version that all features share.
 */
import type { ClientCapabilities, Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { ServerSettings } from './settings';
import { DocumentState } from './analysisCache';
import { Logger } from './log';
import type { LoadedCustomMergers } from './customMergers';

/** Client capabilities the features look at, read once at initialize. */
export interface ClientSupport {
  configuration: boolean;
  dynamicConfiguration: boolean;
  workspaceFolders: boolean;
  markdownHover: boolean;
  markdownCompletion: boolean;
  snippets: boolean;
  codeActionLiterals: boolean;
  /** workspace/inlayHint/refresh: hints are asked again when another file of a set changes. */
  inlayHintRefresh: boolean;
  /** The server may register file watchers (workspace/didChangeWatchedFiles). */
  watchedFiles: boolean;
  /** ... with a base folder (LSP 3.17 relative patterns): the only way to watch a file outside the workspace. */
  watchedFilesRelative: boolean;
}

export function clientSupport(capabilities: ClientCapabilities): ClientSupport {
  const text = capabilities.textDocument;
  return {
    configuration: !!capabilities.workspace?.configuration,
    dynamicConfiguration: !!capabilities.workspace?.didChangeConfiguration?.dynamicRegistration,
    workspaceFolders: !!capabilities.workspace?.workspaceFolders,
    markdownHover: !!text?.hover?.contentFormat?.includes('markdown'),
    markdownCompletion: !!text?.completion?.completionItem?.documentationFormat?.includes('markdown'),
    snippets: !!text?.completion?.completionItem?.snippetSupport,
    codeActionLiterals: !!text?.codeAction?.codeActionLiteralSupport,
    inlayHintRefresh: !!capabilities.workspace?.inlayHint?.refreshSupport,
    watchedFiles: !!capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration,
    watchedFilesRelative: !!capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration && !!capabilities.workspace.didChangeWatchedFiles.relativePatternSupport,
  };
}

export interface ServerContext {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly support: ClientSupport;
  readonly log: Logger;
  /** Settings for a document, asked from the client once and cached until the configuration changes. */
  settings(uri: string): Promise<ServerSettings>;
  /** The settings last known for a document, without a round trip (hover and completion must be fast). */
  knownSettings(uri: string): ServerSettings;
  /** The client's settings for a document as it answered them, before its set's image applies (what reads set files uses). */
  clientSettings(uri: string): ServerSettings;
  /** The analysis of the document's current version (computed once, shared by every feature). */
  state(document: TextDocument): DocumentState;
  /** File-system paths of the workspace folders. */
  workspaceFolders(): string[];
  /** Custom mergers declared in the settings (loaded only in trusted workspaces). */
  customMergers(settings: ServerSettings): LoadedCustomMergers;
}
