/** A NoCloud seed folder on disk: which of its files exist (engine/seed/seedFolder.ts decides the rest). */
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { seedFolder, type SeedFolder } from '../engine/seed/seedFolder';

/** `folder`'s seed files that are regular files, as paths joined to `folder` as written. */
export function readSeedFolder(folder: string): SeedFolder {
  return seedFolder(folder, (name) => {
    const file = path.join(folder, name);
    try {
      return statSync(file).isFile() ? file : undefined;
    } catch {
      return undefined;
    }
  });
}
