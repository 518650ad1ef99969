// Runs each module's differential test against its Python reference (PyYAML load and dump,
// CPython's email package, Jinja2 as cloud-init configures it, jsonpatch and json, cloud-init's own
// make-mime and Terraform-style user-data through cloud-init), one after the
// other, and fails if any of them finds a difference. Counts are kept modest for CI; each script
// takes --cases/--count N and --seed S for longer campaigns.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const suites = [
  ['yaml-load', ['--cases', '3000']],
  ['yaml-dump', ['--cases', '500']],
  ['mime', ['--cases', '2000']],
  ['jinja', ['--count', '5000']],
  ['jsonpatch', ['--cases', '2000']],
  ['pipeline', ['--makemime', '300', '--terraform', '300']],
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
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name} differential (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (ok) passed++;
  else failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
