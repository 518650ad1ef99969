// Issue 43, item 1: a NoCloud seed folder's files stay inside. A seed file that is a link out of the folder
// (or out of the set file's folder, for a set's `seed:`) is not read, shown or listed, by `--seed DIR`,
// `--set NAME` or the editor, unless the user allows it (--seed-allow-outside, --set-allow-outside).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { runCliIn } from '../support/cli';
import { LspClient } from '../support/lspClient';

const SECRET = 'instance-id: the-outside-secret\n';
const OUTSIDE_USER_DATA = '#cloud-config\nhostname: outside-host-name\n';

describe('seed folders stay inside', () => {
  let root: string;
  let work: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'ccm-seed-in-')));
    work = join(root, 'work');
    mkdirSync(join(root, 'outside'), { recursive: true });
    writeFileSync(join(root, 'outside', 'meta-data'), SECRET);
    writeFileSync(join(root, 'outside', 'user-data'), OUTSIDE_USER_DATA);
    // A seed whose meta-data links out; one whose user-data does; one that is a link to a folder outside.
    for (const name of ['md-link', 'ud-link']) {
      mkdirSync(join(work, name), { recursive: true });
    }
    writeFileSync(join(work, 'md-link', 'user-data'), '#cloud-config\nhostname: inside\n');
    symlinkSync(join(root, 'outside', 'meta-data'), join(work, 'md-link', 'meta-data'));
    writeFileSync(join(work, 'ud-link', 'meta-data'), 'instance-id: iid-in\n');
    symlinkSync(join(root, 'outside', 'user-data'), join(work, 'ud-link', 'user-data'));
    symlinkSync(join(root, 'outside'), join(work, 'folder-link'));
    writeFileSync(
      join(work, 'cloud-config-merge.yaml'),
      'sets:\n  md:\n    seed: md-link\n  ud:\n    seed: ud-link\n  folder:\n    seed: folder-link\n  climb:\n    seed: ../outside\n  abs:\n    seed: ' + join(root, 'outside') + '\n  proc:\n    seed: /proc/self/root' + join(root, 'outside') + '\n',
    );
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('--seed DIR refuses a seed file that links out of DIR, naming it and how to allow it', () => {
    for (const [seed, file] of [['md-link', 'meta-data'], ['ud-link', 'user-data']]) {
      for (const args of [['--check'], ['--format', 'preview'], []]) {
        const r = runCliIn([...args, '--seed', seed], work);
        assert.equal(r.code, 2, `${args.join(' ')} --seed ${seed}: ${r.stdout}${r.stderr}`);
        assert.match(r.stderr, new RegExp(`${seed}/${file} resolves outside ${seed}, not read \\(give --seed-allow-outside to read it\\)`));
        assert.doesNotMatch(r.stdout + r.stderr, /outside-secret|outside-host-name/);
      }
    }
    // The user may allow it.
    const allowed = runCliIn(['--check', '--seed', 'md-link', '--seed-allow-outside'], work);
    assert.match(allowed.stdout, /the-outside-secret/);
  });

  test('--set NAME with a seed: no file that resolves outside the set file\'s folder is read, whatever way it goes out', () => {
    for (const name of ['md', 'ud', 'folder', 'climb', 'abs', 'proc']) {
      for (const args of [['--check'], ['--format', 'preview'], ['--check', '--format', 'json']]) {
        const r = runCliIn(['--set', name, ...args], work);
        assert.equal(r.code, 2, `--set ${name} ${args.join(' ')}: ${r.stdout}${r.stderr}`);
        assert.match(r.stderr, /outside .*not read \(give --set-allow-outside to read it\)/);
        assert.doesNotMatch(r.stdout + r.stderr, /outside-secret|outside-host-name/);
      }
    }
  });

  test('the editor: the set file says which seed file is outside, and neither setOf nor the preview shows it', async () => {
    const client = await LspClient.start({ workspaceFolders: [work] });
    try {
      const setFile = pathToFileURL(join(work, 'cloud-config-merge.yaml')).href;
      const { readFileSync } = await import('node:fs');
      const ds = await client.open(setFile, readFileSync(join(work, 'cloud-config-merge.yaml'), 'utf8'));
      const said = ds.map((d) => String(d.message));
      assert.ok(said.some((m) => /md-link\/meta-data resolves outside/.test(m)), said.join('\n'));
      assert.ok(said.some((m) => /ud-link\/user-data resolves outside/.test(m)), said.join('\n'));
      const inside = pathToFileURL(join(work, 'md-link', 'user-data')).href;
      const set = await client.request<{ files: string[]; boot?: unknown } | null>('cloudConfigMerge/setOf', { uri: inside });
      assert.doesNotMatch(JSON.stringify(set), /outside/);
      const preview = await client.request<{ text: string }>('cloudConfigMerge/preview', { set: 'md', mode: 'boot', files: [inside] });
      assert.doesNotMatch(preview.text, /outside-secret/);
    } finally {
      await client.stop();
    }
  });
});
