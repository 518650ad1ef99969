// The one resolver (server/src/sets/resolve.ts): what a run is — a saved set, a NoCloud seed folder, a
// cloud.cfg.d folder, a lone MIME — decided once, for the CLI (`--set`, `--seed`) and the editor alike.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { confdRun, containerRun, runImage, runReads, savedSetRun, seedRun } from '../../server/src/sets/resolve';
import { listForPatterns, readSetFile, resolveSetFile } from '../../server/src/node/sets';
import { runCliIn } from '../support/cli';

const WORDS = { folders: 'the workspace', allowOutside: 'allow it' };

describe('the one resolver', () => {
  let root: string;
  let work: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'ccm-resolve-')));
    work = join(root, 'work');
    mkdirSync(join(work, 'seed'), { recursive: true });
    mkdirSync(join(work, 'half'), { recursive: true });
    mkdirSync(join(root, 'outside'), { recursive: true });
    writeFileSync(join(work, 'seed', 'user-data'), '#cloud-config\nhostname: from-seed\n');
    writeFileSync(join(work, 'seed', 'meta-data'), 'instance-id: iid-1\n');
    writeFileSync(join(work, 'seed', 'vendor-data'), '#cloud-config\nhostname: from-vendor\n');
    writeFileSync(join(work, 'seed', 'network-config'), 'version: 2\nethernets: {}\n');
    writeFileSync(join(work, 'half', 'user-data'), '#cloud-config\n');
    writeFileSync(join(work, 'extra.yaml'), '#cloud-config\nruncmd: [ls]\n');
    writeFileSync(join(root, 'outside', 'vendor-data'), '#cloud-config\nhostname: outside\n');
    mkdirSync(join(work, 'linked'), { recursive: true });
    writeFileSync(join(work, 'linked', 'user-data'), '#cloud-config\n');
    writeFileSync(join(work, 'linked', 'meta-data'), 'instance-id: iid-2\n');
    symlinkSync(join(root, 'outside', 'vendor-data'), join(work, 'linked', 'vendor-data'));
    writeFileSync(join(work, 'cloud-config-merge.yaml'), 'sets:\n  web:\n    seed: seed\n    files: [extra.yaml]\n    image: rhel-8\n');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('a seed folder: user-data over vendor-data, in boot mode, with its meta-data and network-config beside', () => {
    const { run, refused } = seedRun(join(work, 'seed'), { folders: [work], words: WORDS }, 'seed', work);
    assert.deepEqual(refused, []);
    assert.ok(run);
    assert.equal(run.mode, 'boot');
    assert.deepEqual(run.files, [join(work, 'seed', 'user-data')]);
    assert.deepEqual(run.boot, { vendor: join(work, 'seed', 'vendor-data') });
    assert.deepEqual(run.seed, { folder: 'seed', metaData: join(work, 'seed', 'meta-data'), networkConfig: join(work, 'seed', 'network-config') });
  });

  test('a folder NoCloud does not use is no run, and says why', () => {
    const { run, refused } = seedRun(join(work, 'half'), { folders: [work], words: WORDS }, 'half', work);
    assert.equal(run, undefined);
    assert.match(refused.join('\n'), /meta-data is missing, so NoCloud skips the folder/);
  });

  test('a seed file that leads out is left out of the run and named; the user may allow it', () => {
    const confined = seedRun(join(work, 'linked'), { folders: [work], words: WORDS }, 'linked', work);
    assert.deepEqual(confined.run?.boot, {});
    assert.match(confined.refused.join('\n'), /linked\/vendor-data resolves outside the workspace, not read \(allow it\)/);
    const allowed = seedRun(join(work, 'linked'), { folders: null, words: WORDS }, 'linked', work);
    assert.deepEqual(allowed.refused, []);
    assert.equal(allowed.run?.boot.vendor, join(work, 'linked', 'vendor-data'));
  });

  test('a saved set with a seed: the seed\'s user-data first, its vendor-data the vendor layer, the set\'s image', () => {
    const parsed = readSetFile(join(work, 'cloud-config-merge.yaml'));
    assert.ok(parsed);
    const reading = { folders: [work], maxFiles: 100, words: { ...WORDS, maxFiles: 'raise it' } };
    const [resolved] = resolveSetFile(work, parsed, reading, (p) => listForPatterns(work, p, [work]));
    const run = savedSetRun(work, resolved);
    assert.deepEqual(run.files, [join(work, 'seed', 'user-data'), join(work, 'extra.yaml')]);
    assert.equal(run.boot.vendor, join(work, 'seed', 'vendor-data'));
    assert.equal(run.image, 'rhel-8');
    assert.ok(runReads(run, join(work, 'seed', 'vendor-data')));
    assert.ok(!runReads(run, join(work, 'seed', 'meta-data')));
  });

  test('the image: the request\'s over the run\'s, the run\'s over the ambient one', () => {
    assert.equal(runImage({ image: 'rhel-8' }, { requested: 'debian-12', ambient: 'ubuntu-24.04' }), 'debian-12');
    assert.equal(runImage({ image: 'rhel-8' }, { ambient: 'ubuntu-24.04' }), 'rhel-8');
    assert.equal(runImage({}, { ambient: 'ubuntu-24.04' }), 'ubuntu-24.04');
    assert.equal(runImage(undefined, {}), undefined);
  });

  test('a cloud.cfg.d folder and a lone container', () => {
    const confd = confdRun('/etc/cloud/cloud.cfg.d', ['05-a.cfg', '90-b.cfg'], '/etc/cloud/cloud.cfg');
    assert.deepEqual(confd, { mode: 'confd', folder: '/etc/cloud', files: ['/etc/cloud/cloud.cfg.d/05-a.cfg', '/etc/cloud/cloud.cfg.d/90-b.cfg'], boot: { cloudCfg: '/etc/cloud/cloud.cfg' }, includeMap: [] });
    assert.deepEqual(containerRun('/w/ud.mime'), { mode: 'user-data', folder: '/w', files: ['/w/ud.mime'], boot: {}, includeMap: [], container: true });
  });

  test('the CLI\'s --seed and --set resolve the same run as the resolver: the same merged result', () => {
    const seed = runCliIn(['--seed', 'seed'], work);
    assert.equal(seed.code, 0, seed.stderr);
    assert.match(seed.stdout, /hostname: from-seed/);
    const set = runCliIn(['--set', 'web', '--format', 'json'], work);
    assert.equal(set.code, 0, set.stderr);
    // the seed's user-data over its vendor-data, then the set's file
    assert.deepEqual(JSON.parse(set.stdout), { hostname: 'from-seed', runcmd: ['ls'] });
  });
});
