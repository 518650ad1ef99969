// The CLI's bundle at start-up (issue 44): bin/compile-cache.js reads dist/cli.js as latin1, right only while the
// bundle is ASCII; the engine's data files stay out of it (dist/cli-data/), read when a run needs them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const PART = path.join(ROOT, 'examples', 'user-data', '10-base.yaml');

function run(cli: string, args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: tmpdir() });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('dist/cli.js is ASCII, so its latin1 reading is its text', () => {
  const bytes = readFileSync(CLI);
  assert.equal(bytes.findIndex((b) => b > 0x7f), -1);
});

test('a merge reads none of the data files; --check reads them from dist/cli-data', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ccm-cli-bundle-'));
  try {
    const copy = path.join(dir, 'dist', 'cli.js');
    mkdirSync(path.dirname(copy));
    copyFileSync(CLI, copy);
    const merged = run(copy, [PART]);
    assert.deepEqual(merged, run(CLI, [PART]));
    assert.equal(merged.status, 0, merged.stderr);
    // The schema of the version checked is not in the bundle: without the data files --check cannot run.
    assert.notEqual(run(copy, ['--check', PART]).status, 0);
    cpSync(path.join(ROOT, 'dist', 'cli-data'), path.join(dir, 'dist', 'cli-data'), { recursive: true });
    const checked = run(copy, ['--check', PART]);
    assert.deepEqual(checked, run(CLI, ['--check', PART]));
    assert.equal(checked.status, 0, checked.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
