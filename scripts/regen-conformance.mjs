// Regenerates test/conformance/cases/*/expected.* by running the real cloud-init (../shared/oracle)
// on each case's inputs with the case's arguments. Needs the oracle: bash ../shared/oracle/setup.sh
import { readdirSync, readFileSync, writeFileSync, existsSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = resolve(new URL('..', import.meta.url).pathname);
const oracle = resolve(root, '..', 'shared', 'oracle', 'oracle.py');
const casesDir = join(root, 'test', 'conformance', 'cases');
if (!existsSync(oracle)) {
  console.error(`no oracle at ${oracle}`);
  process.exit(2);
}
const env = { ...process.env, CLOUDINIT_PATH: process.env.CLOUDINIT_PATH ?? '/opt/cloudinit-oracle/usr/lib/python3/dist-packages' };
// A case.json may list "versions": ["22.4", "current"]; current's expectations go to expected-current.*,
// produced by upstream cloud-init (bash ../shared/oracle/setup.sh --upstream prints its path).
const UPSTREAM = process.env.CLOUDINIT_UPSTREAM_PATH ?? '/opt/cloudinit-upstream';
let count = 0;
for (const name of readdirSync(casesDir).sort()) {
  const dir = join(casesDir, name);
  const spec = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8'));
  for (const version of spec.versions ?? ['22.4']) {
    const suffix = version === '22.4' ? '' : `-${version}`;
    for (const stale of ['expected.json', 'expected.txt', 'expected-error.txt']) {
      const f = join(dir, stale.replace('expected', `expected${suffix}`));
      if (existsSync(f)) unlinkSync(f);
    }
    const runEnv = version === '22.4' ? env : { ...env, CLOUDINIT_PATH: UPSTREAM };
    const run = spawnSync('python3', [oracle, '-q', ...spec.args], { cwd: dir, env: runEnv, encoding: 'utf8' });
    if (run.status === 3) writeFileSync(join(dir, `expected${suffix}-error.txt`), run.stderr.trim() + '\n');
    else if (run.status !== 0) {
      console.error(`${name} (${version}): oracle exited ${run.status}: ${run.stderr}`);
      process.exit(1);
    } else writeFileSync(join(dir, `expected${suffix}${spec.args.includes('--raw') ? '.txt' : '.json'}`), run.stdout);
    count++;
  }
}
console.log(`regenerated ${count} cases`);
