/**
 * The preview header with schema validation on (as the language server builds it): `cloud-init schema
 * --system` on the merged result, each problem with the file and line that wrote the value. Paths and
 * messages are the oracle's (`--mode schema --merged`) for these parts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreview, unwrapHeader } from '../../server/src/engine/render/previewText';
import { SchemaReportCache } from '../../server/src/engine/outcome/schema';

const files = [
  { name: 'a.yaml', bytes: Buffer.from('#cloud-config\npackages: curl\napt_update: true\nruncmd: [ls]\n') },
  { name: 'b.yaml', bytes: Buffer.from('#cloud-config\nmerge_how: list(append)+dict(recurse_array)+str()\nruncmd: [5]\npackage: [htop]\n') },
];

test('the header lists what cloud-init would report for the merged result, with where each value was written', () => {
  const model = buildPreview('user-data', files, { schema: true, version: 'current' });
  const lines = model.text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('# Schema:'));
  assert.ok(at > 0, model.text);
  assert.deepEqual(lines.slice(at, at + 7), [
    '# Schema: cloud-init rejects the merged result (5 errors, 1 deprecation):',
    "#   error: package: Additional properties are not allowed ('package' was unexpected) (b.yaml:4)",
    "#   error: packages: 'curl' is not of type 'array' (a.yaml:2)",
    "#   error: runcmd.1: 5 is not of type 'array' (b.yaml:3)",
    "#   error: runcmd.1: 5 is not of type 'null' (b.yaml:3)",
    "#   error: runcmd.1: 5 is not of type 'string' (b.yaml:3)",
    '#   deprecated: apt_update: Deprecated in version 22.2. Use **package_update** instead. (a.yaml:3)',
  ]);
  assert.equal(model.schema?.valid, false);
  // the body is unchanged: exactly what cloud-init writes
  assert.equal(model.body, buildPreview('user-data', files, { version: 'current' }).body);
});

test('22.4 accepts unknown top-level keys: nothing to report, no schema line; current rejects them', () => {
  const ok = [{ name: 'c.yaml', bytes: Buffer.from('#cloud-config\nmy_key: 1\nruncmd: [ls]\n') }];
  const old = buildPreview('user-data', ok, { schema: true, version: '22.4' });
  assert.doesNotMatch(old.text, /# Schema/);
  assert.equal(old.schema?.valid, true);
  assert.match(buildPreview('user-data', ok, { schema: true, version: 'current' }).text, /^# Schema: cloud-init rejects the merged result \(1 error, 0 deprecations\):$/m);
  assert.doesNotMatch(buildPreview('user-data', files, { version: 'current' }).text, /# Schema/);
});

test('a refresh whose merged text did not change reuses the report, placing its problems in the files as they are now', () => {
  const cache = new SchemaReportCache();
  const first = buildPreview('user-data', files, { schema: true, version: 'current', cache: cache });
  assert.match(first.text, /error: packages: 'curl' is not of type 'array' \(a\.yaml:2\)/);
  // A comment added above the values: the same cloud-config.txt, its values now one line lower in a.yaml.
  const moved = [{ name: 'a.yaml', bytes: Buffer.from('#cloud-config\n# a comment\npackages: curl\napt_update: true\nruncmd: [ls]\n') }, files[1]];
  const again = buildPreview('user-data', moved, { schema: true, version: 'current', cache: cache });
  assert.strictEqual(cache.report(again.body, 'current'), again.schema?.report, 'one report for one text');
  assert.equal(again.text, buildPreview('user-data', moved, { schema: true, version: 'current' }).text, 'as a preview validated afresh');
  assert.match(again.text, /error: packages: 'curl' is not of type 'array' \(a\.yaml:3\)/);
  // Another version is another report.
  assert.notStrictEqual(cache.report(again.body, '22.4'), again.schema?.report);
});

test('the header lists the first 100 problems and counts the rest; bounded, it says where the check stopped', () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => `  - {a: ${i}}`).join('\n');
  const big = [{ name: 'big.yaml', bytes: Buffer.from(`#cloud-config\nruncmd:\n${items(60)}\n`) }];
  const schemaLines = (model: ReturnType<typeof buildPreview>) => {
    const lines = unwrapHeader(model.text).split('\n');
    const at = lines.findIndex((l) => l.startsWith('# Schema:'));
    return lines.slice(at, lines.findIndex((l, i) => i > at && !l.startsWith('#  ')));
  };
  // Three problems per item (oracle.py --mode schema: not an array, not null, not a string).
  const all = schemaLines(buildPreview('user-data', big, { schema: true, version: 'current' }));
  assert.equal(all[0], '# Schema: cloud-init rejects the merged result (180 errors, 0 deprecations):');
  assert.equal(all.length, 1 + 100 + 1);
  assert.equal(all.at(-1), '#   … and 80 more (`cloud-config-merge --check` lists them all)');
  const bounded = schemaLines(buildPreview('user-data', big, { schema: true, version: 'current', maxProblems: 20 }));
  assert.equal(bounded[0], '# Schema: cloud-init rejects the merged result (20 errors, 0 deprecations before the check stopped at 20 problems):');
  assert.equal(bounded.at(-1), '#   … and the problems the check did not look for (`cloud-config-merge --check` lists them all)');
  assert.equal(bounded.length, 1 + 20 + 1);
});

test('unreadable YAML is not "valid on debian-12": every version drops the part, only 23.4 and later say so (issue 42)', () => {
  const bad = { name: 'bad.yaml', bytes: Buffer.from('#cloud-config\npackages: [a\n  b: c: d\n') };
  const alone = buildPreview('user-data', [bad], { schema: true, version: 'current' });
  assert.match(alone.text, /^# {3}error: format-l\d+\.c1: Ignored invalid user-data: part-001$/m);
  // Every image rejects it alike: the schema section says so, no images line.
  assert.doesNotMatch(alone.text, /Which images accept this/);
  assert.doesNotMatch(alone.text, /valid on debian-12/);
  // Beside a part whose key only newer versions accept, the line names both, and no image is "valid".
  const source = { name: 'files.yaml', bytes: Buffer.from('#cloud-config\nwrite_files:\n  - path: /etc/motd\n    source: {uri: "https://example.com/motd"}\n') };
  const both = unwrapHeader(buildPreview('user-data', [bad, source], { schema: true, version: 'current' }).text);
  assert.match(both, /Which images accept this: on debian-12, rhel-8 \(22\.4, 23\.4\) format-l\d+\.c1: Ignored invalid user-data: part-001 \(and 1 more\); on rhel-9, .* \(24\.4, 25\.1, current\) format-l\d+\.c1: Ignored invalid user-data: part-001/);
  assert.doesNotMatch(both, /valid on/);
});
