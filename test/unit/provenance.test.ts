/**
 * provenance.ts on its own: where each value of a merged result was written (collectProvenance), what a
 * part overrode or lost (partEffects), path display, and the plain-text locator.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPath, textLocator } from '../../server/src/engine/outcome/locate';
import { collectProvenance, stepEffects as partEffects } from '../../server/src/engine/outcome/provenance';
import { userDataLocator } from '../../server/src/engine/outcome/run';
import { runUserData } from '../../server/src/engine/userdata/run';
import { PyDict } from '../../server/src/engine/py/values';

const utf8 = (s: string) => new TextEncoder().encode(s);
const A = '#cloud-config\nruncmd: [one, two]\nhostname: a\npackages: [curl]\n';
const B = '#cloud-config\nmerge_how: "dict(replace)+list(append)+str()"\nruncmd: [three]\nhostname: b\n';

function merged() {
  const run = runUserData([{ name: 'a.yaml', bytes: utf8(A) }, { name: 'b.yaml', bytes: utf8(B) }], { version: 'current', trace: true });
  return { run, locate: userDataLocator(run) };
}

test('each value of the merged result points at the file, line and column that wrote it (0-based)', () => {
  const { run, locate } = merged();
  const { entries, truncated } = collectProvenance(run.result, locate);
  assert.equal(truncated, false);
  const at = Object.fromEntries(entries.map((e) => [e.display, e.location ? `${e.location.file}:${e.location.line}:${e.location.character}` : null]));
  assert.deepEqual(at, {
    runcmd: 'b.yaml:2:8',
    'runcmd[0]': 'b.yaml:2:9',
    hostname: 'b.yaml:3:10',
    packages: 'a.yaml:3:10',
    'packages[0]': 'a.yaml:3:11',
  });
  const keyOf = entries.find((e) => e.display === 'packages')?.keyLocation;
  assert.deepEqual(keyOf && [keyOf.file, keyOf.line, keyOf.character], ['a.yaml', 3, 0]);
});

test('what the second part did: dict(replace) overrode runcmd and hostname, with both places', () => {
  const { run, locate } = merged();
  const effects = run.reports.map((r) => partEffects(r.handled?.events, locate));
  assert.deepEqual(effects[0], []);
  assert.deepEqual(
    effects[1].map((e) => [formatPath(e.path), e.what, e.reason, `${e.from?.file}:${e.from?.line}`, `${e.at?.file}:${e.at?.line}`]),
    [
      ['runcmd', 'replaced', 'dict(replace)', 'a.yaml:1', 'b.yaml:2'],
      ['hostname', 'replaced', 'dict(replace)', 'a.yaml:2', 'b.yaml:3'],
    ],
  );
  assert.equal(partEffects(run.reports[1].handled?.events, locate, 1).length, 1, 'the limit is kept');
});

test('a self-referencing value is walked once, and the walk stops at the limit', () => {
  const d = new PyDict();
  d.set('self', d);
  d.set('x', [1, 2, 3]);
  const none = () => null;
  assert.deepEqual(collectProvenance(d, none).entries.map((e) => e.display), ['self', 'x', 'x[0]', 'x[1]', 'x[2]']);
  const limited = collectProvenance(d, none, { limit: 2 });
  assert.deepEqual([limited.entries.length, limited.truncated], [2, true]);
});

test('paths and the text locator', () => {
  assert.equal(formatPath(['runcmd', 0, 'x', 1.5]), 'runcmd[0].x[1.5]');
  const locate = textLocator([{ name: 'f', text: 'ab\ncd' }, null]);
  assert.deepEqual(locate({ source: 0, value: { start: 3, end: 5 } }, 'value'), { file: 'f', source: 0, line: 1, character: 0, endLine: 1, endCharacter: 2, note: undefined });
  assert.equal(locate({ source: 1, value: { start: 0, end: 1 } }, 'value'), null, 'no such file');
  assert.equal(locate({ source: 0, value: { start: 0, end: 1 } }, 'key'), null, 'no key span');
});
