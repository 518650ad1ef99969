// The preview keeps each part's load between refreshes (PartLoadCache) and takes its line map from
// the one render of cloud-config.txt (issue 15). Both must leave the preview exactly as it was.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreview } from '../../server/src/engine/render/previewText';
import { InputFile as PreviewFile } from '../../server/src/engine/outcome/run';
import { PartLoadCache } from '../../server/src/engine/userdata/cloudConfigHandler';
import { runUserData } from '../../server/src/engine/userdata/run';
import { dumpPyYamlWithLines } from '../../server/src/engine/yaml/dump';

const file = (name: string, text: string): PreviewFile => ({ name, bytes: Buffer.from(text) });

const PARTS = [
  file('base.yaml', '#cloud-config\nruncmd: [one]\npackages: [git]\nusers: [{name: a}]\n'),
  file('more.yaml', '#cloud-config\nmerge_how: "list(append)+dict(no_replace,recurse_list)+str()"\nruncmd: [two]\npackages: [vim]\n'),
  file('typed.yaml', '#cloud-config\nmerge_type: "list(prepend)+dict(recurse_array)+str()"\nruncmd: [zero]\nwrite_files: [{path: /x, content: "a\\nb"}]\n'),
];

describe('preview refresh with cached part loads', () => {
  test('every refresh equals a preview built from scratch, the spec keys of unchanged parts included', () => {
    const cache = new PartLoadCache();
    let parts = PARTS;
    for (let refresh = 0; refresh < 4; refresh++) {
      // One part edited per refresh, the others unchanged (their loads come from the cache).
      if (refresh > 0) parts = parts.map((p, i) => (i === refresh % parts.length ? file(p.name, Buffer.from(p.bytes).toString() + `extra${refresh}: ${refresh}\n`) : p));
      const cached = buildPreview('user-data', parts, { partCache: cache });
      const fresh = buildPreview('user-data', parts);
      assert.equal(cached.text, fresh.text, `refresh ${refresh}`);
      assert.deepEqual(cached.entries, fresh.entries, `refresh ${refresh}`);
      // merge_how / merge_type are taken out of the data by cloud-init: never in the result, even from a cached load.
      assert.doesNotMatch(cached.body, /merge_how|merge_type/);
      assert.match(cached.body, /- zero\n- one\n- two\n/);
    }
  });

  test('the line map from the render of cloud-config.txt is the one a second dump gives', () => {
    const run = runUserData(
      PARTS.map((p) => ({ name: p.name, bytes: p.bytes })),
      { withLines: true },
    );
    assert.ok(run.renderedLines?.length);
    assert.deepEqual(run.renderedLines, dumpPyYamlWithLines(run.result).lines);
    assert.equal(run.cloudConfigTxt, runUserData(PARTS.map((p) => ({ name: p.name, bytes: p.bytes }))).cloudConfigTxt);
  });
});
