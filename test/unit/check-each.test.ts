// Issue 36, "a fleet": `--check --each FILE...` checks each FILE as its own user-data, one verdict per
// file, the same verdict `--check FILE` gives it alone (less the merged result, which for one file says
// the same again); with many files worker threads share the work and the answer is the same, in order.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCliIn } from '../support/cli';

const FILES: Record<string, string> = {
  'ok.yaml': '#cloud-config\npackages: [curl]\n',
  'runcmd.yaml': '#cloud-config\nruncmd: 5\n',
  'spec.yaml': '#cloud-config\nmerge_how: "dict(no_replace,recurse_lists)+list()+str()"\nruncmd: [echo a]\n',
  'owner.yaml': '#cloud-config\nwrite_files:\n  - path: /home/app/.env\n    owner: app:app\n    content: x\nusers:\n  - default\n  - name: app\n',
  'cloud.cfg.d/99-net.cfg': 'network:\n  version: 2\n  ethernets:\n    eth0:\n      dhcp4: maybe\n',
  'seed/network-config': 'version: 2\nethernets:\n  eth0:\n    dhcp4: true\n',
  'seed/meta-data': 'instance_id: iid-1\n',
  'compose.yaml': 'version: "3"\nservices: {}\n',
};

describe('--check --each', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ccm-each-'));
    for (const [name, text] of Object.entries(FILES)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("each FILE's verdict is its own --check's: a schema error, a lint warning and an error-level pitfall fail, a clean file passes", () => {
    const names = Object.keys(FILES);
    const r = runCliIn(['--check', '--each', '--format', 'json', ...names], dir);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout) as { files: Array<{ file: string; status: string; failing: boolean; check?: { findings: Array<{ code: string }> } }>; summary: Record<string, number> };
    assert.deepEqual(out.files.map((f) => [f.file, f.status, f.failing]), [
      ['ok.yaml', 'checked', false],
      ['runcmd.yaml', 'checked', true],
      ['spec.yaml', 'checked', true],
      ['owner.yaml', 'checked', true],
      ['cloud.cfg.d/99-net.cfg', 'checked', true],
      ['seed/network-config', 'checked', false],
      ['seed/meta-data', 'checked', true],
      ['compose.yaml', 'skipped', false],
    ]);
    assert.deepEqual(out.summary, { files: 8, checked: 7, failing: 5, skipped: 1, errors: 0 });
    const codes = (file: string) => out.files.find((f) => f.file === file)!.check!.findings.map((f) => f.code);
    assert.ok(codes('owner.yaml').includes('plan-owner-created-later'), codes('owner.yaml').join());
    assert.ok(codes('cloud.cfg.d/99-net.cfg').includes('schema-error'), codes('cloud.cfg.d/99-net.cfg').join());
    // The same verdict as --check of the file alone (user-data files: the same findings too).
    for (const f of out.files.filter((x) => x.status === 'checked')) {
      const alone = runCliIn(['--check', '--format', 'json', ...(f.file.endsWith('.cfg') ? ['--mode', 'confd'] : []), f.file], dir);
      assert.equal(alone.code === 1, f.failing, `${f.file}: --check exits ${alone.code}`);
      if (f.file.endsWith('.yaml')) assert.deepEqual(f.check!.findings, (JSON.parse(alone.stdout) as { findings: unknown[] }).findings, f.file);
    }
  });

  test('text: each file as --check prints it, without the merged line; the count on stderr; SARIF: one log of all', () => {
    const r = runCliIn(['--check', '--each', 'ok.yaml', 'runcmd.yaml', 'compose.yaml'], dir);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^Valid schema ok\.yaml\nInvalid user-data runcmd\.yaml\n/);
    assert.doesNotMatch(r.stdout, /merged result/);
    assert.equal(r.stderr, 'cloud-config-merge: 1 of 2 cloud-init files fails the check (1 skipped: not cloud-init documents)\n');
    const sarif = JSON.parse(runCliIn(['--check', '--each', '--format', 'sarif', 'ok.yaml', 'runcmd.yaml', 'spec.yaml'], dir).stdout) as { runs: Array<{ results: Array<{ ruleId: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> }> };
    assert.equal(sarif.runs.length, 1);
    const where = sarif.runs[0].results.map((x) => `${x.locations[0].physicalLocation.artifactLocation.uri} ${x.ruleId}`);
    assert.ok(where.includes('runcmd.yaml schema-error'), where.join('\n'));
    assert.ok(where.includes('spec.yaml unknown-option'), where.join('\n'));
  });

  test('a file that cannot be read is said and exits 2; the others are still checked', () => {
    mkdirSync(join(dir, 'a-folder.yaml'), { recursive: true });
    const r = runCliIn(['--check', '--each', 'ok.yaml', 'a-folder.yaml'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stdout, /^Valid schema ok\.yaml$/m);
    assert.match(r.stderr, /a-folder\.yaml: is a directory/);
  });

  test('many files: worker threads share them, and the answer is the serial one, in order', () => {
    const many: string[] = [];
    for (let i = 0; i < 120; i++) {
      const name = `many/f${String(i).padStart(3, '0')}.yaml`;
      mkdirSync(join(dir, 'many'), { recursive: true });
      writeFileSync(join(dir, name), i % 17 === 0 ? `#cloud-config\nruncmd: ${i}\n` : `#cloud-config\nhostname: h${i}\n`);
      many.push(name);
    }
    const all = runCliIn(['--check', '--each', '--format', 'json', ...many], dir);
    const serial = many.map((f) => JSON.parse(runCliIn(['--check', '--each', '--format', 'json', f], dir).stdout) as { files: unknown[] });
    assert.deepEqual((JSON.parse(all.stdout) as { files: unknown[] }).files, serial.flatMap((s) => s.files));
    assert.equal(all.code, 1);
  });

  test('--each goes with --check, and with user-data only', () => {
    assert.match(runCliIn(['--each', 'ok.yaml'], dir).stderr, /--each goes with --check/);
    assert.match(runCliIn(['--check', '--each', '--mode', 'boot', 'ok.yaml'], dir).stderr, /does not go with --mode boot/);
    assert.match(runCliIn(['--check', '--each', '--image', 'all', 'ok.yaml'], dir).stderr, /does not go with --image all/);
  });
});
