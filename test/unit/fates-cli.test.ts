/**
 * Fates on the command line (issue 14): `--set NAME` reads cloud-config-merge.yaml as the editor does,
 * `--check` lists every fate with the file and line of both values, `--fail-on` makes it exit 1, and the
 * report and SARIF carry them. The merged results these sets produce were checked with the oracle
 * (`oracle.py --mode userdata 10-base.yaml 20-app.yaml 30-app.yaml 40-bad.yaml 50-del.yaml`: runcmd
 * ['echo 3'], packages [curl, git], no users); test/oracle/fates.diff.ts checks fates on random sets.
 */
import { IMAGE_IDS } from '../../server/src/engine/version/profiles';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { runCliIn } from '../support/cli';
import { assertValidSarif } from '../support/sarif';
import { parseSetFile, expandPatterns, SET_MODES } from '../../server/src/engine/sets/setFile';
import { listForPatterns } from '../../server/src/node/sets';

export const PARTS: Record<string, string> = {
  '10-base.yaml': '#cloud-config\npackages: [curl, git]\nruncmd:\n  - echo base\nusers: {a: 1}\n',
  '20-app.yaml': '#cloud-config\nmerge_how: dict(no_replace)+list(append)\npackages: [vim]\nruncmd: echo x\n',
  '30-app.yaml': '#cloud-config\nmerge_how: dict(replace)\nruncmd: [echo 3]\n',
  '40-bad.yaml': '#cloud-config\nmerge_how: list(append)\nfoo: 1\n',
  '50-del.yaml': '#cloud-config\nmerge_how: dict(allow_delete,no_replace)+list()\nusers: null\n',
  'cloud-config-merge.yaml': 'sets:\n  web:\n    files: ["[0-9]*.yaml"]\n  clean:\n    files: [10-base.yaml, 30-app.yaml]\n  drop-ins:\n    mode: confd\n    files: ["cloud.cfg.d/*.cfg"]\n  boot:\n    mode: boot\n    files: [30-app.yaml]\n    vendor: vendor.yaml\n',
  'cloud.cfg.d/90-a.cfg': 'ntp: {enabled: true}\n',
  'cloud.cfg.d/10-b.cfg': 'ntp: {enabled: false}\n',
  'vendor.yaml': '#cloud-config\nruncmd: [echo vendor]\npackages: [ven]\n',
};

export function workspace(files: Record<string, string>): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-sets-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

test('--set --check lists every fate with both places; --fail-on exits 1', () => {
  const w = workspace(PARTS);
  try {
    const r = runCliIn(['--set', 'web', '--check'], w.dir);
    assert.equal(r.stderr, '');
    const lines = r.stdout.split('\n');
    assert.ok(lines.includes("10-base.yaml:4:3: replaced: runcmd ['echo base']: replaced by `runcmd` of 30-app.yaml:3 (that part's spec: dict(replace))"), r.stdout);
    assert.ok(lines.some((l) => l.startsWith("20-app.yaml:3:11: lost: packages ['vim']: ") && l.endsWith('so 10-base.yaml:2 keeps its value')), r.stdout);
    assert.ok(lines.includes('40-bad.yaml:1:1: dropped: (root) (the whole part): this whole part is dropped: its spec list(append) has no dict() to merge a mapping with'), r.stdout);
    assert.ok(lines.some((l) => l.startsWith("10-base.yaml:5:8: deleted: users {'a': 1}: deleted by `users` of 50-del.yaml:3")), r.stdout);
    assert.match(runCliIn(['--set', 'web', '--check', '--fail-on', 'replaced,lost,dropped'], w.dir).stdout, /Error: 4 value\(s\) meet a --fail-on fate/);
    // A set cloud-init's schema accepts: only --fail-on decides the exit code.
    assert.equal(runCliIn(['--set', 'clean', '--check'], w.dir).code, 0);
    assert.equal(runCliIn(['--set', 'clean', '--check', '--fail-on', 'lost,dropped'], w.dir).code, 0);
    const failing = runCliIn(['--set', 'clean', '--check', '--fail-on', 'replaced'], w.dir);
    assert.equal(failing.code, 1);
    assert.match(failing.stdout, /^10-base\.yaml:4:3: replaced: .*30-app\.yaml:3/m);
  } finally {
    w.done();
  }
});

test('--check --format json and sarif carry the fates; sarif names the displacing value as a related location', () => {
  const w = workspace(PARTS);
  try {
    const json = JSON.parse(runCliIn(['--set', 'web', '--check', '--format', 'json', '--fail-on', 'deleted'], w.dir).stdout);
    const deleted = json.fates.list.find((f: { kind: string }) => f.kind === 'deleted');
    assert.deepEqual([deleted.at, deleted.by], [{ file: '10-base.yaml', line: 5, column: 8 }, { file: '50-del.yaml', line: 3, column: 8 }]);
    assert.deepEqual(json.failOn, { kinds: ['deleted'], failing: 1 });
    const sarif = JSON.parse(runCliIn(['--set', 'web', '--check', '--format', 'sarif', '--fail-on', 'replaced'], w.dir).stdout);
    assertValidSarif(sarif);
    const replaced = sarif.runs[0].results.find((r: { ruleId: string }) => r.ruleId === 'fate-replaced');
    assert.equal(replaced.level, 'error');
    assert.equal(replaced.locations[0].physicalLocation.artifactLocation.uri, '10-base.yaml');
    assert.equal(replaced.relatedLocations[0].physicalLocation.artifactLocation.uri, '30-app.yaml');
    assert.equal(replaced.relatedLocations[0].physicalLocation.region.startLine, 3);
  } finally {
    w.done();
  }
});

test('--set in confd and boot modes: drop-ins lose to the first by name; user-data overrides vendor-data', () => {
  const w = workspace(PARTS);
  try {
    const confd = runCliIn(['--set', 'drop-ins', '--check'], w.dir);
    assert.equal(confd.code, 0, confd.stderr);
    assert.match(confd.stdout, /^cloud\.cfg\.d\/10-b\.cfg:1:16: lost: ntp\.enabled False: .*cloud\.cfg\.d\/90-a\.cfg:1 keeps its value$/m);
    const boot = runCliIn(['--set', 'boot', '--check', '--fail-on', 'overridden'], w.dir);
    assert.equal(boot.code, 1, boot.stderr + boot.stdout);
    assert.match(boot.stdout, /^vendor\.yaml:2:9: overridden: runcmd \['echo vendor'\]: overridden by user-data: `runcmd` of 30-app\.yaml:3 wins over vendor-data/m);
    const report = JSON.parse(runCliIn(['--set', 'web', '--format', 'report'], w.dir).stdout);
    assert.equal(report.fates.list.length, 5);
  } finally {
    w.done();
  }
});

test('--set errors: no set file, unknown set, a glob that matches nothing, --fail-on without --check', () => {
  const w = workspace({ ...PARTS, 'other.yaml': 'sets:\n  x:\n    files: [nothing-*.yaml]\n' });
  try {
    assert.match(runCliIn(['--set', 'web', '--check'], tmpdir()).stderr, /no set file cloud-config-merge\.yaml in/);
    assert.match(runCliIn(['--set', 'nope', '--check'], w.dir).stderr, /has no such set \(it has web, clean, drop-ins, boot\)/);
    const unmatched = runCliIn(['--set', 'x', '--set-file', 'other.yaml', '--check'], w.dir);
    assert.equal(unmatched.code, 2);
    assert.match(unmatched.stderr, /no file matches nothing-\*\.yaml/);
    assert.match(runCliIn(['--fail-on', 'lost', 'a.yaml'], w.dir).stderr, /--fail-on goes with --check/);
    assert.match(runCliIn(['--set', 'web', '--check', '10-base.yaml'], w.dir).stderr, /--set web names the files: give no FILE with it/);
    assert.match(runCliIn(['--check', '--fail-on', 'clobbered', 'a.yaml'], w.dir).stderr, /unknown kind 'clobbered'/);
  } finally {
    w.done();
  }
});

test('set file: problems with their places; globs in code-point order, each file once', () => {
  const text = 'sets:\n  a:\n    mode: userdata\n    files: 3\n    colour: red\n  b: [x]\n';
  const parsed = parseSetFile(text);
  const messages = parsed.problems.map((p) => `${p.severity} ${text.slice(p.span.start, p.span.end)}: ${p.message}`);
  assert.deepEqual(messages, [
    'warning colour: set a: unknown key colour (expected mode, files, includeMap, instanceData, image, confd, seed, vendor, vendor2, cloudCfg, dsConfig)',
    'error userdata: set a: mode is one of user-data, confd, boot, chef',
    'error 3: set a: files is a file or glob, or a list of them',
    'error a: set a: no files (add `files`, in merge order)',
    'error [x]: set b: expected a mapping with `files` (and `mode`, ...)',
  ]);
  assert.equal(parseSetFile('sets: [\n').problems[0].message.startsWith('not YAML'), true);
  assert.deepEqual(expandPatterns(['base.yaml', 'parts/*.yaml', 'parts/b.yaml', '**/*.cfg'], ['parts/b.yaml', 'parts/a.yaml', 'base.yaml', 'x/y/z.cfg']), {
    files: ['base.yaml', 'parts/a.yaml', 'parts/b.yaml', 'x/y/z.cfg'],
    unmatched: [],
  });
});

test('the contributed JSON schema of the set file knows the keys and modes the parser reads', () => {
  const schema = require('../../../schemas/cloud-config-merge.schema.json');
  const manifest = require('../../../package.json');
  assert.deepEqual(manifest.contributes.yamlValidation, [{ fileMatch: 'cloud-config-merge.yaml', url: './schemas/cloud-config-merge.schema.json' }]);
  // The packaged extension must carry the schema it names (.vscodeignore is an allow-list).
  assert.ok(readFileSync(join(__dirname, '../../../.vscodeignore'), 'utf8').split('\n').includes('!schemas/*.json'));
  const set = schema.definitions.set;
  assert.deepEqual(Object.keys(set.properties).sort(), ['cloudCfg', 'confd', 'dsConfig', 'files', 'image', 'includeMap', 'instanceData', 'mode', 'seed', 'vendor', 'vendor2']);
  assert.deepEqual(set.properties.mode.enum, [...SET_MODES]);
  // The image profiles are one table (engine/version/profiles.ts): the schema names each of them.
  assert.deepEqual(set.properties.image.enum, [...IMAGE_IDS]);
  const problems = parseSetFile('sets:\n  a:\n    files: [x]\n    ' + Object.keys(set.properties).filter((k) => k !== 'files' && k !== 'mode' && k !== 'includeMap' && k !== 'confd').map((k) => `${k}: f`).join('\n    ') + '\n').problems;
  assert.deepEqual(problems.filter((p) => p.message.includes('unknown key')), []);
});

test('a set lists only the folders its patterns can match (a set in a large repository does not walk it)', () => {
  const w = workspace({ 'parts/a.yaml': 'x', 'parts/deep/b.yaml': 'x', 'elsewhere/c.yaml': 'x', 'top.yaml': 'x', 'conf/x/y/z.cfg': 'x' });
  try {
    assert.deepEqual(listForPatterns(w.dir, ['parts/*.yaml', 'top.yaml', 'missing.yaml'], [w.dir]).files.sort(), ['parts/a.yaml', 'top.yaml']);
    assert.deepEqual(listForPatterns(w.dir, ['conf/**/*.cfg'], [w.dir]).files.sort(), ['conf/x/y/z.cfg']);
    assert.deepEqual(listForPatterns(w.dir, ['*.yaml'], [w.dir]).files.sort(), ['top.yaml']);
  } finally {
    w.done();
  }
});

test("fates in a #cloud-config-archive: a `content: |` entry's values are placed on their lines of the archive; an escaped one-line content's place says it is in the decoded entry", () => {
  const archive = '#cloud-config-archive\n- type: text/cloud-config\n  content: |\n    #cloud-config\n    runcmd: [echo one]\n- content: "#cloud-config\\nmerge_how: dict(replace)\\nruncmd: [echo two]\\n"\n';
  const w = workspace({ 'archive.yaml': archive });
  try {
    const r = runCliIn(['--check', 'archive.yaml'], w.dir);
    assert.match(r.stdout, /\narchive\.yaml:5:13: replaced: runcmd \['echo one'\]: replaced by `runcmd` of archive\.yaml \(position in the decoded part part-002: line 3\) /);
    const sarif = JSON.parse(runCliIn(['--check', '--format', 'sarif', 'archive.yaml'], w.dir).stdout);
    const fate = sarif.runs[0].results.find((x: { ruleId: string }) => x.ruleId === 'fate-replaced');
    assert.deepEqual(fate.locations[0].physicalLocation.region, { startLine: 5, startColumn: 13 });
    // the value that decides is in the decoded entry: the file, without a region that would point elsewhere
    assert.equal(fate.relatedLocations[0].physicalLocation.region, undefined);
  } finally {
    w.done();
  }
});

test('--check --fail-on through a pipe: the files are read once, so /dev/stdin gives the same verdict as a file (issue 27, item 1)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ccm-pipe-'));
  try {
    writeFileSync(path.join(dir, 'q1.yaml'), '#cloud-config\nruncmd: [one]\n');
    writeFileSync(path.join(dir, 'q2.yaml'), '#cloud-config\nruncmd: [two]\n');
    const cli = path.resolve(__dirname, '..', '..', '..', 'bin', 'cloud-config-merge.js');
    const files = spawnSync(process.execPath, [cli, '--check', '--fail-on', 'replaced', path.join(dir, 'q1.yaml'), path.join(dir, 'q2.yaml')], { encoding: 'utf8' });
    assert.equal(files.status, 1, files.stdout + files.stderr);
    // As a CI script writes it: the second part through a pipe.
    const piped = spawnSync('bash', ['-c', 'cat "$1" | "$0" "$2" --check --fail-on replaced "$3" /dev/stdin', process.execPath, path.join(dir, 'q2.yaml'), cli, path.join(dir, 'q1.yaml')], { encoding: 'utf8' });
    assert.equal(piped.status, 1, piped.stdout + piped.stderr);
    assert.match(piped.stdout, /replaced: runcmd \['one'\]: replaced by `runcmd` of \/dev\/stdin:2/);
    assert.match(piped.stdout, /Error: 1 value\(s\) meet a --fail-on fate \(replaced\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
