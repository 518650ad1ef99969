/**
 * The pitfall corpus (test/support/pitfallCorpus.ts) against the real cloud-init: every `oracle` claim of a
 * case, which is what the boot story of that case rests on (a module's row, its stage and frequency, the
 * order of two modules on the first boot, the users users_groups creates, what run_section logs, a file
 * cloud-init handles no part of), is checked in cloud-init's own code through the oracle's plan.py
 * (test/oracle/plan_driver.py, one process) and oracle.py --report.
 *
 *   node out/test/oracle/pitfalls.diff.js [--version V]     (default: current, the version the corpus is written for)
 *
 * A version that is not installed is skipped with a note, except in CI (CI=true), where it fails the run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PITFALL_CORPUS, type OracleClaim } from '../support/pitfallCorpus';

const ORACLE = resolve(process.env.ORACLE_DIR ?? join(__dirname, '..', '..', '..', '..', 'shared', 'oracle'));

interface Row {
  module: string;
  frequency: string | null;
  decision: string;
  will_run: boolean;
}
interface Entry {
  error?: string;
  stages?: Record<string, Row[]>;
  boots?: { first_boot: string[] };
  users?: string[] | null;
  log?: Record<string, string[]>;
}

function installed(version: string): string | null {
  const where = spawnSync('bash', [join(ORACLE, 'setup.sh'), '--where', version], { encoding: 'utf8' });
  const path = where.stdout.trim().split('\n').pop() ?? '';
  return where.status === 0 && path && existsSync(join(path, 'cloudinit', '__init__.py')) ? path : null;
}

function check(claim: OracleClaim, entry: Entry, unhandled: () => string | null): string | null {
  if ('unhandled' in claim) return unhandled();
  if (entry.error) return `plan.py: ${entry.error}`;
  const stages = entry.stages ?? {};
  if ('row' in claim) {
    const { stage, module, decision, frequency } = claim.row;
    const row = (stages[stage] ?? []).find((r) => r.module === module);
    if (!row) return `no row ${stage}:${module} (rows: ${(stages[stage] ?? []).map((r) => r.module).join(', ')})`;
    if (row.decision !== decision) return `${stage}:${module} is ${row.decision}, not ${decision}`;
    if (frequency !== undefined && row.frequency !== frequency) return `${stage}:${module} runs ${row.frequency}, not ${frequency}`;
    return null;
  }
  if ('unlisted' in claim) {
    const where = Object.entries(stages).flatMap(([s, rows]) => rows.filter((r) => r.module.replace(/-/g, '_') === claim.unlisted).map(() => s));
    return where.length ? `${claim.unlisted} is listed in ${where.join(', ')}` : null;
  }
  if ('before' in claim) {
    const first = entry.boots?.first_boot ?? [];
    const [a, b] = claim.before.map((m) => first.indexOf(m));
    return a < 0 || b < 0 || a > b ? `first boot order: ${claim.before.join(' before ')} not so in ${first.join(', ')}` : null;
  }
  if ('users' in claim) {
    const got = [...(entry.users ?? [])].sort();
    return JSON.stringify(got) === JSON.stringify([...claim.users].sort()) ? null : `users ${JSON.stringify(got)}, not ${JSON.stringify(claim.users)}`;
  }
  const lines = entry.log?.[claim.log.stage] ?? [];
  return lines.some((l) => claim.log.match.test(l)) ? null : `no ${claim.log.stage} log line ${claim.log.match}: ${JSON.stringify(lines)}`;
}

function main(): void {
  const argv = process.argv.slice(2);
  const version = argv.includes('--version') ? argv[argv.indexOf('--version') + 1] : 'current';
  const path = installed(version);
  if (!path) {
    console.log(`pitfalls.diff: cloud-init ${version} is not installed (bash ${ORACLE}/setup.sh --version ${version})${process.env.CI === 'true' ? ': FAIL in CI' : ': skipped'}`);
    process.exit(process.env.CI === 'true' ? 1 : 0);
  }
  const cases = PITFALL_CORPUS.filter((c) => c.oracle?.length);
  const dir = mkdtempSync(join(tmpdir(), 'ccm-pitfalls-diff-'));
  let failures = 0;
  let claims = 0;
  try {
    const work = cases.map((c, i) => {
      const config = join(dir, `c${i}-${c.files[0][0]}`);
      writeFileSync(config, c.files[0][1]);
      let cloudCfg: string | undefined;
      if (c.cloudCfg !== undefined) writeFileSync((cloudCfg = join(dir, `c${i}.cfg`)), c.cloudCfg);
      return { c, config, cloudCfg };
    });
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'PYTHONPATH'));
    const planned = work.filter((w) => w.c.oracle!.some((cl) => !('unhandled' in cl)));
    const run = spawnSync('/usr/bin/python3', [join(__dirname, '..', '..', '..', 'test', 'oracle', 'plan_driver.py'), ORACLE, version, path], { input: JSON.stringify(planned.map((w) => ({ config: w.config, distro: w.c.distro ?? 'ubuntu', ...(w.cloudCfg ? { cloud_cfg: w.cloudCfg } : {}) }))), encoding: 'utf8', env, maxBuffer: 64 << 20 });
    if (run.status !== 0) throw new Error(`plan_driver.py ${version} failed: ${run.stderr}`);
    const entries = JSON.parse(run.stdout) as Entry[];
    for (const w of work) {
      const entry = entries[planned.indexOf(w)] ?? {};
      const unhandled = () => unhandledBy(w.config, path, env);
      for (const claim of w.c.oracle!) {
        claims++;
        const wrong = check(claim, entry, unhandled);
        if (wrong) {
          failures++;
          console.log(`DIFF ${version} [${w.c.code}] ${w.c.name}: ${wrong}\n  the case says: ${w.c.boot}`);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`pitfalls.diff ${version}: ${cases.length} cases, ${claims} claims checked against cloud-init, ${failures} wrong`);
  process.exit(failures ? 1 : 0);
}

/** oracle.py --report: null when cloud-init handles no part of the file and warns that it does not. */
function unhandledBy(file: string, path: string, env: NodeJS.ProcessEnv): string | null {
  const r = spawnSync('/usr/bin/python3', [join(ORACLE, 'oracle.py'), '--report', '--cloudinit-path', path, file], { encoding: 'utf8', env });
  if (r.status !== 0) return `oracle.py exits ${r.status}: ${r.stderr}`;
  const report = JSON.parse(r.stdout) as { parts: Array<{ handled_by: string | null }>; result: unknown; warnings: Array<{ message: string }> };
  if (report.parts.some((p) => p.handled_by !== null)) return `a part is handled: ${JSON.stringify(report.parts)}`;
  if (JSON.stringify(report.result) !== '{}') return `cloud-config.txt is not empty: ${JSON.stringify(report.result)}`;
  return report.warnings.some((w) => /^Unhandled non-multipart \(text\/x-not-multipart\) userdata/.test(w.message)) ? null : `no "Unhandled non-multipart" warning: ${JSON.stringify(report.warnings)}`;
}

main();
