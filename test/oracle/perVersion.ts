/**
 * The command line the differential tests share, one run per cloud-init version:
 *   [--cases N] [--seed S] [--version 22.4|current] [--verbose] (and any option of the test's own, by opt()).
 * Exits 1 when any version found a difference.
 */
import type { SchemaVersion } from '../../server/src/engine/schema/data';

export interface DiffArgs {
  cases: number;
  seed: number;
  verbose: boolean;
  /** Another option's value, or `fallback`. */
  opt(name: string, fallback: string): string;
}

export async function runPerVersion(defaults: { cases: number; seed: number }, run: (version: SchemaVersion, args: DiffArgs) => Promise<number>): Promise<void> {
  const argv = process.argv.slice(2);
  const opt = (name: string, fallback: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  const args: DiffArgs = { cases: Number(opt('--cases', String(defaults.cases))), seed: Number(opt('--seed', String(defaults.seed))), verbose: argv.includes('--verbose'), opt };
  const only = opt('--version', '');
  let total = 0;
  for (const version of ['22.4', 'current'] as const) {
    if (only && only !== version) continue;
    total += await run(version, args);
  }
  process.exit(total ? 1 : 0);
}
