/**
 * The instance-data file changes on disk (edited elsewhere, regenerated, checked out): the documents
 * whose `cloudConfigMerge.instanceData` names it are analysed again at once, and the client is told
 * so that open rendered views ask again. Hovers and completion read it fresh on their own.
 *
 * One watcher covers the `*.json` files of the workspace folders; a file a setting names outside them
 * (an absolute path, `../shared/instance-data.json`) gets a watcher of its own, with a relative pattern
 * on its folder, while an open document uses it. The file a setting names is recognised when its change
 * arrives.
 */
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DidChangeWatchedFilesNotification, type DidChangeWatchedFilesParams, type Disposable, type FileSystemWatcher } from 'vscode-languageserver';
import { InstanceDataChangedNotification } from '../protocol';
import type { ServerContext } from './common/context';
import { guardCall } from './common/guard';
import { forgetInstanceDataFile, instanceDataFileOf } from './common/instanceData';
import { isInside } from './common/workspaceIncludes';

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

/**
 * The watchers of instance-data files outside every workspace folder, kept to the files the open
 * documents' settings name: registered anew (and the old registration dropped) when that set changes.
 */
export class OutsideInstanceDataWatch {
  private watched = '';
  private registration: Promise<Disposable | undefined> = Promise.resolve(undefined);

  constructor(private readonly ctx: ServerContext) {}

  /** Call when settings, open documents or workspace folders change. */
  update(): void {
    if (!this.ctx.support.watchedFilesRelative) return;
    const folders = this.ctx.workspaceFolders();
    const files = new Set<string>();
    for (const document of this.ctx.documents.all()) {
      const file = instanceDataFileOf(this.ctx.knownSettings(document.uri), document.uri, folders);
      if (file && !folders.some((folder) => isInside(file, folder))) files.add(file);
    }
    const key = [...files].sort().join('\n');
    if (key === this.watched) return;
    this.watched = key;
    const watchers: FileSystemWatcher[] = [...files].sort().map((file) => ({ globPattern: { baseUri: pathToFileURL(path.dirname(file)).href, pattern: path.basename(file) } }));
    const previous = this.registration;
    this.registration = previous.then(async (old) => {
      old?.dispose();
      if (!watchers.length) return undefined;
      return this.ctx.connection.client.register(DidChangeWatchedFilesNotification.type, { watchers }).catch((e: unknown) => {
        this.ctx.log.warn(`cannot watch instance-data files outside the workspace: ${String(e)}`);
        return undefined;
      });
    });
  }
}
