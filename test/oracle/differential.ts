/**
 * `npm run test:oracle`: random differential testing against the real cloud-init.
 *
 *   node out/test/oracle/differential.js [--specs N] [--userdata N] [--seed S] [--version V[,V...]] [--sample-divisor D]
 *
 * Generates N random (spec, values) merges and N random multi-part user-data sets, runs them
 * through this engine and through cloud-init (test/oracle/driver.py, one long-lived process per
 * version) for each of the five versions (22.4 and current in full, 23.4/24.4/25.1 on N/D cases, D=4),
 * and fails on any difference, printing a minimal reproducer. Installs nothing: the oracle must
 * be set up first (../shared/oracle/setup.sh), as .ci/run does.
 */
import { CLOUDINIT_TREES, type CloudInitVersion } from './cloudinitTrees';
import { eachVersion } from './perVersion';
import { resolve } from 'node:path';
import { PyError } from '../../server/src/engine/py/errors';
import { parsePythonJson, toCanonicalJson } from '../../server/src/engine/py/json';
import { parseListSpec, parseStringSpec } from '../../server/src/engine/spec/parse';
import { constructMergers } from '../../server/src/engine/merge/construct';
import { runUserData } from '../../server/src/engine/userdata/run';
import { Rng, SpecCase, UserDataCase, specCase, userDataCase } from './generate';
import { LineOracle } from './lineOracle';

type Answer = { result?: string; error?: string | null; raw?: string | null; driver_error?: string };

/** One cloud-init process answering cases in order. */
class Oracle {
  private readonly py: LineOracle;

  constructor(version: CloudInitVersion) {
    this.py = new LineOracle('/usr/bin/python3', [resolve(__dirname, '../../../test/oracle/driver.py')], { env: { ...process.env, CLOUDINIT_PATH: CLOUDINIT_TREES[version] } });
  }

  ask(c: SpecCase | UserDataCase): Promise<Answer> {
    return this.py.ask<Answer>(c);
  }

  close(): void {
    this.py.close();
  }
}

/** This engine's answer, in the driver's terms. */
export function ours(c: SpecCase | UserDataCase, version: CloudInitVersion): Answer {
  if (c.kind === 'spec') {
    try {
      const spec = parsePythonJson(JSON.stringify(c.spec));
      const parsed = typeof spec === 'string' ? parseStringSpec(spec, 0, version) : parseListSpec(spec);
      const root = constructMergers(parsed.mergers);
      const values = c.values.map((v) => parsePythonJson(JSON.stringify(v)));
      let result = values[0];
      for (const v of values.slice(1)) result = root.merge(result, v);
      return { result: toCanonicalJson(result).text };
    } catch (e) {
      if (e instanceof PyError) return { error: e.pyType };
      throw e;
    }
  }
  const inputs = c.blobs.map((b, i) => ({ name: `blob${i}`, bytes: Buffer.from(b, 'base64') }));
  const run = runUserData(inputs, { version, onIncludeFailure: c.include_missing });
  // The CLI's YAML and JSON output run without provenance: that must give the same text.
  const asCli = runUserData(inputs, { version, onIncludeFailure: c.include_missing, provenance: false });
  if (asCli.cloudConfigTxt !== run.cloudConfigTxt || asCli.fatal?.pyType !== run.fatal?.pyType) return { driver_error: 'provenance: false changes the output' };
  if (run.fatal) return { raw: null, error: run.fatal.pyType };
  return { raw: run.cloudConfigTxt, error: null };
}

function same(a: Answer, b: Answer): boolean {
  if (a.driver_error || b.driver_error) return false;
  if ('raw' in a || 'raw' in b) return (a.raw ?? null) === (b.raw ?? null) && !!a.error === !!b.error;
  return (a.result ?? null) === (b.result ?? null) && (a.error ?? null) === (b.error ?? null);
}

/** Greedy shrinking: drop values, keys and blobs while the difference stays. */
async function shrink(oracle: Oracle, c: SpecCase | UserDataCase, version: CloudInitVersion): Promise<SpecCase | UserDataCase> {
  const differs = async (x: SpecCase | UserDataCase) => {
    try {
      return !same(await oracle.ask(x), ours(x, version));
    } catch {
      return true;
    }
  };
  let current = c;
  for (let progress = true; progress; ) {
    progress = false;
    const candidates: Array<SpecCase | UserDataCase> = [];
    if (current.kind === 'spec') {
      const s = current;
      if (s.values.length > 2) s.values.forEach((_, i) => candidates.push({ ...s, values: s.values.filter((__, j) => j !== i) }));
      s.values.forEach((v, i) => {
        if (v && typeof v === 'object' && !Array.isArray(v)) {
          for (const k of Object.keys(v)) {
            const smaller = { ...(v as Record<string, unknown>) };
            delete smaller[k];
            candidates.push({ ...s, values: s.values.map((x, j) => (j === i ? smaller : x)) });
          }
        }
      });
    } else {
      const u = current;
      if (u.blobs.length > 1) u.blobs.forEach((_, i) => candidates.push({ ...u, blobs: u.blobs.filter((__, j) => j !== i) }));
    }
    for (const candidate of candidates) {
      if (await differs(candidate)) {
        current = candidate;
        progress = true;
        break;
      }
    }
  }
  return current;
}

function describe(c: SpecCase | UserDataCase): string {
  if (c.kind === 'spec') return JSON.stringify(c);
  return c.blobs.map((b, i) => `--- blob${i} ---\n${Buffer.from(b, 'base64').toString('latin1')}`).join('\n') + `\n(include_missing=${c.include_missing})`;
}

async function runVersion(version: CloudInitVersion, specs: number, userdata: number, seed: number): Promise<number> {
  const oracle = new Oracle(version);
  const rng = new Rng(seed);
  let passed = 0;
  let failed = 0;
  const cases: Array<SpecCase | UserDataCase> = [
    ...Array.from({ length: specs }, () => specCase(rng)),
    ...Array.from({ length: userdata }, () => userDataCase(rng)),
  ];
  const started = Date.now();
  // Ask in batches so the oracle process stays busy while we compare.
  for (let i = 0; i < cases.length; i += 200) {
    const batch = cases.slice(i, i + 200);
    const answers = await Promise.all(batch.map((c) => oracle.ask(c)));
    for (let j = 0; j < batch.length; j++) {
      let mine: Answer;
      try {
        mine = ours(batch[j], version);
      } catch (e) {
        mine = { driver_error: `engine crashed: ${(e as Error).stack}` };
      }
      if (same(answers[j], mine)) {
        passed++;
        continue;
      }
      failed++;
      if (failed <= 5) {
        const small = await shrink(oracle, batch[j], version);
        console.log(`DIFFERENCE (cloud-init ${version}, case ${i + j}, seed ${seed}):\n${describe(small)}\ncloud-init: ${JSON.stringify(await oracle.ask(small))}\nours:       ${JSON.stringify(ours(small, version))}\n`);
      }
    }
  }
  oracle.close();
  console.log(`cloud-init ${version}: ${specs} spec merges and ${userdata} user-data sets in ${((Date.now() - started) / 1000).toFixed(1)} s: ${passed} passed, ${failed} failed`);
  return failed;
}

async function main(): Promise<number> {
  return eachVersion(20261122, (version, count, seed) => runVersion(version, count('--specs', 10000), count('--userdata', 1000), seed));
}

if (require.main === module) {
  void main().then((code) => (process.exitCode = code));
}
