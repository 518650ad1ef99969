// Runs each module's differential test against its Python reference (PyYAML load and dump,
// CPython's email package, Jinja2 as cloud-init configures it, jsonpatch and json, cloud-init's own
// make-mime and Terraform-style user-data through cloud-init), one after the
// other, and fails if any of them finds a difference. Counts are kept modest for CI; each script
// takes --cases/--count N and --seed S for longer campaigns. The suites that run cloud-init itself
// run on each of the five versions: in full on 22.4 and current, sampled (a quarter) on 23.4, 24.4 and
// 25.1 (jinja.diff does that itself).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const SAMPLED = ['23.4', '24.4', '25.1'];
const suites = [
  ['yaml-load', ['--cases', '3000']],
  ['yaml-dump', ['--cases', '500']],
  ['mime', ['--cases', '2000', '--version', '22.4']],
  ['mime', ['--cases', '2000', '--version', 'current']],
  ...SAMPLED.map((v) => ['mime', ['--cases', '500', '--version', v]]),
  ['jinja', ['--count', '5000']],
  ['jsonpatch', ['--cases', '2000']],
  ['pipeline', ['--makemime', '300', '--terraform', '300', '--version', '22.4']],
  ['pipeline', ['--makemime', '300', '--terraform', '300', '--version', 'current']],
  ...SAMPLED.map((v) => ['pipeline', ['--makemime', '75', '--terraform', '75', '--version', v]]),
];
let passed = 0;
let failed = 0;
for (const [name, args] of suites) {
  const script = `out/test/oracle/${name}.diff.js`;
  if (!existsSync(script)) {
    console.error(`${script} is missing: run npm run build`);
    failed++;
    continue;
  }
  const started = Date.now();
  const run = spawnSync(process.execPath, [script, ...args], { stdio: 'inherit' });
  const ok = run.status === 0;
  const version = args.includes('--version') ? ` ${args[args.indexOf('--version') + 1]}` : '';
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${version} differential (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (ok) passed++;
  else failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
