import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLOUD_INIT_VERSIONS, VERSION_RELEASE, atLeast, parseCloudInitVersion } from '../../server/src/engine/version/versions';

test('a user writes a version as its name, its full release or head', () => {
  assert.equal(parseCloudInitVersion('24.4'), '24.4');
  assert.equal(parseCloudInitVersion('24.4.1'), '24.4');
  assert.equal(parseCloudInitVersion(' 22.4.2 '), '22.4');
  assert.equal(parseCloudInitVersion('head'), 'current');
  assert.equal(parseCloudInitVersion('Current'), 'current');
  assert.equal(parseCloudInitVersion('26.2'), 'current');
  assert.equal(parseCloudInitVersion('26.2.1'), 'current');
  assert.equal(parseCloudInitVersion('26.1'), undefined);
  assert.equal(parseCloudInitVersion('24.1'), undefined);
  assert.equal(parseCloudInitVersion('24.4.x'), undefined);
  assert.equal(parseCloudInitVersion('24.45'), undefined);
});

test('versions are ordered oldest first', () => {
  assert.deepEqual([...CLOUD_INIT_VERSIONS], ['22.4', '23.4', '24.4', '25.1', 'current']);
  assert.ok(atLeast('25.1', '24.4'));
  assert.ok(atLeast('24.4', '24.4'));
  assert.ok(!atLeast('23.4', '24.4'));
  assert.ok(atLeast('current', '25.1'));
});

// Issue 36, item 15: what the editor offers as a version override is what the server accepts, one list.
test('the setting cloudConfigMerge.cloudInitVersion offers exactly the versions the server checks, newest first', () => {
   
  const manifest = require('../../../package.json') as { contributes: { configuration: { properties: Record<string, { enum: string[]; enumDescriptions: string[] }> } } };
  const setting = manifest.contributes.configuration.properties['cloudConfigMerge.cloudInitVersion'];
  assert.deepEqual(setting.enum, [...CLOUD_INIT_VERSIONS].reverse());
  for (const [i, v] of setting.enum.entries()) {
    assert.equal(parseCloudInitVersion(v), v, `the server takes ${v}`);
    assert.ok(setting.enumDescriptions[i].includes(VERSION_RELEASE[v]), `${v}: ${setting.enumDescriptions[i]}`);
  }
});
