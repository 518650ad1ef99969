/**
 * `cloud-config-merge --check`: exit codes, the json shape of issue 12 with positions in the files (and,
 * for the merged result, in the part that wrote each value), and SARIF 2.1.0 validated against the
 * SARIF schema (the copy @microsoft/jest-sarif ships, a draft-04 schema, checked with ajv-draft-04; its
 * `language` pattern has a stray `]` that only non-unicode regular expressions accept).
 * Expected paths and messages are what the oracle's `--mode schema` (and `--merged`) printed.
 */
import { assertValidSarif, sarifValidator } from '../support/sarif';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCli } from '../support/cli';
import { checkFile } from '../../server/src/engine/outcome/check';
import { formatText } from '../../server/src/engine/render/checkText';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { LineIndex } from '../../server/src/engine/text/lineIndex';

function folder(files: Record<string, string>): { dir: string; path: (name: string) => string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-check-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, path: (n) => join(dir, n), done: () => rmSync(dir, { recursive: true, force: true }) };
}

const A = '#cloud-config\npackages: curl\nruncmd:\n - 5\napt_update: true\nwrite_files:\n - path: /x\n   permissions: 644\n';
const B = '#cloud-config\nwrite_files:\n - path: /y\n   permissions: "0644"\npackage: [htop]\n';

test('--check exits 0 for what cloud-init accepts (deprecations included) and 1 for schema errors', () => {
  const f = folder({ ok: '#cloud-config\npackages: [curl]\napt_update: true\n', bad: A });
  try {
    assert.equal(runCli(['--check', f.path('ok')]).code, 0);
    const bad = runCli(['--check', f.path('bad')]);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /^Cloud config schema deprecations: apt_update: {2}Deprecated in version 22\.2\. Use \*\*package_update\*\* instead\.\nInvalid user-data .*bad\nError: Cloud config schema errors: packages: 'curl' is not of type 'array'/m);
    assert.match(bad.stdout, /\nError: Invalid schema: user-data\n\n$/);
    const old = runCli(['--check', '--cloud-init-version', '22.4', f.path('ok')]);
    assert.equal(old.code, 0, 'deprecations do not make it invalid');
    assert.match(old.stdout, /^Cloud config schema deprecations: apt_update: DEPRECATED: .*\nValid cloud-config: .*ok\n/m);
    assert.equal(runCli(['--check', '--format', 'yaml', f.path('ok')]).code, 2);
  } finally {
    f.done();
  }
});

test('--check --format json: files and the merged result, each problem where it is written', () => {
  const f = folder({ 'a.yaml': A, 'b.yaml': B });
  try {
    const r = runCli(['--check', '--format', 'json', f.path('a.yaml'), f.path('b.yaml')]);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.files[0].errors, [
      // On the value, where the editor shows it (the key for an unknown or deprecated key).
      { path: 'packages', message: "'curl' is not of type 'array'", line: 2, column: 11 },
      { path: 'runcmd.0', message: "5 is not of type 'array'", line: 4, column: 4 },
      { path: 'runcmd.0', message: "5 is not of type 'null'", line: 4, column: 4 },
      { path: 'runcmd.0', message: "5 is not of type 'string'", line: 4, column: 4 },
      { path: 'write_files.0.permissions', message: "644 is not of type 'string'", line: 8, column: 17 },
    ]);
    assert.deepEqual(out.files[0].deprecations, [{ path: 'apt_update', message: ' Deprecated in version 22.2. Use **package_update** instead.', line: 5, column: 1 }]);
    assert.deepEqual(out.files[1].errors, [{ path: 'package', message: "Additional properties are not allowed ('package' was unexpected)", line: 5, column: 1 }]);
    // b.yaml's write_files replaced a.yaml's: the merged result has no permissions error, and its
    // unknown key comes from b.yaml
    assert.equal(out.merged.valid, false);
    assert.deepEqual(
      out.merged.errors.map((e: { path: string; file: string; line: number }) => [e.path, e.file.endsWith('b.yaml') ? 'b' : 'a', e.line]),
      [['package', 'b', 5], ['packages', 'a', 2], ['runcmd.0', 'a', 4], ['runcmd.0', 'a', 4], ['runcmd.0', 'a', 4]],
    );
  } finally {
    f.done();
  }
});

test("--check: the merged result's problems from an archive entry's `content: |` are placed on its lines in the archive", () => {
  const archive = [
    '#cloud-config-archive',
    '- type: text/cloud-config',
    '  content: |',
    '    #cloud-config',
    '    packages: [git]',
    '    runcmd: 5',
    '- content: "#cloud-config\\npackage_upgrade: 1\\n"',
    '',
  ].join('\n');
  const f = folder({ 'archive.yaml': archive });
  try {
    const r = runCli(['--check', '--format', 'json', f.path('archive.yaml')]);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout);
    const placed = out.merged.errors.map((e: { path: string; line?: number; column?: number; note?: string }) => [e.path, e.line, e.column, e.note]);
    // runcmd: line 6, column 5 of the archive (it said 3:1, its line in the entry's content). A content
    // with escapes cannot be placed in the file: its line is in the decoded entry, and the note says so.
    assert.deepEqual(placed, [['package_upgrade', 2, 18, 'position in the decoded part part-002'], ['runcmd', 6, 13, undefined]]);
    const text = runCli(['--check', f.path('archive.yaml')]).stdout;
    assert.match(text, /\n {2}package_upgrade: written in .*archive\.yaml \(position in the decoded part part-002: line 2, column 18\)\n {2}runcmd: written in .*archive\.yaml:6:13\n/);
  } finally {
    f.done();
  }
});

test('--check --cloud-init-version 22.4: unknown top-level keys are allowed, 22.4 words', () => {
  const f = folder({ 'b.yaml': B, 'a.yaml': A });
  try {
    const r = runCli(['--check', '--format', 'json', '--cloud-init-version', '22.4', f.path('b.yaml')]);
    assert.equal(r.code, 0);
    const out = JSON.parse(r.stdout);
    assert.equal(out.files[0].valid, true);
    const a = JSON.parse(runCli(['--check', '--format', 'json', '--cloud-init-version', '22.4', f.path('a.yaml')]).stdout);
    assert.deepEqual(a.files[0].errors[1], { path: 'runcmd.0', message: '5 is not valid under any of the given schemas', line: 4, column: 4 });
  } finally {
    f.done();
  }
});

test('--check --format sarif is valid SARIF 2.1.0', () => {
  const f = folder({ 'a.yaml': A, 'b.yaml': B });
  try {
    const r = runCli(['--check', '--format', 'sarif', f.path('a.yaml'), f.path('b.yaml')]);
    assert.equal(r.code, 1);
    const log = JSON.parse(r.stdout);
    assertValidSarif(log);
    assert.equal(log.version, '2.1.0');
    const results = log.runs[0].results;
    assert.ok(results.some((x: { ruleId: string; message: { text: string } }) => x.ruleId === 'schema-deprecation' && x.message.text.startsWith('apt_update:')));
    const first = results.find((x: { message: { text: string } }) => x.message.text === "packages: 'curl' is not of type 'array'");
    assert.deepEqual(first.locations[0].physicalLocation.region, { startLine: 2, startColumn: 11 });
    // a SARIF log that breaks the schema is refused (the check can fail)
    assert.equal(sarifValidator()({ ...log, version: '2.0.0' }), false);
  } finally {
    f.done();
  }
});

test('--format report carries cloud-init schema --system on the result, each problem where it was written', () => {
  const f = folder({ 'a.yaml': A, 'b.yaml': B });
  try {
    const r = runCli(['--format', 'report', f.path('a.yaml'), f.path('b.yaml')]);
    assert.equal(r.code, 0, 'the report itself succeeds; --check is what fails on schema errors');
    const schema = JSON.parse(r.stdout).schema;
    assert.equal(schema.cloud_init_version, 'current');
    assert.equal(schema.checked, true);
    assert.equal(schema.valid, false);
    assert.deepEqual(
      schema.errors.map((e: { path: string; message: string; file: string; line: number }) => [e.path, e.message, e.file.endsWith('b.yaml') ? 'b' : 'a', e.line]),
      [
        ['package', "Additional properties are not allowed ('package' was unexpected)", 'b', 5],
        ['packages', "'curl' is not of type 'array'", 'a', 2],
        ['runcmd.0', "5 is not of type 'array'", 'a', 4],
        ['runcmd.0', "5 is not of type 'null'", 'a', 4],
        ['runcmd.0', "5 is not of type 'string'", 'a', 4],
      ],
    );
    const old = JSON.parse(runCli(['--format', 'report', '--cloud-init-version', '22.4', f.path('b.yaml')]).stdout).schema;
    assert.deepEqual([old.valid, old.errors, old.deprecations], [true, [], []]);
  } finally {
    f.done();
  }
});

test('22.4 text: what its `cloud-init schema -c FILE` prints (stdout then stderr), for each outcome', () => {
  // Printed by the real 22.4.2 command (handle_schema_args) for these files; a regression test for a
  // format that showed "Error:" for deprecations alone.
  const f = folder({ 'ok.yaml': '#cloud-config\nruncmd: [ls]\n', 'dep.yaml': '#cloud-config\napt_update: true\n', 'err.yaml': '#cloud-config\nruncmd: 5\n', 'both.yaml': '#cloud-config\nruncmd: 5\napt_update: true\n' });
  const D = 'apt_update: DEPRECATED: Dropped after April 2027. Use ``package_update``. Default: ``false``';
  const E = "runcmd: 5 is not of type 'array'";
  try {
    // The file's own section (`cloud-init schema -c FILE`), without the merged result's.
    const firstSection = (name: string) => formatText({ files: checkFile('FILE', readFileSync(f.path(name)), '22.4'), merged: null }, '22.4');
    assert.equal(firstSection('ok.yaml'), 'Valid cloud-config: FILE\n');
    assert.equal(firstSection('dep.yaml'), `Cloud config schema deprecations: ${D}\nValid cloud-config: FILE\n`);
    assert.equal(firstSection('err.yaml'), `Cloud config schema deprecations: \nError:\nCloud config schema errors: ${E}\n`);
    assert.equal(firstSection('both.yaml'), `Cloud config schema deprecations: ${D}\nError:\nCloud config schema errors: ${E}\n\nCloud config schema deprecations: ${D}\n`);
  } finally {
    f.done();
  }
});

test('--check reads a file as the schema command of each version does before validating: headers, other user-data types, templates, documents that are not mappings', () => {
  const f = folder({
    'bare.yaml': 'runcmd: [a]\n',
    'script.sh': '#!/bin/sh\necho hi\n',
    'empty.yaml': '#cloud-config\n',
    'template.yaml': '## template: jinja\n#cloud-config\nruncmd: 5\nhostname: {{ v1.local_hostname }}\n',
  });
  try {
    // What cloud-init's schema command printed for each (test/oracle/check.diff.ts compares them all).
    const bare = runCli(['--check', f.path('bare.yaml')]);
    assert.equal(bare.code, 1);
    assert.ok(bare.stdout.startsWith(`Invalid user-data ${f.path('bare.yaml')}\nError: Cloud config schema errors: format-l1.c1: Unrecognized user-data header in ${f.path('bare.yaml')}: "runcmd: [a]".\nExpected first line to be one of: #!, ## template: jinja, #cloud-boothook, #cloud-config, #cloud-config-archive, #cloud-config-jsonp, #include, #include-once, #part-handler\n`), bare.stdout);
    const old = runCli(['--check', '--cloud-init-version', '22.4', f.path('bare.yaml')]);
    assert.ok(old.stdout.startsWith(`Error:\nCloud config schema errors: format-l1.c1: File ${f.path('bare.yaml')} needs to begin with "#cloud-config"\n`), old.stdout);
    const script = runCli(['--check', f.path('script.sh')]);
    assert.ok(script.stdout.startsWith("User-data type 'text/x-shellscript' not currently evaluated by cloud-init schema\n"), script.stdout);
    assert.equal(script.code, 0);
    const empty = runCli(['--check', f.path('empty.yaml')]);
    assert.ok(empty.stdout.startsWith(`Invalid user-data\nError: cloud-config ${f.path('empty.yaml')} is not a YAML dict.\n`), empty.stdout);
    assert.equal(empty.code, 1);
    // A template is rendered with the instance data first; the problem is placed on the template's line.
    const rendered = JSON.parse(runCli(['--check', '--format', 'json', '--instance-data', 'aws', f.path('template.yaml')]).stdout);
    assert.deepEqual(rendered.files[0].errors, [{ path: 'runcmd', message: "5 is not of type 'array'", line: 3, column: 9 }]);
    // Without instance data cloud-init's schema command fails; ours says why, and SARIF has a result for it.
    const unrendered = runCli(['--check', '--format', 'sarif', f.path('template.yaml')]);
    assert.equal(unrendered.code, 1);
    const results = JSON.parse(unrendered.stdout).runs[0].results;
    assert.ok(results.some((r: { message: { text: string } }) => /needs instance data, .*: pass --instance-data NAME/.test(r.message.text)), unrendered.stdout);
  } finally {
    f.done();
  }
});

test("--check on a MIME multipart or an archive says on stderr what cloud-init's own schema command does with the whole file", () => {
  const f = folder({
    'mime.txt': 'Content-Type: multipart/mixed; boundary="b"\nMIME-Version: 1.0\n\n--b\nContent-Type: text/cloud-config\n\n#cloud-config\nruncmd: 5\n--b--\n',
    'archive.yaml': '#cloud-config-archive\n- content: "#cloud-config\\nruncmd: 5\\n"\n',
    'plain.yaml': '#cloud-config\nruncmd: [a]\n',
  });
  try {
    // What the real `cloud-init schema -c` printed for these files, each version.
    const mime = runCli(['--check', f.path('mime.txt')]);
    assert.match(mime.stderr, /note: .*mime\.txt: cloud-init's own `schema -c` rejects it \(Unrecognized user-data header in .*mime\.txt: "Content-Type: multipart\/mixed; boundary="b""\.\); here each cloud-config part is checked as cloud-init will merge it\n/);
    assert.match(runCli(['--check', '--cloud-init-version', '22.4', f.path('mime.txt')]).stderr, /rejects it \(File .*mime\.txt needs to begin with "#cloud-config"\)/);
    assert.match(runCli(['--check', f.path('archive.yaml')]).stderr, /does not validate it \(User-data type 'text\/cloud-config-archive' not currently evaluated by cloud-init schema\); here each cloud-config entry/);
    assert.match(runCli(['--check', '--cloud-init-version', '22.4', f.path('archive.yaml')]).stderr, /rejects it \(Cloud-config is not a YAML dict\.\)/);
    // a plain cloud-config file gets no such note
    assert.doesNotMatch(runCli(['--check', f.path('plain.yaml')]).stderr, /schema -c/);
  } finally {
    f.done();
  }
});

test('--check places a schema problem where the editor does: on the value, for a value of the wrong type (issue 27, item 4)', () => {
  const text = '#cloud-config\nruncmd:\n  5\n';
  const f = folder({ 'user-data.yaml': text });
  try {
    const out = JSON.parse(runCli(['--check', '--format', 'json', f.path('user-data.yaml')]).stdout);
    const inFile = out.files[0].errors.map((e: { line: number; column: number }) => [e.line, e.column]);
    const merged = out.merged.errors.map((e: { line: number; column: number }) => [e.line, e.column]);
    // The editor's diagnostic for the same file, 0-based.
    const finding = analyzeDocument(text, f.path('user-data.yaml'), { schema: true }).findings.find((x) => x.code === 'schema-error');
    assert.ok(finding);
    const at = new LineIndex(text).position(finding.span.start);
    assert.deepEqual([at.line + 1, at.character + 1], [3, 3], 'the editor marks the 5');
    assert.deepEqual(inFile, [[3, 3]]);
    assert.deepEqual(merged, [[3, 3]]);
  } finally {
    f.done();
  }
});

test("--check on an image whose cloud-init rejects what later versions accept says whose schema it is and who accepts it (issue 42, item 3)", () => {
  const f = folder({ 'source.yaml': '#cloud-config\nwrite_files:\n  - path: /x\n    source:\n      uri: https://example.com/x\n' });
  try {
    const r = runCli(['--check', '--image', 'rhel-8', f.path('source.yaml')]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^ {2}write_files\.0: cloud-init 23\.4's schema; 24\.4 and later accept 'source'$/m);
    // On an image that accepts it, nothing to say.
    assert.equal(runCli(['--check', '--image', 'ubuntu-24.04', f.path('source.yaml')]).code, 0);
  } finally {
    f.done();
  }
});
