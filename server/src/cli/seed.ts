/** `--seed DIR` (and a set's `seed`): a NoCloud seed folder as the set it makes (boot mode). */
import type { CliOptions } from './args';
import { UsageError } from './args';
import { readConfinedSeedFolder } from '../node/seed';
import { realpathOr } from '../node/inside';
import { seedFolderProblem } from '../engine/seed/seedFolder';

/** The seed's files into the options: user-data as the FILE, vendor-data as --vendor (unless given), meta-data and network-config kept. */
export function applySeed(o: CliOptions): void {
  if (o.seed === undefined) return;
  if (o.files.length) throw new UsageError(`--seed ${o.seed} names the user-data: give no FILE with it (got ${o.files.join(' ')})`);
  // Confined as a set is: its files resolve inside DIR, unless --seed-allow-outside.
  const folder = realpathOr(o.seed);
  const read = readConfinedSeedFolder(o.seed, { folders: o.seedAllowOutside ? null : [folder], words: { folders: o.seed, allowOutside: 'give --seed-allow-outside to read it' } });
  const problem = seedFolderProblem(read.seed);
  if (problem) throw new UsageError(problem);
  if (read.refused.length) throw new UsageError(read.refused.join('; '));
  const seed = read.confined;
  o.mode = 'boot';
  o.files = [seed.present['user-data']!];
  if (seed.present['vendor-data'] && o.vendor === undefined) o.vendor = seed.present['vendor-data'];
  o.seedFiles = { metaData: seed.present['meta-data'], networkConfig: seed.present['network-config'] };
}
