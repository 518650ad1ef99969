// The extension manifest's promises about untrusted workspaces: a workspace's own settings cannot
// make the extension load code, read outside the workspace, or lift the resource limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_LIMITS, LIMIT_NAMES } from '../../server/src/engine/limits';

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));

test('settings that widen what the extension reads or runs are restricted in untrusted workspaces', () => {
  // instanceData names a file the server reads (anywhere on disk): a workspace must not choose it for an untrusted user.
  const widening = ['cloudConfigMerge.customMergers', 'cloudConfigMerge.includes.allowOutsideWorkspace', 'cloudConfigMerge.instanceData', ...LIMIT_NAMES.map((n) => `cloudConfigMerge.limits.${n}`)];
  const properties = manifest.contributes.configuration.properties;
  const restricted: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
  for (const name of widening) {
    assert.ok(properties[name], `${name} is declared`);
    assert.equal(properties[name].restricted, true, `${name} is marked restricted`);
    assert.ok(restricted.includes(name), `${name} is in restrictedConfigurations`);
  }
  assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
});

test('every limit is a setting whose default is the engine default', () => {
  const properties = manifest.contributes.configuration.properties;
  for (const name of LIMIT_NAMES) {
    assert.equal(properties[`cloudConfigMerge.limits.${name}`]?.default, DEFAULT_LIMITS[name], name);
    assert.equal(properties[`cloudConfigMerge.limits.${name}`]?.minimum, 1, name);
  }
});
