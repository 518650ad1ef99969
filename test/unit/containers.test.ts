// A container beside its own parts (issue 31, item 1): which inputs are a MIME or an archive that already
// holds the parts of others given with them, as user-data processing yields the parts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { processUserData } from '../../server/src/engine/userdata/process';
import { containerSentence, containersAmong } from '../../server/src/engine/userdata/containers';
import { makeMime } from '../../server/src/engine/userdata/makeMime';
import { buildPreview, unwrapHeader } from '../../server/src/engine/render/previewText';

const enc = (text: string) => new TextEncoder().encode(text);
const BASE = '#cloud-config\nhostname: base\n';
const WEB = '#cloud-config\nruncmd:\n  - echo é\n';
const TEMPLATE = '## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostname }}\n';
const BUILT = makeMime([
  { filename: 'base.yaml', subtype: 'cloud-config', text: BASE },
  { filename: 'web.yaml', subtype: 'cloud-config', text: WEB },
  { filename: 'template.yaml', subtype: 'jinja2', text: TEMPLATE },
]);

function containers(files: Array<[string, Uint8Array]>) {
  const processed = processUserData(files.map(([name, bytes]) => ({ name, bytes })));
  return containersAmong(processed.parts, files.length);
}

describe('a container beside its own parts', () => {
  test('make-mime of three files (one base64-encoded, one a template), gzip-compressed, given with two of them', () => {
    const got = containers([
      ['web.yaml', enc(WEB)],
      ['built.mime.gz', new Uint8Array(gzipSync(enc(BUILT)))],
      ['template.yaml', enc(TEMPLATE)],
    ]);
    assert.deepEqual(got, [{ container: 1, contains: [0, 2], own: 1 }]);
  });

  test('a gzip of one file beside it is a copy, not a container; a file of none of its parts is not contained', () => {
    assert.deepEqual(containers([['base.yaml', enc(BASE)], ['base.yaml.gz', new Uint8Array(gzipSync(enc(BASE)))]]), []);
    assert.deepEqual(containers([['other.yaml', enc('#cloud-config\nhostname: other\n')], ['built.mime', enc(BUILT)]]), []);
  });

  test('the sentence names the container, what it contains and what only it has', () => {
    assert.equal(containerSentence('built.mime', ['20-web.yaml']), 'built.mime already contains 20-web.yaml');
    assert.equal(containerSentence('built.mime', ['a', 'b', 'c'], 2), 'built.mime already contains a, b and c (and 2 parts of its own)');
  });

  test("the preview's header notes it once, in the notes; without the container there is no note", () => {
    const files = [{ name: 'base.yaml', bytes: enc(BASE) }, { name: 'web.yaml', bytes: enc(WEB) }, { name: 'built.mime', bytes: enc(BUILT) }];
    const notes = unwrapHeader(buildPreview('user-data', files).text).split('\n').filter((l) => l.includes('already contains'));
    assert.deepEqual(notes, ['# Note: built.mime already contains base.yaml and web.yaml: their parts are merged twice, once from each']);
    assert.doesNotMatch(buildPreview('user-data', files.slice(0, 2)).text, /already contains/);
  });
});
