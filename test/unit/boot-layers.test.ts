// The boot-time layering wizard on a NoCloud seed folder (issue 42): step 1 does not tick vendor-data as
// user-data, and step 2 starts on the vendor-data beside the user-data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isVendorDataName, proposedVendorData, tickedUserData } from '../../client/src/preview/bootLayers';

const SEED = 'file:///w/seed';

test('step 1 ticks the preview\'s user-data, not the vendor-data previewed beside it', () => {
  assert.deepEqual(tickedUserData([`${SEED}/user-data`, `${SEED}/vendor-data`]), [`${SEED}/user-data`]);
  assert.deepEqual(tickedUserData(['file:///w/parts/10-base.yaml', 'file:///w/parts/vendor-data.yaml']), ['file:///w/parts/10-base.yaml']);
  assert.deepEqual(tickedUserData(['file:///w/parts/my-vendor-data-notes.yaml']), ['file:///w/parts/my-vendor-data-notes.yaml']);
});

test('step 2 starts on the sibling vendor-data of the user-data picked in step 1', () => {
  const candidates = [`file:///w/other/vendor-data`, `${SEED}/meta-data`, `${SEED}/vendor-data`, `${SEED}/vendor-data.yaml`];
  assert.equal(proposedVendorData(candidates, [`${SEED}/user-data`]), `${SEED}/vendor-data`);
  assert.equal(proposedVendorData([`${SEED}/vendor-data.yaml`, `${SEED}/vendor-data2`], [`${SEED}/user-data`]), `${SEED}/vendor-data.yaml`);
  // no vendor-data in that folder: none is proposed (another folder's is not)
  assert.equal(proposedVendorData([`file:///w/other/vendor-data`], [`${SEED}/user-data`]), undefined);
  // the preview's own vendor-data wins
  assert.equal(proposedVendorData(candidates, [`${SEED}/user-data`], 'file:///w/other/vendor-data'), 'file:///w/other/vendor-data');
});

test('vendor-data names', () => {
  for (const yes of ['vendor-data', 'vendor-data2', 'vendor-data.yaml', 'vendor%2Ddata']) assert.ok(isVendorDataName(`${SEED}/${yes}`), yes);
  for (const no of ['user-data', 'vendor-data-old.yaml', 'my-vendor-data', 'vendor-data.tar.gz']) assert.ok(!isVendorDataName(`${SEED}/${no}`), no);
});
