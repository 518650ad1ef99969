/**
 * How the editor answers `#include` lines, for the preview and for sets of parts alike: a local path
 * (or `file://` URL) is read with the one bounded reader (`limits.maxFileBytes`), an open editor's
 * unsaved text first, and only inside the workspace folders unless `includes.allowOutsideWorkspace`
 * (a restricted setting: an untrusted workspace cannot turn it on for itself). Other URLs are never
 * fetched; a set's include map may answer them with local files, which obey the same rules.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { IncludeResolver } from '../engine/userdata/process';
import { includeTarget } from '../engine/userdata/includeUrl';
import { readError } from '../features/common/readFile';
import { openOrDiskBytes } from '../features/common/workspaceFiles';
import type { ServerSettings } from '../features/common/settings';
import { isInside, realpathOr } from '../node/inside';

export interface IncludeReading {
  settings: ServerSettings;
  /** The workspace folders (file-system paths). */
  folders: readonly string[];
  /** The open document of a file, if any. */
  openDocument(file: string): TextDocument | undefined;
  /** The name the engine's locations carry for a file read (by its URI). */
  nameFor(uri: string): string;
  /** Said to the user (the preview's problems); cloud-init's own message goes to the engine. */
  problem?(message: string): void;
  /** Every file read or tried, by URI (the preview refreshes on their edits). */
  touched?(uri: string): void;
  /** URL → local file (absolute), answered before anything else (a set's `includeMap`). */
  map?: ReadonlyArray<{ url: string; file: string }>;
}

export function workspaceIncludeResolver(reading: IncludeReading): IncludeResolver {
  const folders = reading.folders.map(realpathOr);
  const mapped = new Map((reading.map ?? []).map((m) => [m.url, m.file]));
  const readLocal = (file: string, url: string) => {
    const open = reading.openDocument(file);
    const uri = open?.uri ?? pathToFileURL(file).href;
    reading.touched?.(uri);
    if (!reading.settings.includes.allowOutsideWorkspace && !folders.some((f) => isInside(realpathOr(file), f))) {
      reading.problem?.(`#include ${file}: outside the workspace folders, not read. cloud-init would read it from the instance's own disk.`);
      return { ok: false as const, message: `[Errno 13] ${file} is outside the workspace folders; not read (setting cloudConfigMerge.includes.allowOutsideWorkspace) for url: ${url}` };
    }
    try {
      const bytes = openOrDiskBytes(open, file, reading.settings.limits.maxFileBytes);
      return { ok: true as const, bytes, name: reading.nameFor(uri) };
    } catch (e) {
      reading.problem?.(`#include ${file}: cannot be read (${readError(e)}).`);
      return { ok: false as const, message: `[Errno 2] ${readError(e)} for url: ${url}` };
    }
  };
  return {
    read: (url) => {
      // `url` is the line as cloud-init strips it (Python's strip keeps U+FEFF, JavaScript's trim does not).
      const file = mapped.get(url);
      if (file !== undefined) return readLocal(file, url);
      const target = includeTarget(url);
      if (target.kind === 'remote') {
        const message = `${target.url}: not fetched (the editor never fetches URLs). At boot cloud-init fetches it; if it cannot, cloud-init processes none of this user-data`;
        reading.problem?.(`#include ${message}.`);
        return { ok: false, message };
      }
      // cloud-init runs in / at boot: that is what a relative path is relative to.
      return readLocal(path.resolve('/', target.path), target.url);
    },
  };
}

export { isInside, realpathOr } from '../node/inside';
