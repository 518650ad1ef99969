// Thousands of MIME parts: the preview indexed the lines of the whole blob once per part
// (5,000 parts of a 100 KB blob: 14 s), and merging copied the accumulated mapping recomputing
// every key's identity. Both are now linear in what they have to do.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreview } from '../../server/src/engine/render/previewText';
import { PyDict } from '../../server/src/engine/py/values';
import { mime } from './corpus';

describe('many parts', () => {
  test('the preview indexes a blob once, whatever the number of its parts', () => {
    // The locator looks LineIndex up on the module at call time: count the constructions.
    const lineIndexModule = require('../../server/src/engine/text/lineIndex') as { LineIndex: new (text: string) => object };
    const Original = lineIndexModule.LineIndex;
    let built = 0;
    lineIndexModule.LineIndex = class extends Original {
      constructor(text: string) {
        super(text);
        built++;
      }
    };
    try {
      const text = mime(Array.from({ length: 300 }, (_, i) => ({ body: `#cloud-config\nk${i}: ${i}` })));
      const preview = buildPreview('user-data', [{ name: 'ud.mime', bytes: Buffer.from(text) }]);
      assert.equal(preview.parts.length, 300);
      assert.ok(preview.entries.some((e) => e.path === 'k299' && e.source?.line !== undefined));
      assert.ok(built <= 2, `LineIndex built ${built} times for one blob`);
    } finally {
      lineIndexModule.LineIndex = Original;
    }
  });

  test('PyDict.copy keeps order, values and origins, and is independent of the original', () => {
    const d = new PyDict();
    d.set('b', 1n, { source: 1, value: { start: 1, end: 2 } });
    d.set(2n, 'x');
    d.set('a', null);
    const c = d.copy();
    assert.deepEqual(c.keys(), ['b', 2n, 'a']);
    assert.deepEqual(c.originOf('b'), { source: 1, value: { start: 1, end: 2 } });
    c.set('b', 5n);
    c.set('z', 1n);
    assert.equal(d.get('b'), 1n);
    assert.equal(d.has('z'), false);
    assert.equal(c.get(2n), 'x');
  });
});
