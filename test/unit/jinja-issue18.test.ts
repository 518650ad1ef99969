/**
 * Issue 18: Jinja parts cloud-init renders must not be dropped, and what this
 * tool cannot reproduce is said in its own words. Every expectation here was
 * produced by both oracles (cloud-init 22.4.2 and upstream 26.2 with Debian's
 * Jinja2 3.1.2 / MarkupSafe 2.1.2) on these inputs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderCloudInitJinja } from '../../server/src/engine/userdata/jinja';
import { runCli } from '../support/cli';
import { unwrapHeader } from '../../server/src/engine/render/previewText';

const DATA = JSON.stringify({ x: { _y: 5, a: { b: 1 } }, d: { b: 2, a: 1 } });
const VERSIONS = ['22.4', 'current'] as const;

function render(t: string, version: '22.4' | 'current') {
  return renderCloudInitJinja('## template: jinja\n' + t, DATA, { version });
}

/** [template, text both versions render]. */
const BOTH: Array<[string, string]> = [
  ['{{ x._y }}', '5'],
  ["{{ x['_y'] }}", '5'],
  ["{{ x|attr('_y') }}", 'CI_MISSING_JINJA_VAR/_y'],
  ['{{ x._z }}', 'CI_MISSING_JINJA_VAR/_z'],
  ["{{ '{}-{}'.format(1, 2) }}", '1-2'],
  ["{{ '{a}/{b}'.format_map(d) }}|{{ '{0[a]}'.format(d) }}|{{ '{:>6.2f}|{:,}|{:#x}|{:e}'.format(3.14159, 1234567, 255, 12345.678) }}", '1/2|1|  3.14|1,234,567|0xff|1.234568e+04'],
  ["{{ '<x>'|e }}|{{ 'a\"b'|escape }}", '&lt;x&gt;|a&#34;b'],
  ["{{ ('<'|e) + '<' }}|{{ '<b>'|e|forceescape }}|{{ ('<'|e).upper() }}|{{ '<b>a &amp; b</b>'|striptags }}|{{ {'a': 1, 'c': '<'}|xmlattr }}", '&lt;&lt;|&amp;lt;b&amp;gt;|&LT;|a & b| a="1" c="&lt;"'],
];

for (const version of VERSIONS) {
  for (const [t, text] of BOTH) {
    test(`issue 18 (${version}): ${t}`, () => {
      const r = render(t, version);
      assert.equal(r.ok ? r.text : r.message, text);
    });
  }
}

test('issue 18: Python internals: 22.4 renders objects this tool cannot reproduce, the sandbox refuses them', () => {
  const old = render('{{ x.__class__ }}', '22.4');
  assert.equal(!old.ok && old.reason, 'unsupported');
  assert.match(!old.ok ? old.message : '', /^this tool cannot reproduce the Python attribute '__class__' .*; cloud-init would render it$/);
  assert.doesNotMatch(!old.ok ? old.message : '', /Ignoring|preview cannot/);
  const cur = render('{{ x.__class__ }}', 'current');
  assert.deepEqual(cur, { ok: true, text: 'CI_MISSING_JINJA_VAR/__class__', missingVariables: ['__class__'] });
  const deeper = render('{{ x.__class__.__name__ }}', 'current');
  assert.equal(!deeper.ok && deeper.reason, 'security');
  assert.equal(!deeper.ok && deeper.message, "access to attribute '__class__' of 'dict' object is unsafe.");
  const range = render('{{ range(100001)|length }}', 'current');
  assert.equal(!range.ok && range.exception, 'OverflowError');
  assert.deepEqual(render('{{ range(100001)|length }}', '22.4'), { ok: true, text: '100001', missingVariables: [] });
});

function withFiles(files: Record<string, string>, body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-issue18-'));
  try {
    for (const [n, t] of Object.entries(files)) writeFileSync(join(dir, n), t);
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('issue 18: CLI renders the part cloud-init renders (both versions)', () => {
  withFiles({ 'ud.txt': "## template: jinja\n#cloud-config\na: {{ x._y }}\nb: \"{{ '{}-{}'.format(1, 2) }}\"\nc: \"{{ '<x>'|e }}\"\n", 'id.json': DATA }, (dir) => {
    for (const version of VERSIONS) {
      const r = runCli(['--cloud-init-version', version, '--instance-data', join(dir, 'id.json'), '--format', 'json', join(dir, 'ud.txt')]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), { a: 5, b: '1-2', c: '&lt;x&gt;' });
    }
  });
});

test('issue 18: what the tool cannot reproduce is its own note, exit 4, never a cloud-init warning', () => {
  withFiles({ 'ud.txt': '## template: jinja\n#cloud-config\na: {{ x.__class__ }}\n', 'id.json': DATA }, (dir) => {
    const r = runCli(['--cloud-init-version', '22.4', '--instance-data', join(dir, 'id.json'), join(dir, 'ud.txt')]);
    assert.equal(r.code, 4);
    assert.match(r.stderr, /^note: part-001: this tool cannot reproduce the Python attribute '__class__'.*cloud-init would render it/m);
    assert.doesNotMatch(r.stderr, /cloud-init WARNING/);
    const p = runCli(['--cloud-init-version', '22.4', '--instance-data', join(dir, 'id.json'), '--format', 'preview', join(dir, 'ud.txt')]);
    assert.equal(p.code, 4);
    assert.match(unwrapHeader(p.stdout), /NOT SHOWN \(a limitation of this tool, not of cloud-init\)/);
    assert.doesNotMatch(p.stdout, /DROPPED/);
    const rep = runCli(['--cloud-init-version', '22.4', '--instance-data', join(dir, 'id.json'), '--format', 'report', join(dir, 'ud.txt')]);
    assert.equal(rep.code, 4);
    assert.match(rep.stdout, /"jinja-not-reproduced"/);
    const cur = runCli(['--cloud-init-version', 'current', '--instance-data', join(dir, 'id.json'), '--format', 'json', join(dir, 'ud.txt')]);
    assert.equal(cur.code, 0);
    assert.deepEqual(JSON.parse(cur.stdout), { a: 'CI_MISSING_JINJA_VAR/__class__' });
  });
});

test('issue 18: read_conf on Jinja drop-ins, per version (--mode confd)', () => {
  const files = {
    'syntax.cfg': '## template: jinja\n#cloud-config\n{% if %}\na: 1\n',
    'comment.cfg': '## template: jinja\n#cloud-config\n# {% if %}\na: 1\n',
    'undef.cfg': '## template: jinja\na: {{ a.b }}\nb: 2\n',
    'id.json': DATA,
  };
  withFiles(files, (dir) => {
    const run = (version: string, f: string) => runCli(['--mode', 'confd', '--cloud-init-version', version, '--instance-data', join(dir, 'id.json'), '--format', 'json', join(dir, f)]);
    // 22.4: a syntax error escapes read_conf (exit 3); a render failure is a warning and {}.
    for (const f of ['syntax.cfg', 'comment.cfg']) {
      const r = run('22.4', f);
      assert.equal(r.code, 3, f);
      assert.match(r.stderr, /TemplateSyntaxError: Expected an expression, got 'end of statement block'/);
    }
    const u22 = run('22.4', 'undef.cfg');
    assert.equal(u22.code, 0);
    assert.deepEqual(JSON.parse(u22.stdout), {});
    assert.match(u22.stderr, /Ignoring jinja template for .*undef\.cfg: 'a' is undefined/);
    // current: a syntax error is a warning and the unrendered text is loaded.
    const c = run('current', 'comment.cfg');
    assert.equal(c.code, 0);
    assert.deepEqual(JSON.parse(c.stdout), { a: 1 });
    assert.match(c.stderr, /Failed to render templated yaml config file '.*comment\.cfg'\. Unable to parse Jinja template due to syntax error: Expected an expression, got 'end of statement block' on line 3: # \{% if %\}/);
    const s = run('current', 'syntax.cfg');
    assert.equal(s.code, 0);
    assert.deepEqual(JSON.parse(s.stdout), {});
    // current: a render failure returns None, which load_yaml cannot decode (since 24.2).
    const uc = run('current', 'undef.cfg');
    assert.equal(uc.code, 3);
    assert.match(uc.stderr, /AttributeError: 'NoneType' object has no attribute 'decode'/);
  });
});
