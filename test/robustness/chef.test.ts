// Chef mode (--mode chef, the chef preview): its deep merge recurses once per level and compares
// array items by their whole structure, so a file nested 3,000 deep overflowed the JavaScript
// stack and an alias bomb in an array never finished. Files are now loaded with maxDepth and
// maxExpandedNodes: over them, the file is refused, naming the limit.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_LIMITS } from '../../server/src/engine/limits';
import { buildPreview } from '../../server/src/engine/render/previewText';
import { billionLaughs } from './corpus';
import { tempDir } from './harness';
import { runCli } from '../support/cli';

const deep = (n: number) => 'default_attributes: ' + '{a: '.repeat(n) + '1' + '}'.repeat(n) + '\n';
const bomb = () => 'default_attributes:\n' + billionLaughs(10).trimEnd().replace(/^/gm, '  ') + '\n  all: [*l10]\n';

describe('chef mode and hostile files', () => {
  test('nested deeper than maxDepth: refused naming the limit (exit 2), not a stack overflow', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'deep.yaml');
      writeFileSync(file, deep(20_000));
      for (const format of ['yaml', 'json', 'report', 'preview']) {
        const r = runCli(['--mode', 'chef', '--format', format, file, file]);
        // The preview shows the files it could not read as dropped (exit 0); the other formats refuse them.
        assert.equal(r.code, format === 'preview' ? 0 : 2, `${format}: ${r.stderr}`);
        assert.match(r.stderr + r.stdout, new RegExp(`limit maxDepth = ${DEFAULT_LIMITS.maxDepth}`));
      }
      const ok = path.join(dir, 'ok.yaml');
      writeFileSync(ok, deep(DEFAULT_LIMITS.maxDepth - 2));
      assert.equal(runCli(['--mode', 'chef', '--format', 'json', ok, ok]).code, 0);
    } finally {
      cleanup();
    }
  });

  test('an alias bomb: refused naming maxExpandedNodes, quickly', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'bomb.yaml');
      writeFileSync(file, bomb());
      const started = Date.now();
      const r = runCli(['--mode', 'chef', file, file]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /limit maxExpandedNodes = 5000000/);
      assert.ok(Date.now() - started < 30_000);
    } finally {
      cleanup();
    }
  });

  test('the chef preview lists such a file as dropped, with the reason', () => {
    const preview = buildPreview('chef', [
      { name: 'deep.yaml', bytes: Buffer.from(deep(20_000)) },
      { name: 'bomb.yaml', bytes: Buffer.from(bomb()) },
      { name: 'fine.json', bytes: Buffer.from('{"default_attributes": {"x": [1, 2]}}') },
    ]);
    assert.deepEqual(preview.parts.map((p) => p.status), ['dropped', 'dropped', 'merged']);
    assert.match(preview.parts[0].reason ?? '', /maxDepth/);
    assert.match(preview.parts[1].reason ?? '', /maxExpandedNodes/);
  });
});
