/**
 * cloud-init's schema validation as diagnostics, over the protocol: errors on the key or value they are
 * about, in cloud-init's words (`path: message`) for the configured version; deprecations as warnings
 * tagged Deprecated; parts inside MIME at their own positions; `cloudConfigMerge.schema.enable`.
 * Paths and messages are what the oracle's `--mode schema` printed for these documents.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostic, DiagnosticSeverity, DiagnosticTag } from 'vscode-languageserver-protocol';
import { LspClient, applyEdits, fixtureUri } from '../support/lspClient';
import { mime } from './fixtures';

const TEXT = '#cloud-config\npackage: [curl]\npackages: curl\napt_update: true\nwrite_files:\n - path: /x\n   permissions: 644\n';

function marked(text: string, d: Diagnostic): string {
  const lines = text.split('\n');
  const { start, end } = d.range;
  if (start.line !== end.line) return '<multi-line>';
  return lines[start.line].slice(start.character, end.character);
}

const schemaOnly = (ds: Diagnostic[]) => ds.filter((d) => String(d.code).startsWith('schema-'));

describe('schema diagnostics', () => {
  let client: LspClient;
  let n = 0;
  before(async () => {
    client = await LspClient.start();
  });
  after(async () => {
    await client.stop();
  });

  async function open(text: string, settings: Record<string, unknown> = {}): Promise<Diagnostic[]> {
    client.settings = settings;
    const uri = fixtureUri(`schema-${n++}/user-data.yaml`);
    const diagnostics = await client.open(uri, text);
    client.close(uri);
    client.settings = {};
    return diagnostics;
  }

  test('current: errors on the unknown key and on the wrong values, the deprecation struck through on its key', async () => {
    const ds = schemaOnly(await open(TEXT));
    const shape = ds.map((d) => [d.code, d.severity, marked(TEXT, d), d.message, d.tags ?? []]);
    assert.deepEqual(shape, [
      ['schema-error', DiagnosticSeverity.Error, 'package', "package: Additional properties are not allowed ('package' was unexpected)", []],
      ['schema-error', DiagnosticSeverity.Error, 'curl', "packages: 'curl' is not of type 'array'", []],
      ['schema-deprecated', DiagnosticSeverity.Warning, 'apt_update', 'apt_update: Deprecated in version 22.2. Use **package_update** instead.', [DiagnosticTag.Deprecated]],
      ['schema-error', DiagnosticSeverity.Error, '644', "write_files.0.permissions: 644 is not of type 'string'", []],
    ]);
  });

  test('22.4: unknown top-level keys are allowed, and 22.4 words its deprecations', async () => {
    const ds = schemaOnly(await open(TEXT, { cloudInitVersion: '22.4' }));
    assert.deepEqual(
      ds.map((d) => [marked(TEXT, d), d.message]),
      [
        ['curl', "packages: 'curl' is not of type 'array'"],
        ['apt_update', 'apt_update: DEPRECATED: Dropped after April 2027. Use ``package_update``. Default: ``false``'],
        ['644', "write_files.0.permissions: 644 is not of type 'string'"],
      ],
    );
  });

  test('the setting picks the schema of the release the image runs: ubuntu_pro is unknown on 23.4, known from 24.4.1', async () => {
    const text = '#cloud-config\nubuntu_pro:\n  token: x\n';
    const on = async (cloudInitVersion: string) => schemaOnly(await open(text, { cloudInitVersion })).map((d) => [marked(text, d), d.message]);
    assert.deepEqual(await on('23.4'), [['ubuntu_pro', "ubuntu_pro: Additional properties are not allowed ('ubuntu_pro' was unexpected) — cloud-init 23.4's schema; 24.4 and later accept it"]]);
    assert.deepEqual(await on('24.4.1'), []);
  });

  test('a cloud-config part inside MIME is validated at its own positions', async () => {
    const text = mime([{ type: 'text/cloud-config', body: '#cloud-config\nruncmd: ls\n' }]);
    const ds = schemaOnly(await open(text));
    assert.deepEqual(ds.map((d) => [marked(text, d), d.message]), [['ls', "runcmd: 'ls' is not of type 'array'"]]);
  });

  async function fixes(text: string, settings: Record<string, unknown> = {}): Promise<Array<[string, string]>> {
    client.settings = settings;
    const uri = fixtureUri(`schema-fix-${n++}/user-data.yaml`);
    const diagnostics = schemaOnly(await client.open(uri, text));
    const out: Array<[string, string]> = [];
    for (const d of diagnostics) {
      for (const a of await client.codeActions(uri, d.range, [d])) {
        const edits = a.edit?.changes?.[uri];
        if (edits && a.diagnostics?.[0]?.code === d.code) out.push([a.title, applyEdits(text, edits)]);
      }
    }
    client.close(uri);
    client.settings = {};
    return out;
  }

  test('quick fixes: a near-miss key, and a deprecated key renamed where the rename satisfies cloud-init', async () => {
    const text = '#cloud-config\npackage: [curl]  # keep\napt_update: true\nchpasswd: {list: "a:b"}\nusers:\n - name: a\n   lock-passwd: true\n';
    const got = await fixes(text);
    assert.deepEqual(got, [
      ["Change to 'packages'", text.replace('package:', 'packages:')],
      ["Change to 'package_update'", text.replace('apt_update', 'package_update')],
      ["Change to 'lock_passwd'", text.replace('lock-passwd', 'lock_passwd')],
    ]);
    // chpasswd.list says "Use users instead", but chpasswd.users has another format: no rename offered
    assert.ok(!got.some(([title]) => title.includes("'users'")));
  });

  test('a deprecated value is marked on the value, not on its key', async () => {
    const text = '#cloud-config\nusers:\n - name: a\n   sudo: false\n';
    const ds = schemaOnly(await open(text));
    assert.deepEqual(ds.map((d) => [marked(text, d), d.tags]), [['false', [DiagnosticTag.Deprecated]]]);
  });

  test('a document with more schema problems than the editor looks for: the first ones are shown, and a warning says the check stopped', async () => {
    // 12,000 runcmd items that are neither a string nor a list: more than MAX_SCHEMA_PROBLEMS problems.
    const items = Array.from({ length: 12_000 }, (_, i) => `  - {a: ${i}}\n`).join('');
    const text = `#cloud-config\nruncmd:\n${items}`;
    const diagnostics = await open(text);
    const stopped = diagnostics.filter((d) => d.code === 'limit-exceeded');
    assert.equal(stopped.length, 1, 'shown although 1,000 errors are more severe');
    assert.equal(stopped[0].severity, DiagnosticSeverity.Warning);
    assert.match(String(stopped[0].message), /stopped after 10000 problems in this document: `cloud-config-merge --check` lists them all/);
    assert.equal(diagnostics[diagnostics.length - 1].code, 'too-many-problems');
    const errors = schemaOnly(diagnostics);
    assert.ok(errors.length > 900, `${errors.length} schema errors shown`);
    assert.equal(errors[0].range.start.line, 2, 'from the first item on');
  });

  test('cloudConfigMerge.schema.enable = false: no schema diagnostics, merge-spec diagnostics stay', async () => {
    const text = TEXT + 'merge_how: list(append)+str()\n';
    const ds = await open(text, { schema: { enable: false } });
    assert.deepEqual(ds.map((d) => d.code), ['no-dict-merger']);
    const on = await open(text);
    assert.ok(schemaOnly(on).length >= 4);
  });
  test('archive entries: a literal content at its own positions; a quoted one on its content key, saying where', async () => {
    const text = '#cloud-config-archive\n- type: text/cloud-config\n  content: |\n    #cloud-config\n    package: [curl]\n    runcmd: 5\n- content: "#cloud-config\\nruncmd: 6\\n"\n- content: "#!/bin/sh\\nexit 5\\n"\n';
    const ds = schemaOnly(await open(text));
    assert.deepEqual(
      ds.map((d) => [marked(text, d), d.range.start.line, d.message]),
      [
        ['package', 4, "package: Additional properties are not allowed ('package' was unexpected)"],
        ['5', 5, "runcmd: 5 is not of type 'array'"],
        ['content', 6, "runcmd: 6 is not of type 'array' (line 2, column 9 of archive entry 2, not shown in place: its content is not a literal block (`content: |`) or a one-line scalar without escapes)"],
      ],
    );
  });

  test('MIME: an archive part and a base64 part are validated too; the base64 one on its Content-Type header', async () => {
    const encoded = Buffer.from('#cloud-config\nbootcmd: 7\n').toString('base64');
    const text = [
      'Content-Type: multipart/mixed; boundary="BB"',
      'MIME-Version: 1.0',
      '',
      '--BB',
      'Content-Type: text/cloud-config-archive',
      '',
      '- content: |',
      '    #cloud-config',
      '    runcmd: 5',
      '--BB',
      'Content-Type: text/cloud-config; charset="us-ascii"',
      'Content-Transfer-Encoding: base64',
      '',
      encoded,
      '--BB--',
      '',
    ].join('\n');
    const ds = schemaOnly(await open(text));
    assert.deepEqual(
      ds.map((d) => [marked(text, d), d.range.start.line, d.message]),
      [
        ['5', 8, "runcmd: 5 is not of type 'array'"],
        ['Content-Type', 10, "bootcmd: 7 is not of type 'array' (line 2, column 10 of the decoded MIME part 2, not shown in place: its body is base64-encoded)"],
      ],
    );
  });
  test('files Red Hat YAML validates with cloud-init\'s schema get no schema findings from us (no double reports); others do', async () => {
    const settings = { schema: { validatedByRedHatYaml: ['*cloud-config.yaml'] } };
    client.settings = settings;
    const theirs = fixtureUri(`schema-${n++}/web-cloud-config.yaml`);
    const ds = await client.open(theirs, `${TEXT}merge_how: 'list(apend)'\n`);
    client.close(theirs);
    assert.deepEqual(schemaOnly(ds), []);
    assert.ok(ds.some((d) => d.code === 'unknown-option'), 'merge-spec findings stay ours');
    assert.equal(schemaOnly(await open(TEXT, settings)).length, 4, 'a file Red Hat YAML does not validate keeps ours');
  });
  test("a file in a dot-folder that Red Hat YAML's matcher leaves out keeps our schema findings (none would be shown at all)", async () => {
    // yaml-language-server prefixes `**/` and matches with picomatch's defaults: `**` enters no dot-folder,
    // so Red Hat YAML does not validate .config/web-cloud-config.yaml; an exclusion (`!`) holds too.
    client.settings = { schema: { validatedByRedHatYaml: ['*cloud-config.yaml'] } };
    const hidden = fixtureUri(`schema-${n++}/.config/web-cloud-config.yaml`);
    const ds = await client.open(hidden, TEXT);
    client.close(hidden);
    assert.equal(schemaOnly(ds).length, 4);
    client.settings = { schema: { validatedByRedHatYaml: [['*cloud-config.yaml', '!draft-*']] } };
    const draft = fixtureUri(`schema-${n++}/draft-cloud-config.yaml`);
    const drafted = await client.open(draft, TEXT);
    client.close(draft);
    client.settings = {};
    assert.equal(schemaOnly(drafted).length, 4);
  });
});
