// The preview keeps each part's load between refreshes (PartLoadCache) and takes its line map from
// the one render of cloud-config.txt (issue 15). Both must leave the preview exactly as it was.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreview } from '../../server/src/engine/render/previewText';
import { InputFile as PreviewFile } from '../../server/src/engine/outcome/run';
import { PartLoadCache } from '../../server/src/engine/userdata/cloudConfigHandler';
import { runUserData } from '../../server/src/engine/userdata/run';
import { dumpPyYamlWithLines } from '../../server/src/engine/yaml/dump';
import { Rng, userDataCase } from '../oracle/generate';

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

describe('one part cache across cloud-init versions (--check --image all, issue 43)', () => {
  test('runs on each version in turn share the loads and equal runs from scratch, whatever the order', () => {
    const rng = new Rng(4343);
    const cases: PreviewFile[][] = Array.from({ length: 200 }, () => userDataCase(rng).blobs.map((b, i) => ({ name: `p${i}`, bytes: Buffer.from(b, 'base64') })));
    // A spec cloud-init cannot parse: the message spells "identifer" up to 23.4, "identifier" from 24.4.
    cases.push([...PARTS, file('bad.yaml', '#cloud-config\nmerge_how: "dict(recurse_list"\nruncmd: [three]\n')]);
    cases.push(PARTS);
    for (const [n, files] of cases.entries()) {
      const cache = new PartLoadCache('all');
      let hits = 0;
      const get = cache.get.bind(cache);
      cache.get = (key: string) => {
        const hit = get(key);
        if (hit) hits++;
        return hit;
      };
      for (const version of ['current', '22.4', '24.4', '23.4', '25.1', 'current'] as const) {
        const cached = runUserData(files, { version, partCache: cache });
        const fresh = runUserData(files, { version });
        assert.equal(cached.cloudConfigTxt, fresh.cloudConfigTxt, `case ${n} on ${version}`);
        assert.deepEqual(cached.messages, fresh.messages, `case ${n} on ${version}`);
      }
      // Loaded on current (24.4's loader) and on 22.4 (22.4's), then shared by the four other runs.
      if (n === cases.length - 1) assert.equal(hits, 4 * PARTS.length);
    }
  });
});
