// Custom mergers: JavaScript modules with cloud-init's Merger contract.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { CustomMergerLoadError, customMergerModules, loadCustomMerger } from '../../server/src/engine/merge/custom';
import { runHandlerParts } from '../../server/src/engine/userdata/run';
import { explainSpec } from '../../server/src/engine/lint/explainSpec';
import { main } from '../../server/src/cli/main';
import { canon } from '../support/py';

const EXAMPLE = resolve(__dirname, '..', '..', '..', 'examples', 'custom-mergers', 'm_uniq_list.js');

function module(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-custom-'));
  const path = join(dir, 'm_test.js');
  writeFileSync(path, source);
  return path;
}

function parts(...texts: string[]) {
  return texts.map((t, i) => ({ name: `p${i}.yaml`, bytes: Buffer.from(t) }));
}

test('the example merger appends only new items, as its code says', () => {
  const uniq = loadCustomMerger('uniq_list', EXAMPLE);
  assert.deepEqual(uniq.handles, ['list']);
  assert.match(uniq.description ?? '', /not in the list yet/);
  const run = runHandlerParts(parts('#cloud-config\npackages: [a, b]\n', "#cloud-config\nmerge_how: 'dict(no_replace,recurse_list)+uniq_list()+str()'\npackages: [b, c, a]\n"), {
    customMergers: customMergerModules([uniq]),
  });
  assert.equal(canon(run.result), '{"packages":["a","b","c"]}');
  assert.equal(explainSpec('uniq_list(prepend)', { customMergers: customMergerModules([uniq]) }).error, null);
});

test('without the module, a spec naming it drops the part as cloud-init does (ImportError)', () => {
  const run = runHandlerParts(parts('#cloud-config\npackages: [a]\n', "#cloud-config\nmerge_how: 'dict()+uniq_list()'\npackages: [b]\n"));
  assert.equal(canon(run.result), '{"packages":["a"]}');
  assert.equal(run.reports[1].handled?.error?.pyType, 'ImportError');
});

test('a merger that throws or returns nonsense drops the part, with the reason', () => {
  const throwing = loadCustomMerger('boom', module("exports.Merger = class { _on_list() { throw new Error('kaboom'); } };"));
  const nonsense = loadCustomMerger('junk', module('exports.Merger = class { _on_list() { return { not: "a PyDict" }; } };'));
  const none = loadCustomMerger('nothing', module('exports.Merger = class { _on_list() {} };'));
  for (const [m, pattern] of [
    [throwing, /threw: kaboom/],
    [nonsense, /plain JavaScript objects are not mappings/],
    [none, /returned undefined/],
  ] as const) {
    const run = runHandlerParts(parts('#cloud-config\nl: [1]\n', `#cloud-config\nmerge_how: 'dict(recurse_list)+${m.name}()'\nl: [2]\n`), { customMergers: customMergerModules([m]) });
    assert.equal(canon(run.result), '{"l":[1]}', m.name);
    assert.match(run.reports[1].handled?.error?.message ?? '', pattern);
  }
});

test('modules that cannot be used are refused with a clear error', () => {
  assert.throws(() => loadCustomMerger('missing', '/nonexistent/m_missing.js'), CustomMergerLoadError);
  assert.throws(() => loadCustomMerger('shape', module('exports.nothing = 1;')), /does not export a Merger class/);
  assert.throws(() => loadCustomMerger('nomethods', module('exports.Merger = class {};')), /no _on_<type> method/);
  assert.throws(() => loadCustomMerger('Bad-Name', EXAMPLE), /lowercase/);
});

test('CLI --custom-merger: used when given; a broken module warns and the part is dropped', () => {
  const dir = resolve(__dirname, '..', '..', '..', 'examples', 'custom-mergers');
  let out = '';
  let err = '';
  const io = { stdout: (t: string) => (out += t), stderr: (t: string) => (err += t) };
  assert.equal(main(['--format', 'json', '--custom-merger', `uniq_list=${EXAMPLE}`, join(dir, '10-base.yaml'), join(dir, '20-more.yaml')], io), 0);
  assert.equal(out.trim(), '{"packages":["curl","jq","nginx","htop"]}');
  out = '';
  assert.equal(main(['--format', 'json', '--custom-merger', 'uniq_list=/nonexistent.js', join(dir, '10-base.yaml'), join(dir, '20-more.yaml')], io), 0);
  assert.equal(out.trim(), '{"packages":["curl","jq"]}');
  assert.match(err, /cannot load \/nonexistent\.js/);
});
