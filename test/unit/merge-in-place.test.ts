// The part handler changes its own copies of the accumulated config in place instead of copying
// them at every part (issue 15). cloud-init copies at every step, so these tests pin the cases
// where changing in place could show: YAML aliases shared between keys, a part that fails half-way
// through its merge (cloud-init leaves the accumulated config untouched), tracing (which keeps
// the values of each step). Expected outputs: cloud-init 22.4.2 via the oracle (oracle.py --raw).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runUserData } from '../../server/src/engine/userdata/run';
import { Rng, listSpec, mapping, stringSpec, userDataCase } from '../oracle/generate';
import { mergeMany } from '../../server/src/engine/system/mergemany';
import { PyDict, type PyValue } from '../../server/src/engine/py/values';
import { jsonToPy } from '../../server/src/engine/schema/pyjsonschema';
import type { MergeEvent } from '../../server/src/engine/merge/trace';
import { pyRepr } from '../../server/src/engine/py/repr';

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

describe('util.mergemanydict (drop-ins, system layers) in place (issue 43)', () => {
  const dicts = (values: unknown[]) => values.map((v) => jsonToPy(v));
  /** An event in words, its values as Python writes them (after the whole merge: what the fates read then). */
  const eventText = (e: MergeEvent) =>
    Object.entries(e)
      .filter(([k]) => k !== 'origin' && k !== 'oldOrigin')
      .map(([k, v]) => `${k}=${pyRepr(v as PyValue)}`)
      .join(' ');
  test('the same result, the same trace and untouched sources as copying at every source, on 1,500 random sets', () => {
    const rng = new Rng(43);
    for (let i = 0; i < 1500; i++) {
      const sources = Array.from({ length: 2 + rng.int(5) }, () => {
        const m = mapping(rng);
        if (rng.chance(0.5)) m.merge_how = rng.chance(0.75) ? stringSpec(rng) : listSpec(rng);
        return m;
      });
      const run = (copyEachStep: boolean) => {
        const values = dicts(sources);
        const before = values.map((v) => pyRepr(v));
        try {
          const r = mergeMany(values, { trace: true, copyEachStep });
          assert.deepEqual(values.map((v) => pyRepr(v)), before, `case ${i}: a source was changed`);
          return `${pyRepr(r.value)}\n${r.steps.map((s) => (s.events ?? []).map(eventText).join('; ')).join('\n')}`;
        } catch (e) {
          return `raises ${(e as Error).message}`;
        }
      };
      assert.equal(run(false), run(true), `case ${i}`);
    }
  });

  test('a mapping kept where a later drop-in writes another type: its fate shows it as it was, later drop-ins still merge into it', () => {
    // The first two make `network` and its `ethernets` copies of our own; the third keeps them; the fourth adds eth2.
    const eth = (n: number) => ({ network: { ethernets: { [`eth${n}`]: { dhcp4: true } } } });
    const sources = dicts([eth(0), eth(1), { network: 5 }, eth(2)]);
    const r = mergeMany(sources, { trace: true });
    const kept = r.steps[2].events?.find((e) => e.kind === 'kept');
    assert.ok(kept && kept.kind === 'kept');
    assert.equal(pyRepr(kept.old), "{'ethernets': {'eth0': {'dhcp4': True}, 'eth1': {'dhcp4': True}}}");
    assert.equal(pyRepr(r.value), "{'network': {'ethernets': {'eth0': {'dhcp4': True}, 'eth1': {'dhcp4': True}, 'eth2': {'dhcp4': True}}}}");
  });

  test('10,000 drop-ins that each add to network: linear, not a copy of the growing mapping per drop-in', () => {
    const sources = dicts(Array.from({ length: 10_000 }, (_, i) => ({ [`k${i}`]: i, network: { version: 2, ethernets: { [`eth${i}`]: { dhcp4: true } } } })));
    const started = process.cpuUsage();
    const r = mergeMany(sources, { trace: true });
    const ms = process.cpuUsage(started).user / 1000;
    assert.equal(((r.value.get('network') as PyDict).get('ethernets') as PyDict).size, 10_000);
    // Copying at every step is 10,000 × 10,000 entries (seconds); in place, a few tens of ms.
    assert.ok(ms < 1500, `${ms} ms`);
  });
});
