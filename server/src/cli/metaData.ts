/**
 * A NoCloud seed's meta-data given as a FILE (a file named meta-data, as NoCloud names it, or any FILE with
 * `--type meta-data`). It is not user-data: cloud-init never merges it. `--check` reads it as NoCloud reads
 * it (engine/seed/metaData.ts, the reading `--seed` uses) and lists the findings `--lint` gives for it
 * (engine/lint/metaDataLint.ts); a merge, `--plan` and the preview refuse it instead of merging it.
 */
import type { SetInputs } from '../engine/outcome/run';
import type { MetaDataReading } from '../engine/seed/metaData';
import type { MetaDataFoundBy } from '../engine/render/seedText';
import type { CliOptions } from './args';
import { seedFileOf } from './seedFiles';

export interface MetaDataFile {
  path: string;
  bytes: Uint8Array;
  by: MetaDataFoundBy;
  reading: MetaDataReading;
}

/**
 * `--check`: the FILEs that are meta-data, read as NoCloud reads them and taken out of `inputs` (what is
 * left is checked and merged as before). Which FILEs they are is seedFiles.ts's rule.
 */
export function metaDataFiles(o: CliOptions, inputs: SetInputs & { paths: string[] }): MetaDataFile[] {
  const found: MetaDataFile[] = [];
  const keep: number[] = [];
  inputs.files.forEach((f, i) => {
    const path = inputs.paths[i] ?? f.name;
    const file = seedFileOf(o, path, f.bytes);
    if (file?.kind !== 'meta-data') return keep.push(i);
    // Required here: a merge only asks whether a FILE is meta-data (seedFiles.ts), it never reads one.
    const { readMetaData } = require('../engine/seed/metaData') as typeof import('../engine/seed/metaData');
    found.push({ path, bytes: f.bytes, by: file.by, reading: readMetaData(f.bytes) });
  });
  inputs.files = keep.map((i) => inputs.files[i]);
  inputs.paths = keep.map((i) => inputs.paths[i]);
  return found;
}
