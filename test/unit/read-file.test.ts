// The one bounded file reader of the CLI and the language server (server/src/node/readFile.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BoundedReadError, ReadFailure, readBounded, readBoundedSync } from '../../server/src/node/readFile';

function failureOf(read: () => unknown): ReadFailure {
  try {
    read();
  } catch (e) {
    assert.ok(e instanceof BoundedReadError, String(e));
    return e.failure;
  }
  assert.fail('the read was refused');
}

async function asyncFailureOf(read: () => Promise<unknown>): Promise<ReadFailure> {
  try {
    await read();
  } catch (e) {
    assert.ok(e instanceof BoundedReadError, String(e));
    return e.failure;
  }
  assert.fail('the read was refused');
}

describe('bounded file reader', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ccm-read-'));
    writeFileSync(path.join(dir, 'small.yaml'), '#cloud-config\n');
    writeFileSync(path.join(dir, 'big.yaml'), 'x'.repeat(200));
    mkdirSync(path.join(dir, 'folder'));
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (name: string) => path.join(dir, name);

  test('a regular file within the limit is read, sync and async', async () => {
    assert.equal(new TextDecoder().decode(readBoundedSync(at('small.yaml'), { maxBytes: 100 })), '#cloud-config\n');
    assert.equal(new TextDecoder().decode(await readBounded(at('small.yaml'), { maxBytes: 100 })), '#cloud-config\n');
  });

  test('a regular file over the limit is refused with its size', async () => {
    assert.deepEqual(failureOf(() => readBoundedSync(at('big.yaml'), { maxBytes: 100 })), { kind: 'over-limit', size: 200, max: 100 });
    assert.deepEqual(await asyncFailureOf(() => readBounded(at('big.yaml'), { maxBytes: 100 })), { kind: 'over-limit', size: 200, max: 100 });
  });

  test('a FIFO nobody writes to is refused at once, never waited for', async () => {
    assert.deepEqual(failureOf(() => readBoundedSync(at('fifo'), { maxBytes: 100 })), { kind: 'not-regular' });
    assert.deepEqual(await asyncFailureOf(() => readBounded(at('fifo'), { maxBytes: 100 })), { kind: 'not-regular' });
  });

  test('a device the caller allows is read up to the limit, and refused past it', () => {
    assert.deepEqual(failureOf(() => readBoundedSync('/dev/zero', { maxBytes: 1000, allowStreams: true })), { kind: 'over-limit', size: null, max: 1000 });
    assert.deepEqual(failureOf(() => readBoundedSync('/dev/zero', { maxBytes: 1000 })), { kind: 'not-regular' });
    assert.equal(readBoundedSync('/dev/null', { maxBytes: 1000, allowStreams: true }).length, 0);
  });

  test('a missing file and a directory are said as such', () => {
    assert.deepEqual(failureOf(() => readBoundedSync(at('gone.yaml'), { maxBytes: 100 })), { kind: 'no-such-file' });
    assert.deepEqual(failureOf(() => readBoundedSync(at('folder'), { maxBytes: 100 })), { kind: 'directory' });
  });
});
