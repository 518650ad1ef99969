/**
 * The set file is read and written by one module (engine/sets/setFile.ts), so that what the editor saves reads
 * back as meant (issue 27): names and file names that YAML 1.1 reads as something else (`on`, `1`, `~`,
 * `null`, `2001-01-01`...), or that YAML syntax would swallow (`#`, `: `, a leading `-`, quotes, line
 * breaks), and file names a glob would read (`a[1].yaml`), all round-trip through the real reader.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SetEntry, expandPatterns, parseSetFile, setPattern, writeSet } from '../../server/src/engine/sets/setFile';

/** Strings YAML 1.1 (PyYAML's resolver) reads as bool, null, int, float, timestamp, merge or value keys. */
const YAML_11 = [
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'on', 'On', 'ON', 'off', 'Off', 'OFF'],
  ...['null', 'Null', 'NULL', '~'],
  ...['1', '0', '-1', '+1', '0x1f', '017', '0b101', '1_000', '1:20', '190:20:30'],
  ...['1.0', '1e3', '1.5e+3', '.5', '.inf', '-.Inf', '+.INF', '.nan', '.NaN', '1:20.5'],
  ...['2001-12-14', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5'],
  ...['<<', '='],
];
/** Strings YAML syntax would read otherwise, or not at all, if written plain. */
const AWKWARD = [
  '-x', '- x', '-', '#', '#x', 'a #b', 'a: b', ': ', 'a:', '?', '? x', ':x', '[x]', '{x}', 'a,b', '*x', '&x', '!x', '!!str', '%x', '@x', '`x',
  '"q"', "'q'", "it's", 'a\\b', '|', '>', '---', '...', '--- x', ' lead', 'trail ', '\tx', 'x\ny', 'x\r\ny', 'x\u2028y', 'x\x85y', '\uFEFFbom',
  'nul\x00', 'bell\x07', 'café', '日本語', '🙂', 'Ω≈ç', 'a'.repeat(300),
];
const NAMES = [...YAML_11, ...AWKWARD];

const reads = (text: string, name: string) => parseSetFile(text).sets.filter((s) => s.name === name);

test('a set written under any of these names reads back as that name, whatever the file held before', () => {
  const starts = ['', '# sets of this repo\n', 'sets:\n  web:\n    files: [a.yaml]\n', 'sets: {web: {files: [a.yaml]}}\n', 'sets:\n', 'sets: ~\nother: 1\n', 'sets:\r\n    web:\r\n        files: [a.yaml]\r\n'];
  let written = 0;
  for (const start of starts) {
    for (const name of NAMES) {
      const result = writeSet(start, { name, mode: 'user-data', files: ['parts/base.yaml'] });
      assert.ok('text' in result, `${JSON.stringify(name)} into ${JSON.stringify(start)}: ${JSON.stringify(result)}`);
      const parsed = parseSetFile(result.text);
      assert.deepEqual(parsed.problems.filter((p) => p.severity === 'error'), [], `${JSON.stringify(name)}: ${result.text}`);
      assert.deepEqual(reads(result.text, name).map((s) => s.files), [['parts/base.yaml']], `${JSON.stringify(name)}: ${result.text}`);
      // The sets that were there stay as they were.
      if (start.includes('web') && name !== 'web') assert.deepEqual(reads(result.text, 'web').map((s) => s.files), [['a.yaml']]);
      written++;
    }
  }
  assert.equal(written, starts.length * NAMES.length);
});

test('file names are written so that each reads back as that one file, never as a glob or another value', () => {
  const files = [...NAMES, 'a[1].yaml', 'parts/*.yaml', 'x?.yaml', '{a,b}.yaml', '!(x).yaml', '+(a).yaml', '@(a).yaml', '!neg.yaml', 'back\\slash.yaml', 'dir/sub dir/f.yaml', '../up.yaml'];
  const entry: SetEntry = { name: 'on', mode: 'boot', files, boot: { vendor: 'on', vendor2: '1.0', cloudCfg: 'etc/cloud/cloud.cfg', dsConfig: '~', confd: ['null', 'a[1].cfg'] }, includeMap: [{ url: 'https://example.com/x: y #z', file: 'yes' }], instanceData: 'no' };
  const result = writeSet('', entry);
  assert.ok('text' in result, JSON.stringify(result));
  const [set] = reads(result.text, 'on');
  assert.equal(set.mode, 'boot');
  // Each entry is a file, not a glob, and names exactly the file it was written for.
  assert.deepEqual(set.files.map(setPattern).map((p) => (p.kind === 'file' ? p.path : `glob ${JSON.stringify(p)}`)), files);
  assert.deepEqual(expandPatterns(set.files, files), { files: [...new Set(files)], unmatched: [] });
  assert.deepEqual(set.boot, { vendor: 'on', vendor2: '1.0', cloudCfg: 'etc/cloud/cloud.cfg', dsConfig: '~', confd: ['null', 'a\\[1\\].cfg'] });
  assert.deepEqual(set.includeMap, [{ url: 'https://example.com/x: y #z', file: 'yes' }]);
  assert.equal(set.instanceData, 'no');
});

test('saving a set again replaces it, also one an older version wrote as `on:` (which YAML 1.1 reads as true), keeping comments and other sets', () => {
  const before = '# our sets\nsets:\n  on:\n    files: [old.yaml]\n  # keep this\n  web: # the web tier\n    files: ["[0-9]*.yaml"]\n';
  assert.deepEqual(parseSetFile(before).problems.map((p) => p.message), ['a set name is a non-empty string']);
  const result = writeSet(before, { name: 'on', mode: 'user-data', files: ['new.yaml'] });
  assert.ok('text' in result);
  assert.equal(result.text, "# our sets\nsets:\n  'on':\n    files:\n      - new.yaml\n  # keep this\n  web: # the web tier\n    files: [\"[0-9]*.yaml\"]\n");
  assert.deepEqual(parseSetFile(result.text).problems, []);
  // In flow style it stays in flow style.
  const flow = writeSet('sets: {web: {files: [a.yaml]}}\n', { name: 'yes', mode: 'confd', files: ['a, b.cfg'] });
  assert.ok('text' in flow);
  assert.equal(flow.text, "sets: {web: {files: [a.yaml]}, 'yes': {mode: confd, files: ['a, b.cfg']}}\n");
});

test('what cannot be written so that it reads back is refused with a reason, never written wrong', () => {
  assert.deepEqual(writeSet('sets: [\n', { name: 'web', mode: 'user-data', files: ['a'] }), { error: 'cloud-config-merge.yaml has YAML errors: fix them first (line 2: while parsing a flow node: expected the node content, but found \'<stream end>\')' });
  assert.deepEqual(writeSet('- a\n', { name: 'web', mode: 'user-data', files: ['a'] }), { error: 'cloud-config-merge.yaml is not a block mapping with `sets`: fix it first' });
  assert.deepEqual(writeSet('sets: [a]\n', { name: 'web', mode: 'user-data', files: ['a'] }), { error: '`sets` in cloud-config-merge.yaml is not a mapping: fix it first' });
  // An empty name is no set name: nothing is written.
  assert.match(JSON.stringify(writeSet('', { name: '', mode: 'user-data', files: ['a'] })), /cannot be written .* so that it reads back the same/);
  // An explicit key (`? a`) puts the entries where a new one cannot be lined up: refused, not misplaced.
  assert.match(JSON.stringify(writeSet('sets:\n  ? a\n  : {files: [x]}\n', { name: 'web', mode: 'user-data', files: ['a'] })), /cannot be written/);
});

test('saving a set into a file with a long run of spaces before `sets:` takes no time (it was quadratic)', () => {
  // A comment of 40,000 spaces, then an empty `sets:`: trimming the spaces before the value retried at
  // every space of the run (about 800 million steps, seconds of CPU); now one pass.
  const text = `#${' '.repeat(40000)}x\nsets: ~\n`;
  const started = process.cpuUsage();
  const result = writeSet(text, { name: 'web', mode: 'user-data', files: ['a.yaml'] });
  const cpuMs = (process.cpuUsage(started).user + process.cpuUsage(started).system) / 1000;
  assert.ok('text' in result && result.text.startsWith(`#${' '.repeat(40000)}x\nsets:`), JSON.stringify(result).slice(0, 200));
  assert.deepEqual(reads(result.text, 'web').map((s) => s.files), [['a.yaml']]);
  assert.ok(cpuMs < 500, `${cpuMs.toFixed(0)} ms of CPU`);
});
