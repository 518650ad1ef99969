/**
 * Finding codes (engine/lint/codes.ts): one typed list with severities. The compiler holds every producer
 * of findings to it (a code outside the list, or a severity the list does not give that code, does not
 * compile); these tests hold the user-data messages, whose level is set apart, to the same severities.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FINDING_CODES, coded, severityOf, type FindingCode } from '../../server/src/engine/findings/codes';
import { runUserData } from '../../server/src/engine/userdata/run';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';

const utf8 = (s: string) => new TextEncoder().encode(s);

test('every code has a severity and says what it means; codes are kebab-case', () => {
  for (const [code, info] of Object.entries(FINDING_CODES)) {
    assert.match(code, /^[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.ok(['error', 'warning', 'info', 'hint'].includes(info.severity), code);
    assert.ok(info.summary.length > 10, code);
  }
});

test('coded() gives the listed severity, or the other one the list allows', () => {
  assert.deepEqual(coded('unknown-option'), { code: 'unknown-option', severity: 'warning' });
  assert.deepEqual(coded('no-dict-merger'), { code: 'no-dict-merger', severity: 'error' });
  assert.deepEqual(coded('no-dict-merger', 'warning'), { code: 'no-dict-merger', severity: 'warning' });
  assert.equal(severityOf('schema-deprecated'), 'warning');
});

test('user-data messages carry the severity their code has in the list', () => {
  const inputs: Array<Array<[string, string]>> = [
    [['a', '#cloud-config-archive\n- [unclosed\n']],
    [['a', '#cloud-config-archive\nkey: value\n']],
    [['a', 'Content-Type: text/x-unknown-thing\nMIME-Version: 1.0\n\nhello\n']],
    [['a', '## template: jinja\n#cloud-config\nhostname: {{ v1.missing_key }}\n']],
    [['a', '#cloud-config\nruncmd: [a\n'], ['b', '#!/bin/sh\necho\n']],
  ];
  const seen = new Set<FindingCode>();
  for (const parts of inputs) {
    const run = runUserData(parts.map(([name, text]) => ({ name, bytes: utf8(text) })), { version: 'current' });
    for (const m of run.messages) {
      seen.add(m.code);
      assert.equal(m.level, severityOf(m.code), `${m.code}: ${m.message}`);
    }
  }
  assert.ok(seen.has('archive-invalid-yaml') && seen.has('archive-not-a-list'), [...seen].join(', '));
  assert.ok(seen.size >= 4, [...seen].join(', '));
});

test('editor findings carry a severity their code allows', () => {
  // Each document with the codes it gives: the loop below checks these findings, never an empty list.
  const docs: Array<[string, FindingCode[]]> = [
    ['#cloud-config\nmerge_how: "list(apend)+dict(no_replace)"\nmerge_type: "list()"\npackage: [a]\napt_update: true\n', ['leftover-merge-type', 'schema-deprecated', 'schema-error', 'unknown-option']],
    ['#cloud-config\nmerge_how: "list()"\n', ['no-dict-merger']],
    ['#cloud-config\n#cloud-config\nk: 1\nk: 2\n', ['duplicate-key', 'schema-error', 'second-header']],
  ];
  for (const [text, codes] of docs) {
    const findings = analyzeDocument(text, '/w/user-data.yaml', { schema: true }).findings;
    assert.deepEqual(findings.map((f) => f.code).sort(), codes, text);
    for (const f of findings) {
      const info = FINDING_CODES[f.code] as { severity: string; also?: { severity: string } };
      assert.ok(f.severity === info.severity || f.severity === info.also?.severity, `${f.code} as ${f.severity}`);
    }
  }
});
