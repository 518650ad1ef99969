/**
 * Cloud-config carried inside other documents (engine/schema/embedded): which MIME parts and archive
 * entries cloud-init reads as cloud-config, and how their positions map back to the file; `--check` on
 * such files, part by part. Paths and messages are cloud-init's (the oracle's `--mode schema`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { embeddedInArchive, embeddedInMime } from '../../server/src/engine/schema/embedded';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { runCli } from '../support/cli';
import { assertValidSarif } from '../support/sarif';

const ARCHIVE = [
  '#cloud-config-archive',
  '- type: text/cloud-config',
  '  content: |-',
  '    #cloud-config',
  '',
  '    runcmd: 5  # five',
  '- content: "#cloud-config\\nruncmd: 6\\n"',
  '- "#cloud-config"',
  '- {type: text/x-shellscript, content: "#cloud-config\\n"}',
  '- content: "#!/bin/sh\\n"',
  '',
].join('\n');

test('archive entries: declared and sniffed cloud-config; a literal block maps line by line, blank lines included', () => {
  const entries = embeddedInArchive(ARCHIVE);
  assert.deepEqual(entries.map((e) => [e.label, e.text, e.unmapped === undefined]), [
    ['archive entry 1', '#cloud-config\n\nruncmd: 5  # five', true],
    ['archive entry 2', '#cloud-config\nruncmd: 6\n', false],
    ['archive entry 3', '#cloud-config', true],
  ]);
  const first = entries[0];
  const five = first.text.indexOf('5');
  assert.equal(ARCHIVE[first.toDocument(five)!], '5');
  assert.equal(ARCHIVE.slice(first.toDocument(0), first.toDocument(13)), '#cloud-config');
  assert.equal(entries[1].toDocument(0), undefined);
  assert.equal(ARCHIVE.slice(entries[2].toDocument(0), entries[2].toDocument(13)), '#cloud-config');
});

test('MIME: literal parts map by offset, encoded parts do not, archive parts map through both', () => {
  const text = [
    'Content-Type: multipart/mixed; boundary="BB"',
    'MIME-Version: 1.0',
    '',
    '--BB',
    'Content-Type: text/cloud-config',
    '',
    '#cloud-config',
    'runcmd: 5',
    '--BB',
    'Content-Type: text/cloud-config',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    '#cloud-config',
    'runcmd: =36',
    '--BB',
    'Content-Type: text/cloud-config-archive',
    '',
    '- content: |',
    '    #cloud-config',
    '    runcmd: 7',
    '--BB--',
    '',
  ].join('\n');
  const parts = embeddedInMime(text);
  assert.deepEqual(parts.map((p) => [p.kind, p.label, p.unmapped ?? null]), [
    ['mime-part', 'MIME part 1', null],
    ['mime-part', 'MIME part 2', 'its body is quoted-printable-encoded'],
    ['archive-entry', 'MIME part 3, archive entry 1', null],
  ]);
  for (const [i, digit] of [[0, '5'], [2, '7']] as const) {
    const at = parts[i].toDocument(parts[i].text.indexOf(digit))!;
    assert.equal(text[at], digit);
  }
  assert.equal(parts[1].toDocument(0), undefined);
  assert.equal(text.slice(parts[1].anchor.start, parts[1].anchor.end), 'Content-Type');
});

test('--check validates an archive entry by entry, with lines in the file where they map', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-embedded-'));
  try {
    const file = join(dir, 'archive.yaml');
    writeFileSync(file, ARCHIVE);
    const r = runCli(['--check', '--format', 'json', file]);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout) as { files: Array<{ part: string; valid: boolean; errors: Array<{ path: string; message: string; line: number | null; column: number | null }> }> };
    assert.deepEqual(out.files.map((f) => [f.part, f.valid, f.errors]), [
      ['archive entry 1', false, [{ path: 'runcmd', message: "5 is not of type 'array'", line: 6, column: 13 }]],
      // Not mapped: the line and column in the entry's content, said so, and the line of the file that stands for them.
      ['archive entry 2', false, [{ path: 'runcmd', message: "6 is not of type 'array'", line: 2, column: 9, note: "position in the entry's content", anchor: { line: 7, column: 3 } }]],
      ['archive entry 3', true, []],
    ]);
    const sarif = JSON.parse(runCli(['--check', '--format', 'sarif', file]).stdout) as { runs: Array<{ results: Array<{ message: { text: string }; locations?: Array<{ physicalLocation: { region?: { startLine: number } } }> }> }> };
    assertValidSarif(sarif);
    const results = sarif.runs[0].results.map((r) => [r.message.text, r.locations?.[0]?.physicalLocation.region?.startLine ?? null]);
    assert.deepEqual(results.slice(0, 2), [
      ["runcmd: 5 is not of type 'array' (in archive entry 1)", 6],
      ["runcmd: 6 is not of type 'array' (in archive entry 2, position in the entry's content: line 2, column 9)", 7],
    ]);
    const text = runCli(['--check', file]).stdout;
    assert.match(text, /^Invalid user-data .*archive\.yaml \(archive entry 1\)\nError: Cloud config schema errors: runcmd: 5 is not of type 'array'/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('entries with the same text are validated once and each reports at its own place; a stopped check says so once', () => {
  const entry = '- content: "#cloud-config\\nruncmd: 5\\n"';
  const archive = ['#cloud-config-archive', entry, '- type: text/cloud-config', '  content: |', '    #cloud-config', '    runcmd: 5', entry, ''].join('\n');
  const analysis = analyzeDocument(archive, '/w/user-data', { version: 'current', schema: true });
  const errors = analysis.findings.filter((f) => f.code === 'schema-error');
  // Per entry, as `cloud-init schema` reports it (upstream: runcmd: 5 is not of type 'array').
  const lineOf = (offset: number) => archive.slice(0, offset).split('\n').length;
  assert.deepEqual(
    errors.map((f) => [lineOf(f.span.start), f.message.replace(/, not shown in place: .*\)$/, ')')]),
    [
      [2, "runcmd: 5 is not of type 'array' (line 2, column 9 of archive entry 1)"],
      [6, "runcmd: 5 is not of type 'array'"],
      [7, "runcmd: 5 is not of type 'array' (line 2, column 9 of archive entry 3)"],
    ],
    'the quoted entries on their own line (saying where in the content), the literal one on its value',
  );
  // Bounded at one problem, entries with two: the first stops the check and says so; its repeat reports the
  // same problem without saying it again; the literal one has nothing left.
  const two = '- content: "#cloud-config\\nruncmd: 5\\nbootcmd: 6\\n"';
  const twice = ['#cloud-config-archive', two, '- type: text/cloud-config', '  content: |', '    #cloud-config', '    runcmd: 5', two, ''].join('\n');
  const bounded = analyzeDocument(twice, '/w/user-data', { version: 'current', schema: true, maxSchemaProblems: 1 });
  assert.deepEqual(bounded.findings.map((f) => [f.code, twice.slice(0, f.span.start).split('\n').length]), [
    ['schema-error', 2],
    ['limit-exceeded', 2],
    ['schema-error', 7],
  ]);
});
