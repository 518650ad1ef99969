/**
 * `--image ID`, `--image all` / `--image A,B` with --check, `--distro` and `--cloud-init-version` as overrides,
 * and the usage errors. `write_files[].source` is a version-dependent verdict: cloud-init 22.4 (Debian 12)
 * rejects it, later releases accept it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCli, runCliIn } from '../support/cli';
import { parseArgs } from '../../server/src/cli/args';
import { IMAGE_IDS } from '../../server/src/engine/version/profiles';

const SOURCE = '#cloud-config\nwrite_files:\n - path: /etc/x\n   source:\n     uri: https://example.com/x\n';
const VALID = '#cloud-config\nruncmd: [ls]\n';

function folder(files: Record<string, string>): { dir: string; path: (name: string) => string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-images-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, path: (n) => join(dir, n), done: () => rmSync(dir, { recursive: true, force: true }) };
}

test('--image picks the version, distro and cloud.cfg of an image; the default is ubuntu-24.04 on current cloud-init', () => {
  assert.deepEqual(parseArgs(['x']).target, { version: 'current', distro: 'ubuntu', cloudCfgVariant: 'ubuntu', netplan: 'api', netplanVersion: '1.1', subiquity: '24.04' });
  const debian = parseArgs(['--image', 'debian-12', 'x']);
  assert.equal(debian.version, '22.4');
  assert.deepEqual(debian.target, { version: '22.4', distro: 'debian', cloudCfgVariant: 'debian', netplan: 'none' });
  // The overrides replace their part only (a distro brings the cloud.cfg cloud-init renders for it).
  const overridden = parseArgs(['--image', 'debian-12', '--cloud-init-version', 'current', '--distro', 'ubuntu', 'x']);
  assert.equal(overridden.version, 'current');
  assert.deepEqual(overridden.target, { version: 'current', distro: 'ubuntu', cloudCfgVariant: 'ubuntu', netplan: 'none' });
  assert.equal(parseArgs(['--distro', 'fedora', 'x']).target.distro, 'fedora');
});

test('--check --image debian-12 gives the 22.4 verdict, the default image the current one', () => {
  const f = folder({ 'ud.yaml': SOURCE });
  try {
    const old = runCli(['--check', '--image', 'debian-12', f.path('ud.yaml')]);
    assert.equal(old.code, 1);
    assert.match(old.stdout, /write_files\.0: Additional properties are not allowed \('source' was unexpected\)/);
    const now = runCli(['--check', f.path('ud.yaml')]);
    assert.equal(now.code, 0, now.stdout);
  } finally {
    f.done();
  }
});

test('--check --image all says which images accept the input, and exits 1 when one of them rejects it', () => {
  const f = folder({ 'ud.yaml': SOURCE, 'ok.yaml': VALID });
  try {
    const r = runCliIn(['--check', '--image', 'all', 'ud.yaml'], f.dir);
    assert.equal(r.code, 1);
    const first = r.stdout.split('\n')[0];
    // write_files.source is new in 24.x: 23.4's own schema rejects it too (oracle.py --mode schema on 23.4.4).
    assert.equal(first, "Which images accept this: valid on debian-13, rhel-9, rhel-10, ubuntu-22.04, ubuntu-24.04, ubuntu-26.04, raspios-13 (cloud-init 24.4 and later); on debian-12, rhel-8 (22.4, 23.4) write_files.0: Additional properties are not allowed ('source' was unexpected)");
    assert.match(r.stdout, /\nInvalid on debian-12, rhel-8 \(cloud-init 22\.4, 23\.4\):\n {2}ud\.yaml:4:4: write_files\.0: Additional properties/);
    const json = JSON.parse(runCliIn(['--check', '--image', 'all', '--format', 'json', 'ud.yaml'], f.dir).stdout) as { images: Array<{ image: string; version: string; valid: boolean; errors: Array<{ path: string; file?: string; line?: number }> }> };
    assert.deepEqual(json.images.map((i) => i.image), [...IMAGE_IDS]);
    const debian = json.images.find((i) => i.image === 'debian-12')!;
    assert.deepEqual([debian.version, debian.valid, debian.errors[0].path, debian.errors[0].file, debian.errors[0].line], ['22.4', false, 'write_files.0', 'ud.yaml', 4]);
    assert.ok(json.images.filter((i) => i.image !== 'debian-12' && i.image !== 'rhel-8').every((i) => i.valid && !i.errors.length));
    // Only the images listed count.
    const listed = runCliIn(['--check', '--image', 'rhel-9, ubuntu-24.04', 'ud.yaml'], f.dir);
    assert.equal(listed.code, 0);
    assert.equal(listed.stdout, 'Which images accept this: valid on every image (rhel-9, ubuntu-24.04)\n');
    assert.equal(runCliIn(['--check', '--image', 'all', 'ok.yaml'], f.dir).code, 0);
  } finally {
    f.done();
  }
});

test('bad --image and --distro values and combinations are usage errors naming what is known', () => {
  const cases: Array<[string[], RegExp]> = [
    [['--image', 'rhel9', 'x'], /--image: unknown image 'rhel9' \(did you mean rhel-9\?\); the images: debian-12, /],
    [['--check', '--image', 'rhel-9,ubuntu', 'x'], /unknown image 'ubuntu'/],
    [['--image', 'all', 'x'], /--image all goes with --check/],
    [['--image', '', 'x'], /--image: unknown image ''/],
    [['--check', '--image', ' , ', 'x'], /--image , names no image/],
    [['--check', '--image', 'all', '--cloud-init-version', '22.4', 'x'], /drop --cloud-init-version and --distro/],
    [['--check', '--image', 'all', '--distro', 'debian', 'x'], /drop --cloud-init-version and --distro/],
    [['--check', '--image', 'all', '--format', 'sarif', 'x'], /does not go with --annotate, --format sarif or --fail-on/],
    [['--image', 'debian-12', '--distro', 'redhat', 'x'], /--distro: cloud-init 22\.4 knows no distro 'redhat'; it knows almalinux, /],
    [['--image', 'rhel-8', '--distro', 'aosc', 'x'], /--distro: cloud-init 23\.4 knows no distro 'aosc'/],
  ];
  for (const [argv, message] of cases) {
    const r = runCli(argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.stderr, message, argv.join(' '));
  }
});

test('a set may name its image; --image on the command line wins', () => {
  const f = folder({ 'ud.yaml': SOURCE, 'cloud-config-merge.yaml': 'sets:\n  old:\n    files: ud.yaml\n    image: debian-12\n  bad:\n    files: ud.yaml\n    image: debian-11\n' });
  try {
    writeFileSync(f.path('cloud-config-merge.yaml'), 'sets:\n  old:\n    files: ud.yaml\n    image: debian-12\n');
    assert.equal(runCliIn(['--check', '--set', 'old'], f.dir).code, 1);
    assert.equal(runCliIn(['--check', '--set', 'old', '--image', 'ubuntu-24.04'], f.dir).code, 0);
    writeFileSync(f.path('cloud-config-merge.yaml'), 'sets:\n  bad:\n    files: ud.yaml\n    image: debian-11\n');
    const bad = runCliIn(['--check', '--set', 'bad'], f.dir);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /set bad: unknown image 'debian-11' \(did you mean debian-12\?\)/);
  } finally {
    f.done();
  }
});

test("the preview's header says which images reject the merged result, and nothing when every image accepts it", () => {
  const f = folder({ 'ud.yaml': SOURCE, 'ok.yaml': VALID });
  try {
    for (const image of ['ubuntu-24.04', 'debian-12']) {
      const r = runCliIn(['--format', 'preview', '--image', image, 'ud.yaml'], f.dir);
      assert.equal(r.code, 0);
      const header = r.stdout.slice(0, r.stdout.indexOf('# ---- what cloud-init writes'));
      assert.match(header, /^# Which images accept this: /m, image);
      assert.match(header.replace(/\n#\s+/g, ' '), /Which images accept this: valid on debian-13, rhel-9, .* \(cloud-init 24\.4 and later\); on debian-12, rhel-8 \(22\.4, 23\.4\) write_files\.0: Additional properties are not allowed \('source' was unexpected\)/, image);
    }
    assert.doesNotMatch(runCliIn(['--format', 'preview', 'ok.yaml'], f.dir).stdout, /Which images/);
  } finally {
    f.done();
  }
});

test('above 16 KB of user-data the preview says it leaves the images to --check, which still checks them', () => {
  const big = SOURCE + 'runcmd:\n' + Array.from({ length: 3000 }, (_, i) => `  - echo line ${i} of a long generated script\n`).join('');
  const f = folder({ 'big.yaml': big });
  try {
    const header = runCliIn(['--format', 'preview', 'big.yaml'], f.dir).stdout.split('# ---- what cloud-init writes')[0].replace(/\n#\s+/g, ' ');
    assert.match(header, /Which images accept this: not checked in the preview above 16 KB of user-data \(cloud-config-merge --check --image all checks it\)/);
    assert.match(runCliIn(['--check', '--image', 'all', 'big.yaml'], f.dir).stdout, /^Which images accept this: valid on debian-13, rhel-9/);
  } finally {
    f.done();
  }
});

test('an error every image reports is said once, and the preview leaves it to its schema section', () => {
  const f = folder({ 'perm.yaml': '#cloud-config\nwrite_files:\n - path: /x\n   permissions: 644\n' });
  try {
    const r = runCliIn(['--check', '--image', 'all', 'perm.yaml'], f.dir);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, [
      "Which images accept this: valid on no image: write_files.0.permissions: 644 is not of type 'string'",
      '',
      'Invalid on debian-12, rhel-8, rhel-9, rhel-10, debian-13, ubuntu-22.04, ubuntu-24.04, ubuntu-26.04, raspios-13 (cloud-init 22.4, 23.4, 24.4, 25.1, current):',
      "  perm.yaml:4:17: write_files.0.permissions: 644 is not of type 'string'",
      '',
    ].join('\n'));
    const preview = runCliIn(['--format', 'preview', 'perm.yaml'], f.dir).stdout;
    assert.match(preview, /# Schema: cloud-init rejects the merged result/);
    assert.doesNotMatch(preview, /Which images/);
  } finally {
    f.done();
  }
});
