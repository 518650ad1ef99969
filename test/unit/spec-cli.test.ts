// `--spec` and `--batch`: values merged with one spec, as cloud-init's mergers.construct(spec) and
// merger.merge(a, b) do (engine/merge/mergeWithSpec.ts); the merged value below is the oracle's answer
// (oracle.py --spec 'list(append)+dict(recurse_dict)' --json A.json B.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../support/cli';

test('--spec merges the value files in order with that spec; --batch says at which stage cloud-init raised', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ccm-spec-'));
  try {
    const at = (name: string, text: string) => (writeFileSync(path.join(dir, name), text), path.join(dir, name));
    const a = at('A.json', '{"a": [1], "b": {"x": 1}}');
    const b = at('B.json', '{"a": [2], "b": {"y": 2}}');
    const merged = runCli(['--spec', 'list(append)+dict(recurse_dict)', '--format', 'json', a, b]);
    assert.equal(merged.code, 0, merged.stderr);
    assert.equal(merged.stdout, '{"a":[1],"b":{"x":1,"y":2}}\n');
    const bad = runCli(['--spec', 'nope(', a, b]);
    assert.equal(bad.code, 3);
    assert.match(bad.stderr, /cloud-init would fail: ValueError: Matcher identifier 'nope\(' is not in the right format/);
    const cases = at(
      'cases.jsonl',
      ['{"spec": "list(append)+dict()", "values": [{"a": [1]}, {"a": [2]}]}', '{"spec": "nope(", "values": [{}]}', '{"spec": [["nosuch", []]], "values": [{}, {}]}'].join('\n'),
    );
    const batch = runCli(['--batch', cases]);
    assert.equal(batch.code, 0, batch.stderr);
    const lines = batch.stdout.trim().split('\n').map((l) => JSON.parse(l) as { result?: unknown; error?: { kind: string; stage: string } });
    assert.deepEqual(lines[0], { result: { a: [1] } });
    assert.deepEqual([lines[1].error?.kind, lines[1].error?.stage], ['ValueError', 'parse']);
    assert.deepEqual([lines[2].error?.kind, lines[2].error?.stage], ['ImportError', 'construct']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
