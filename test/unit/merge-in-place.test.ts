// The part handler changes its own copies of the accumulated config in place instead of copying
// them at every part (issue 15). cloud-init copies at every step, so these tests pin the cases
// where changing in place could show: YAML aliases shared between keys, a part that fails half-way
// through its merge (cloud-init leaves the accumulated config untouched), tracing (which keeps
// the values of each step). Expected outputs: cloud-init 22.4.2 via the oracle (oracle.py --raw).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runUserData } from '../../server/src/engine/userdata/run';
import { Rng, userDataCase } from '../oracle/generate';

const APPEND = 'list(append)+dict(no_replace,recurse_list)+str()';
const INDEX_WISE = 'dict(no_replace,recurse_list)+list(recurse_list)+str()';

function run(texts: Array<string | Buffer>, trace = false): string {
  return runUserData(
    texts.map((t, i) => ({ name: `p${i}`, bytes: Buffer.from(t) })),
    { trace },
  ).cloudConfigTxt;
}

const header = (files: number[]) => `#cloud-config\n\n# from ${files.length} files\n${files.map((n) => `# part-00${n}\n`).join('')}\n---\n`;

describe('merging into the accumulated config in place', () => {
  test('a list or mapping written once and aliased twice: appending under one key leaves the other as written', () => {
    const out = run([
      '#cloud-config\na: &l [1]\nb: *l\nd: &d {k: [1]}\ne: *d\n',
      `#cloud-config\nmerge_how: "${APPEND}"\na: [2]\nd: {k: [2]}\n`,
      `#cloud-config\nmerge_how: "${APPEND}"\na: [3]\nd: {k: [3], j: 3}\n`,
    ]);
    assert.equal(out, header([1, 2, 3]) + 'a:\n- 1\n- 2\n- 3\nb:\n- 1\nd:\n    j: 3\n    k:\n    - 1\n    - 2\n    - 3\ne:\n    k:\n    - 1\n...\n');
  });

  test('an anchor in a later part still makes the dump write anchors (it looks for shared values only when a part has an `&`)', () => {
    const out = run([
      '#cloud-config\nruncmd:\n- echo a && echo b\npackages: [git]\n',
      `#cloud-config\nmerge_how: "${APPEND}"\nusers:\n- &u {name: ann}\nadmins: [*u]\npackages: [vim]\n`,
    ]);
    assert.equal(out, header([1, 2]) + 'admins:\n- &id001\n    name: ann\npackages:\n- git\n- vim\nruncmd:\n- echo a && echo b\nusers:\n- *id001\n...\n');
  });

  test('prepending in place keeps the order cloud-init builds', () => {
    const prepend = `#cloud-config\nmerge_how: "list(prepend)+dict(no_replace,recurse_list)+str()"\n`;
    const out = run(['#cloud-config\na: [1]\n', `${prepend}a: [2, 3]\n`, `${prepend}a: [4]\n`, `${prepend}a: [2, 3]\n`]);
    assert.equal(out, header([1, 2, 3, 4]) + 'a:\n- 2\n- 3\n- 4\n- 2\n- 3\n- 1\n...\n');
  });

  test('a JSON patch that copies a merged list and mapping: appending to the original later leaves the copies as they were', () => {
    const append = `#cloud-config\nmerge_how: "${APPEND}"\n`;
    const out = run([
      '#cloud-config\na: [1]\nd: {k: [1]}\n',
      `${append}a: [2]\nd: {k: [2]}\n`,
      '#cloud-config-jsonp\n[{"op": "copy", "from": "/a", "path": "/b"}, {"op": "copy", "from": "/d", "path": "/e"}]\n',
      `${append}a: [3]\nd: {k: [3]}\n`,
    ]);
    assert.equal(out, header([1, 2, 3, 4]) + 'a:\n- 1\n- 2\n- 3\nb:\n- 1\n- 2\nd:\n    k:\n    - 1\n    - 2\n    - 3\ne:\n    k:\n    - 1\n    - 2\n...\n');
  });

  test('a part whose merge fails half-way (RecursionError) changes nothing, though it had merged some keys', () => {
    const nest = (n: number, v: number) => `${'['.repeat(n)}${v}${']'.repeat(n)}`;
    const out = run([
      `#cloud-config\nruncmd: [a]\nx: {k: [1], m: {n: [1]}}\ndeep: ${nest(260, 1)}\n`,
      // runcmd and x are merged before `deep` recurses past Python's limit.
      `#cloud-config\nmerge_how: "${INDEX_WISE}"\nruncmd: [b]\nx: {k: [2], m: {n: [2]}, new: 2}\ndeep: ${nest(260, 2)}\nlast: 2\n`,
      `#cloud-config\nmerge_how: "${APPEND}"\nruncmd: [c]\nx: {k: [3], m: {n: [3]}}\n`,
    ]);
    const deep = `deep:\n${'-   '.repeat(259)}- 1\n`;
    assert.equal(out, header([1, 3]) + deep + 'runcmd:\n- a\n- c\nx:\n    k:\n    - 1\n    - 3\n    m:\n        n:\n        - 1\n        - 3\n...\n');
  });

  test('the same result as copying at every part (as tracing does) on 1,500 random user-data sets of the differential tests', () => {
    const rng = new Rng(15);
    for (let i = 0; i < 1500; i++) {
      const blobs = userDataCase(rng).blobs.map((b) => Buffer.from(b, 'base64'));
      assert.equal(run(blobs), run(blobs, true), `case ${i}`);
    }
  });
});
