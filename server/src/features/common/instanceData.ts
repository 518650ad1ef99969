/**
 * The instance data the `cloudConfigMerge.instanceData` setting chooses, for diagnostics, hovers,
 * completion and the rendered view: a sample by name, or a JSON file read bounded by
 * `limits.maxFileBytes`. A relative path resolves from the workspace folder of the document that
 * uses it (multi-root: each folder its own file). A file is read again when it changes, and while the
 * editor has it open with unsaved changes, the editor's text is used instead.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseInstanceData, instanceDataText, NO_INSTANCE_DATA, sampleNameOf, type InstanceDataChoice } from '../../engine/template/instanceData';
import { overFileLimit, readError, readRegularFileSync } from './readFile';
import type { ServerSettings } from './settings';

interface CachedChoice {
  file: string | null;
  stamp: string;
  choice: InstanceDataChoice;
}

const cache = new Map<string, CachedChoice>();
/** Counts the changes the watcher reported: part of every analysis key, so a forgotten file is analysed again. */
let changes = 0;

/** The workspace folder a document lies in (the innermost), else the first folder. */
export function folderOf(uri: string, folders: readonly string[]): string | undefined {
  let file: string;
  try {
    file = path.resolve(fileURLToPath(uri));
  } catch {
    return folders[0];
  }
  const holding = folders.filter((f) => file === f || file.startsWith(f.endsWith(path.sep) ? f : f + path.sep));
  return holding.sort((a, b) => b.length - a.length)[0] ?? folders[0];
}

/** Where a setting's file is: absolute, `~/…`, or relative to the document's workspace folder. */
export function instanceDataPath(setting: string, folder: string | undefined): string {
  const value = setting.trim();
  if (value.startsWith('~/')) return path.join(process.env.HOME ?? '', value.slice(2));
  if (path.isAbsolute(value) || !folder) return path.resolve(value);
  return path.resolve(folder, value);
}

/** The file a document's setting names; null for a sample or no setting. */
export function instanceDataFileOf(settings: ServerSettings, uri: string, folders: readonly string[]): string | null {
  const setting = settings.instanceData;
  if (!setting || sampleNameOf(setting)) return null;
  return instanceDataPath(setting, folderOf(uri, folders));
}

/**
 * The text of instance-data files open in the editor with unsaved changes, by file: what the user sees
 * wins over the disk until the editor saves, reverts or closes the file.
 */
const unsaved = new Map<string, { text: string; version: number }>();
let unsavedVersions = 0;

/** The key of a file in `unsaved`: Windows paths compare without case (drive letters differ in case). */
function unsavedKey(file: string): string {
  const resolved = path.resolve(file);
  return process.platform === 'win32' ? resolved.toLowerCase() : resolved;
}

/**
 * The editor's unsaved text of an instance-data file, or null when the file on disk is current again.
 * Returns false when nothing changed.
 */
export function setUnsavedInstanceData(file: string, text: string | null): boolean {
  const key = unsavedKey(file);
  if (text === null) return unsaved.delete(key);
  if (unsaved.get(key)?.text === text) return false;
  unsaved.set(key, { text, version: ++unsavedVersions });
  return true;
}

function stampOf(file: string | null): string {
  if (!file) return '';
  const edited = unsaved.get(unsavedKey(file));
  if (edited) return `unsaved ${edited.version}`;
  try {
    const st = fs.statSync(file);
    return `${st.mtimeMs}|${st.size}`;
  } catch {
    return 'missing';
  }
}

function cachedChoice(settings: ServerSettings, uri: string, folders: readonly string[]): CachedChoice & { key: string } {
  const setting = settings.instanceData;
  const file = instanceDataFileOf(settings, uri, folders);
  const stamp = stampOf(file);
  const key = `${setting}|${settings.cloudInitVersion}|${file ?? ''}|${settings.limits.maxFileBytes}`;
  const hit = cache.get(key);
  if (hit && hit.stamp === stamp) return { ...hit, key };
  const choice = chooseInstanceData(setting, settings.cloudInitVersion, () => {
    const edited = unsaved.get(unsavedKey(file as string));
    if (edited) {
      const max = settings.limits.maxFileBytes;
      const size = Buffer.byteLength(edited.text);
      if (size > max) throw new Error(`${file} (unsaved): ${overFileLimit(size, max)}`);
      return edited.text;
    }
    let bytes: Uint8Array;
    try {
      bytes = readRegularFileSync(file as string, settings);
    } catch (e) {
      throw new Error(`${file}: ${readError(e)}`, { cause: e });
    }
    try {
      return instanceDataText(bytes);
    } catch (e) {
      throw new Error(`${file}: ${(e as Error).message}`, { cause: e });
    }
  });
  if (cache.size > 16) cache.clear();
  const entry = { file, stamp, choice };
  cache.set(key, entry);
  return { ...entry, key };
}

/** The instance data for a document (its settings, its workspace folder). */
export function instanceDataFor(settings: ServerSettings, uri: string, folders: readonly string[]): InstanceDataChoice {
  if (!settings.instanceData) return NO_INSTANCE_DATA;
  return cachedChoice(settings, uri, folders).choice;
}

/** A key for analyses: changes when the setting, the version, the chosen file or its content changes. */
export function instanceDataKey(settings: ServerSettings, uri: string, folders: readonly string[]): string {
  if (!settings.instanceData) return '';
  const { key, stamp } = cachedChoice(settings, uri, folders);
  return `${key}|${stamp}|${changes}`;
}

/**
 * A file changed on disk (the client's watcher said so): what was read of it is dropped, so that a
 * change within the stat's time resolution, or one that keeps the size, is still seen.
 */
export function forgetInstanceDataFile(file: string): void {
  for (const [key, entry] of cache) if (entry.file === file) cache.delete(key);
  changes++;
}
