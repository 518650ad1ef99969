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
    const indexesFor = (parts: number) => {
      built = 0;
      const text = mime(Array.from({ length: parts }, (_, i) => ({ body: `#cloud-config\nk${i}: ${i}` })));
      const preview = buildPreview('user-data', [{ name: 'ud.mime', bytes: Buffer.from(text) }]);
      assert.equal(preview.parts.length, parts);
      // Each part's value is placed on its line of the blob: the index is used, so it was built.
      assert.ok(preview.entries.some((e) => e.path === `k${parts - 1}` && e.source?.line !== undefined));
      return built;
    };
    try {
      const few = indexesFor(3);
      assert.ok(few >= 1, 'the count sees the locator build its index (else this test proves nothing)');
      assert.equal(indexesFor(300), few, 'as many indexes for 300 parts as for 3');
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
