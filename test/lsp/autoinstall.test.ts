/**
 * Ubuntu autoinstall over the protocol (issue 39): Subiquity's verdict as diagnostics on the value that
 * stops the install (a `#cloud-config` with `autoinstall:`, and an autoinstall.yaml found by its name),
 * the quick fixes (move a misplaced key under `autoinstall:`, `curtin in-target --` for a late-command),
 * and hover and completion from the extracted schema of the image's Subiquity.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostic, MarkupContent, TextEdit } from 'vscode-languageserver-protocol';
import { LspClient, cursor, fixtureUri } from '../support/lspClient';

const USER_DATA = `#cloud-config
autoinstall:
  version: 1
  keyboard: {layout: en}
  identity:
    hostname: h
    username: ubuntu
    password: secret
  late-commands:
    - apt-get install -y vim
shutdown: poweroff
`;

function marked(text: string, d: Diagnostic): string {
  const { start, end } = d.range;
  return start.line === end.line ? text.split('\n')[start.line].slice(start.character, end.character) : '<multi-line>';
}

function applyEdits(text: string, edits: TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = edits.map((e, i) => ({ e, i, start: offset(e.range.start), end: offset(e.range.end) })).sort((a, b) => b.start - a.start || b.i - a.i);
  let out = text;
  for (const { e, start, end } of sorted) out = out.slice(0, start) + e.newText + out.slice(end);
  return out;
}

describe('autoinstall documents', () => {
  let client: LspClient;
  let n = 0;
  before(async () => {
    client = await LspClient.start();
  });
  after(async () => {
    await client.stop();
  });
  const uriOf = (name: string) => fixtureUri(`autoinstall-${n++}/${name}`);

  test('the install-stopping error, then the others, on the values that cause them', async () => {
    const uri = uriOf('user-data');
    const ds = await client.open(uri, USER_DATA);
    const ai = ds.filter((d) => String(d.code).startsWith('autoinstall-'));
    // In the document's order (the editor sorts them); the message says which one stops the install.
    assert.deepEqual(
      ai.map((d) => [d.code, d.severity, marked(USER_DATA, d)]),
      [
        ['autoinstall-error', 1, 'en'],
        ['autoinstall-password-not-hashed', 1, 'secret'],
        ['autoinstall-late-command-not-in-target', 2, 'apt-get install -y vim'],
        ['autoinstall-error', 1, 'shutdown'],
      ],
    );
    const text = (d: Diagnostic) => (typeof d.message === 'string' ? d.message : d.message.value);
    const stop = ai[3];
    assert.match(text(stop), /^Subiquity 24\.04 stops the install: AutoinstallError: Misplaced autoinstall directives/);
    assert.match(text(ai[0]), /^Subiquity 24\.04 then raises: ValueError: Unknown keyboard layout "en"/);
    // The quick fixes: the misplaced key moved under autoinstall:, the late-command run in the target.
    const move = (await client.codeActions(uri, stop.range, [stop])).find((a) => a.title === "Move 'shutdown' under 'autoinstall:'");
    assert.ok(move?.edit?.changes?.[uri]);
    const moved = applyEdits(USER_DATA, move.edit.changes[uri]);
    assert.ok(!/^shutdown:/m.test(moved) && /\n {2}shutdown: poweroff\n$/.test(moved), moved);
    const inTarget = (await client.codeActions(uri, ai[2].range, [ai[2]])).find((a) => /curtin in-target/.test(a.title));
    assert.ok(inTarget?.edit?.changes?.[uri]);
    assert.match(applyEdits(USER_DATA, inTarget.edit.changes[uri]), /- curtin in-target -- apt-get install -y vim\n/);
    client.close(uri);
  });

  test('an autoinstall.yaml is recognised by its name and checked as Subiquity reads the media file', async () => {
    const text = "autoinstall:\n  version: 1\n  identity: {hostname: h, username: ubuntu, password: '$6$a$b'}\n  timezone: Mars/Base\n";
    const uri = uriOf('autoinstall.yaml');
    const ds = await client.open(uri, text);
    client.close(uri);
    assert.deepEqual(ds.map((d) => [d.code, marked(text, d), typeof d.message === 'string' ? d.message : d.message.value]), [['autoinstall-error', 'Mars/Base', 'Subiquity 24.04 stops the install: AutoinstallError: unknown timezone: Mars/Base']]);
  });

  test('hover: the type, values and place in the order of Subiquity; completion: the keys and values it reads', async () => {
    const hoverOf = async (fixture: string) => {
      const { text, position } = cursor(fixture);
      const uri = uriOf('user-data');
      await client.open(uri, text);
      const h = await client.hover(uri, position);
      client.close(uri);
      return h ? (h.contents as MarkupContent).value : '';
    };
    assert.match(await hoverOf('#cloud-config\nautoinstall:\n  version: 1\n  shut|down: reboot\n'), /^\*\*shutdown\*\* \(autoinstall\): string\n\nValues: `"reboot"`, `"poweroff"`[\s\S]*reads it as section \d+ of \d+/);
    assert.match(await hoverOf('#cloud-config\nautoinstall:\n  identity:\n    pass|word: x\n'), /\*\*password\*\* \(autoinstall: identity\): string, required[\s\S]*chpasswd --encrypted/);
    const completionOf = async (fixture: string, name = 'user-data') => {
      const { text, position } = cursor(fixture);
      const uri = uriOf(name);
      await client.open(uri, text);
      const items = await client.completion(uri, position);
      client.close(uri);
      return items.map((i) => i.label);
    };
    const identity = await completionOf('#cloud-config\nautoinstall:\n  version: 1\n  identity:\n    hostname: h\n    |\n');
    assert.deepEqual([...identity].sort(), ['password', 'realname', 'username']);
    assert.deepEqual(await completionOf('#cloud-config\nautoinstall:\n  updates: |\n'), ['security', 'all']);
    const top = await completionOf('version: 1\nlate-commands: []\n|\n', 'autoinstall.yaml');
    assert.ok(top.includes('identity') && top.includes('storage') && !top.includes('late-commands'), top.join(' '));
  });
});
