/**
 * A NoCloud seed's meta-data given as a FILE (a file named meta-data, as NoCloud names it, or any FILE with
 * `--type meta-data`). It is not user-data: cloud-init never merges it. `--check` reads it as NoCloud reads
 * it (engine/seed/metaData.ts, the reading `--seed` uses) and lists the findings `--lint` gives for it
 * (engine/lint/metaDataLint.ts); a merge, `--plan` and the preview refuse it instead of merging it.
 */
import { detectCloudInitDocument, detectionTextOfBytes } from '../../../common/detect';
import type { SetInputs } from '../engine/outcome/run';
import type { MetaDataReading } from '../engine/seed/metaData';
import type { MetaDataFoundBy } from '../engine/render/seedText';
import { UsageError, type CliOptions } from './args';

/** The modes whose FILEs are user-data: there a FILE named meta-data is a seed's meta-data given by mistake. */
const USER_DATA_MODES: ReadonlyArray<CliOptions['mode']> = ['user-data', 'handler', 'boot'];

export interface MetaDataFile {
  path: string;
  bytes: Uint8Array;
  by: MetaDataFoundBy;
  reading: MetaDataReading;
}

/** How the FILE is known to be meta-data (`--type meta-data`, or its name where FILEs are user-data), or undefined. */
function foundBy(o: CliOptions, path: string, bytes: Uint8Array): MetaDataFoundBy | undefined {
  if (o.type === 'meta-data') return 'type';
  if (o.type !== undefined || !USER_DATA_MODES.includes(o.mode)) return undefined;
  return detectCloudInitDocument(detectionTextOfBytes(bytes), path)?.kind === 'meta-data' ? 'name' : undefined;
}

/**
 * `--check`: the FILEs that are meta-data, read as NoCloud reads them and taken out of `inputs` (what is
 * left is checked and merged as before). `--image all` and `--annotate`, which only speak of user-data, refuse them.
 */
export function metaDataFiles(o: CliOptions, inputs: SetInputs & { paths: string[] }): MetaDataFile[] {
  if (o.type === 'meta-data' && !USER_DATA_MODES.includes(o.mode)) throw new UsageError(`--type meta-data reads FILEs given as user-data (the user-data, handler and boot modes), not ${o.mode} FILEs`);
  const found: MetaDataFile[] = [];
  const keep: number[] = [];
  inputs.files.forEach((f, i) => {
    const path = inputs.paths[i] ?? f.name;
    const by = foundBy(o, path, f.bytes);
    if (by === undefined) return keep.push(i);
    // Required here: a merge only asks whether a FILE is meta-data (refuseMetaData), it never reads one.
    const { readMetaData } = require('../engine/seed/metaData') as typeof import('../engine/seed/metaData');
    found.push({ path, bytes: f.bytes, by, reading: readMetaData(f.bytes) });
  });
  const first = found[0];
  if (first && o.images) throw new UsageError(`--image ${o.image} gives each image's verdict on user-data; NoCloud reads meta-data the same way on every version: check ${first.path} without --image`);
  if (first && o.annotate) throw new UsageError(`--annotate prints user-data with its problems: ${first.path} is NoCloud meta-data, check it without --annotate`);
  inputs.files = keep.map((i) => inputs.files[i]);
  inputs.paths = keep.map((i) => inputs.paths[i]);
  return found;
}

/** A merge, `--plan` or the preview: a FILE that is meta-data is refused, said in the user's terms, not merged as user-data. */
export function refuseMetaData(o: CliOptions, inputs: SetInputs & { paths: string[] }): void {
  inputs.files.forEach((f, i) => {
    const path = inputs.paths[i] ?? f.name;
    if (foundBy(o, path, f.bytes) === undefined) return;
    throw new UsageError(
      `${path} is a NoCloud seed's meta-data (it is named meta-data), not user-data: cloud-init never merges it. ` +
        `See what NoCloud makes of it with --check ${path}, or give its seed folder with --seed DIR (its user-data merged, its meta-data read beside it)`,
    );
  });
}
