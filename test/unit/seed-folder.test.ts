/**
 * Issue 30: a NoCloud seed folder (user-data, vendor-data, meta-data, network-config side by side) checked
 * and previewed together, from `--seed DIR` and from a set file's `seed:`: the user-data laid over the
 * vendor-data (boot mode), what NoCloud makes of the meta-data, a folder NoCloud would skip refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCli, runCliIn } from '../support/cli';
import { parseSetFile } from '../../server/src/engine/sets/setFile';

function seed(files: Record<string, string>): { dir: string; done: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'ccm-seed-'));
  const dir = join(root, 'seed');
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, done: () => rmSync(root, { recursive: true, force: true }) };
}

const USER = '#cloud-config\nhostname: web-01\nruncmd:\n  - echo user\n';
const VENDOR = '#cloud-config\npackages: [curl]\nruncmd:\n  - echo vendor\n';

test('--check --seed: the user-data over the vendor-data, and instance_id in meta-data said and failing', () => {
  const s = seed({ 'user-data': USER, 'vendor-data': VENDOR, 'meta-data': 'instance_id: iid-01\n', 'network-config': 'version: 2\n' });
  try {
    const r = runCli(['--check', '--seed', s.dir]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /meta-data:1:1: warning: NoCloud reads instance-id, not instance_id: this key is ignored, so every instance seeded this way gets the same id 'nocloud'.* \[meta-data-ignored-key\]/);
    assert.match(r.stdout, /^NoCloud seed .*seed: its user-data laid over its vendor-data .*; instance-id 'nocloud' \(the default: meta-data gives none\), no hostname from meta-data, dsmode net$/m);
    assert.match(r.stdout, /^ {2}network-config beside them/m);
    assert.match(r.stdout, /runcmd .* overridden|overridden/);
  } finally {
    s.done();
  }
});

test('a seed without meta-data is refused: NoCloud would skip the folder', () => {
  const s = seed({ 'user-data': USER });
  try {
    const r = runCli(['--check', '--seed', s.dir]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /is not a seed NoCloud uses: it needs both user-data and meta-data \(an empty file will do\), and meta-data is missing/);
  } finally {
    s.done();
  }
});

test('the preview of a seed: vendor-data under user-data, the seed line in the header', () => {
  const s = seed({ 'user-data': USER, 'vendor-data': VENDOR, 'meta-data': 'instance-id: iid-01\nlocal-hostname: web-01.example.com\n' });
  try {
    const r = runCli(['--format', 'preview', '--seed', s.dir]);
    assert.equal(r.code, 0, r.stderr);
    const text = r.stdout.replace(/\n# {4,}/g, ' ');
    assert.match(text, /^# NoCloud seed .*seed: its user-data laid over its vendor-data \(user-data wins key by key, as merged below\); instance-id 'iid-01', hostname 'web-01', dsmode net$/m);
    assert.match(text, /^packages:\n- curl$/m);
    assert.match(text, /^- echo user$/m);
  } finally {
    s.done();
  }
});

test('a set file\'s seed: the same set as --seed; a seed in another mode is an error', () => {
  const s = seed({ 'user-data': USER, 'vendor-data': VENDOR, 'meta-data': 'instance-id: iid-01\n' });
  try {
    const root = join(s.dir, '..');
    writeFileSync(join(root, 'cloud-config-merge.yaml'), 'sets:\n  nocloud:\n    seed: seed\n');
    const fromSet = runCliIn(['--format', 'preview', '--set', 'nocloud'], root);
    const direct = runCliIn(['--format', 'preview', '--seed', 'seed'], root);
    assert.equal(fromSet.code, 0, fromSet.stderr);
    assert.equal(fromSet.stdout, direct.stdout);
    assert.match(fromSet.stdout, /^# NoCloud seed seed: /m);
    assert.deepEqual(parseSetFile('sets:\n  a:\n    mode: user-data\n    seed: seed\n').problems.map((p) => p.message), ['set a: a seed is merged in boot mode (its user-data over its vendor-data); mode is user-data']);
  } finally {
    s.done();
  }
});
