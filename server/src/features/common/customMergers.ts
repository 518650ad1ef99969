/**
 * Custom mergers declared in the `cloudConfigMerge.customMergers` setting (name → module path,
 * relative to the workspace folder). A module is code: it is loaded only when the client says the
 * workspace is trusted, only from inside the workspace folders, and reloaded when the file changes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MergerFactory } from '../../engine/merge/construct';
import { CustomMergerLoadError, loadCustomMerger } from '../../engine/merge/custom';
import { PyError } from '../../engine/py/errors';

export interface LoadedCustomMergers {
  /** By module name (`m_<name>`), for the engine. */
  modules: Map<string, MergerFactory>;
  /** By merger name: the module's own description, for hover and completion. */
  descriptions: Map<string, string>;
  /** Why a declared merger is not available (untrusted workspace, missing module, ...). */
  problems: string[];
  /** Identifies this set, for caches. */
  key: string;
}

export const NO_CUSTOM_MERGERS: LoadedCustomMergers = { modules: new Map(), descriptions: new Map(), problems: [], key: '' };

export class WorkspaceMergers {
  trusted = false;
  private cache = new Map<string, { stamp: string; loaded: ReturnType<typeof loadCustomMerger> | CustomMergerLoadError }>();

  load(declared: Record<string, string>, folders: string[]): LoadedCustomMergers {
    const names = Object.keys(declared).sort();
    if (!names.length) return NO_CUSTOM_MERGERS;
    if (!this.trusted) {
      return { ...NO_CUSTOM_MERGERS, problems: [`custom mergers (${names.join(', ')}) are not loaded: the workspace is not trusted`], key: 'untrusted' };
    }
    const result: LoadedCustomMergers = { modules: new Map(), descriptions: new Map(), problems: [], key: '' };
    const stamps: string[] = [];
    for (const name of names) {
      const file = path.resolve(folders[0] ?? process.cwd(), declared[name]);
      const inside = folders.some((f) => file === f || file.startsWith(f.endsWith(path.sep) ? f : f + path.sep));
      let loaded: ReturnType<typeof loadCustomMerger> | CustomMergerLoadError;
      let stamp = 'missing';
      if (!inside) loaded = new CustomMergerLoadError(`custom merger '${name}': ${file} is outside the workspace folders`);
      else {
        try {
          const st = fs.statSync(file);
          stamp = `${st.mtimeMs}:${st.size}`;
        } catch {
          /* reported by the load below */
        }
        const cached = this.cache.get(`${name}|${file}`);
        if (cached && cached.stamp === stamp) loaded = cached.loaded;
        else {
          delete require.cache[file];
          try {
            loaded = loadCustomMerger(name, file);
          } catch (e) {
            loaded = e instanceof CustomMergerLoadError ? e : new CustomMergerLoadError(`custom merger '${name}': ${(e as Error).message}`);
          }
          this.cache.set(`${name}|${file}`, { stamp, loaded });
        }
      }
      stamps.push(`${name}=${file}@${stamp}`);
      if (loaded instanceof CustomMergerLoadError) {
        const message = loaded.message;
        result.problems.push(message);
        // A spec naming it fails the way an unknown merger does, with the reason.
        result.modules.set(`m_${name}`, () => {
          throw new PyError('ImportError', message);
        });
      } else {
        result.modules.set(`m_${name}`, loaded.factory);
        result.descriptions.set(name, loaded.description ?? `A custom merger from ${declared[name]} (merges: ${loaded.handles.join(', ')}).`);
      }
    }
    result.key = stamps.join('|');
    return result;
  }
}
