/**
 * `--lint` knows what the merge of the same command line knows (issue 27, item 2): the custom mergers of
 * `--custom-merger`, the instance data of `--instance-data` (Jinja parts are checked as rendered with it),
 * and the cloud-init version of `--cloud-init-version`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { runCliIn } from '../support/cli';

const EXAMPLE = resolve(__dirname, '..', '..', '..', 'examples', 'custom-mergers', 'm_uniq_list.js');

function folder(files: Record<string, string>): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-lint-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  copyFileSync(EXAMPLE, join(dir, 'm_mine.js'));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const BASE = '#cloud-config\npackages: [curl, jq]\n';
const MINE = "#cloud-config\nmerge_how: 'dict(no_replace,recurse_list)+mine()+str()'\npackages: [jq, nginx]\n";

test('--lint --custom-merger: a spec naming the merger is fine, as the merge with it is', () => {
  const f = folder({ 'base.yaml': BASE, 'ud.yaml': MINE });
  try {
    const merged = runCliIn(['--custom-merger', 'mine=./m_mine.js', 'base.yaml', 'ud.yaml'], f.dir);
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stdout, /packages:\n- curl\n- jq\n- nginx\n/, 'the merge uses the custom merger');
    const linted = runCliIn(['--lint', '--custom-merger', 'mine=./m_mine.js', 'ud.yaml'], f.dir);
    assert.deepEqual([linted.code, linted.stdout, linted.stderr], [0, '', '']);
    // Without the flag, cloud-init has no such merger: the part is dropped, and --lint says so.
    const without = runCliIn(['--lint', 'ud.yaml'], f.dir);
    assert.equal(without.code, 1);
    assert.match(without.stdout, /^ud\.yaml:2:43: error: No merger named 'mine'.*\[unknown-merger\]\n$/);
  } finally {
    f.done();
  }
});

test('--lint --custom-merger with a module that cannot load: the ImportError the merge meets, not an unknown merger', () => {
  const f = folder({ 'ud.yaml': MINE });
  try {
    const linted = runCliIn(['--lint', '--custom-merger', 'mine=./missing.js', 'ud.yaml'], f.dir);
    assert.equal(linted.code, 1);
    assert.match(linted.stderr, /^cloud-config-merge: warning: custom merger 'mine': cannot load .*missing\.js/);
    assert.match(linted.stdout, /^ud\.yaml:2:43: error: cloud-init rejects this spec \(ImportError: custom merger 'mine': cannot load .*\[spec-rejected\]\n$/s);
  } finally {
    f.done();
  }
});

test('--lint --instance-data: a Jinja part is checked as rendered with that data, as the merge renders it', () => {
  const template = '## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostnme }}\nfqdn: {{ v1.local_hostname }}.example.internal\n';
  const f = folder({ 't.yaml': template });
  try {
    const merged = runCliIn(['--instance-data', 'nocloud', 't.yaml'], f.dir);
    assert.match(merged.stdout, /hostname: CI_MISSING_JINJA_VAR\/local_hostnme/);
    const linted = runCliIn(['--lint', '--instance-data', 'nocloud', 't.yaml'], f.dir);
    assert.equal(linted.code, 1);
    assert.match(linted.stdout, /^t\.yaml:3:14: warning: v1\.local_hostnme is not in the instance data \(sample "nocloud" .*cloud-init writes CI_MISSING_JINJA_VAR\/local_hostnme here.*\[jinja-undefined-variable\]\n$/);
    const missing = runCliIn(['--lint', '--instance-data', 'nope.json', 't.yaml'], f.dir);
    assert.equal(missing.code, 2, 'instance data that cannot be read is refused, as by the merge');
    assert.match(missing.stderr, /nope\.json: no such file/);
  } finally {
    f.done();
  }
});

test('--lint --cloud-init-version: the instance data of that version, as the merge renders with it', () => {
  // 22.4.2 has no merged_system_cfg: rendering raises and the part is dropped; today's cloud-init has it.
  const f = folder({ 's.yaml': '## template: jinja\n#cloud-config\nbootcmd: ["echo {{ merged_system_cfg._doc }}"]\n' });
  try {
    assert.match(runCliIn(['--instance-data', 'nocloud', 's.yaml'], f.dir).stdout, /- echo cloud-init system config merged/);
    assert.deepEqual(runCliIn(['--lint', '--instance-data', 'nocloud', 's.yaml'], f.dir).code, 0);
    assert.doesNotMatch(runCliIn(['--cloud-init-version', '22.4', '--instance-data', 'nocloud', 's.yaml'], f.dir).stdout, /bootcmd/);
    const old = runCliIn(['--lint', '--cloud-init-version', '22.4', '--instance-data', 'nocloud', 's.yaml'], f.dir);
    assert.equal(old.code, 1);
    assert.match(old.stdout, /^s\.yaml:3:1: error: .*UndefinedError: 'merged_system_cfg' is undefined\. cloud-init logs "Ignoring jinja template" and drops the part\. \[jinja-render-error\]\n$/);
  } finally {
    f.done();
  }
});
