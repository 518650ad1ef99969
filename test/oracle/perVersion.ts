/**
 * The command line the differential tests share, one run per cloud-init version:
 *   [--cases N] [--sampled N] [--seed S] [--version V[,V...]] [--verbose] (and any option of the test's own, by opt()).
 * 22.4 and current get --cases cases; 23.4, 24.4 and 25.1 get --sampled (default a quarter of --cases), so
 * CI runs every version and stays short. Exits 1 when any version found a difference or is not installed.
 */
import { CLOUD_INIT_VERSIONS, parseCloudInitVersion, type CloudInitVersion } from '../../server/src/engine/version/versions';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CLOUDINIT_TREES, installed } from './cloudinitTrees';

export interface DiffArgs {
  /** The number of cases for this version (full or sampled). */
  cases: number;
  seed: number;
  verbose: boolean;
  /** Another option's value, or `fallback`. */
  opt(name: string, fallback: string): string;
  /** A suite's other count for this version: as given for 22.4 and current, scaled like --cases when sampled. */
  scale(n: number): number;
}

/** The versions run in full; the others are sampled. */
export const FULL_VERSIONS: readonly CloudInitVersion[] = ['22.4', 'current'];

/** The versions `--version 22.4,24.4` names (all five without it). */
export function selectedVersions(only: string): CloudInitVersion[] {
  if (!only) return [...CLOUD_INIT_VERSIONS];
  return only.split(',').map((v) => {
    const version = parseCloudInitVersion(v);
    if (!version) throw new Error(`--version takes ${CLOUD_INIT_VERSIONS.join(', ')}, not '${v}'`);
    return version;
  });
}

/**
 * The command line of the suites with counts of their own (differential, fates): `--NAME N` options, `--seed`,
 * `--sample-divisor` (23.4, 24.4 and 25.1 run that fraction of each count), `--version V[,V...]`.
 */
function suiteArgs(defaultSeed: number): { seed: number; versions: CloudInitVersion[]; count: (version: CloudInitVersion, name: string, fallback: number) => number } {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const divisor = Math.max(1, arg('--sample-divisor', 4));
  const at = process.argv.indexOf('--version');
  return {
    seed: arg('--seed', defaultSeed),
    versions: selectedVersions(at >= 0 ? process.argv[at + 1] : ''),
    count: (version, name, fallback) => (FULL_VERSIONS.includes(version) ? arg(name, fallback) : Math.ceil(arg(name, fallback) / divisor)),
  };
}

/** Why a suite cannot run on `version` (its cloud-init is not installed; suites install nothing), or null. */
function notInstalled(version: CloudInitVersion): string | null {
  if (installed(version) && existsSync(resolve(CLOUDINIT_TREES[version], 'cloudinit/mergers/m_dict.py'))) return null;
  return `cloud-init ${version} not installed at ${CLOUDINIT_TREES[version]}: run bash ../shared/oracle/setup.sh --version ${version} first (this test installs nothing)`;
}

export function casesFor(version: CloudInitVersion, full: number, sampled: number): number {
  return FULL_VERSIONS.includes(version) ? full : sampled;
}

export async function runPerVersion(defaults: { cases: number; seed: number }, run: (version: CloudInitVersion, args: DiffArgs) => Promise<number>): Promise<void> {
  const argv = process.argv.slice(2);
  const opt = (name: string, fallback: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  const full = Number(opt('--cases', String(defaults.cases)));
  const sampled = Number(opt('--sampled', String(Math.max(1, Math.ceil(full / 4)))));
  let total = 0;
  for (const version of selectedVersions(opt('--version', ''))) {
    if (!installed(version)) {
      console.error(`cloud-init ${version} is not installed at ${CLOUDINIT_TREES[version]} (bash ../shared/oracle/setup.sh --version ${version})`);
      total++;
      continue;
    }
    const cases = casesFor(version, full, sampled);
    const scale = (n: number) => (cases === full || !full ? n : Math.max(1, Math.ceil((n * cases) / full)));
    const args: DiffArgs = { cases, seed: Number(opt('--seed', String(defaults.seed))), verbose: argv.includes('--verbose'), opt, scale };
    const started = Date.now();
    total += await run(version, args);
    console.log(`(cloud-init ${version}: ${args.cases} cases in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  process.exit(total ? 1 : 0);
}

/**
 * A suite with counts of its own (suiteArgs) run on each selected version: `run` gets the version, its
 * counts (`count('--sets', 1500)`) and the seed. Stops with 2 at a version not installed; 1 if any differed.
 */
export async function eachVersion(defaultSeed: number, run: (version: CloudInitVersion, count: (name: string, fallback: number) => number, seed: number) => Promise<number>): Promise<number> {
  const { seed, versions, count } = suiteArgs(defaultSeed);
  let failed = 0;
  for (const version of versions) {
    const missing = notInstalled(version);
    if (missing) {
      console.error(missing);
      return 2;
    }
    failed += await run(version, (name, fallback) => count(version, name, fallback), seed);
  }
  return failed ? 1 : 0;
}
