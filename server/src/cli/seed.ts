/** `--seed DIR` (and a set's `seed`): a NoCloud seed folder as the set it makes (boot mode). */
import type { CliOptions } from './args';
import { UsageError } from './args';
import { readSeedFolder } from '../node/seed';
import { seedFolderProblem } from '../engine/seed/seedFolder';

/** The seed's files into the options: user-data as the FILE, vendor-data as --vendor (unless given), meta-data and network-config kept. */
export function applySeed(o: CliOptions): void {
  if (o.seed === undefined) return;
  if (o.files.length) throw new UsageError(`--seed ${o.seed} names the user-data: give no FILE with it (got ${o.files.join(' ')})`);
  const seed = readSeedFolder(o.seed);
  const problem = seedFolderProblem(seed);
  if (problem) throw new UsageError(problem);
  o.mode = 'boot';
  o.files = [seed.present['user-data']!];
  if (seed.present['vendor-data'] && o.vendor === undefined) o.vendor = seed.present['vendor-data'];
  o.seedFiles = { metaData: seed.present['meta-data'], networkConfig: seed.present['network-config'] };
}
