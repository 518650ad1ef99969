/**
 * `cloud-config-merge --check --annotate`: the files as `cloud-init schema -c FILE --annotate` prints them.
 * Expected stdout and stderr are what the real cloud-init (22.4.2 and upstream) printed for these files
 * (test/oracle/annotate_driver.py, file name `f`); test/oracle/annotate.diff.ts compares many more.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { annotateCloudConfigFile, writtenLines } from '../../server/src/engine/schema/annotate';
import { cloudInitSchemaMarks } from '../../server/src/engine/schema/schemaMarks';
import { loadYaml } from '../../server/src/engine/yaml/load';
import { runCli } from '../support/cli';

const UNKNOWN_AND_WRONG = '#cloud-config\npackage: [curl]\nruncmd: 5\n';
const DEPRECATED = '#cloud-config\napt_update: true\n';
const BROKEN = '#cloud-config\na: [1\n';
const NO_HEADER = 'hello: 1\n';

const CASES: Array<[string, '22.4' | 'current', { stdout: string; stderr: string }]> = [
  [UNKNOWN_AND_WRONG, '22.4', { stdout: "#cloud-config\npackage: [curl]\nruncmd: 5\t\t# E1\n\n# Errors: -------------\n# E1: 5 is not of type 'array'\n\n\n", stderr: '' }],
  [UNKNOWN_AND_WRONG, 'current', { stdout: "#cloud-config\npackage: [curl]\t\t# E1\nruncmd: 5\t\t# E2\n\n# Errors: -------------\n# E1: Additional properties are not allowed ('package' was unexpected)\n# E2: 5 is not of type 'array'\n\n\n", stderr: 'Error: Invalid schema: user-data\n\n' }],
  [DEPRECATED, '22.4', { stdout: '#cloud-config\napt_update: true\t\t# D1\n\n# Deprecations: -------------\n# D1: DEPRECATED: Dropped after April 2027. Use ``package_update``. Default: ``false``\n\n\nValid cloud-config: f\n', stderr: '' }],
  [DEPRECATED, 'current', { stdout: '#cloud-config\napt_update: true\t\t# D1\n\n# Deprecations: -------------\n# D1:  Deprecated in version 22.2. Use **package_update** instead.\n\n\nValid schema f\n', stderr: '' }],
  [BROKEN, '22.4', { stdout: "#cloud-config\na: [1\t\t# E1\n\n# Errors: -------------\n# E1: File f is not valid yaml. while parsing a flow sequence\n  in \"<byte string>\", line 2, column 4:\n    a: [1\n       ^\nexpected ',' or ']', but got '<stream end>'\n  in \"<byte string>\", line 3, column 1:\n    \n    ^\n\n\n", stderr: '' }],
  [BROKEN, 'current', { stdout: "#cloud-config\na: [1\t\t# E1\n\n# Errors: -------------\n# E1: File f is not valid YAML. while parsing a flow sequence\n  in \"<unicode string>\", line 2, column 4:\n    a: [1\n       ^\nexpected ',' or ']', but got '<stream end>'\n  in \"<unicode string>\", line 3, column 1:\n    \n    ^\n\n\n", stderr: 'Error: Invalid schema: user-data\n\n' }],
  [NO_HEADER, '22.4', { stdout: 'hello: 1\t\t# E1\n\n# Errors: -------------\n# E1: File f needs to begin with "#cloud-config"\n\n\n', stderr: '' }],
  [NO_HEADER, 'current', { stdout: '', stderr: 'Error: Invalid schema: user-data\n\n' }],
];

test('each file is annotated as cloud-init schema --annotate prints it, per version', () => {
  for (const [text, version, expected] of CASES) {
    const out = annotateCloudConfigFile(text, version, { path: 'f', valid: 'f' });
    assert.deepEqual({ stdout: out.stdout, stderr: out.stderr }, expected, `${version}: ${JSON.stringify(text)}`);
    assert.equal(out.note, undefined);
  }
});

test('where cloud-init itself fails (upstream on a document that is not a mapping), a note says so', () => {
  const out = annotateCloudConfigFile('#cloud-config\n- 1\n', 'current', { path: 'f', valid: 'f' });
  assert.equal(out.stdout, '');
  assert.match(out.note ?? '', /not a mapping/);
});

test('the line of each path: a key where it is written, a list item where it starts, an alias where its anchor is', () => {
  const text = '#cloud-config\nusers:\n  - name: a\n    sudo: [x,\n      y]\nruncmd: &r [ls]\nbootcmd: *r\n';
  const loaded = loadYaml(text);
  assert.ok(loaded.ok);
  const marks = writtenLines(loaded.value, text);
  assert.deepEqual(Object.fromEntries(marks), { users: 2, 'users.0': 3, 'users.0.name': 3, 'users.0.sudo': 4, 'users.0.sudo.0': 4, 'users.0.sudo.1': 5, runcmd: 6, 'runcmd.0': 6, bootcmd: 7 });
});

test("cloud-init's own line marks, guess and all: 22.4 names items of lists by the line's first mark", () => {
  // What `safeyaml.load_with_marks` returned for this text in each cloud-init (printed with the oracle's cloud-init).
  const text = '#cloud-config\npackage: [curl]\nruncmd:\n  - 5\n  - [ls, 1]\nusers:\n  - name: a\n    sudo: 5\n';
  assert.deepEqual(Object.fromEntries(cloudInitSchemaMarks(text, '22.4')!), {
    package: 2, 'package.0': 2, runcmd: 3, users: 6, '0': 5, '1': 5, 'runcmd.1': 5, 'runcmd.0': 4, 'users.name': 7, 'users.name.0': 7, 'users.sudo': 8,
  });
  assert.deepEqual(Object.fromEntries(cloudInitSchemaMarks(text, 'current')!), {
    package: 2, 'package.0': 2, runcmd: 3, users: 6, 'runcmd.1': 5, 'runcmd.1.0': 5, 'runcmd.1.1': 5, 'runcmd.0': 4, 'users.0': 7, 'users.0.name': 7, 'users.0.sudo': 8,
  });
  // 22.4 has no line for users.0 (the error of that item): its command fails (KeyError); ours annotates and says so.
  const out = annotateCloudConfigFile(text, '22.4', { path: 'f', valid: 'f' });
  assert.match(out.note ?? '', /no line for 'users\.0' and fails \(KeyError\)/);
  assert.match(out.stdout, / {2}- name: a\t\t# E3\n/);
});

test('merge keys: the merged entries are marked where the merged mapping is written, under the prefix of the mapping they join', () => {
  // What `safeyaml.load_with_marks` returned for this text in each cloud-init (printed with the oracle's cloud-init).
  const text = '#cloud-config\nbase: &b\n  path: /a\n  permissions: 644\n  owner: 5\nwrite_files:\n  - <<: *b\n    content: hi\n    defer: maybe\n  - path: /b\n    <<: {append: sometimes}\nntp:\n  <<: {enabled: 3}\n  servers: [a]\n';
  const sorted = (m: Map<string, number> | undefined) => Object.fromEntries([...m!].sort(([a], [b]) => (a < b ? -1 : 1)));
  assert.deepEqual(sorted(cloudInitSchemaMarks(text, '22.4')), {
    base: 2, 'base.owner': 5, 'base.path': 3, 'base.permissions': 4, content: 8, defer: 9, ntp: 12, 'ntp.enabled': 13, 'ntp.servers': 14, 'ntp.servers.0': 14,
    owner: 5, path: 3, permissions: 4, write_files: 6, 'write_files.0': 7, 'write_files.1': 10, 'write_files.append': 11, 'write_files.path': 10,
  });
  assert.deepEqual(sorted(cloudInitSchemaMarks(text, 'current')), {
    base: 2, 'base.owner': 5, 'base.path': 3, 'base.permissions': 4, ntp: 12, 'ntp.enabled': 13, 'ntp.servers': 14, 'ntp.servers.0': 14, write_files: 6, 'write_files.0': 7,
    'write_files.1': 10, 'write_files.1.append': 11, 'write_files.1.path': 10, 'write_files.content': 8, 'write_files.defer': 9, 'write_files.owner': 5, 'write_files.path': 3, 'write_files.permissions': 4,
  });
  // Neither has a line for the merged item's errors, so both commands fail (KeyError): ours says so, each path once.
  const note = annotateCloudConfigFile(text, 'current', { path: 'f', valid: 'f' }).note ?? '';
  assert.match(note, /no line for 'write_files\.0\.defer', 'write_files\.0\.owner', 'write_files\.0\.permissions' and fails \(KeyError\)/);
});

test('chained merge keys whose upstream line marks would take minutes: annotated where written, with a note, in bounded time', () => {
  // Upstream re-files and re-parents every mark of a line for each new one: cloud-init's own command took
  // 24 s on 200 such merges and did not finish in 5 minutes on 400. 300 are refused here.
  const lines = ['#cloud-config', 'x:', '  - a0: &a0 {k0: 0}'];
  for (let i = 1; i < 300; i++) lines.push(`  - a${i}: &a${i} {<<: *a${i - 1}, k${i}: ${i}}`);
  lines.push('runcmd: 5');
  const text = lines.join('\n') + '\n';
  const out = annotateCloudConfigFile(text, 'current', { path: 'f', valid: 'f' });
  assert.match(out.note ?? '', /^cloud-init's schema command may take minutes or more to find this file's lines \(reproducing them takes more than 250000000 steps to find its lines\); annotated here where each value is written$/);
  assert.match(out.stdout, /^runcmd: 5\t\t# E2$/m);
  assert.ok(cloudInitSchemaMarks(text, '22.4'), '22.4 files marks by line: no such cost');
});

test('--check --annotate prints one cloud-config file alone and several with the merged result, exit code as --check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-annotate-'));
  try {
    const a = join(dir, 'a.yaml');
    const b = join(dir, 'b.yaml');
    writeFileSync(a, UNKNOWN_AND_WRONG);
    writeFileSync(b, DEPRECATED);
    const one = runCli(['--check', '--annotate', a]);
    assert.equal(one.code, 1);
    assert.equal(one.stdout, CASES[1][2].stdout.replace(/\bf\b/g, a));
    const two = runCli(['--check', '--annotate', a, b]);
    assert.equal(two.code, 1);
    assert.match(two.stdout, new RegExp(`^==> ${a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} <==\n#cloud-config\npackage: \\[curl\\]\t\t# E1\n`));
    assert.match(two.stdout, /\n==> cloud-config\.txt \(the merged result\) <==\n#cloud-config\n/);
    assert.match(two.stdout, /apt_update: true\t\t# D1/);
    assert.equal(runCli(['--check', '--annotate', '--format', 'json', a]).code, 2);
    assert.equal(runCli(['--annotate', a]).code, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('long lists: every item keeps its line (the search for a node’s enclosing mark is no longer a walk over all lines above), and the note names ten paths and a count', () => {
  const n = 3000;
  const text = '#cloud-config\nruncmd:\n' + Array.from({ length: n }, (_, i) => `  - [echo, ${i}]\n`).join('') + 'users:\n' + Array.from({ length: n }, (_, i) => `  - name: u${i}\n    sudo: ${i}\n`).join('');
  const current = cloudInitSchemaMarks(text, 'current')!;
  assert.equal(current.get('runcmd.0.1'), 3);
  assert.equal(current.get(`runcmd.${n - 1}.1`), n + 2);
  assert.equal(current.get(`users.${n - 1}.sudo`), n + 5 + 2 * (n - 1));
  const old = annotateCloudConfigFile(text, '22.4', { path: 'f', valid: 'f' });
  assert.match(old.note ?? '', /no line for 'runcmd\.0', 'runcmd\.1', [^]*'runcmd\.9' and 5990 more and fails \(KeyError\)/);
});
