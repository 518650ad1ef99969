/**
 * Differential test of the fates (server/src/engine/outcome/fates.ts) against the real cloud-init.
 *
 *   node out/test/oracle/fates.diff.js [--sets N] [--confd N] [--boot N] [--seed S] [--version V[,V...]] [--sample-divisor D]
 *
 * Each of the five cloud-init versions: 22.4 and current with these counts, 23.4/24.4/25.1 with N/D (D=4).
 *
 * Generates random sets of #cloud-config parts whose every scalar is a unique token, with random
 * merge_how specs (replace, no_replace, append, prepend, allow_delete, recursion, specs without
 * dict()), works out their fates with this engine, and merges them with that cloud-init
 * (test/oracle/driver.py). What the fates claim must hold in cloud-init's cloud-config.txt: every
 * token of a value that is replaced, deleted, lost or in a dropped part is gone, and every other
 * token a part wrote (values that survive, appended or prepended items) is there. The same for random
 * cloud.cfg.d folders (`--confd N`, through ../shared/oracle/oracle.py --mode confd, one process each)
 * and for user-data over vendor-data at boot (`--boot N`, oracle.py --mode boot --vendor).
 */
import { CLOUDINIT_TREES, type CloudInitVersion } from './cloudinitTrees';
import { eachVersion } from './perVersion';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { Fate, fatesOf } from '../../server/src/engine/outcome/fates';
import { runSet } from '../../server/src/engine/outcome/run';
import { PyDict } from '../../server/src/engine/py/values';
import { Rng } from './generate';
import { LineOracle } from './lineOracle';

const SPECS = [
  null,
  'dict(replace)',
  'dict(no_replace)+list(append)',
  'list(prepend)+dict(recurse_array)',
  'dict(recurse_array,no_replace)+list(append)+str(append)',
  'list(append)',
  'dict(allow_delete,no_replace)+list()',
  'dict(allow_delete,replace)+list(append)',
  'dict(replace)+list(append)',
  'list(no_replace)+dict(recurse_list)',
  'dict(recurse_str)+str(append)',
  'dict()+list(replace)',
  'dict(no_replace,recurse_list)+list(replace,recurse_str)+str(append)',
  'dict(recurse_array)+list(replace,recurse_dict)',
];
const KEYS = ['a', 'b', 'runcmd', 'packages'];
const INNER = ['x', 'y'];

interface SetCase {
  parts: Array<Record<string, unknown>>;
}

function makeCase(r: Rng): SetCase {
  let token = 0;
  const leaf = (part: number) => `v${part}t${token++}z`;
  const value = (part: number, depth: number): unknown => {
    const roll = r.next();
    if (roll < 0.4 || depth > 2) return leaf(part);
    if (roll < 0.7) return Array.from({ length: 1 + r.int(3) }, () => (r.chance(0.2) ? value(part, depth + 1) : leaf(part)));
    if (roll < 0.93) return Object.fromEntries(INNER.filter(() => r.chance(0.7)).map((k) => [k, value(part, depth + 1)]));
    return null;
  };
  const parts = Array.from({ length: 2 + r.int(4) }, (_, part) => {
    const body: Record<string, unknown> = {};
    const spec = SPECS[r.int(SPECS.length)];
    if (spec) body.merge_how = spec;
    for (const k of KEYS) if (r.chance(0.6)) body[k] = value(part, 0);
    return body;
  });
  return { parts };
}

function blobs(c: SetCase): Buffer[] {
  return c.parts.map((p) => Buffer.from(`#cloud-config\n${JSON.stringify(p)}\n`));
}

function tokensOf(value: unknown, out: Set<string>): Set<string> {
  // A string merger can join two parts' strings: each token in it counts.
  if (typeof value === 'string') for (const token of value.match(/v\d+t\d+z/g) ?? []) out.add(token);
  else if (Array.isArray(value)) for (const v of value) tokensOf(v, out);
  else if (value instanceof PyDict) for (const { value: v } of value.items()) tokensOf(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) tokensOf(v, out);
  return out;
}

/** What the fates claim: tokens gone from the result, and tokens that stay. */
export function claims(c: SetCase, fates: Fate[]): { gone: Set<string>; kept: Set<string> } {
  const gone = new Set<string>();
  for (const f of fates) {
    if (f.kind === 'dropped') {
      const part = Number(/(\d+)$/.exec(f.at?.file ?? '')?.[1]);
      tokensOf(c.parts[part], gone);
    } else if (f.kind === 'replaced' || f.kind === 'deleted' || f.kind === 'lost' || f.kind === 'overridden') tokensOf(f.subject, gone);
  }
  const kept = new Set([...tokensOf(c.parts, new Set())].filter((t) => !gone.has(t)));
  return { gone, kept };
}

export function mismatches(c: SetCase, fates: Fate[], merged: string): string[] {
  const { gone, kept } = claims(c, fates);
  const present = (t: string) => merged.includes(t);
  return [...[...gone].filter(present).map((t) => `${t}: a fate says it is gone, cloud-init keeps it`), ...[...kept].filter((t) => !present(t)).map((t) => `${t}: no fate says it is gone, cloud-init loses it`)];
}

/** cloud.cfg.d drop-ins named so that cloud-init's order (by name, descending) is part 0 first. */
function dropIns(c: SetCase): Array<{ name: string; bytes: Buffer }> {
  return c.parts.map((p, n) => ({ name: `${String(90 - n).padStart(2, '0')}-part${n}.cfg`, bytes: Buffer.from(`${JSON.stringify(p)}\n`) }));
}

/** The confd fates of random folders against `oracle.py --mode confd`: failed cases. */
function confdCases(version: CloudInitVersion, rng: Rng, count: number, kinds: Map<string, number>): number {
  const oracle = resolve(__dirname, '../../../../shared/oracle/oracle.py');
  let failed = 0;
  for (let i = 0; i < count; i++) {
    const c = makeCase(rng);
    const files = dropIns(c);
    const dir = mkdtempSync(join(tmpdir(), 'ccm-fates-confd-'));
    try {
      for (const f of files) writeFileSync(join(dir, f.name), f.bytes);
      const run = spawnSync(oracle, ['--mode', 'confd', ...files.map((f) => join(dir, f.name))], { env: { ...process.env, CLOUDINIT_PATH: CLOUDINIT_TREES[version] }, encoding: 'utf8' });
      const report = fatesOf(runSet('confd', { files }, { version }));
      // cloud-init raising (a spec it rejects) leaves nothing to compare: both sides must agree on that.
      if (run.status !== 0 || report.failure) {
        if ((run.status !== 0) !== !!report.failure) failed++;
        continue;
      }
      for (const f of report.fates) kinds.set(`confd ${f.kind}`, (kinds.get(`confd ${f.kind}`) ?? 0) + 1);
      // The drop-in's file name ends in its part number, as user-data parts' names do.
      const named = report.fates.map((f) => ({ ...f, at: f.at ? { ...f.at, file: f.at.file.replace(/\.cfg$/, '') } : null }));
      const wrong = mismatches(c, named, run.stdout);
      if (!wrong.length) continue;
      failed++;
      if (failed <= 3) console.log(`CONFD MISMATCH (case ${i}):\n${files.map((f) => `${f.name}: ${f.bytes.toString()}`).join('')}cloud-init: ${run.stdout}\n${wrong.join('\n')}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return failed;
}

/**
 * Boot: the parts but the last are user-data, the last is vendor-data (with a merge_type left beside
 * merge_how now and then, which its cloud-config.txt keeps); against `oracle.py --mode boot --vendor`.
 */
function bootCases(version: CloudInitVersion, rng: Rng, count: number, kinds: Map<string, number>): number {
  const oracle = resolve(__dirname, '../../../../shared/oracle/oracle.py');
  let failed = 0;
  for (let i = 0; i < count; i++) {
    const c = makeCase(rng);
    const vendorBody = c.parts[c.parts.length - 1];
    if (rng.chance(0.3)) vendorBody.merge_type = SPECS[1 + rng.int(SPECS.length - 1)];
    const files = blobs(c).map((bytes, n) => ({ name: `part${n}`, bytes }));
    const dir = mkdtempSync(join(tmpdir(), 'ccm-fates-boot-'));
    try {
      for (const f of files) writeFileSync(join(dir, f.name), f.bytes);
      const user = files.slice(0, -1);
      const vendor = files[files.length - 1];
      const run = spawnSync(oracle, ['--mode', 'boot', '--vendor', join(dir, vendor.name), ...user.map((f) => join(dir, f.name))], { env: { ...process.env, CLOUDINIT_PATH: CLOUDINIT_TREES[version] }, encoding: 'utf8' });
      const report = fatesOf(runSet('boot', { files: user, layers: { vendor } }, { version }));
      if (run.status !== 0 || report.failure) {
        if ((run.status !== 0) !== !!report.failure) failed++;
        continue;
      }
      for (const f of report.fates) kinds.set(`boot ${f.kind}`, (kinds.get(`boot ${f.kind}`) ?? 0) + 1);
      const wrong = mismatches(c, report.fates, run.stdout);
      if (!wrong.length) continue;
      failed++;
      if (failed <= 3) console.log(`BOOT MISMATCH (case ${i}):\n${files.map((f) => `${f.name}: ${f.bytes.toString()}`).join('')}cloud-init: ${run.stdout}\n${wrong.join('\n')}\nfates:\n${report.fates.map((f) => `  ${f.kind} ${f.path} ${f.value} at ${f.at?.file}`).join('\n')}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return failed;
}

async function runVersion(version: CloudInitVersion, count: number, confd: number, boot: number, seed: number): Promise<number> {
  console.log(`cloud-init ${version}:`);
  const oracle = new LineOracle('/usr/bin/python3', [resolve(__dirname, '../../../test/oracle/driver.py')], { env: { ...process.env, CLOUDINIT_PATH: CLOUDINIT_TREES[version] } });
  const rng = new Rng(seed);
  const cases = Array.from({ length: count }, () => makeCase(rng));
  const kinds = new Map<string, number>();
  let failed = 0;
  for (let i = 0; i < cases.length; i += 100) {
    const batch = cases.slice(i, i + 100);
    const answers = await Promise.all(batch.map((c) => oracle.ask<{ raw?: string | null; error?: string | null }>({ kind: 'userdata', blobs: blobs(c).map((b) => b.toString('base64')), include_missing: 'error' })));
    batch.forEach((c, j) => {
      const report = fatesOf(runSet('user-data', { files: blobs(c).map((bytes, n) => ({ name: `part${n}`, bytes })) }, { version }));
      for (const f of report.fates) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
      const wrong = mismatches(c, report.fates, answers[j].raw ?? '');
      if (!wrong.length) return;
      failed++;
      if (failed <= 3) {
        console.log(`MISMATCH (case ${i + j}, seed ${seed}):\n${c.parts.map((p, n) => `part${n}: ${JSON.stringify(p)}`).join('\n')}\ncloud-init:\n${answers[j].raw}\n${wrong.join('\n')}\nfates:\n${report.fates.map((f) => `  ${f.kind} ${f.path} ${f.value} at ${f.at?.file}`).join('\n')}\n`);
      }
    });
  }
  oracle.close();
  const confdFailed = confdCases(version, rng, confd, kinds);
  console.log(`${confd} cloud.cfg.d folders: ${confd - confdFailed} passed, ${confdFailed} failed`);
  failed += confdFailed;
  const bootFailed = bootCases(version, rng, boot, kinds);
  console.log(`${boot} boot sets (user-data over vendor-data): ${boot - bootFailed} passed, ${bootFailed} failed`);
  failed += bootFailed;
  console.log(`${count} sets; fates seen: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  console.log(`${count + confd + boot - failed} passed, ${failed} failed`);
  // Every kind the generator can produce must have been checked, or the test proves less than it says.
  const missing = ['replaced', 'deleted', 'lost', 'dropped', 'appended', 'prepended'].filter((k) => !kinds.has(k));
  if (missing.length) console.log(`no case produced: ${missing.join(', ')}`);
  return failed || missing.length ? 1 : 0;
}

async function main(): Promise<number> {
  return eachVersion(20261124, async (version, n, seed) => {
    const started = Date.now();
    const failed = await runVersion(version, n('--sets', 1500), n('--confd', 150), n('--boot', 100), seed);
    console.log(`(cloud-init ${version}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return failed;
  });
}

if (require.main === module) {
  void main().then((code) => (process.exitCode = code));
}
