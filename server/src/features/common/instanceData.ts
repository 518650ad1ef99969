/**
 * The instance data the `cloudConfigMerge.instanceData` setting chooses, for diagnostics, hovers,
 * completion and the rendered view: a sample by name, or a JSON file (relative paths from the first
 * workspace folder) read bounded by `limits.maxFileBytes`. A file is read again when it changes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chooseInstanceData, NO_INSTANCE_DATA, sampleNameOf, type InstanceDataChoice } from '../../engine/template/instanceData';
import { readError, readRegularFileSync } from './readFile';
import type { ServerSettings } from './settings';

const cache = new Map<string, { stamp: string; choice: InstanceDataChoice }>();

/** Where a setting's file is: absolute, `~/…`, or relative to the first workspace folder. */
export function instanceDataPath(setting: string, folders: readonly string[]): string {
  const value = setting.trim();
  if (value.startsWith('~/')) return path.join(process.env.HOME ?? '', value.slice(2));
  if (path.isAbsolute(value) || !folders.length) return path.resolve(value);
  return path.resolve(folders[0], value);
}

export function instanceDataFor(settings: ServerSettings, folders: readonly string[]): InstanceDataChoice {
  const setting = settings.instanceData;
  if (!setting) return NO_INSTANCE_DATA;
  const file = sampleNameOf(setting) ? null : instanceDataPath(setting, folders);
  let stamp = '';
  if (file) {
    try {
      const st = fs.statSync(file);
      stamp = `${st.mtimeMs}|${st.size}`;
    } catch {
      stamp = 'missing';
    }
  }
  const key = `${setting}|${settings.cloudInitVersion}|${file ?? ''}|${settings.limits.maxFileBytes}`;
  const hit = cache.get(key);
  if (hit && hit.stamp === stamp) return hit.choice;
  const choice = chooseInstanceData(setting, settings.cloudInitVersion, () => {
    let bytes: Uint8Array;
    try {
      bytes = readRegularFileSync(file as string, settings);
    } catch (e) {
      throw new Error(`${file}: ${readError(e)}`);
    }
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new Error(`${file}: not UTF-8 text`);
    }
  });
  if (cache.size > 16) cache.clear();
  cache.set(key, { stamp, choice });
  return choice;
}

/** A key for analyses: changes when the setting, the version or the chosen file changes. */
export function instanceDataKey(settings: ServerSettings, folders: readonly string[]): string {
  instanceDataFor(settings, folders);
  for (const [key, entry] of cache) if (key.startsWith(`${settings.instanceData}|${settings.cloudInitVersion}|`)) return `${key}|${entry.stamp}`;
  return settings.instanceData;
}
