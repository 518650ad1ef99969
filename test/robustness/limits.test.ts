// Hitting one of our limits (DEFAULT_LIMITS) is an over-limit input, named in the message, exit
// code 2; it is never passed off as cloud-init failing (exit 3) and never a crash (exit 1).
// An #include loop is different: cloud-init itself recurses until RecursionError (exit 3).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_LIMITS, Limits } from '../../server/src/engine/limits';
import { runUserData } from '../../server/src/engine/userdata/run';
import { buildPreview } from '../../server/src/engine/render/previewText';
import { assembleBoot } from '../../server/src/engine/system/boot';
import { fileIncludeResolver } from '../../server/src/node/includes';
import { readInput } from '../../server/src/cli/main';
import { billionLaughs, gzipBomb, mime } from './corpus';
import { tempDir } from './harness';
import { runCli } from '../support/cli';

const small: Limits = { ...DEFAULT_LIMITS, maxParts: 5, maxDecompressedBytes: 1000, maxIncludeDepth: 3 };
const blob = (text: string | Uint8Array) => [{ name: 'ud', bytes: typeof text === 'string' ? Buffer.from(text) : text }];

describe('over a limit: reported as such, naming the limit', () => {
  test('maxParts', () => {
    const run = runUserData(blob(mime(Array.from({ length: 6 }, (_, i) => ({ body: `#cloud-config\nk${i}: 1` })))), { limits: small });
    assert.equal(run.fatal?.limit, 'maxParts');
    assert.match(run.fatal.message, /more than 5 user-data parts \(limit maxParts = 5\)/);
    const preview = buildPreview('user-data', blob(mime(Array.from({ length: 6 }, (_, i) => ({ body: `#cloud-config\nk${i}: 1` })))), { limits: small });
    assert.equal(preview.limit, 'maxParts');
    assert.match(preview.failure ?? '', /over a limit of this tool \(maxParts\)/);
  });

  test('maxDecompressedBytes: a gzip blob and a gzip part', () => {
    const whole = runUserData(blob(gzipBomb(5000)), { limits: small });
    assert.equal(whole.fatal?.limit, 'maxDecompressedBytes');
    assert.match(whole.fatal.message, /limit maxDecompressedBytes = 1000/);
    const part = runUserData(blob(mime([{ headers: 'Content-Type: application/gzip\nContent-Transfer-Encoding: base64', body: Buffer.from(gzipBomb(5000)).toString('base64') }])), { limits: small, onIncludeFailure: 'skip' });
    assert.equal(part.fatal?.limit, 'maxDecompressedBytes', 'even where a failed part would only be a warning');
  });

  test('maxIncludeDepth: a long chain is over our limit; a loop is cloud-init recursing forever', () => {
    const { dir, cleanup } = tempDir();
    try {
      for (let i = 0; i < 5; i++) writeFileSync(path.join(dir, `c${i}.txt`), `#include\n${dir}/c${i + 1}.txt\n`);
      writeFileSync(path.join(dir, 'c5.txt'), '#cloud-config\na: 1\n');
      writeFileSync(path.join(dir, 'a.txt'), `#include\n${dir}/b.txt\n`);
      writeFileSync(path.join(dir, 'b.txt'), `#include file://${dir}/a.txt\n`);
      const includes = fileIncludeResolver([], readInput);
      const chain = runUserData(blob(`#include\n${dir}/c0.txt\n`), { limits: small, includes });
      assert.equal(chain.fatal?.limit, 'maxIncludeDepth');
      assert.match(chain.fatal.message, /limit maxIncludeDepth = 3/);
      const fine = runUserData(blob(`#include\n${dir}/c3.txt\n`), { limits: small, includes });
      assert.equal(fine.fatal, undefined);
      const loop = runUserData(blob(`#include\n${dir}/a.txt\n`), { includes });
      assert.equal(loop.fatal?.pyType, 'RecursionError');
      assert.equal(loop.fatal?.limit, undefined);
      assert.match(loop.fatal.message, /an #include loop: .*a\.txt -> .*b\.txt -> .*a\.txt/);
      const self = runUserData(blob(`#include-once ${dir}/a.txt\n`), { includes });
      assert.equal(self.fatal?.pyType, 'RecursionError');
    } finally {
      cleanup();
    }
  });

  test('boot mode: a limit in user-data or vendor-data is a LimitExceededError (exit 2), not cloud-init failing', () => {
    assert.throws(() => assembleBoot({ userData: blob(gzipBomb(5000)) }, { limits: small }), /limit maxDecompressedBytes/);
    // The preview says so instead of throwing (the language server only expects cloud-init's own errors).
    const preview = buildPreview('boot', blob(gzipBomb(5000)), { limits: small });
    assert.equal(preview.limit, 'maxDecompressedBytes');
    assert.match(preview.text, /over a limit of this tool \(maxDecompressedBytes\)/);
    const vendor = buildPreview('boot', blob('#cloud-config\na: 1\n'), { limits: small, layers: { vendor: { name: 'vendor', bytes: gzipBomb(5000) } } });
    assert.equal(vendor.limit, 'maxDecompressedBytes');
  });

  test('the CLI: exit 2 with the limit named, in every format; nothing on stdout but the report', () => {
    const { dir, cleanup } = tempDir();
    try {
      const bomb = path.join(dir, 'bomb.gz');
      writeFileSync(bomb, gzipBomb(DEFAULT_LIMITS.maxDecompressedBytes + 1000));
      for (const format of ['yaml', 'json', 'report', 'preview']) {
        const r = runCli(['--format', format, bomb]);
        assert.equal(r.code, 2, `${format}: ${r.stderr}`);
        assert.match(r.stderr, /maxDecompressedBytes/);
        if (format === 'yaml' || format === 'json') assert.equal(r.stdout, '');
      }
      const laughs = path.join(dir, 'laughs.yaml');
      writeFileSync(laughs, '#cloud-config\n' + billionLaughs(10));
      assert.equal(runCli([laughs]).code, 0, 'YAML output keeps the aliases, as cloud-init writes them');
      const json = runCli(['--format', 'json', laughs]);
      assert.equal(json.code, 2);
      assert.match(json.stderr, /exceeds the limit maxExpandedNodes = 5000000/);
      assert.doesNotMatch(json.stderr, /internal error/);
    } finally {
      cleanup();
    }
  });

  test('the CLI: --limit NAME=N changes each limit, and the message names the new value', () => {
    const { dir, cleanup } = tempDir();
    try {
      const write = (name: string, content: string | Uint8Array) => {
        const file = path.join(dir, name);
        writeFileSync(file, content);
        return file;
      };
      const parts = write('parts.mime', mime(Array.from({ length: 4 }, (_, i) => ({ body: `#cloud-config\nk${i}: 1` }))));
      assert.equal(runCli([parts]).code, 0);
      const overParts = runCli(['--limit', 'maxParts=3', parts]);
      assert.equal(overParts.code, 2);
      assert.match(overParts.stderr, /more than 3 user-data parts \(limit maxParts = 3\)/);
      assert.equal(overParts.stdout, '');

      const big = write('big.yaml', '#cloud-config\n' + 'k: v\n'.repeat(100));
      const overSize = runCli(['--limit=maxFileBytes=100', big]);
      assert.equal(overSize.code, 2);
      assert.match(overSize.stderr, /big\.yaml: 514 bytes exceeds the limit maxFileBytes = 100/);

      const laughs = write('laughs.yaml', '#cloud-config\n' + billionLaughs(3));
      assert.equal(runCli(['--format', 'json', laughs]).code, 0, 'within the default');
      const overNodes = runCli(['--format', 'json', '--limit', 'maxExpandedNodes=50', laughs]);
      assert.equal(overNodes.code, 2);
      assert.match(overNodes.stderr, /exceeds the limit maxExpandedNodes = 50/);
      const overNodesReport = runCli(['--format', 'report', '--limit', 'maxExpandedNodes=50', laughs]);
      assert.equal(overNodesReport.code, 2, 'the report writes the same values');

      const gz = write('small-bomb.gz', gzipBomb(5000));
      assert.equal(runCli([gz]).code, 0);
      const overGzip = runCli(['--limit', 'maxDecompressedBytes=4000', gz]);
      assert.equal(overGzip.code, 2);
      assert.match(overGzip.stderr, /limit maxDecompressedBytes = 4000/);

      for (let i = 0; i < 4; i++) write(`inc${i}.txt`, `#include\n${dir}/inc${i + 1}.txt\n`);
      write('inc4.txt', '#cloud-config\na: 1\n');
      assert.equal(runCli([path.join(dir, 'inc0.txt')]).code, 0);
      const overIncludes = runCli(['--limit', 'maxIncludeDepth=2', path.join(dir, 'inc0.txt')]);
      assert.equal(overIncludes.code, 2);
      assert.match(overIncludes.stderr, /limit maxIncludeDepth = 2/);

      const role = write('deep.json', `{"default_attributes": ${'{"a": '.repeat(20)}1${'}'.repeat(20)}, "chef_type": "role"}`);
      assert.equal(runCli(['--mode', 'chef', role]).code, 0);
      const overDepth = runCli(['--mode', 'chef', '--limit', 'maxDepth=10', role]);
      assert.equal(overDepth.code, 2);
      assert.match(overDepth.stderr, /limit maxDepth = 10/);
    } finally {
      cleanup();
    }
  });

  test('the CLI: a malformed or unknown --limit is a usage error (exit 2), never a limit switched off', () => {
    for (const bad of ['maxParts', 'maxParts=0', 'maxParts=-1', 'maxParts=1.5', 'maxParts=', 'maxPart=3', 'maxParts=99999999999999999999']) {
      const r = runCli(['--limit', bad, '/dev/null']);
      assert.equal(r.code, 2, bad);
      assert.match(r.stderr, /--limit/, bad);
      assert.equal(r.stdout, '');
    }
  });
});
