/**
 * The instance-data file changes on disk (edited elsewhere, regenerated, checked out) or in the editor
 * (unsaved changes): the documents whose `cloudConfigMerge.instanceData` names it are analysed again at
 * once, and the client is told so that open rendered views ask again. Hovers and completion read it
 * fresh on their own.
 *
 * One watcher covers the `*.json` files of the workspace folders; a file a setting names outside them
 * (an absolute path, `../shared/instance-data.json`) gets a watcher of its own, with a relative pattern
 * on its folder, while an open document uses it. The file a setting names is recognised when its change
 * arrives. The client is told which files the open documents use, and sends the text of those it has
 * open with unsaved changes.
 */
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DidChangeWatchedFilesNotification, type DidChangeWatchedFilesParams, type Disposable, type FileSystemWatcher } from 'vscode-languageserver';
import { InstanceDataChangedNotification, InstanceDataFilesNotification, InstanceDataTextNotification } from '../protocol';
import type { ServerContext } from './common/context';
import { guardCall } from './common/guard';
import { forgetInstanceDataFile, instanceDataFileOf, setUnsavedInstanceData } from './common/instanceData';
import { isInside } from '../sets/workspaceIncludes';

export const INSTANCE_DATA_GLOB = '**/*.json';

export function registerInstanceDataWatch(ctx: ServerContext, refresh: (uri: string) => void): void {
  ctx.connection.onDidChangeWatchedFiles((params: DidChangeWatchedFilesParams) =>
    void guardCall(ctx.log, 'instanceDataWatch', () => {
      for (const change of params?.changes ?? []) {
        const file = fileOf(change.uri);
        if (file) instanceDataChanged(ctx, file, refresh);
      }
    }),
  );
  ctx.connection.onNotification(InstanceDataTextNotification.method, (params: { file?: unknown; text?: unknown }) =>
    void guardCall(ctx.log, 'instanceDataText', () => {
      if (typeof params?.file !== 'string' || (typeof params.text !== 'string' && params.text !== null)) return;
      const file = path.resolve(params.file);
      if (setUnsavedInstanceData(file, params.text)) instanceDataChanged(ctx, file, refresh);
    }),
  );
}

/** After initialize: the client creates the watcher the server asks for (when it lets servers ask). */
export function watchInstanceDataFiles(ctx: ServerContext): void {
  if (!ctx.support.watchedFiles) return;
  ctx.connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: INSTANCE_DATA_GLOB }] }).catch((e: unknown) => ctx.log.warn(`cannot watch instance-data files: ${String(e)}`));
}

function fileOf(uri: string): string | undefined {
  try {
    return path.resolve(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

function instanceDataChanged(ctx: ServerContext, file: string, refresh: (uri: string) => void): void {
  const users = ctx.documents.all().filter((d) => instanceDataFileOf(ctx.knownSettings(d.uri), d.uri, ctx.workspaceFolders()) === file);
  if (!users.length) return;
  forgetInstanceDataFile(file);
  for (const document of users) refresh(document.uri);
  void ctx.connection.sendNotification(InstanceDataChangedNotification.method, { file });
}

/**
 * The instance-data files the open documents' settings name. The client is told the whole set when it
 * changes (it sends their unsaved text); those outside every workspace folder get watchers of their own,
 * registered anew (and the old registration dropped) when that set changes.
 */
export class InstanceDataFilesInUse {
  private used = '';
  private watched = '';
  private registration: Promise<Disposable | undefined> = Promise.resolve(undefined);

  constructor(private readonly ctx: ServerContext) {}

  /** Call when settings, open documents or workspace folders change. */
  update(): void {
    const folders = this.ctx.workspaceFolders();
    const files = new Set<string>();
    for (const document of this.ctx.documents.all()) {
      const file = instanceDataFileOf(this.ctx.knownSettings(document.uri), document.uri, folders);
      if (file) files.add(file);
    }
    const used = [...files].sort();
    const usedKey = used.join('\n');
    if (usedKey !== this.used) {
      this.used = usedKey;
      void this.ctx.connection.sendNotification(InstanceDataFilesNotification.method, { files: used });
    }
    if (this.ctx.support.watchedFilesRelative) this.watchOutside(used.filter((file) => !folders.some((folder) => isInside(file, folder))));
  }

  private watchOutside(files: string[]): void {
    const key = files.join('\n');
    if (key === this.watched) return;
    this.watched = key;
    const watchers: FileSystemWatcher[] = files.map((file) => ({ globPattern: { baseUri: pathToFileURL(path.dirname(file)).href, pattern: path.basename(file) } }));
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
