// The system config keys of each version (engine/plan/data/systemKeys.json, scripts/system/regen.mjs) stay in
// step with the plan's facts of the same version: every key of its builtin config and cloud.cfg variants.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planFacts } from '../../server/src/engine/plan/facts';
import { systemConfigKeys, systemKeyReaders } from '../../server/src/engine/plan/systemKeys';
import { CLOUD_INIT_VERSIONS } from '../../server/src/engine/version/versions';
import { KEY_DOCS } from '../../server/src/engine/schema/keyDocs';

test('every key of a version\'s builtin config and cloud.cfg variants is one of its system config keys', () => {
  for (const version of CLOUD_INIT_VERSIONS) {
    const keys = new Set(systemConfigKeys(version));
    for (const set of planFacts(version).keySets) for (const key of set) if (!key.startsWith('_')) assert.ok(keys.has(key), `${version}: ${key} (run node scripts/system/regen.mjs)`);
  }
});

test('where the code reads a key, per version; internals and unknown keys have none', () => {
  assert.ok(systemKeyReaders('24.4', 'datasource_list')?.includes('cloudinit/stages.py'));
  assert.ok(systemKeyReaders('current', 'def_log_file')?.length);
  assert.equal(systemKeyReaders('current', 'no_such_key'), undefined);
  assert.equal(systemKeyReaders('22.4', '_log'), undefined);
  // `network` (`config: disabled`) is a key of every version, though current's cloud.cfg variants no longer set it
  for (const v of CLOUD_INIT_VERSIONS) assert.ok(systemConfigKeys(v).includes('network'), v);
});

test('every system config key a drop-in is offered has words of ours', () => {
  const missing = CLOUD_INIT_VERSIONS.flatMap((v) => systemConfigKeys(v)).filter((k) => !KEY_DOCS[k]);
  assert.deepEqual([...new Set(missing)], []);
});
