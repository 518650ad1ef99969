/**
 * Issue 30: what a cloud accepts as user-data (engine/delivery/limits.ts, the one table) and what
 * `--check --cloud` and the preview say of what the user delivers: the size as the cloud counts it, what
 * gzip saves, base64 text cloud-init will not decode, exit 1 when over.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { CLOUD_LIMITS, CLOUD_NAMES, base64Length, cloudLimit } from '../../server/src/engine/delivery/limits';
import { deliveryReport, doubleEncodingOf } from '../../server/src/engine/delivery/delivery';
import { buildPreview } from '../../server/src/engine/render/previewText';
import { runCli } from '../support/cli';

const enc = (s: string) => new TextEncoder().encode(s);
const bytes = (n: number) => new Uint8Array(n).fill(0x61);

test('the table: one row per cloud, each with an https source and what was verified', () => {
  assert.deepEqual(CLOUD_LIMITS.map((l) => l.cloud).sort(), [...CLOUD_NAMES].sort());
  for (const l of CLOUD_LIMITS) {
    assert.match(l.source, /^https:\/\/[^\s]+$/, l.cloud);
    assert.match(l.verified, /^(verified|partly verified|NOT verified): /, l.cloud);
    assert.ok(Number.isSafeInteger(l.bytes) && l.bytes > 0, l.cloud);
  }
  // The documented figures, as the sources write them.
  assert.deepEqual(
    Object.fromEntries(CLOUD_LIMITS.map((l) => [l.cloud, [l.bytes, l.counted]])),
    { aws: [16384, 'raw'], azure: [87380, 'base64'], gcp: [262144, 'raw'], openstack: [65535, 'base64'], hetzner: [32768, 'raw'], digitalocean: [65536, 'raw'], oracle: [32000, 'base64'] },
  );
});

test('AWS counts 16 KB before base64: 16,384 bytes pass, one more is over', () => {
  assert.equal(deliveryReport(bytes(16384), 'user-data', 'aws').over, false);
  const over = deliveryReport(bytes(16385), 'user-data', 'aws');
  assert.equal(over.over, true);
  assert.equal(over.size.counted, 16385);
});

test('OpenStack counts the base64 text: 49,149 bytes (65,532 characters) pass, 49,152 (65,536) do not', () => {
  assert.equal(base64Length(49149), 65532);
  assert.equal(deliveryReport(bytes(49149), 'user-data', 'openstack').over, false);
  const over = deliveryReport(bytes(49152), 'user-data', 'openstack');
  assert.equal(over.size.counted, 65536);
  assert.equal(over.over, true);
  assert.equal(cloudLimit('azure').bytes, base64Length(65535), "Azure's 87,380 characters are 64 KB - 1 of bytes");
});

test('gzip: what it would save, and nothing said for a file that already is gzip', () => {
  const r = deliveryReport(bytes(20000), 'big.yaml', 'aws');
  assert.ok(r.gzip && r.gzip.raw < 200 && r.gzip.fits);
  assert.equal(deliveryReport(new Uint8Array(gzipSync(bytes(20000))), 'big.yaml.gz', 'aws').gzip, null);
});

test('double encoding: base64 of user-data, of gzip, of base64; plain user-data and a base64-looking word are not', () => {
  const ud = enc('#cloud-config\nruncmd: [ls]\n');
  const b64 = (b: Uint8Array) => enc(Buffer.from(b).toString('base64'));
  assert.equal(doubleEncodingOf(b64(ud)), 'base64-of-user-data');
  assert.equal(doubleEncodingOf(b64(new Uint8Array(gzipSync(ud)))), 'base64-of-gzip');
  assert.equal(doubleEncodingOf(b64(b64(ud))), 'base64-of-base64');
  assert.equal(doubleEncodingOf(ud), undefined);
  assert.equal(doubleEncodingOf(enc('abcd\n')), undefined);
});

test('--check --cloud aws: over the limit exits 1 with the figures and the gzip saving; within exits 0', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-delivery-'));
  try {
    const big = join(dir, 'big.yaml');
    writeFileSync(big, '#cloud-config\nwrite_files:\n' + Array.from({ length: 400 }, (_, i) => `  - path: /etc/app/f${i}.conf\n    content: value-${i}\n`).join(''));
    const over = runCli(['--check', '--cloud', 'aws', big]);
    assert.equal(over.code, 1, over.stdout + over.stderr);
    assert.match(over.stdout, /^Delivery to AWS EC2 \(UserData\): .*big\.yaml is [\d,]+ bytes, OVER the limit of 16,384 by [\d,]+ \(counted before base64; https:\/\/docs\.aws\.amazon\.com\//m);
    assert.match(over.stdout, /^ {2}gzip -9 would make it [\d,]+ bytes \(\d+% less\), within the limit/m);
    const small = join(dir, 'small.yaml');
    writeFileSync(small, '#cloud-config\nruncmd: [ls]\n');
    const ok = runCli(['--check', '--cloud', 'aws', small]);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /within the limit of 16,384/);
    const b64 = join(dir, 'user-data.b64');
    writeFileSync(b64, Buffer.from(gzipSync('#cloud-config\nruncmd: [ls]\n')).toString('base64'));
    assert.match(runCli(['--check', '--cloud', 'gcp', b64]).stdout, /base64 text of gzip-compressed user-data: cloud-init does not decode base64/);
    assert.equal(runCli(['--check', '--cloud', 'nimbus', small]).code, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the preview header shows the figures for the chosen cloud, several files as one make-mime multipart', () => {
  const files = [
    { name: 'base.yaml', bytes: enc('#cloud-config\nruncmd: [ls]\n') },
    { name: 'app.sh', bytes: enc('#!/bin/sh\necho hi\n') },
  ];
  // (wrapped header lines joined again)
  const text = buildPreview('user-data', files, { cloud: 'hetzner' }).text.replace(/\n# {4,}/g, ' ');
  assert.match(text, /^# Delivery to Hetzner Cloud \(user_data\): the MIME multipart of these 2 files \(make-mime\) is [\d,]+ bytes, within the limit of 32,768/m);
  assert.doesNotMatch(buildPreview('user-data', files).text, /Delivery to/);
});
