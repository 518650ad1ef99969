/** `--seed DIR` (and a set's `seed`): a NoCloud seed folder as the set it makes (boot mode). */
import type { CliOptions } from './args';
import { UsageError } from './args';
import { seedRun } from '../sets/resolve';
import { realpathOr } from '../node/inside';

/** The seed's files into the options: user-data as the FILE, vendor-data as --vendor (unless given), meta-data and network-config kept. */
export function applySeed(o: CliOptions): void {
  if (o.seed === undefined) return;
  if (o.files.length) throw new UsageError(`--seed ${o.seed} names the user-data: give no FILE with it (got ${o.files.join(' ')})`);
  // Confined as a set is: its files resolve inside DIR, unless --seed-allow-outside.
  const { run, refused } = seedRun(o.seed, { folders: o.seedAllowOutside ? null : [realpathOr(o.seed)], words: { folders: o.seed, allowOutside: 'give --seed-allow-outside to read it' } }, o.seed, '.');
  if (refused.length || !run) throw new UsageError(refused.join('; ') || `${o.seed}: no seed`);
  o.mode = run.mode;
  o.files = run.files;
  if (run.boot.vendor && o.vendor === undefined) o.vendor = run.boot.vendor;
  o.seedFiles = { metaData: run.seed?.metaData, networkConfig: run.seed?.networkConfig };
}
