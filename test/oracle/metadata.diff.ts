/**
 * Differential test of NoCloud's meta-data reading (server/src/engine/seed/metaData.ts) against the real
 * cloud-init, on all five versions at once:
 *
 *   node out/test/oracle/metadata.diff.js [--files N] [--seed S]
 *
 * Generates N meta-data files (instance-id and its misspellings, local-hostname as names, dotted names,
 * IPv4 addresses, dsmode good and bad, seedfrom local, remote and not a string, public-keys as a string,
 * a list, a mapping, merge_how, files that are not a mapping or not YAML) and reads each with
 * `../shared/oracle/netcheck.py --mode meta-data --cloud-init-version all` (one process for all files).
 * The same reading is required on every version: claimed, the exception raised, the instance id and
 * whether it is the default, dsmode (and a rejected one), the hostname, the public keys, and whether the
 * file counted as nothing. Not generated: a `local-hostname` that is a truthy non-string (netcheck.py's
 * own hostname call then raises and its worker crashes for every file of that version); a `seedfrom` path
 * is compared up to there (neither follows it).
 *
 * The same files are also given to the CLI as a user checks a seed's file on its own
 * (`cloud-config-merge --check --type meta-data --format json FILE...`, one run): each file's `metaData`
 * entry must say what cloud-init does, as the engine's reading must. And the keys the editor's hover and
 * completion say NoCloud reads (engine/seed/data/metaDataKeys.json) must be what scripts/seed/extract.py
 * finds in each installed version today.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { readMetaData } from '../../server/src/engine/seed/metaData';
import { toCanonicalJson } from '../../server/src/engine/py/json';
import { CLOUD_INIT_VERSIONS } from '../../server/src/engine/version/versions';
import { main as cli } from '../../server/src/cli/main';
import { metaDataKeyReaders } from '../../server/src/engine/seed/metaDataKeys';
import { CLOUDINIT_TREES, installed } from './cloudinitTrees';
import { Rng } from './generate';

const NETCHECK = resolve(__dirname, '../../../../shared/oracle/netcheck.py');
const EXTRACT = resolve(__dirname, '../../../scripts/seed/extract.py');

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const FILES = arg('--files', 200);
const SEED = arg('--seed', 30);

const VALUES: Record<string, readonly string[]> = {
  'instance-id': ['iid-web-01', 'i-0123456789', '5', 'null', '""', '1.50', 'true', '[1, 2]', '{a: 1}', "'007'"],
  instance_id: ['iid-web-01', 'i-1'],
  'local-hostname': ['web-01', 'web.example.com', '.lead', '10.0.0.1', '010.0.0.1', '256.1.1.1', '1.2.3', '""', 'null', '0', 'false', '[]', 'Web_01'],
  local_hostname: ['web-01'],
  hostname: ['web-01', 'a.b'],
  dsmode: ['local', 'net', 'disabled', 'pass', 'LOCAL', '5', 'null', '""', '[local]'],
  seedfrom: ['http://169.254.169.254/', 'https://example.com/seed/', '/var/tmp/seed/', 'file:///var/tmp/seed/', 'ftp://x/', '5', '""', 'null', 'None'],
  'public-keys': ['ssh-ed25519 AAAA k1', '"ssh-rsa A k1\\nssh-rsa B k2\\r\\nk3"', '[k1, k2]', '[k1, "", 5]', '{a: [k1, ""], b: k2, c: 5}', '{}', '[]', '5', '""', 'null', '{a: {b: k}}'],
  merge_how: ['dict(replace)', 'list()', "'dict(no_replace)+list(append)'"],
  'network-interfaces': ['"auto eth0\\niface eth0 inet dhcp\\n"'],
  'cloud-name': ['nocloud', 'x'],
};

const WHOLE = ['', '# nothing\n', '- a\n- b\n', 'just text\n', 'a: [\n', 'instance-id: x\ninstance-id: y\n', '--- \n...\n', '!!str x\n', 'instance-id: &a iid\nlocal-hostname: *a\n'];

function generate(rng: Rng): string {
  if (rng.chance(0.08)) return rng.pick(WHOLE);
  const keys = Object.keys(VALUES);
  const lines: string[] = [];
  for (const key of keys) {
    const p = key === 'instance-id' || key === 'local-hostname' ? 0.6 : key === 'seedfrom' || key === 'merge_how' ? 0.12 : 0.25;
    if (rng.chance(p)) lines.push(`${key}: ${rng.pick(VALUES[key])}`);
  }
  if (rng.chance(0.3)) {
    for (let i = lines.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [lines[i], lines[j]] = [lines[j], lines[i]];
    }
  }
  return lines.join('\n') + (lines.length ? '\n' : '');
}

interface Reading {
  claimed: boolean | null;
  error: string | null;
  followsSeedfrom: boolean;
  instance_id?: string;
  instance_id_defaulted?: boolean;
  dsmode?: string;
  invalid_dsmode?: string | null;
  local_hostname?: string | null;
  public_ssh_keys?: unknown;
  counted_as_nothing: boolean;
}

type OracleMeta = {
  claimed: boolean | null;
  error: string | null;
  instance_id?: string;
  instance_id_defaulted?: boolean;
  dsmode?: string;
  local_hostname?: string | null;
  public_ssh_keys?: unknown;
  log: string[];
};

function theirs(md: OracleMeta): Reading {
  const followsSeedfrom = /^RuntimeError: oracle: seedfrom .* not followed/.test(md.error ?? '');
  const invalid = md.log.map((l) => /^WARNING: invalid dsmode '(.*)', using default=net$/s.exec(l)?.[1]).find((x) => x !== undefined);
  const out: Reading = { claimed: md.claimed, error: followsSeedfrom ? null : md.error, followsSeedfrom, counted_as_nothing: md.log.some((l) => l.startsWith('WARNING: Failed loading yaml blob')) };
  if (md.claimed) {
    Object.assign(out, { instance_id: md.instance_id, instance_id_defaulted: md.instance_id_defaulted, dsmode: md.dsmode, invalid_dsmode: invalid ?? null, local_hostname: md.local_hostname, public_ssh_keys: md.public_ssh_keys });
  }
  return out;
}

function ours(text: string): Reading {
  const r = readMetaData(new TextEncoder().encode(text));
  const out: Reading = { claimed: r.claimed, error: r.error ?? null, followsSeedfrom: r.seedfromLocal !== undefined, counted_as_nothing: r.loadProblem !== undefined };
  if (r.claimed) {
    Object.assign(out, {
      instance_id: r.instanceId,
      instance_id_defaulted: r.instanceIdDefaulted,
      dsmode: r.dsmode,
      invalid_dsmode: r.invalidDsmode ?? null,
      local_hostname: r.hostnameError ? `raises ${r.hostnameError}` : r.localHostname,
      public_ssh_keys: JSON.parse(toCanonicalJson(r.publicSshKeys ?? []).text),
    });
  }
  return out;
}

/** The CLI's `metaData` entry of one file (--check --format json) as a reading. */
function fromCli(entry: Record<string, unknown>): Reading {
  const out: Reading = { claimed: entry.claimed as boolean | null, error: (entry.error as string | undefined) ?? null, followsSeedfrom: entry.seedfrom !== undefined, counted_as_nothing: entry.readAsEmpty !== undefined };
  if (entry.claimed) {
    Object.assign(out, {
      instance_id: entry.instanceId,
      instance_id_defaulted: entry.instanceIdDefaulted,
      dsmode: entry.dsmode,
      invalid_dsmode: entry.invalidDsmode ?? null,
      local_hostname: entry.hostnameError !== undefined ? `raises ${entry.hostnameError as string}` : entry.localHostname,
      public_ssh_keys: entry.publicKeys,
    });
  }
  return out;
}

/** `cloud-config-merge --check --type meta-data --format json FILE...`, run in this process: each file's entry, by path. */
function cliReadings(files: string[]): Map<string, Reading> {
  let stdout = '';
  let stderr = '';
  const code = cli(['--check', '--type', 'meta-data', '--format', 'json', ...files], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  if (code !== 0 && code !== 1) throw new Error(`metadata.diff: the CLI exited ${code}: ${stderr}`);
  const entries = (JSON.parse(stdout) as { metaData: Array<Record<string, unknown>> }).metaData;
  return new Map(entries.map((e) => [e.file as string, fromCli(e)]));
}

/** The keys NoCloud reads, extracted again from each installed version and compared with the editor's data: the differences. */
function keyFactsDifferences(): number {
  let differences = 0;
  for (const version of CLOUD_INIT_VERSIONS) {
    if (!installed(version)) {
      console.log(`metadata.diff: cloud-init ${version} is not installed: its meta-data keys are not checked`);
      continue;
    }
    const run = spawnSync('/usr/bin/python3', [EXTRACT], { encoding: 'utf8', cwd: '/', env: { ...process.env, PYTHONPATH: CLOUDINIT_TREES[version] } });
    const theirs: unknown = run.status === 0 ? (JSON.parse(run.stdout) as { keys: unknown }).keys : run.stderr;
    if (!isDeepStrictEqual(theirs, metaDataKeyReaders(version))) {
      differences++;
      console.log(`DIFFERENT meta-data keys NoCloud reads (${version}; node scripts/seed/regen.mjs writes them again):\n--- cloud-init: ${JSON.stringify(theirs)}\n--- ours: ${JSON.stringify(metaDataKeyReaders(version))}\n`);
    }
  }
  return differences;
}

function main(): void {
  if (!existsSync(NETCHECK)) {
    console.error(`metadata.diff: ${NETCHECK} not found (set up ../shared/oracle first)`);
    process.exit(2);
  }
  const rng = new Rng(SEED);
  const dir = mkdtempSync(join(tmpdir(), 'ccm-metadata-'));
  const t0 = Date.now();
  try {
    const texts: string[] = [];
    while (texts.length < FILES) {
      texts.push(generate(rng));
    }
    const files = texts.map((t, i) => {
      const f = join(dir, `md-${i}`);
      writeFileSync(f, t);
      return f;
    });
    const run = spawnSync('python3', [NETCHECK, '--mode', 'meta-data', '--cloud-init-version', 'all', ...files], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (run.status !== 0) {
      console.error(`metadata.diff: netcheck.py exited ${run.status}\n${run.stderr.slice(-3000)}`);
      process.exit(2);
    }
    const answers = JSON.parse(run.stdout) as Array<Record<string, { meta_data: OracleMeta }>>;
    let compared = 0;
    let differences = keyFactsDifferences();
    const byCli = cliReadings(files);
    answers.forEach((answer, i) => {
      for (const version of CLOUD_INIT_VERSIONS) {
        const want = theirs(answer[version].meta_data);
        for (const [who, got] of [['ours', ours(texts[i])], ['the CLI', byCli.get(files[i])]] as const) {
          compared++;
          if (!isDeepStrictEqual(got, want)) {
            differences++;
            if (differences <= 10) console.log(`DIFFERENT (${version}, ${who}) for:\n${texts[i]}--- cloud-init: ${JSON.stringify(want)}\n--- ${who}: ${JSON.stringify(got)}\n`);
          }
        }
      }
    });
    // What the files exercised, as current read them.
    const seen = answers.map((a) => theirs(a.current.meta_data));
    const tally = [
      `${seen.filter((r) => r.claimed).length} claimed`,
      `${seen.filter((r) => r.claimed === false).length} not claimed`,
      `${seen.filter((r) => r.error).length} raising`,
      `${seen.filter((r) => r.followsSeedfrom).length} seedfrom paths`,
      `${seen.filter((r) => r.instance_id_defaulted).length} default instance ids`,
      `${seen.filter((r) => r.invalid_dsmode).length} rejected dsmodes`,
      `${seen.filter((r) => r.counted_as_nothing).length} read as nothing`,
    ];
    console.log(`metadata.diff: ${FILES} meta-data files x ${CLOUD_INIT_VERSIONS.length} versions, read by the engine and by the CLI = ${compared} readings (${tally.join(', ')}), ${differences} different (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    process.exitCode = differences ? 1 : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
