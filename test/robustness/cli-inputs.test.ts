// What the CLI reads: never a device or pipe named by user-data (#include /dev/zero would never
// end), never more than maxFileBytes even from a pipe the user names, and a closed stdout
// (`cloud-config-merge x | head`) ends it quietly instead of with an EPIPE stack trace.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_LIMITS } from '../../server/src/engine/limits';
import { readInput } from '../../server/src/cli/main';
import { CLI_BIN, STACK_TRACE, assertCleanRun, runCliChild, tempDir } from './harness';

describe('input files', () => {
  test('#include of a device is refused, not read forever', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'inc.txt');
      writeFileSync(file, '#include\n/dev/zero\nfile:///dev/urandom\n');
      const run = await runCliChild([file], { cpuBudgetMs: 20_000 });
      assertCleanRun(run, { code: 3, stderr: [/\/dev\/zero: not a regular file/] }, 'include /dev/zero');
      const skip = await runCliChild(['--include-missing', 'skip', file], { cpuBudgetMs: 20_000 });
      assertCleanRun(skip, { code: 0, stderr: [/\/dev\/zero: not a regular file/, /\/dev\/urandom: not a regular file/] }, 'include /dev/zero, skip');
    } finally {
      cleanup();
    }
  });

  test('a device or pipe named on the command line is read up to maxFileBytes', () => {
    assert.throws(() => readInput('/dev/zero'), new RegExp(`/dev/zero: more than ${DEFAULT_LIMITS.maxFileBytes} bytes: exceeds the limit maxFileBytes`));
    assert.equal(readInput('/dev/null').length, 0);
    assert.throws(() => readInput('/dev/null', { regularOnly: true }), /not a regular file/);
  });

  test('process substitution (a pipe) still works', { skip: process.platform === 'win32' || spawnSync('bash', ['-c', 'true']).status !== 0 }, () => {
    const r = spawnSync('bash', ['-c', `node ${JSON.stringify(CLI_BIN)} <(printf '#cloud-config\\na: 1\\n')`], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^a: 1$/m);
  });

  test('stdout closed early (| head): exit quietly, no stack trace', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'big.yaml');
      writeFileSync(file, '#cloud-config\na:\n' + '- item\n'.repeat(300_000));
      const child = spawn(process.execPath, [CLI_BIN, file], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      assert.ok(!STACK_TRACE.test(stderr), stderr);
      assert.doesNotMatch(stderr, /EPIPE/);
      assert.equal(code, 0);
    } finally {
      cleanup();
    }
  });

  test('a non-blocking stdout that fills up (EAGAIN): the whole output still arrives', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'big.yaml');
      writeFileSync(file, '#cloud-config\na:\n' + '- item\n'.repeat(100_000));
      const expected = spawnSync(process.execPath, [CLI_BIN, file], { encoding: 'utf8', maxBuffer: 1 << 26 });
      assert.equal(expected.status, 0, expected.stderr);
      // The CLI writes to a pipe set O_NONBLOCK whose reader waits first, so the pipe fills and write() fails with EAGAIN.
      const reader = String.raw`
import fcntl, os, subprocess, sys, time
r, w = os.pipe()
fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)
child = subprocess.Popen(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)
os.close(w)
time.sleep(0.5)
out = bytearray()
while True:
    chunk = os.read(r, 65536)
    if not chunk:
        break
    out += chunk
err = child.stderr.read()
sys.stdout.write("%d %d %s" % (child.wait(), len(out), err.decode()))
sys.stdout.flush()
os.write(2, bytes(out))
`;
      const got = spawnSync('python3', ['-c', reader, process.execPath, CLI_BIN, file], { encoding: 'utf8', maxBuffer: 1 << 26 });
      assert.equal(got.status, 0, got.stderr.slice(0, 500));
      const [code, length, ...stderr] = got.stdout.split(' ');
      assert.equal(stderr.join(' '), '');
      assert.equal(code, '0');
      assert.equal(Number(length), Buffer.byteLength(expected.stdout));
      assert.equal(got.stderr, expected.stdout);
    } finally {
      cleanup();
    }
  });
});
