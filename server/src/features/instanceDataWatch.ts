/**
 * The instance-data file changes on disk (edited elsewhere, regenerated, checked out): the documents
 * whose `cloudConfigMerge.instanceData` names it are analysed again at once, and the client is told
 * so that open rendered views ask again. Hovers and completion read it fresh on their own.
 *
 * The watcher covers `*.json` files of the workspace folders (VS Code's watchers see nothing else
 * without a relative pattern); the file a setting names is recognised when its change arrives.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DidChangeWatchedFilesNotification, type DidChangeWatchedFilesParams } from 'vscode-languageserver';
import { InstanceDataChangedNotification } from '../protocol';
import type { ServerContext } from './common/context';
import { guardCall } from './common/guard';
import { forgetInstanceDataFile, instanceDataFileOf } from './common/instanceData';

export const INSTANCE_DATA_GLOB = '**/*.json';

export function registerInstanceDataWatch(ctx: ServerContext, refresh: (uri: string) => void): void {
  ctx.connection.onDidChangeWatchedFiles((params: DidChangeWatchedFilesParams) =>
    void guardCall(ctx.log, 'instanceDataWatch', () => {
      for (const change of params?.changes ?? []) instanceDataChanged(ctx, change.uri, refresh);
    }),
  );
}

/** After initialize: the client creates the watcher the server asks for (when it lets servers ask). */
export function watchInstanceDataFiles(ctx: ServerContext): void {
  if (!ctx.support.watchedFiles) return;
  ctx.connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: INSTANCE_DATA_GLOB }] }).catch((e: unknown) => ctx.log.warn(`cannot watch instance-data files: ${String(e)}`));
}

function instanceDataChanged(ctx: ServerContext, uri: string, refresh: (uri: string) => void): void {
  let file: string;
  try {
    file = path.resolve(fileURLToPath(uri));
  } catch {
    return;
  }
  const users = ctx.documents.all().filter((d) => instanceDataFileOf(ctx.knownSettings(d.uri), d.uri, ctx.workspaceFolders()) === file);
  if (!users.length) return;
  forgetInstanceDataFile(file);
  for (const document of users) refresh(document.uri);
  void ctx.connection.sendNotification(InstanceDataChangedNotification.method, { file });
}
