/**
 * cloud-init's schema validation (server/src/engine/schema). Expected (path, message) pairs are what
 * `../shared/oracle/oracle.py --mode schema` printed for these inputs with 22.4.2 and with upstream 26.2;
 * test/oracle/schema.diff.ts checks thousands more against the live oracle.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCloudConfig, validateCloudConfigText, spanAt } from '../../server/src/engine/schema/validate';
import { loadYaml } from '../../server/src/engine/yaml/load';
import { PyDict } from '../../server/src/engine/py/values';
import { mime } from '../lsp/fixtures';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { isIsoDate, isUri } from '../../server/src/engine/schema/formats';
import { pyRegex } from '../../server/src/engine/schema/pyjsonschema';
import { siblingKeys, textCursorAt } from '../../server/src/engine/schema/textPath';

const pairs = (ps: Array<{ path: string; message: string }>) => ps.map((p) => [p.path, p.message]);

const TYPOS = `#cloud-config
package: [curl]
packages: curl
runcmd:
 - 5
users:
 - name: a
   sudo: false
   lock-passwd: true
write_files:
 - path: /x
   permissions: 644
apt_update: true
`;

test('22.4: type errors, anyOf as one error, unknown top-level keys allowed, deprecations in 22.4 words', () => {
  const r = validateCloudConfigText(TYPOS, '22.4');
  assert.equal(r.valid, false);
  assert.deepEqual(pairs(r.errors), [
    ['packages', "'curl' is not of type 'array'"],
    ['runcmd.0', '5 is not valid under any of the given schemas'],
    ['write_files.0.permissions', "644 is not of type 'string'"],
  ]);
  assert.deepEqual(pairs(r.deprecations), [
    ['apt_update', 'DEPRECATED: Dropped after April 2027. Use ``package_update``. Default: ``false``'],
    ['users.0.lock-passwd', 'DEPRECATED: Dropped after April 2027. Use ``lock_passwd``. Default: ``true``'],
    ['users.0.sudo', 'DEPRECATED: The value ``false`` will be dropped after April 2027. Use ``null`` or no ``sudo`` key instead.'],
  ]);
});

test('current: unknown top-level key named as the path, oneOf deepest matches, sorted unique problems, changed annotations', () => {
  const r = validateCloudConfigText(TYPOS, 'current');
  assert.deepEqual(pairs(r.errors), [
    ['package', "Additional properties are not allowed ('package' was unexpected)"],
    ['packages', "'curl' is not of type 'array'"],
    ['runcmd.0', "5 is not of type 'array'"],
    ['runcmd.0', "5 is not of type 'null'"],
    ['runcmd.0', "5 is not of type 'string'"],
    ['write_files.0.permissions', "644 is not of type 'string'"],
  ]);
  assert.deepEqual(pairs(r.deprecations), [
    ['apt_update', ' Deprecated in version 22.2. Use **package_update** instead.'],
    ['users.0.lock-passwd', ' Deprecated in version 22.3. Use **lock_passwd** instead.'],
    ['users.0.sudo', ' Changed in version 22.2. The value ``false`` is deprecated for this key, use ``null`` instead.'],
  ]);
});

test('!!binary is accepted where a string is expected', () => {
  const text = '#cloud-config\nwrite_files:\n- path: /x\n  content: !!binary |\n    aGVsbG8=\n  permissions: "0644"\npackage: [curl]\n';
  assert.deepEqual(pairs(validateCloudConfigText(text, '22.4').errors), []);
  assert.deepEqual(pairs(validateCloudConfigText(text, 'current').errors), [['package', "Additional properties are not allowed ('package' was unexpected)"]]);
});

test('nested list items and a misspelt key', () => {
  const text = '#cloud-config\nssh_authorized_keys: [5]\nntp: {servers: ["a", 1]}\nmy_key: 1\n';
  assert.deepEqual(pairs(validateCloudConfigText(text, '22.4').errors), [
    ['ntp.servers.1', "1 is not of type 'string'"],
    ['ssh_authorized_keys.0', "5 is not of type 'string'"],
  ]);
  assert.deepEqual(pairs(validateCloudConfigText(text, 'current').errors), [
    ['my_key', "Additional properties are not allowed ('my_key' was unexpected)"],
    ['ntp.servers.1', "1 is not of type 'string'"],
    ['ssh_authorized_keys.0', "5 is not of type 'string'"],
  ]);
});

test('deprecations do not make a document invalid', () => {
  const text = '#cloud-config\nchpasswd: {expire: yes, list: "a:b"}\n';
  const r = validateCloudConfigText(text, 'current');
  assert.equal(r.valid, true);
  assert.deepEqual(pairs(r.deprecations), [['chpasswd.list', ' Deprecated in version 22.2. Use **users** instead.']]);
  assert.equal(validateCloudConfigText(text, '22.4').valid, true);
});

test('spans point at the key and the value written', () => {
  const r = validateCloudConfigText(TYPOS, 'current');
  const e = r.errors.find((x) => x.path === 'write_files.0.permissions');
  assert.ok(e && r.value !== undefined);
  const span = spanAt(r.value, e.segments, r.rootSpan ?? null);
  assert.ok(span?.key && span.value);
  assert.equal(TYPOS.slice(span.key.start, span.key.end), 'permissions');
  assert.equal(TYPOS.slice(span.value.start, span.value.end), '644');
});

test('documents that are not mappings and broken YAML', () => {
  assert.deepEqual(
    (({ valid, notADict }) => ({ valid, notADict }))(validateCloudConfigText('#cloud-config\n- a\n', 'current')),
    { valid: true, notADict: true },
  );
  const broken = validateCloudConfigText('#cloud-config\nruncmd: [a, b\n', 'current');
  assert.equal(broken.valid, false);
  assert.ok(broken.yamlError);
});

test('merged cloud-config.txt: upstream reports the SCHEMA_ERROR lines, 22.4 does not', () => {
  const text = '#cloud-config\n# Cloud-config part ignored SCHEMA_ERROR: part-002\nruncmd: [ls]\n';
  assert.deepEqual(pairs(validateCloudConfigText(text, 'current').errors), [['format-l2.c1', 'Ignored invalid user-data: part-002']]);
  assert.deepEqual(pairs(validateCloudConfigText(text, '22.4').errors), []);
});

test('formats as the oracle checks them: uri (RFC 3986), date (CPython 3.11 fromisoformat)', () => {
  for (const s of ['http://example.com/a', 'ftp://u@h:21/p?q#f', 'file:///etc/x', 'http://[::1]/', 'urn:x', 'http://x\n']) assert.ok(isUri(s), s);
  for (const s of ['not a uri', '/relative', 'http://x y', '']) assert.ok(!isUri(s), s);
  for (const s of ['2024-01-31', '20240131', '2024-W05-3', '2024W053', '2024-W05', '2020-W53']) assert.ok(isIsoDate(s), s);
  for (const s of ['2024-13-01', '2024-02-30', 'tomorrow', '2024-1-01', '2021-W53', '２０２４-01-01']) assert.ok(!isIsoDate(s), s);
});

test("Python's $ also matches before a final newline", () => {
  assert.ok(pyRegex('^.+$').test('abc\n'));
  assert.ok(!pyRegex('^.+$').test('abc\n\n'));
});

test('where the cursor is, read from the text (broken YAML included)', () => {
  const at = (fixture: string) => {
    const offset = fixture.indexOf('|');
    const c = textCursorAt(fixture.replace('|', ''), offset);
    return c && { parent: c.parent.map((s) => (typeof s === 'string' ? s : '[]')).join('.'), key: c.key?.text, at: c.at };
  };
  assert.deepEqual(at('#cloud-config\npack|'), { parent: '', key: 'pack', at: 'key' });
  // A blank first line (regression: the walk up never got past it, so completion hung).
  assert.deepEqual(at('\n#cloud-config\npack|'), { parent: '', key: 'pack', at: 'key' });
  assert.deepEqual(at('\n\nusers:\n  - name: a\n    lo|'), { parent: 'users.[]', key: 'lo', at: 'key' });
  assert.deepEqual(at('#cloud-config\nusers:\n  - name: a\n    lo|'), { parent: 'users.[]', key: 'lo', at: 'key' });
  assert.deepEqual(at('#cloud-config\nusers:\n- name: a\n  sudo: |'), { parent: 'users.[]', key: 'sudo', at: 'value' });
  assert.deepEqual(at('#cloud-config\napt:\n  sources:\n    s1:\n      sou|'), { parent: 'apt.sources.s1', key: 'sou', at: 'key' });
  assert.deepEqual(at('#cloud-config\nruncmd:\n  - ls\nres|'), { parent: '', key: 'res', at: 'key' });
  assert.deepEqual(at('#cloud-config\nusers:\n- name: a\n  groups:\n  - x\n  sh|\nruncmd: [a, b\n'), { parent: 'users.[]', key: 'sh', at: 'key' });
  const text = '#cloud-config\nusers:\n- name: a\n  shell: /bin/sh\n  sh\n- name: b\n  groups: [x]\nruncmd: [ls]\n';
  assert.deepEqual([...siblingKeys(text, text.indexOf('  sh\n') + 2)].sort(), ['name', 'shell']);
  assert.deepEqual([...siblingKeys('\na: 1\nb: 2\n', 6)].sort(), ['a']);
});

test('every key described in keyDocs is a top-level key of one of the schemas, or a system config key cloud-init reads', async () => {
  const { KEY_DOCS } = await import('../../server/src/engine/schema/keyDocs.js');
  const { keysOf, schemaAt } = await import('../../server/src/engine/schema/navigate.js');
  const { systemConfigKeys } = await import('../../server/src/engine/plan/systemKeys.js');
  const known = new Set<string>();
  for (const v of ['22.4', 'current'] as const) for (const k of keysOf(v, schemaAt(v, []), [])) known.add(k.key);
  for (const v of ['22.4', '23.4', '24.4', '25.1', 'current'] as const) for (const k of systemConfigKeys(v)) known.add(k);
  const unknown = Object.keys(KEY_DOCS).filter((k) => !known.has(k));
  assert.deepEqual(unknown, []);
});

test('100,000 unknown top-level keys: each is reported, near-miss fixes for the first 1,000 only (the analysis took 4 s)', () => {
  const lines = ['#cloud-config', 'pakages: [curl]', ...Array.from({ length: 100_000 }, (_, i) => `k${i}: v`)];
  const analysis = analyzeDocument(lines.join('\n') + '\n', '/w/user-data.yaml', { version: 'current', schema: true });
  const unknown = analysis.findings.filter((f) => f.code === 'schema-error');
  assert.equal(unknown.length, 100_001);
  assert.deepEqual(unknown[0].fixes?.[0]?.edits[0]?.newText, 'packages', 'the first typo still gets its fix');
  assert.ok(unknown.filter((f) => f.fixes?.length).length <= 1000);
});

test('maxProblems: validation stops there and says so; without it every problem is found', () => {
  const loaded = loadYaml('runcmd: [{a: 1}, {a: 2}, {a: 3}, {a: 4}]\nbootcmd: 7\n');
  assert.ok(loaded.ok && loaded.value instanceof PyDict);
  const root = loaded.value;
  const all = validateCloudConfig(root, 'current');
  assert.equal(all.truncated, undefined);
  assert.ok(all.errors.length >= 5, `${all.errors.length} problems`);
  const some = validateCloudConfig(root, 'current', undefined, 3);
  assert.equal(some.truncated, true);
  assert.equal(some.errors.length, 3);
  const exact = validateCloudConfig(root, 'current', undefined, all.errors.length);
  assert.equal(exact.truncated, undefined, 'stopping exactly at the last problem is not truncating');
});

test('maxSchemaProblems is one budget for the parts of a MIME document, and the part where it ran out says so, once', () => {
  const part = (key: string, n: number) => ({ body: `#cloud-config\n${key}: [${Array.from({ length: n }, (_, i) => `{a: ${i}}`).join(', ')}]\n` });
  const text = mime([part('runcmd', 2), part('bootcmd', 4), part('runcmd', 3)]);
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
  const full = analyzeDocument(text, '/w/user-data', { version: 'current', schema: true });
  const errors = (a: typeof full) => a.findings.filter((f) => f.code === 'schema-error');
  const inFirst = errors(full).filter((f) => f.span.start < text.indexOf('bootcmd')).length;
  assert.ok(inFirst > 0 && errors(full).length > inFirst + 1);
  const bounded = analyzeDocument(text, '/w/user-data', { version: 'current', schema: true, maxSchemaProblems: inFirst + 1 });
  assert.equal(errors(bounded).length, inFirst + 1);
  const stopped = bounded.findings.filter((f) => f.code === 'limit-exceeded');
  assert.equal(stopped.length, 1);
  assert.equal(stopped[0].severity, 'warning');
  assert.match(stopped[0].message, new RegExp(`stopped after ${inFirst + 1} problems in this document`));
  assert.equal(lineOf(stopped[0].span.start), lineOf(text.indexOf('bootcmd')), 'at the part where it ran out');
  assert.equal(analyzeDocument(text, '/w/user-data', { version: 'current', schema: true, maxSchemaProblems: errors(full).length }).findings.filter((f) => f.code === 'limit-exceeded').length, 0);
});
