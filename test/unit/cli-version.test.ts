/**
 * `--version` and SARIF's `driver.version` give this package's version however the CLI runs (issue 31,
 * item 5): from a clone's tsc output, from the bundle, and installed as a dependency of another project
 * (where the project's own package.json is the one module resolution finds).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../support/cli';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const PART = path.join(ROOT, 'examples', 'user-data', '10-base.yaml');

function run(script: string, args: string[], cwd = ROOT): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', cwd, env: { ...process.env, CLOUD_CONFIG_MERGE_NO_COMPILE_CACHE: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function driverVersion(sarif: string): unknown {
  return (JSON.parse(sarif) as { runs: Array<{ tool: { driver: { version?: string } } }> }).runs[0].tool.driver.version;
}

test('--version from a clone: the tsc output of either build, the bundle and the bin', () => {
  for (const script of ['out/server/src/cli/main.js', 'server/out/cli/main.js', 'dist/cli.js', 'bin/cloud-config-merge.js']) {
    const r = run(path.join(ROOT, script), ['--version'], tmpdir());
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `cloud-config-merge ${VERSION}\n`, ''], script);
  }
});

test('--version installed in another project: this package\'s version, not the project\'s', () => {
  const host = mkdtempSync(path.join(tmpdir(), 'ccm-host-'));
  try {
    writeFileSync(path.join(host, 'package.json'), JSON.stringify({ name: 'host-app', version: '9.9.9', dependencies: { 'cloud-config-merge': '*' } }));
    const installed = path.join(host, 'node_modules', 'cloud-config-merge');
    for (const file of ['package.json', 'dist/cli.js', 'bin/cloud-config-merge.js', 'bin/compile-cache.js']) {
      mkdirSync(path.dirname(path.join(installed, file)), { recursive: true });
      copyFileSync(path.join(ROOT, file), path.join(installed, file));
    }
    // The CLI bundle's data files (scripts/bundle.mjs), read when a run needs them (--check below).
    cpSync(path.join(ROOT, 'dist', 'cli-data'), path.join(installed, 'dist', 'cli-data'), { recursive: true });
    for (const script of ['bin/cloud-config-merge.js', 'dist/cli.js']) {
      const r = run(path.join(installed, script), ['--version'], host);
      assert.deepEqual([r.status, r.stdout], [0, `cloud-config-merge ${VERSION}\n`], script);
    }
    const sarif = run(path.join(installed, 'bin/cloud-config-merge.js'), ['--check', '--format', 'sarif', PART], host);
    assert.equal(sarif.status, 0, sarif.stderr);
    assert.equal(driverVersion(sarif.stdout), VERSION);
  } finally {
    rmSync(host, { recursive: true, force: true });
  }
});

test("SARIF's driver.version is this package's version, for --check and for --lint", () => {
  const check = runCli(['--check', '--format', 'sarif', PART]);
  assert.equal(check.code, 0, check.stderr);
  assert.equal(driverVersion(check.stdout), VERSION);
  const lint = runCli(['--lint', '--format', 'sarif', PART]);
  assert.equal(lint.code, 0, lint.stderr);
  assert.equal(driverVersion(lint.stdout), VERSION);
});
