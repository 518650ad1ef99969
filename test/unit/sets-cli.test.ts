/**
 * `--set` reads a set's files the way `#include` is confined in the editor (issue 27): inside the set
 * file's folder, unless `--set-allow-outside` says otherwise; at most `maxSetFiles` files; and listing its
 * globs is bounded (a budget of entries and time, symbolic links never followed). A set's instance data is
 * its file even when named like a shipped sample.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCliIn } from '../support/cli';
import { listForPatterns } from '../../server/src/node/sets';

const SECRET = '#cloud-config\nruncmd: [echo secret]\n';

function tree(files: Record<string, string>, links: Record<string, string> = {}): { root: string; done: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'ccm-set-confined-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  for (const [name, target] of Object.entries(links)) symlinkSync(target, join(root, name));
  return { root, done: () => rmSync(root, { recursive: true, force: true }) };
}

test('--set refuses files, globs and layers outside the set file\'s folder, and reads them with --set-allow-outside', () => {
  const t = tree(
    {
      'outside/secret.yaml': SECRET,
      'outside/id.json': '{}',
      'set/base.yaml': '#cloud-config\nhostname: web\n',
      'set/cloud-config-merge.yaml': [
        'sets:',
        '  up: {files: [base.yaml, ../outside/secret.yaml]}',
        "  glob: {files: ['../outside/*.yaml']}",
        "  disk: {files: ['../../../../../../**']}",
        '  linked: {files: [link.yaml]}',
        "  linkdir: {files: ['linkdir/*.yaml']}",
        '  vendor: {mode: boot, files: [base.yaml], vendor: ../outside/secret.yaml}',
        '  data: {files: [base.yaml], instanceData: ../outside/id.json}',
        "  mapped: {files: [base.yaml], includeMap: {'https://x/y': ../outside/secret.yaml}}",
        '',
      ].join('\n'),
    },
    { 'set/link.yaml': '../outside/secret.yaml', 'set/linkdir': '../outside' },
  );
  const setDir = join(t.root, 'set');
  try {
    const refused: Record<string, string> = {
      up: '../outside/secret.yaml',
      glob: '../outside/*.yaml',
      disk: '../../../../../../**',
      linked: 'link.yaml',
      linkdir: 'linkdir/*.yaml',
      vendor: '../outside/secret.yaml',
      data: '../outside/id.json',
      mapped: '../outside/secret.yaml',
    };
    for (const [name, written] of Object.entries(refused)) {
      const started = Date.now();
      const r = runCliIn(['--set', name], setDir);
      assert.equal(r.code, 2, `${name}: ${r.stdout}${r.stderr}`);
      assert.equal(r.stderr, `cloud-config-merge: ${join(setDir, 'cloud-config-merge.yaml')}: set ${name}: ${written} is outside ${setDir}, not read (give --set-allow-outside to read it)\n`);
      assert.doesNotMatch(r.stdout, /secret/);
      assert.ok(Date.now() - started < 5000, `${name} took ${Date.now() - started} ms`);
    }
    const allowed = runCliIn(['--set', 'up', '--set-allow-outside'], setDir);
    assert.equal(allowed.stderr, '');
    assert.match(allowed.stdout, /echo secret/);
    assert.match(runCliIn(['--set', 'linked', '--set-allow-outside'], setDir).stdout, /echo secret/);
    assert.match(runCliIn(['--set-allow-outside', 'x.yaml'], setDir).stderr, /--set-allow-outside goes with --set NAME/);
  } finally {
    t.done();
  }
});

test('--set merges at most maxSetFiles files: more is an error naming the limit', () => {
  const t = tree({
    'a.yaml': '#cloud-config\nhostname: a\n',
    'b.yaml': '#cloud-config\nhostname: b\n',
    'c.yaml': '#cloud-config\nhostname: c\n',
    'cloud-config-merge.yaml': "sets:\n  all:\n    files: ['*.yaml']\n",
  });
  try {
    const r = runCliIn(['--set', 'all', '--limit', 'maxSetFiles=2'], t.root);
    assert.equal(r.code, 2);
    // cloud-config-merge.yaml itself matches *.yaml too.
    assert.equal(r.stderr, `cloud-config-merge: ${join(t.root, 'cloud-config-merge.yaml')}: set all: 4 files, more than the limit maxSetFiles = 2 (change it with --limit maxSetFiles=N): the set is not merged\n`);
    assert.equal(runCliIn(['--set', 'all', '--limit', 'maxSetFiles=4', '--format', 'report'], t.root).code, 0);
  } finally {
    t.done();
  }
});

test("a set's globs are listed within a budget and never through a symbolic link (a link loop ends)", () => {
  const files: Record<string, string> = { 'a/b/c.yaml': 'x' };
  for (let i = 0; i < 300; i++) files[`many/${String(i).padStart(3, '0')}.yaml`] = 'x';
  const t = tree(files, { 'a/loop': '..', 'top-link': 'a' });
  try {
    assert.deepEqual(listForPatterns(t.root, ['a/**/*.yaml'], [t.root]), { files: ['a/b/c.yaml'], stopped: [] });
    assert.deepEqual(listForPatterns(t.root, ['**/c.yaml'], [t.root]).files.filter((f) => f.endsWith('c.yaml')), ['a/b/c.yaml']);
    const bounded = listForPatterns(t.root, ['many/*.yaml', 'a/**/*.yaml'], [t.root], { entries: 100, millis: 10_000 });
    assert.deepEqual(bounded.stopped, ['many/*.yaml', 'a/**/*.yaml']);
    assert.ok(bounded.files.length <= 300);
  } finally {
    t.done();
  }
});

test("a set's instanceData is its file, even one named like a shipped sample (aws), in the CLI as in the editor", () => {
  const t = tree({
    'part.yaml': '## template: jinja\n#cloud-config\nhostname: {{ v1.cloud_name }}\n',
    aws: '{"v1": {"cloud_name": "mine"}}\n',
    'cloud-config-merge.yaml': 'sets:\n  t:\n    files: [part.yaml]\n    instanceData: aws\n',
  });
  try {
    const r = runCliIn(['--set', 't', '--format', 'json'], t.root);
    assert.equal(r.stderr, '');
    assert.deepEqual(JSON.parse(r.stdout), { hostname: 'mine' });
  } finally {
    t.done();
  }
});
