import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLOUD_INIT_VERSIONS } from '../../server/src/engine/version/versions';
import { DEFAULT_IMAGE, IMAGE_PROFILES, TargetError, cloudCfgVariants, imageProfile, knownDistros, resolveTarget } from '../../server/src/engine/version/profiles';

/** The rendered cloud.cfg files of each version (../shared/oracle/cloudcfg/<version>/<variant>.cfg), when the oracles are here. */
const CLOUDCFG = join(__dirname, '..', '..', '..', '..', 'shared', 'oracle', 'cloudcfg');

test('every profile names a reproduced version, a distro that version knows and a cloud.cfg its template renders', () => {
  assert.ok(IMAGE_PROFILES.length >= 7);
  for (const p of IMAGE_PROFILES) {
    assert.ok((CLOUD_INIT_VERSIONS as readonly string[]).includes(p.version), `${p.id}: version ${p.version}`);
    assert.ok(knownDistros(p.version).includes(p.distro), `${p.id}: cloud-init ${p.version} knows no distro ${p.distro}`);
    assert.ok(cloudCfgVariants(p.version).includes(p.cloudCfgVariant), `${p.id}: cloud-init ${p.version} renders no ${p.cloudCfgVariant} cloud.cfg`);
    assert.ok(['none', 'cli', 'api'].includes(p.netplan), p.id);
    assert.ok(p.sources.length > 0 && p.sources.every((s) => s.startsWith('https://')), `${p.id}: every fact has a source`);
    assert.match(p.id, /^[a-z]+-[0-9.]+$/);
  }
  assert.equal(new Set(IMAGE_PROFILES.map((p) => p.id)).size, IMAGE_PROFILES.length, 'ids are unique');
  for (const id of ['debian-12', 'debian-13', 'rhel-8', 'rhel-9', 'rhel-10', 'ubuntu-22.04', 'ubuntu-24.04']) assert.ok(imageProfile(id), id);
});

test("the extracted variant lists are the files the oracles' templates rendered (where ../shared/oracle is)", () => {
  // Without the oracles the test above has checked the profiles against the lists extracted into the repo.
  if (!existsSync(CLOUDCFG)) return;
  for (const v of CLOUD_INIT_VERSIONS) {
    const rendered = readdirSync(join(CLOUDCFG, v)).filter((f) => f.endsWith('.cfg')).map((f) => f.slice(0, -4)).sort();
    assert.deepEqual([...cloudCfgVariants(v)].sort(), rendered, v);
  }
  for (const p of IMAGE_PROFILES) assert.ok(existsSync(join(CLOUDCFG, p.version, `${p.cloudCfgVariant}.cfg`)), p.id);
});

test('with nothing chosen the target is the default profile, current cloud-init on Ubuntu', () => {
  assert.equal(DEFAULT_IMAGE, 'ubuntu-24.04');
  assert.deepEqual(resolveTarget(), { version: 'current', distro: 'ubuntu', cloudCfgVariant: 'ubuntu', netplan: 'api', netplanVersion: '1.1', subiquity: '24.04' });
  assert.deepEqual(resolveTarget({ image: '' }), resolveTarget());
});

test('an image gives its version, distro, cloud.cfg and netplan host; the overrides replace their part', () => {
  assert.deepEqual(resolveTarget({ image: 'rhel-8' }), { version: '23.4', distro: 'rhel', cloudCfgVariant: 'rhel', netplan: 'none' });
  assert.deepEqual(resolveTarget({ image: ' Debian-13 ' }), { version: '25.1', distro: 'debian', cloudCfgVariant: 'debian', netplan: 'none' });
  // A distro of one's own brings the cloud.cfg cloud-init's template renders for it: its own, else its family's.
  assert.deepEqual(resolveTarget({ image: 'rhel-9', version: '22.4', distro: 'rocky', netplan: 'cli' }), { version: '22.4', distro: 'rocky', cloudCfgVariant: 'rocky', netplan: 'cli' });
  assert.equal(resolveTarget({ image: 'ubuntu-24.04', distro: 'cos' }).cloudCfgVariant, 'gentoo');
});

test("an Ubuntu image names the netplan its api host runs: 22.04's 0.10x (measured 0.106), 24.04's and 26.04's 1.x (measured 1.1)", () => {
  assert.equal(resolveTarget({ image: 'ubuntu-22.04' }).netplanVersion, '0.106');
  assert.equal(resolveTarget({ image: 'ubuntu-24.04' }).netplanVersion, '1.1');
  assert.equal(resolveTarget({ image: 'ubuntu-26.04' }).netplanVersion, '1.1');
  assert.equal(resolveTarget({ image: 'ubuntu-22.04', netplanVersion: '1.1' }).netplanVersion, '1.1');
  // images without netplan's API name none
  assert.equal(resolveTarget({ image: 'debian-12' }).netplanVersion, undefined);
});

test('an unknown image or a distro the version does not know is refused with the names it knows', () => {
  assert.throws(() => resolveTarget({ image: 'rhel9' }), (e: Error) => e instanceof TargetError && /unknown image 'rhel9' \(did you mean rhel-9\?\); the images: debian-12, /.test(e.message));
  assert.throws(() => resolveTarget({ image: 'debian-12', distro: 'redhat' }), (e: Error) => e instanceof TargetError && /cloud-init 22\.4 knows no distro 'redhat'.*it knows almalinux, /.test(e.message));
  // aosc arrived after 23.4: the same name is known to one version and not to another.
  assert.ok(knownDistros('24.4').includes('aosc') && !knownDistros('23.4').includes('aosc'));
  assert.throws(() => resolveTarget({ image: 'rhel-8', distro: 'aosc' }), TargetError);
  assert.equal(resolveTarget({ image: 'rhel-9', distro: 'aosc' }).distro, 'aosc');
});

test('the editor setting and the set file schema offer exactly the profiles of the table', () => {
  const manifest = require('../../../package.json');
  const setting = manifest.contributes.configuration.properties['cloudConfigMerge.image'];
  assert.deepEqual(setting.enum, ['', ...IMAGE_PROFILES.map((p) => p.id)]);
  assert.equal(setting.enumDescriptions.length, setting.enum.length);
  assert.equal(setting.scope, 'resource');
  const schema = require('../../../schemas/cloud-config-merge.schema.json');
  assert.deepEqual(schema.definitions.set.properties.image.enum, IMAGE_PROFILES.map((p) => p.id));
});
