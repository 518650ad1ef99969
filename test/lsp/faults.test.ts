// Faults over the protocol: sources deleted, renamed, made unreadable or changed on disk while the
// editor has them open, workspace folders removed. A preview request always answers: what cannot be
// read is named in `problems` and at the top of the text, the rest is still merged, and the
// language server keeps serving the open documents.
//
// Tests may run as root, which reads a file whatever its mode: a probe tells, and then the root case
// is asserted as such while a directory, a dangling symlink, a symlink loop and a FIFO stand in for
// an unreadable file (those stop root as well).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeWorkspaceFoldersNotification, ResponseError } from 'vscode-languageserver-protocol';
import { LspClient, REPO_ROOT } from '../support/lspClient';
import { DocumentInfoRequest, DocumentInfoResult, PreviewRequest, PreviewParams, PreviewResult, previewBody, previewLines } from '../../server/src/protocol';
import { APPEND_LISTS } from './fixtures';

const TIMEOUT = 60_000;

function part(marker: string): string {
  return `#cloud-config\nmerge_how: ${APPEND_LISTS}\nruncmd:\n  - ${marker}\n`;
}

/** The `runcmd` markers of a preview body, in order. */
function markers(result: PreviewResult): string[] {
  return [...previewBody(result).matchAll(/^- (\S+)$/gm)].map((m) => m[1]);
}

/** The line of the preview text that is `- marker`. */
function lineOf(result: PreviewResult, marker: string): number {
  const at = result.text.split('\n').indexOf(`- ${marker}`);
  assert.ok(at >= 0, `'- ${marker}' in the preview text`);
  return at;
}

/** Whether chmod 000 keeps this user (and so the server, run as the same user) from reading a file. */
function chmodStopsReads(dir: string): boolean {
  const probe = path.join(dir, `.probe-${process.pid}`);
  writeFileSync(probe, 'probe');
  chmodSync(probe, 0o000);
  try {
    readFileSync(probe);
    return false;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EACCES') return true;
    throw e;
  } finally {
    chmodSync(probe, 0o600);
    rmSync(probe, { force: true });
  }
}

/** Replaces a file atomically, so that a concurrent reader sees the old or the new text, never a half. */
function replaceAtomically(file: string, text: string): void {
  const temporary = `${file}.tmp-${process.pid}`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** Ways to make a path unreadable that stop root too, each with the reason the preview must give. */
const UNREADABLE: Array<{ name: string; make: (file: string) => void; reason: RegExp }> = [
  { name: 'a directory in its place', make: (file) => mkdirSync(file), reason: /not a regular file/ },
  { name: 'a dangling symlink', make: (file) => symlinkSync(`${file}.nowhere`, file), reason: /no such file/ },
  { name: 'a symlink loop', make: (file) => symlinkSync(path.basename(file), file), reason: /too many symbolic links|ELOOP/ },
  // A FIFO would block a plain read forever (until something writes to it): refused, not waited on.
  { name: 'a FIFO', make: (file) => execFileSync('mkfifo', [file]), reason: /not a regular file/ },
];

describe('faults: sources on disk', () => {
  let client: LspClient;
  let root: string;
  let workspace: string;
  let privileged: boolean;
  const file = (...parts: string[]) => path.join(workspace, ...parts);
  const uri = (...parts: string[]) => pathToFileURL(file(...parts)).href;
  function write(relative: string, text: string): string {
    const target = file(relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
    return pathToFileURL(target).href;
  }
  const preview = (params: PreviewParams) => client.request<PreviewResult>(PreviewRequest.method, params);
  const userData = (...files: string[]) => preview({ mode: 'user-data', files });

  before(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'ccm-faults-')));
    workspace = path.join(root, 'workspace');
    mkdirSync(workspace, { recursive: true });
    privileged = !chmodStopsReads(root);
    client = await LspClient.start({ workspaceFolders: [workspace] });
  });
  after(async () => {
    await client.stop();
    // Give back the permissions taken, so that the folder can be removed.
    try {
      execFileSync('chmod', ['-R', 'u+rwX', root]);
    } catch {
      /* best effort */
    }
    rmSync(root, { recursive: true, force: true });
  });

  test('a source deleted between previews: named as a problem, the rest merged with the right lines; back when restored', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((n) => write(`deleted/${n}.yaml`, part(`${n}-1`)));
    assert.deepEqual(markers(await userData(a, b, c)), ['a-1', 'b-1', 'c-1']);
    unlinkSync(file('deleted', 'b.yaml'));
    const result = await userData(a, b, c);
    assert.deepEqual(result.problems, ['deleted/b.yaml: cannot be read (no such file); it is left out of this preview.']);
    assert.equal(result.text.split('\n')[1], `# Problem: ${result.problems[0]}`, 'the problem is at the top of the text');
    assert.deepEqual(markers(result), ['a-1', 'c-1']);
    assert.deepEqual(result.parts.map((p) => p.file), [a, c]);
    const fromC = previewLines(result.lineMap).find((l) => l.source?.uri === c);
    assert.equal(fromC?.line, lineOf(result, 'c-1'), 'provenance lines account for the problem line');
    writeFileSync(file('deleted', 'b.yaml'), part('b-2'));
    const restored = await userData(a, b, c);
    assert.deepEqual(restored.problems, []);
    assert.deepEqual(markers(restored), ['a-1', 'b-2', 'c-1'], 'the new text, nothing cached');
  });

  test('a source renamed: the old name is a problem, the new one merges with provenance to it', async () => {
    const old = write('renamed/old.yaml', part('renamed'));
    const base = write('renamed/base.yaml', part('base'));
    assert.deepEqual(markers(await userData(base, old)), ['base', 'renamed']);
    renameSync(file('renamed', 'old.yaml'), file('renamed', 'new.yaml'));
    const stale = await userData(base, old);
    assert.deepEqual(stale.problems, ['renamed/old.yaml: cannot be read (no such file); it is left out of this preview.']);
    assert.deepEqual(markers(stale), ['base']);
    const renamed = uri('renamed', 'new.yaml');
    const result = await userData(base, renamed);
    assert.deepEqual(result.problems, []);
    assert.deepEqual(markers(result), ['base', 'renamed']);
    assert.equal(previewLines(result.lineMap).find((l) => l.line === lineOf(result, 'renamed'))?.source?.uri, renamed);
    assert.match(result.text, /from renamed\/new\.yaml: merged/);
  });

  test(`a source made unreadable: chmod 000 (root reads it anyway, asserted as such), a directory, a dangling symlink, a symlink loop, a FIFO`, async () => {
    const good = write('unreadable/good.yaml', part('good'));
    const locked = write('unreadable/locked.yaml', part('locked'));
    chmodSync(file('unreadable', 'locked.yaml'), 0o000);
    try {
      const result = await userData(good, locked);
      if (privileged) {
        // Root (or CAP_DAC_OVERRIDE) reads whatever the mode: the server does too, and says nothing.
        assert.deepEqual(result.problems, [], 'running privileged: the file is readable to the server');
        assert.deepEqual(markers(result), ['good', 'locked']);
      } else {
        assert.deepEqual(result.problems, ['unreadable/locked.yaml: cannot be read (permission denied); it is left out of this preview.']);
        assert.deepEqual(markers(result), ['good']);
      }
    } finally {
      chmodSync(file('unreadable', 'locked.yaml'), 0o644);
    }
    const bad = UNREADABLE.map((u, i) => {
      const target = file('unreadable', `bad-${i}.yaml`);
      u.make(target);
      return { kind: u.name, reason: u.reason, uri: pathToFileURL(target).href, name: `unreadable/bad-${i}.yaml` };
    });
    const result = await userData(good, ...bad.map((b) => b.uri), locked);
    assert.equal(result.problems.length, bad.length, result.problems.join('\n'));
    for (const [i, b] of bad.entries()) {
      assert.ok(result.problems[i].startsWith(`${b.name}: cannot be read (`), `${b.kind} is named: ${result.problems[i]}`);
      assert.ok(result.problems[i].endsWith('); it is left out of this preview.'), `${b.kind}: ${result.problems[i]}`);
      assert.match(result.problems[i], b.reason, b.kind);
    }
    assert.deepEqual(markers(result), ['good', 'locked'], 'the readable files are still merged');
    assert.deepEqual(result.parts.map((p) => p.file), [good, locked]);
  });

  test('an #include target that cannot be read: named, and cloud-init’s failure shown; never an error', async () => {
    const cases = [
      ...UNREADABLE.map((u, i) => ({ name: u.name, target: file('include', `bad-${i}.yaml`), make: u.make, reason: u.reason })),
      {
        name: 'a deleted file',
        target: file('include', 'deleted.yaml'),
        make: (f: string) => {
          writeFileSync(f, part('deleted'));
          unlinkSync(f);
        },
        reason: /no such file/,
      },
    ];
    mkdirSync(file('include'), { recursive: true });
    for (const c of cases) {
      c.make(c.target);
      const include = write(`include/${path.basename(c.target)}.txt`, `#include\n${c.target}\n`);
      const result = await userData(include);
      assert.equal(result.problems.length, 1, `${c.name}: ${result.problems.join('\n')}`);
      assert.ok(result.problems[0].startsWith(`#include ${c.target}: cannot be read (`), `${c.name}: ${result.problems[0]}`);
      assert.match(result.problems[0], c.reason, c.name);
      assert.match(result.failure ?? '', /cloud-init fails before merging anything/, c.name);
      assert.equal(previewBody(result), '', `${c.name}: cloud-init writes nothing`);
    }
    const locked = file('include', 'locked.yaml');
    writeFileSync(locked, part('locked'));
    chmodSync(locked, 0o000);
    try {
      const result = await userData(write('include/locked.txt', `#include\n${locked}\n`));
      if (privileged) {
        assert.deepEqual(result.problems, [], 'running privileged: the target is readable to the server');
        assert.deepEqual(markers(result), ['locked']);
      } else {
        assert.deepEqual(result.problems, [`#include ${locked}: cannot be read (permission denied).`]);
        assert.match(result.failure ?? '', /cloud-init fails before merging anything/);
      }
    } finally {
      chmodSync(locked, 0o644);
    }
  });

  test('changed on disk while open: the editor’s text wins for sources and #include targets; closed, the disk’s', async () => {
    const source = write('open/source.yaml', part('source-disk-1'));
    const target = write('open/target.yaml', part('target-disk-1'));
    const include = write('open/include.txt', `#include\n${file('open', 'target.yaml')}\n`);
    const opened = await client.open(source, `#cloud-config\nmerge_how: list(append)+str()\nruncmd:\n  - source-editor\n`);
    assert.deepEqual(opened.map((d) => d.code), ['no-dict-merger']);
    client.openNoWait(target, part('target-editor'));
    writeFileSync(file('open', 'source.yaml'), part('source-disk-2'));
    writeFileSync(file('open', 'target.yaml'), part('target-disk-2'));
    const result = await userData(include, source);
    assert.deepEqual(result.problems, []);
    assert.deepEqual(markers(result), ['target-editor'], 'the include reads the editor; the source is the editor’s text, which has no dict() merger');
    assert.match(result.text, /source\.yaml: DROPPED/);
    // The diagnostics stay those of the editor's text: an edit there is analysed, not the disk.
    const info = await client.request<DocumentInfoResult>(DocumentInfoRequest.method, { uri: source });
    assert.equal(info.spec, 'list(append)+str()');
    const since = client.diagnosticsLog(source).length;
    const version = client.change(source, `#cloud-config\nmerge_how: ${APPEND_LISTS.replace('+str()', '+str(apend)')}\nruncmd:\n  - source-editor-2\n`);
    const published = await client.waitForDiagnostics(source, since, (p) => p.version === version, TIMEOUT);
    assert.deepEqual(published.diagnostics.map((d) => d.code), ['unknown-option']);
    assert.deepEqual(markers(await userData(include, source)), ['target-editor', 'source-editor-2']);
    client.close(source);
    client.close(target);
    const closed = await userData(include, source);
    assert.deepEqual(markers(closed), ['target-disk-2', 'source-disk-2'], 'closed: what is on disk now');
  });

  test('deleted on disk while open: the editor’s text is still previewed and analysed', async () => {
    const doc = write('gone/doc.yaml', part('on-disk'));
    await client.open(doc, part('in-editor'));
    unlinkSync(file('gone', 'doc.yaml'));
    const result = await userData(doc);
    assert.deepEqual(result.problems, []);
    assert.deepEqual(markers(result), ['in-editor']);
    const since = client.diagnosticsLog(doc).length;
    const version = client.change(doc, '#cloud-config\nmerge_how: list(append)+str()\n');
    const published = await client.waitForDiagnostics(doc, since, (p) => p.version === version, TIMEOUT);
    assert.deepEqual(published.diagnostics.map((d) => d.code), ['no-dict-merger']);
    client.close(doc);
    const closed = await userData(doc);
    assert.deepEqual(closed.problems, ['gone/doc.yaml: cannot be read (no such file); it is left out of this preview.'], 'closed: the file is gone');
  });

  test('changed on disk while not open: every preview reads the disk as it is now, include targets too', async () => {
    const source = write('rewritten/source.yaml', part('source-0'));
    const target = file('rewritten', 'target.yaml');
    writeFileSync(target, part('target-0'));
    const include = write('rewritten/include.txt', `#include\n${target}\n`);
    for (let g = 1; g <= 20; g++) {
      replaceAtomically(file('rewritten', 'source.yaml'), part(`source-${g}`));
      replaceAtomically(target, part(`target-${g}`));
      assert.deepEqual(markers(await userData(source, include)), [`source-${g}`, `target-${g}`]);
    }
  });

  test('files deleted and restored while previews read them: each source is either merged or named as a problem', async () => {
    const N = 16;
    const names = Array.from({ length: N }, (_, i) => `churn/f${String(i).padStart(2, '0')}.yaml`);
    const uris = names.map((n, i) => write(n, part(`f${i}`)));
    const pending: Array<Promise<PreviewResult>> = [];
    for (let round = 0; round < 40; round++) {
      pending.push(userData(...uris));
      // Churn the files while that preview reads them: some go away, some come back.
      for (let i = round % 3; i < N; i += 3) {
        const target = file(names[i]);
        if ((round + i) % 2) rmSync(target, { force: true });
        else replaceAtomically(target, part(`f${i}`));
      }
      await new Promise((r) => setImmediate(r));
    }
    const results = await Promise.all(pending);
    for (const [round, result] of results.entries()) {
      const merged = new Set(markers(result));
      for (const [i, name] of names.entries()) {
        const reported = result.problems.some((p) => p.startsWith(`${name}: cannot be read (no such file)`));
        assert.ok(merged.has(`f${i}`) !== reported, `round ${round}: ${name} is ${merged.has(`f${i}`) ? 'merged' : 'missing'} and ${reported ? '' : 'not '}reported`);
      }
      assert.equal(result.problems.length + merged.size, N, `round ${round}: nothing else is reported`);
    }
  });

  test('malformed or hostile parameters answer a preview, never an error', async () => {
    const junk: unknown[] = [
      null,
      {},
      { mode: 'user-data' },
      { mode: 'user-data', files: 'not-a-list' },
      { mode: 'user-data', files: [42, null, {}, 'untitled:never-opened', 'file:///dev/zero', 'file:///proc/self/fd/0'] },
      { mode: 'boot', files: [], boot: 5 },
      { mode: 'boot', files: [], boot: { confd: 'x', cloudCfg: 7, vendor: 'file:///nonexistent/vendor' } },
      { mode: 'user-data', files: [uri('nowhere.yaml')], exclude: 'x' },
      { mode: 'confd', files: [pathToFileURL(workspace).href] },
    ];
    for (const params of junk) {
      let result: PreviewResult;
      try {
        result = await client.request<PreviewResult>(PreviewRequest.method, params);
      } catch (e) {
        assert.fail(`${JSON.stringify(params)} answered an error: ${(e as ResponseError<unknown>).message}`);
      }
      assert.equal(typeof result.text, 'string', JSON.stringify(params));
      assert.ok(Array.isArray(result.problems), JSON.stringify(params));
    }
    // Devices are refused, never read (reading /dev/zero would never end); the server's own stdin too.
    const devices = await userData('file:///dev/zero', 'file:///proc/self/fd/0');
    assert.equal(devices.problems.length, 2, devices.problems.join('\n'));
    assert.equal(devices.problems[0], '/dev/zero: cannot be read (not a regular file); it is left out of this preview.');
    assert.match(devices.problems[1], /: cannot be read \(.+\); it is left out of this preview\.$/);
  });
});

describe('faults: workspace folders', () => {
  let root: string;
  let first: string;
  let second: string;
  before(() => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'ccm-folders-')));
    first = path.join(root, 'first');
    second = path.join(root, 'second');
    mkdirSync(first, { recursive: true });
    mkdirSync(second, { recursive: true });
    writeFileSync(path.join(second, 'extra.yaml'), part('extra'));
    writeFileSync(path.join(first, 'base.yaml'), part('base'));
    writeFileSync(path.join(first, 'include.txt'), `#include\n${path.join(second, 'extra.yaml')}\n`);
  });
  after(() => {
    rmSync(root, { recursive: true, force: true });
  });
  const folder = (dir: string, spelling = pathToFileURL(dir).href) => ({ uri: spelling, name: path.basename(dir) });
  const include = () => pathToFileURL(path.join(first, 'include.txt')).href;

  test('a folder removed: an #include into it is refused as outside the workspace, its open documents keep their diagnostics; added back, allowed', async () => {
    const client = await LspClient.start({ workspaceFolders: [first, second] });
    try {
      const preview = (...files: string[]) => client.request<PreviewResult>(PreviewRequest.method, { mode: 'user-data', files });
      const doc = pathToFileURL(path.join(second, 'doc.yaml')).href;
      assert.deepEqual((await client.open(doc, '#cloud-config\nmerge_how: list(append)+str()\n')).map((d) => d.code), ['no-dict-merger']);
      const allowed = await preview(include());
      assert.deepEqual(allowed.problems, []);
      assert.deepEqual(markers(allowed), ['extra']);

      await client.connection.sendNotification(DidChangeWorkspaceFoldersNotification.type, { event: { added: [], removed: [folder(second)] } });
      const refused = await preview(include());
      assert.deepEqual(refused.problems, [`#include ${path.join(second, 'extra.yaml')}: outside the workspace folders, not read. cloud-init would read it from the instance's own disk.`]);
      assert.match(refused.failure ?? '', /cloud-init fails before merging anything/);
      assert.doesNotMatch(refused.text, /- extra/);
      // A source the user names is still read (only #include is confined), under its full path now.
      const direct = await preview(pathToFileURL(path.join(second, 'extra.yaml')).href);
      assert.deepEqual(markers(direct), ['extra']);
      assert.ok(direct.text.includes(`from ${path.join(second, 'extra.yaml')}: merged`), direct.text.slice(0, 400));

      // The open document in the removed folder is still served.
      const since = client.diagnosticsLog(doc).length;
      const version = client.change(doc, `#cloud-config\nmerge_how: ${APPEND_LISTS.replace('list(append)', 'list(apend)')}\n`);
      const published = await client.waitForDiagnostics(doc, since, (p) => p.version === version, TIMEOUT);
      assert.deepEqual(published.diagnostics.map((d) => [d.code, d.range.start.character, d.range.end.character]), [['unknown-option', 16, 21]]);
      const hover = await client.hover(doc, { line: 1, character: 13 });
      assert.match(JSON.stringify(hover?.contents ?? ''), /list\(\)/);

      await client.connection.sendNotification(DidChangeWorkspaceFoldersNotification.type, { event: { added: [folder(second)], removed: [] } });
      const again = await preview(include());
      assert.deepEqual(again.problems, []);
      assert.deepEqual(markers(again), ['extra']);
    } finally {
      await client.stop();
    }
  });

  test('a folder removed under another spelling of its URI (trailing slash) is removed all the same', async () => {
    const client = await LspClient.start({ workspaceFolders: [first, second] });
    try {
      const preview = (...files: string[]) => client.request<PreviewResult>(PreviewRequest.method, { mode: 'user-data', files });
      assert.deepEqual(markers(await preview(include())), ['extra']);
      await client.connection.sendNotification(DidChangeWorkspaceFoldersNotification.type, {
        event: { added: [], removed: [folder(second, `${pathToFileURL(second).href}/`)] },
      });
      const refused = await preview(include());
      assert.match(refused.problems.join('\n'), /outside the workspace folders, not read/);
      assert.doesNotMatch(refused.text, /- extra/);
    } finally {
      await client.stop();
    }
  });

  test('the folder a custom merger comes from removed: the open documents’ diagnostics are refreshed', async () => {
    const mergers = path.join(REPO_ROOT, 'examples', 'custom-mergers');
    const client = await LspClient.start({ workspaceFolders: [mergers], settings: { customMergers: { uniq_list: 'm_uniq_list.js' } }, initializationOptions: { trusted: true } });
    try {
      const doc = pathToFileURL(path.join(root, 'elsewhere.yaml')).href;
      assert.deepEqual(await client.open(doc, "#cloud-config\nmerge_how: 'dict(no_replace,recurse_list)+uniq_list()+str()'\n"), []);
      let since = client.diagnosticsLog(doc).length;
      await client.connection.sendNotification(DidChangeWorkspaceFoldersNotification.type, { event: { added: [], removed: [folder(mergers)] } });
      const without = await client.waitForDiagnostics(doc, since, () => true, TIMEOUT);
      assert.equal(without.diagnostics.length, 1, JSON.stringify(without.diagnostics));
      assert.match(String(without.diagnostics[0].message), /uniq_list/);
      assert.match(String(without.diagnostics[0].message), /outside the workspace folders/);
      since = client.diagnosticsLog(doc).length;
      await client.connection.sendNotification(DidChangeWorkspaceFoldersNotification.type, { event: { added: [folder(mergers)], removed: [] } });
      assert.deepEqual((await client.waitForDiagnostics(doc, since, () => true, TIMEOUT)).diagnostics, []);
    } finally {
      await client.stop();
    }
  });
});
