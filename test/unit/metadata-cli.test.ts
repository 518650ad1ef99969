/**
 * A seed's `meta-data` given to the CLI as a FILE (`cloud-config-merge --check seed/meta-data`, as a user
 * checks a seed's files one by one): it is read as NoCloud reads meta-data, with the diagnostics `--seed`
 * gives for it, and said to be meta-data; it is never validated or merged as user-data. `--type meta-data`
 * does the same for a file named otherwise. A merge, `--plan` and the preview refuse it in words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCli } from '../support/cli';

const USER = '#cloud-config\nruncmd:\n  - echo user\n';

function seed(metaData: string, extra: Record<string, string> = {}): { dir: string; file: (name: string) => string; done: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'ccm-md-'));
  const dir = join(root, 'seed');
  mkdirSync(dir);
  for (const [name, text] of Object.entries({ 'user-data': USER, 'meta-data': metaData, ...extra })) writeFileSync(join(dir, name), text);
  return { dir, file: (name) => join(dir, name), done: () => rmSync(root, { recursive: true, force: true }) };
}

/** The finding lines (file:line:col: severity: message [code]) of a --check or --lint output. */
const findingLines = (stdout: string) => stdout.split('\n').filter((l) => /^\S+:\d+:\d+: (error|warning|info|hint): /.test(l));

test('--check seed/meta-data reads it as NoCloud does: no user-data header error, its id and hostname said', () => {
  const s = seed('instance-id: iid-web-01\nlocal-hostname: web-1.example.com\n');
  try {
    const r = runCli(['--check', s.file('meta-data')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout, /Unrecognized user-data header|Invalid|unknown key|user-data:/i);
    assert.match(r.stdout, /^NoCloud meta-data \S+meta-data \(named meta-data\): checked as NoCloud reads a seed's meta-data, not as user-data \(cloud-init never merges it\): instance-id 'iid-web-01', hostname 'web-1', dsmode net\n/);
    assert.match(r.stdout, /meta-data:2:17: info: The hostname NoCloud gives is 'web-1'/);
    // --cloud measures the user-data delivered: a meta-data FILE is none.
    const cloud = runCli(['--check', '--cloud', 'aws', s.file('meta-data')]);
    assert.equal(cloud.code, 0);
    assert.doesNotMatch(cloud.stdout, /Delivery|make-mime/);
  } finally {
    s.done();
  }
});

test('--check meta-data gives the diagnostics --seed gives for it (text and JSON), and --lint the same findings', () => {
  for (const metaData of ['instance_id: iid-01\n', '- a\n- b\n', 'a: [\n', 'seedfrom: 5\n', 'instance-id: i-1\nlocal-hostname: 5\n', 'local-hostname: h\n']) {
    const s = seed(metaData);
    try {
      const alone = runCli(['--check', s.file('meta-data')]);
      const bySeed = runCli(['--check', '--seed', s.dir]);
      assert.deepEqual(findingLines(alone.stdout), findingLines(bySeed.stdout), metaData);
      assert.ok(findingLines(alone.stdout).length, metaData);
      assert.equal(alone.code, bySeed.code, metaData);
      assert.deepEqual(findingLines(runCli(['--lint', s.file('meta-data')]).stdout), findingLines(alone.stdout), metaData);
      const json = (args: string[]) => (JSON.parse(runCli([...args, '--format', 'json']).stdout) as { metaData: Array<Record<string, unknown>> }).metaData;
      const [one] = json(['--check', s.file('meta-data')]);
      const [fromSeed] = json(['--check', '--seed', s.dir]);
      assert.deepEqual({ ...one, foundBy: 'seed' }, fromSeed, metaData);
      assert.equal(one.foundBy, 'name');
    } finally {
      s.done();
    }
  }
});

test('--check meta-data that is not a mapping, not YAML or raises: said, and exit 1', () => {
  const s = seed('- a\n- b\n');
  try {
    const list = runCli(['--check', s.file('meta-data')]);
    assert.equal(list.code, 1);
    assert.match(list.stdout, /instance-id 'nocloud' \(the default: meta-data gives none\)/);
    assert.match(list.stdout, /\n {2}meta-data is read as empty \(its top level is a list, not a mapping\)\n/);
    assert.match(list.stdout, /warning: cloud-init logs "Failed loading yaml blob" .* \[meta-data-unread\]/);
  } finally {
    s.done();
  }
  const t = mkdtempSync(join(tmpdir(), 'ccm-md-'));
  try {
    mkdirSync(join(t, 'bad'));
    writeFileSync(join(t, 'bad', 'meta-data'), 'a: [\n');
    mkdirSync(join(t, 'raises'));
    writeFileSync(join(t, 'raises', 'meta-data'), 'seedfrom: 5\n');
    const bad = runCli(['--check', join(t, 'bad', 'meta-data')]);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /meta-data is read as empty \(not YAML: /);
    const raises = runCli(['--check', '--format', 'json', join(t, 'raises', 'meta-data')]);
    assert.equal(raises.code, 1);
    const json = JSON.parse(raises.stdout) as { metaData: Array<{ error: string; claimed: unknown }>; findings: Array<{ code: string; severity: string }> };
    assert.equal(json.metaData[0].error, "AttributeError: 'int' object has no attribute 'startswith'");
    assert.equal(json.metaData[0].claimed, null);
    assert.deepEqual(json.findings.map((f) => [f.code, f.severity]), [['meta-data-fails', 'error']]);
  } finally {
    rmSync(t, { recursive: true, force: true });
  }
});

test('--type meta-data reads a file named otherwise as meta-data; its findings, and the line saying so', () => {
  const t = mkdtempSync(join(tmpdir(), 'ccm-md-'));
  try {
    const file = join(t, 'nocloud-md.yaml');
    writeFileSync(file, 'instance_id: iid-01\nlocal-hostname: web-1\n');
    const r = runCli(['--check', '--type', 'meta-data', file]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^NoCloud meta-data \S+nocloud-md\.yaml \(--type meta-data\): checked as NoCloud reads a seed's meta-data, not as user-data \(cloud-init never merges it\): instance-id 'nocloud' \(the default: meta-data gives none\), hostname 'web-1', dsmode net\n/);
    assert.match(r.stdout, /nocloud-md\.yaml:1:1: warning: NoCloud reads instance-id, not instance_id: this key is ignored/);
    assert.doesNotMatch(r.stdout, /Unrecognized user-data header/);
    const json = JSON.parse(runCli(['--check', '--type', 'meta-data', '--format', 'json', file]).stdout) as { metaData: Array<{ foundBy: string; instanceId: string }> };
    assert.deepEqual([json.metaData[0].foundBy, json.metaData[0].instanceId], ['type', 'nocloud']);
    assert.equal(runCli(['--check', '--type', 'meta-data', '--mode', 'confd', file]).code, 2);
    assert.match(runCli(['--check', '--type', 'user-data', file]).stderr, /--type takes network-config, meta-data or autoinstall, not 'user-data'/);
  } finally {
    rmSync(t, { recursive: true, force: true });
  }
});

test('--check user-data and meta-data together: the user-data merged alone, the meta-data read beside it', () => {
  const s = seed('instance-id: iid-01\n');
  try {
    const r = runCli(['--check', '--format', 'json', s.file('user-data'), s.file('meta-data')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const json = JSON.parse(r.stdout) as { files: Array<{ file: string; valid: boolean }>; merged: { valid: boolean }; metaData: Array<{ file: string; instanceId: string }> };
    assert.deepEqual(json.files.map((f) => [f.file, f.valid]), [[s.file('user-data'), true]]);
    assert.equal(json.merged.valid, true);
    assert.deepEqual(json.metaData.map((m) => [m.file, m.instanceId]), [[s.file('meta-data'), 'iid-01']]);
  } finally {
    s.done();
  }
});

test('a merge, --plan, JSON and the preview refuse a file named meta-data instead of merging it as user-data', () => {
  const s = seed('instance-id: iid-01\n');
  try {
    for (const args of [[], ['--format', 'json'], ['--format', 'report'], ['--format', 'preview'], ['--plan'], ['--mode', 'boot']]) {
      const r = runCli([...args, s.file('user-data'), s.file('meta-data')]);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout, '', args.join(' '));
      assert.match(r.stderr, /meta-data is a NoCloud seed's meta-data \(it is named meta-data\), not user-data: cloud-init never merges it\. See what NoCloud makes of it with --check .*meta-data, or give its seed folder with --seed DIR/, args.join(' '));
    }
    // --seed merges the seed's user-data and reads its meta-data: nothing refused.
    assert.equal(runCli(['--seed', s.dir]).code, 0);
  } finally {
    s.done();
  }
});

test('--image all and --annotate speak of user-data: a meta-data FILE with them is refused, not checked as user-data', () => {
  const s = seed('instance-id: iid-01\n');
  try {
    const images = runCli(['--check', '--image', 'all', s.file('meta-data')]);
    assert.equal(images.code, 2);
    assert.match(images.stderr, /NoCloud reads meta-data the same way on every version: check .*meta-data without --image/);
    const annotate = runCli(['--check', '--annotate', s.file('meta-data')]);
    assert.equal(annotate.code, 2);
    assert.match(annotate.stderr, /is NoCloud meta-data, check it without --annotate/);
  } finally {
    s.done();
  }
});
