// bin/cloud-config-merge.js runs the CLI bundle through a V8 code cache in the user's cache folder:
// written on the first run, used after, rewritten when it does not fit, never needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const BIN = path.join(ROOT, 'bin', 'cloud-config-merge.js');
const PART = path.join(ROOT, 'examples', 'user-data', '10-base.yaml');

function run(env: Record<string, string>) {
  const r = spawnSync(process.execPath, [BIN, PART], { env: { ...process.env, ...env }, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('the CLI bundle exists after the build (npm test builds it)', () => {
  assert.ok(existsSync(path.join(ROOT, 'dist', 'cli.js')));
});

test('the code cache: written once, reused, rewritten when corrupt, off on request; the output never changes', () => {
  const cache = mkdtempSync(path.join(tmpdir(), 'ccm-cache-'));
  try {
    const expected = run({ CLOUD_CONFIG_MERGE_NO_COMPILE_CACHE: '1', XDG_CACHE_HOME: cache });
    assert.deepEqual(readdirSync(cache), [], 'turned off: nothing written');
    assert.equal(run({ XDG_CACHE_HOME: cache }), expected);
    const dir = path.join(cache, 'cloud-config-merge');
    const files = readdirSync(dir);
    assert.equal(files.length, 1);
    assert.match(files[0], /^cli\.js-\d+-\d+-v[\d.]+\.v8$/);
    assert.equal(run({ XDG_CACHE_HOME: cache }), expected, 'from the cache');
    writeFileSync(path.join(dir, files[0]), 'not a V8 code cache');
    assert.equal(run({ XDG_CACHE_HOME: cache }), expected, 'a corrupt cache is rejected by V8, not trusted');
    assert.ok(statSync(path.join(dir, files[0])).size > 1000, 'and written anew');
    // The caches of earlier builds go when a new one is written; files that are not ours stay.
    const stale = files[0].replace(/^cli\.js-\d+-/, 'cli.js-1-');
    writeFileSync(path.join(dir, stale), 'an earlier build');
    writeFileSync(path.join(dir, 'server.js-1-1-v1.v8'), 'another bundle');
    rmSync(path.join(dir, files[0]));
    assert.equal(run({ XDG_CACHE_HOME: cache }), expected);
    assert.deepEqual(readdirSync(dir).sort(), [files[0], 'server.js-1-1-v1.v8']);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
