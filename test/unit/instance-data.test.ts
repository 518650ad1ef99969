/**
 * `--instance-data` (and the cloudConfigMerge.instanceData setting): a shipped sample by name, or a
 * JSON file read as Python's json reads it. The expected outputs were produced by the oracle
 * (cloud-init 22.4.2 and upstream) on these inputs, the samples written out as JSON files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli';
import { SAMPLE_NAMES, sampleInstanceData } from '../../server/src/engine/template/samples';
import { chooseInstanceData, templateVariables } from '../../server/src/engine/template/instanceData';

function withFiles(files: Record<string, string>, body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-instance-data-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const TEMPLATE = '## template: jinja\n#cloud-config\nregion: {{ v1.region }}\nhost: {{ local_hostname }}\nzone: {{ ds.meta_data.placement.availability_zone }}\n';

test('--instance-data aws renders with the aws sample', () => {
  withFiles({ 'ud.txt': TEMPLATE }, (dir) => {
    const r = runCli(['--instance-data', 'aws', '--format', 'json', join(dir, 'ud.txt')]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), '{"host":"ip-172-31-20-5","region":"us-east-1","zone":"us-east-1a"}');
  });
});

test('regression: a float in an instance-data file stays a float (1.0 renders 1.0, as Python json reads it)', () => {
  withFiles({ 'ud.txt': '## template: jinja\n#cloud-config\nratio: "{{ v1.ratio }}"\nregion: {{ v1.region }}\n', 'id.json': '{"v1": {"ratio": 1.0, "region": "moon-1"}}' }, (dir) => {
    const r = runCli(['--instance-data', join(dir, 'id.json'), '--format', 'json', join(dir, 'ud.txt')]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), '{"ratio":"1.0","region":"moon-1"}');
  });
});

test('an unknown name that is no file either: exit 2, naming the samples', () => {
  withFiles({ 'ud.txt': TEMPLATE }, (dir) => {
    const r = runCli(['--instance-data', join(dir, 'nope'), join(dir, 'ud.txt')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no such file \(a JSON file, or one of the samples: aws, azure, gce, openstack, lxd, nocloud\)/);
  });
});

test('every sample has the shape of instance-data.json for both versions', () => {
  for (const name of SAMPLE_NAMES) {
    const old = sampleInstanceData(name, '22.4');
    const cur = sampleInstanceData(name, 'current');
    for (const key of ['ds', 'merged_cfg', 'sys_info', 'v1', 'base64_encoded_keys', 'sensitive_keys']) assert.ok(key in old && key in cur, `${name}: ${key}`);
    assert.ok(!('merged_system_cfg' in old) && 'merged_system_cfg' in cur && 'features' in cur && 'system_info' in cur, name);
    assert.ok((cur.sensitive_keys as string[]).includes('merged_system_cfg'), name);
    const vars = templateVariables(chooseInstanceData(name, 'current', () => ''));
    assert.ok(vars && typeof vars.local_hostname === 'string' && vars.local_hostname === (vars.v1 as Record<string, unknown>)['local-hostname'], name);
  }
});

test('azure: a ci-b64: value is listed in base64_encoded_keys, its prefix stripped', () => {
  const data = sampleInstanceData('azure', '22.4');
  assert.deepEqual(data.base64_encoded_keys, ['ds/meta_data/random_seed']);
  assert.ok(!String(((data.ds as Record<string, unknown>).meta_data as Record<string, unknown>).random_seed).startsWith('ci-b64:'));
});
