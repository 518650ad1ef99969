/**
 * A NoCloud seed folder on disk: which of its files exist (engine/seed/seedFolder.ts decides the rest),
 * confined as a set is (node/inside.ts): a seed file that resolves outside the folders it may read (a
 * symbolic link to anywhere, a link to a folder) is left out, with a message that names it.
 */
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { seedFolder, SEED_OPTIONAL, SEED_REQUIRED, type SeedFolder } from '../engine/seed/seedFolder';
import { insideFolder } from './inside';

/** `folder`'s seed files that are regular files, as paths joined to `folder` as written (not confined). */
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

export interface SeedConfinement {
  /** The folders the seed's files must resolve into; null: any (the user allowed it). */
  folders: readonly string[] | null;
  /** What the folders are and how the user lifts the rule, for messages. */
  words: { folders: string; allowOutside: string };
}

/**
 * The seed folder with only the files that resolve inside `confine.folders`, and a message for each one
 * left out. `seed` keeps what the folder holds (NoCloud's verdict on it is about the folder), `confined`
 * what may be read.
 */
export function readConfinedSeedFolder(folder: string, confine: SeedConfinement, shown: string = folder): { seed: SeedFolder; confined: SeedFolder; refused: string[] } {
  const seed = readSeedFolder(folder);
  const present: SeedFolder['present'] = {};
  const refused: string[] = [];
  for (const name of [...SEED_REQUIRED, ...SEED_OPTIONAL]) {
    const file = seed.present[name];
    if (file === undefined) continue;
    if (confine.folders === null || confine.folders.some((f) => insideFolder(file, f))) present[name] = file;
    else refused.push(`${path.join(shown, name)} resolves outside ${confine.words.folders}, not read (${confine.words.allowOutside})`);
  }
  return { seed, confined: { ...seed, present }, refused };
}
