// A plain merge loads only what it runs: the Jinja engine, --check, reports, fates, previews, make-mime,
// Chef and the system modes are required when an input or option needs them (start-up, issue 15).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const MAIN = path.join(ROOT, 'server', 'out', 'cli', 'main.js');
const OUT = path.join(ROOT, 'server', 'out');

/** The server/out modules one CLI run requires (from the compiled modules, where each file is a module). */
function modulesLoaded(args: string[]): string[] {
  const script = `
    const main = require(${JSON.stringify(MAIN)});
    let stderr = '';
    const io = { stdout() {}, stderr(t) { stderr += t; } };
    const code = main.main(process.argv.slice(1), io);
    process.stdout.write(JSON.stringify({ code, stderr, modules: Object.keys(require.cache) }));`;
  const r = spawnSync(process.execPath, ['-e', script, '--', ...args], { encoding: 'utf8', cwd: ROOT });
  assert.equal(r.status, 0, r.stderr);
  const { code, stderr, modules } = JSON.parse(r.stdout) as { code: number; stderr: string; modules: string[] };
  assert.equal(code, 0, stderr);
  return modules.filter((m) => m.startsWith(OUT)).map((m) => path.relative(OUT, m).replace(/\\/g, '/'));
}

const PART = path.join(ROOT, 'examples', 'user-data', '10-base.yaml');
const LAZY = [/^engine\/jinja\//, /^engine\/userdata\/jinja\.js$/, /^engine\/outcome\/(check|fates|losses|schema|fixes)\.js$/, /^engine\/render\//, /^cli\/makeMime\.js$/, /^engine\/chef\//, /^engine\/system\/boot\.js$/, /^engine\/schema\//];

test('a plain merge of cloud-config parts requires none of the code it does not run', () => {
  const loaded = modulesLoaded([PART]);
  assert.ok(loaded.includes('engine/yaml/load.js') && loaded.includes('engine/yaml/dump.js'), loaded.join(' '));
  const eager = loaded.filter((m) => LAZY.some((re) => re.test(m)));
  assert.deepEqual(eager, []);
});

test('the lazily required code is there when an input needs it (a Jinja part, --check)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ccm-startup-'));
  const template = path.join(dir, 'template.yaml');
  writeFileSync(template, '## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostname }}\n');
  let jinja: string[];
  try {
    jinja = modulesLoaded(['--instance-data', 'nocloud', template]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(jinja.some((m) => m.startsWith('engine/jinja/')), 'a template loads the Jinja engine');
  const check = modulesLoaded(['--check', PART]);
  assert.ok(check.includes('engine/outcome/check.js') && check.some((m) => m.startsWith('engine/schema/')));
});
