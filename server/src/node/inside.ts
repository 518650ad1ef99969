/**
 * Whether a path lies inside a folder: the one rule by which the editor confines `#include` and sets
 * (sets/workspaceIncludes.ts, node/sets.ts) and the CLI confines `--set`. Symbolic links are
 * resolved first, so a link inside a folder to a file outside is outside.
 */
import { realpathSync } from 'node:fs';
import * as path from 'node:path';

/** A path with its symbolic links resolved; for a path that does not exist (yet), its nearest existing parent's. */
export function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    const parent = path.dirname(file);
    return parent === file ? path.resolve(file) : path.join(realpathOr(parent), path.basename(file));
  }
}

/** Whether `file` lies in `folder`, both taken as written. */
export function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Whether `file` lies in `folder` once the links of both are resolved. */
export function insideFolder(file: string, folder: string): boolean {
  return isInside(realpathOr(file), realpathOr(folder));
}
