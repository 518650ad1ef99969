// Alias bombs ("billion laughs") and deep values where the engine turns a value into text or
// walks it: the spans of a merge_how value, repr() in messages and in the preview header. They
// used to expand every alias (hang) or recurse per level (JS stack overflow).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PyDict, PyValue } from '../../server/src/engine/py/values';
import { PyError } from '../../server/src/engine/py/errors';
import { LimitExceededError } from '../../server/src/engine/limits';
import { pyRepr, pyReprForMessage, PY_REPR_MAX_DEPTH } from '../../server/src/engine/py/repr';
import { loadYaml } from '../../server/src/engine/yaml/load';
import { spansOfValue } from '../../server/src/engine/userdata/specSpans';
import { runUserData } from '../../server/src/engine/userdata/run';
import { buildPreview, unwrapHeader } from '../../server/src/engine/render/previewText';
import { billionLaughs } from './corpus';

/** CPU milliseconds a call takes (the thread is busy only with it). */
function cpuMs(f: () => void): number {
  const before = process.cpuUsage();
  f();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

function bomb(levels: number): PyValue {
  const loaded = loadYaml(billionLaughs(levels));
  assert.ok(loaded.ok);
  return (loaded.value as PyDict).get(`l${levels}`) as PyValue;
}

describe('alias bombs and deep values turned into text', () => {
  test('pyRepr: a billion-laughs value is refused (maxExpandedNodes), not expanded', () => {
    const value = bomb(12);
    let error: unknown;
    const ms = cpuMs(() => {
      try {
        pyRepr(value);
      } catch (e) {
        error = e;
      }
    });
    assert.ok(error instanceof LimitExceededError && error.limit === 'maxExpandedNodes', String(error));
    assert.ok(ms < 10_000, `${ms} ms`);
    assert.match(pyReprForMessage(value), /^<a value whose repr is over 1000 characters/);
  });

  test('pyRepr: as Python, RecursionError past the recursion limit, not a JavaScript stack overflow', () => {
    let deep: PyValue = 1n;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.throws(() => pyRepr(deep), (e: unknown) => e instanceof PyError && e.pyType === 'RecursionError');
    let fine: PyValue = 1n;
    for (let i = 0; i < PY_REPR_MAX_DEPTH - 1; i++) fine = [fine];
    assert.equal(pyRepr(fine), '['.repeat(PY_REPR_MAX_DEPTH - 1) + '1' + ']'.repeat(PY_REPR_MAX_DEPTH - 1));
  });

  test('pyRepr: unchanged for ordinary values', () => {
    const d = PyDict.from([['a', [1n, 'x', null, true, 1.5]], ['b', new PyDict()]]);
    assert.equal(pyRepr(d), "{'a': [1, 'x', None, True, 1.5], 'b': {}}");
  });

  test('spansOfValue: bounded for a bomb and for 100,000 levels', () => {
    const loaded = loadYaml(`${billionLaughs(12)}x: *l12\n`);
    assert.ok(loaded.ok);
    const value = (loaded.value as PyDict).get('x') as PyValue;
    const ms = cpuMs(() => spansOfValue(value, { start: 0, end: 1 }));
    assert.ok(ms < 5_000, `${ms} ms`);
    let deep: PyValue = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.doesNotThrow(() => spansOfValue(deep, { start: 0, end: 1 }));
  });

  test('a bomb as merge_how settings: the part merges, the preview header stays short', () => {
    const text = `#cloud-config\n${billionLaughs(12)}merge_how: [{name: list, settings: *l12}, {name: dict, settings: [replace]}]\nb: 1\n`;
    let preview: ReturnType<typeof buildPreview> | undefined;
    const ms = cpuMs(() => (preview = buildPreview('user-data', [{ name: 'ud', bytes: Buffer.from(text) }])));
    assert.ok(ms < 20_000, `${ms} ms`);
    assert.ok(preview!.text.length < 100_000, `${preview!.text.length} characters`);
    assert.match(unwrapHeader(preview!.text), /merged with list\(<a value whose repr is over 200 characters/);
  });

  test("a bomb as an archive entry's header: cloud-init's TypeError, with a short repr in the message", () => {
    const text = `#cloud-config-archive\n${billionLaughs(12).replace(/^l\d+: /gm, '- ')}- {content: "#cloud-config\\na: 1", X-Foo: *l12}\n`;
    const run = runUserData([{ name: 'archive', bytes: Buffer.from(text) }]);
    assert.equal(run.fatal?.pyType, 'TypeError');
    assert.match(run.fatal.message, /header 'X-Foo': .*<a value whose repr is over 1000 characters/);
  });
});
