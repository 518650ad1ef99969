/**
 * MIME parts whose body is encoded (issue 31, item 3): Python's `email` writes `MIMEText(text, 'cloud-config',
 * 'utf-8')` as base64, our make-mime does for text that is not ASCII, and a quoted-printable charset escapes
 * `é` as `=C3=A9`. cloud-init reads the decoded text, so that is what is linted; since a position in it is
 * not a position in the file, each finding sits on the part's Content-Type line and names its line in the
 * decoded part, in the editor, `--lint` and `--check` (text, JSON, SARIF) alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { runCliIn } from '../support/cli';
import { assertValidSarif } from '../support/sarif';

/**
 * Written by Python 3's email package (boundary fixed so that the text is stable):
 *
 *   m = MIMEMultipart(boundary='===============0000000000000000001==')
 *   base = MIMEText("#cloud-config\nruncmd: [echo base]\n", 'cloud-config', 'utf-8')                    # base.yaml
 *   web = MIMEText("#cloud-config\nmerge_how:\n - name: list\n   settings: [append]\n - name: dict\n"
 *                  "   settings: [recurse_lists]\nruncmd: [echo web]\npackagess: [nginx]\n", 'cloud-config', 'utf-8')  # 20-web.yaml
 *   qp = Charset('utf-8'); qp.body_encoding = QP
 *   cafe = MIMEText("#cloud-config\n# café\nmerge_how: 'list(apend)+dict(recurse_list)'\nruncmd: [echo café]\n", 'cloud-config', qp)  # 30-cafe.yaml
 *   host = MIMEText("## template: jinja\n#cloud-config\nfqdn: {{ v1.local_hostnme }}.example.internal\n", 'jinja2', 'utf-8')  # 40-host.yaml
 *   (each with add_header('Content-Disposition', 'attachment', filename=...), attached in that order; m.as_string())
 */
const BUILT = [
  'Content-Type: multipart/mixed; boundary="===============0000000000000000001=="',
  'MIME-Version: 1.0',
  '',
  '--===============0000000000000000001==',
  'Content-Type: text/cloud-config; charset="utf-8"',
  'MIME-Version: 1.0',
  'Content-Transfer-Encoding: base64',
  'Content-Disposition: attachment; filename="base.yaml"',
  '',
  'I2Nsb3VkLWNvbmZpZwpydW5jbWQ6IFtlY2hvIGJhc2VdCg==',
  '',
  '--===============0000000000000000001==',
  'Content-Type: text/cloud-config; charset="utf-8"',
  'MIME-Version: 1.0',
  'Content-Transfer-Encoding: base64',
  'Content-Disposition: attachment; filename="20-web.yaml"',
  '',
  'I2Nsb3VkLWNvbmZpZwptZXJnZV9ob3c6CiAtIG5hbWU6IGxpc3QKICAgc2V0dGluZ3M6IFthcHBl',
  'bmRdCiAtIG5hbWU6IGRpY3QKICAgc2V0dGluZ3M6IFtyZWN1cnNlX2xpc3RzXQpydW5jbWQ6IFtl',
  'Y2hvIHdlYl0KcGFja2FnZXNzOiBbbmdpbnhdCg==',
  '',
  '--===============0000000000000000001==',
  'Content-Type: text/cloud-config; charset="utf-8"',
  'MIME-Version: 1.0',
  'Content-Transfer-Encoding: quoted-printable',
  'Content-Disposition: attachment; filename="30-cafe.yaml"',
  '',
  '#cloud-config',
  '# caf=C3=A9',
  "merge_how: 'list(apend)+dict(recurse_list)'",
  'runcmd: [echo caf=C3=A9]',
  '',
  '--===============0000000000000000001==',
  'Content-Type: text/jinja2; charset="utf-8"',
  'MIME-Version: 1.0',
  'Content-Transfer-Encoding: base64',
  'Content-Disposition: attachment; filename="40-host.yaml"',
  '',
  'IyMgdGVtcGxhdGU6IGppbmphCiNjbG91ZC1jb25maWcKZnFkbjoge3sgdjEubG9jYWxfaG9zdG5t',
  'ZSB9fS5leGFtcGxlLmludGVybmFsCg==',
  '',
  '--===============0000000000000000001==--',
  '',
].join('\n');

/** The Content-Type lines of the parts (1-based), and the lines written in base64 or quoted-printable. */
const WEB_HEADER = 13;
const CAFE_HEADER = 23;
const ENCODED_LINES = new Set([10, 18, 19, 20, 28, 29, 30, 31, 39, 40]);

function folder(files: Record<string, string>): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-encoded-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

test("--lint on a MIME built by Python's email: merge-spec typos in base64 and quoted-printable parts, on each part's Content-Type line", () => {
  const f = folder({ 'built.mime': BUILT });
  try {
    const r = runCliIn(['--lint', 'built.mime'], f.dir);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.trim().split('\n');
    const typo = lines.find((l) => l.includes("Unknown option 'recurse_lists' for dict()"));
    assert.ok(typo?.startsWith(`built.mime:${WEB_HEADER}:1: warning: `), r.stdout);
    assert.match(typo!, /\(line 6, column 15 of the decoded MIME part 2 \(20-web\.yaml\), not shown in place: its body is base64-encoded\) \[unknown-option\]$/);
    const apend = lines.find((l) => l.includes("Unknown option 'apend' for list()"));
    assert.ok(apend?.startsWith(`built.mime:${CAFE_HEADER}:1: warning: `), r.stdout);
    assert.match(apend!, /line 3, column 18 of the decoded MIME part 3 \(30-cafe\.yaml\), not shown in place: its body is quoted-printable-encoded/);
    for (const l of lines) assert.ok(!ENCODED_LINES.has(Number(l.split(':')[1])), `a position inside encoded text: ${l}`);
  } finally {
    f.done();
  }
});

test('the editor checks a base64 part as cloud-init decodes it: spec and schema findings on its header, no edits there', () => {
  const analysis = analyzeDocument(BUILT, '/w/built.mime', { schema: true, version: 'current' });
  const on = (code: string, words: string) => analysis.findings.find((x) => x.code === code && x.message.includes(words));
  const schema = on('schema-error', "'packagess' was unexpected");
  assert.ok(schema, JSON.stringify(analysis.findings.map((x) => x.message)));
  assert.equal(lineOf(BUILT, schema.span.start), WEB_HEADER);
  assert.equal(BUILT.slice(schema.span.start, schema.span.end), 'Content-Type');
  assert.match(schema.message, /\(line 8, column 1 of the decoded MIME part 2 \(20-web\.yaml\), not shown in place: its body is base64-encoded\)$/);
  // A rename of `packagess` would edit the base64 text: no fix is offered on the header.
  assert.equal(schema.fixes, undefined);
  const spec = on('unknown-option', "'recurse_lists'");
  assert.equal(spec && lineOf(BUILT, spec.span.start), WEB_HEADER);
  assert.equal(spec?.fixes, undefined);
  for (const x of analysis.findings) assert.ok(!ENCODED_LINES.has(lineOf(BUILT, x.span.start)), `a finding inside encoded text: ${x.message}`);
  // Hovers and completion work at positions in the file: a decoded body gives them no spec site.
  assert.deepEqual(analysis.specs, []);
});

test('--check: the merged problem and the fate of a base64 part name the part\'s header line and the line in the decoded part', () => {
  const f = folder({ 'built.mime': BUILT });
  try {
    const r = runCliIn(['--check', 'built.mime'], f.dir);
    assert.equal(r.code, 1);
    assert.match(r.stdout, new RegExp(`^  packagess: written in built\\.mime:${WEB_HEADER} \\(position in the decoded part 20-web\\.yaml: line 8, column 1\\)$`, 'm'));
    assert.match(r.stdout, new RegExp(`^built\\.mime:${WEB_HEADER} \\(position in the decoded part 20-web\\.yaml: line 7, column 9\\): lost: runcmd \\['echo web'\\]`, 'm'));
    for (const m of r.stdout.matchAll(/built\.mime:(\d+)/g)) assert.ok(!ENCODED_LINES.has(Number(m[1])), `a line of base64 text: ${m[0]}`);

    const json = JSON.parse(runCliIn(['--check', '--format', 'json', 'built.mime'], f.dir).stdout) as {
      files: Array<{ part?: string; errors: Array<{ path: string; line: number | null; note?: string; anchor?: { line: number } }> }>;
      merged: { errors: Array<{ path: string; line: number; note?: string; anchor?: { line: number } }> };
    };
    const web = json.files.find((x) => x.part === 'MIME part 2 (20-web.yaml)')!;
    assert.deepEqual(
      web.errors.find((e) => e.path === 'packagess'),
      { path: 'packagess', message: "Additional properties are not allowed ('packagess' was unexpected)", line: 8, column: 1, note: 'position in the decoded part', anchor: { line: WEB_HEADER, column: 1 } },
    );
    assert.deepEqual(json.merged.errors[0].anchor, { line: WEB_HEADER, column: 1 });
  } finally {
    f.done();
  }
});

test('--check --format sarif: results of a base64 part are on its header line, with the decoded line in the message', () => {
  const f = folder({ 'built.mime': BUILT });
  try {
    const sarif = JSON.parse(runCliIn(['--check', '--format', 'sarif', 'built.mime'], f.dir).stdout) as {
      runs: Array<{ results: Array<{ ruleId: string; message: { text: string }; locations: Array<{ physicalLocation: { region?: { startLine: number } } }> }> }>;
    };
    assertValidSarif(sarif);
    const results = sarif.runs[0].results;
    const line = (r: (typeof results)[number]) => r.locations[0].physicalLocation.region?.startLine;
    const packagess = results.find((r) => r.ruleId === 'schema-error' && r.message.text.startsWith('packagess:'))!;
    assert.equal(line(packagess), WEB_HEADER);
    assert.match(packagess.message.text, /\(in MIME part 2 \(20-web\.yaml\), position in the decoded part: line 8, column 1\)$/);
    const lost = results.find((r) => r.ruleId === 'fate-lost')!;
    assert.equal(line(lost), WEB_HEADER);
    assert.match(lost.message.text, /\(position in the decoded part 20-web\.yaml: line 7, column 9\)$/);
    for (const r of results) assert.ok(!ENCODED_LINES.has(line(r) ?? 0), `a region inside encoded text: ${r.message.text}`);
  } finally {
    f.done();
  }
});

test("make-mime's base64 part for text that is not ASCII is linted as decoded", () => {
  const f = folder({ 'cafe.yaml': '#cloud-config\n# café\nmerge_how: "dict(recurse_lists)+list(append)"\nruncmd: [echo café]\n' });
  try {
    const made = runCliIn(['make-mime', 'cafe.yaml:text/cloud-config'], f.dir);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /Content-Transfer-Encoding: base64/);
    writeFileSync(join(f.dir, 'cafe.mime'), made.stdout);
    const r = runCliIn(['--lint', 'cafe.mime'], f.dir);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^cafe\.mime:5:1: warning: Unknown option 'recurse_lists' for dict\(\).*\(line 3, column 18 of the decoded MIME part 1 \(cafe\.yaml\), not shown in place: its body is base64-encoded\) \[unknown-option\]$/m);
  } finally {
    f.done();
  }
});

test('a part that is not ASCII and not encoded: the editor says what cloud-init reads (it cannot load it), on the header', () => {
  // Python's email turns é into a lone byte and 日 into the text \u65e5 when nothing decodes the body.
  const text = ['Content-Type: multipart/mixed; boundary=B', 'MIME-Version: 1.0', '', '--B', 'Content-Type: text/cloud-config', 'Content-Transfer-Encoding: 8bit', '', '#cloud-config', 'runcmd: [echo café]', '--B--', ''].join('\n');
  const analysis = analyzeDocument(text, '/w/user-data.mime', {});
  assert.deepEqual(
    analysis.findings.map((x) => [x.code, lineOf(text, x.span.start)]),
    [['yaml-invalid', 5]],
  );
  assert.match(analysis.findings[0].message, /line 2, column 18 of the decoded MIME part 1, not shown in place: its body is not ASCII/);
  // The merge agrees: the part is skipped.
  const f = folder({ 'user-data.mime': text });
  try {
    assert.match(runCliIn(['user-data.mime'], f.dir).stderr, /empty cloud config/);
  } finally {
    f.done();
  }
});

test('a quoted-printable part without escapes reads as it is written: checked in place, where hovers work', () => {
  const text = ['Content-Type: multipart/mixed; boundary=B', 'MIME-Version: 1.0', '', '--B', 'Content-Type: text/cloud-config', 'Content-Transfer-Encoding: quoted-printable', '', '#cloud-config', "merge_how: 'list(apend)'", '--B--', ''].join('\n');
  const analysis = analyzeDocument(text, '/w/user-data.mime', {});
  const apend = analysis.findings.find((x) => x.code === 'unknown-option')!;
  assert.equal(text.slice(apend.span.start, apend.span.end), 'apend');
  assert.equal(analysis.specs.length, 1);
});
