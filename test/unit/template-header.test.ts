/**
 * Issue 13: which documents cloud-init renders with Jinja is decided in one place
 * (engine/userdata/templater.ts): a user-data part by its sniffed content type, then detect_template;
 * a system config file (cloud.cfg.d) by detect_template alone. Outcomes recorded from cloud-init
 * 22.4.2 and upstream (oracle.py --instance-data '{}'; userdata and confd modes) on these inputs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectDocument } from '../../server/src/engine/lint/documentKind';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { readConf } from '../../server/src/engine/system/readConf';
import { runUserData } from '../../server/src/engine/userdata/run';
import { toCanonicalJson } from '../../server/src/engine/py/json';
import type { InstanceDataChoice } from '../../server/src/engine/template/instanceData';

const BODY = '#cloud-config\na: {{ 1 + 1 }}\n';

interface Case {
  name: string;
  text: string;
  /** user-data: rendered to {"a":2}, not a Jinja part at all ("Unhandled non-multipart"), or a Jinja part whose handler fails. */
  userData: 'rendered' | 'not-a-part' | 'handler-fails';
  /** cloud.cfg.d: rendered to {"a":2}, loaded unrendered (YAML error, read as {}), or ValueError out of read_conf. */
  confd: 'rendered' | 'unrendered' | 'raises';
}

const CASES: Case[] = [
  { name: 'upper case', text: '## TEMPLATE: JINJA\n' + BODY, userData: 'rendered', confd: 'rendered' },
  { name: 'no spaces', text: '##template:jinja\n' + BODY, userData: 'not-a-part', confd: 'rendered' },
  { name: 'tab after ##', text: '##\ttemplate: jinja\n' + BODY, userData: 'not-a-part', confd: 'rendered' },
  { name: 'trailing blanks', text: '## Template: Jinja \t\n' + BODY, userData: 'rendered', confd: 'rendered' },
  { name: 'CRLF', text: ('## template: jinja\n' + BODY).replace(/\n/g, '\r\n'), userData: 'rendered', confd: 'rendered' },
  { name: 'leading blanks', text: '  ## template: jinja\n' + BODY, userData: 'handler-fails', confd: 'unrendered' },
  { name: 'leading newline', text: '\n## template: jinja\n' + BODY, userData: 'handler-fails', confd: 'unrendered' },
  { name: 'unknown type', text: '## template: jinjax\n' + BODY, userData: 'handler-fails', confd: 'raises' },
];

for (const c of CASES) {
  test(`template header, ${c.name}: user-data ${c.userData}`, () => {
    const run = runUserData([{ name: 'user-data', bytes: new TextEncoder().encode(c.text) }], { instanceData: {} });
    if (c.userData === 'rendered') assert.equal(toCanonicalJson(run.result ?? null).text, '{"a":2}');
    else assert.equal(run.result, null);
    const info = detectDocument(c.text, '/work/user-data.yaml');
    // A Jinja part is a 'jinja' document even when its handler fails, so that the failure is reported.
    assert.equal(info?.kind === 'jinja', c.userData !== 'not-a-part');
    const codes = analyzeDocument(c.text, '/work/user-data.yaml').findings.map((f) => f.code);
    assert.deepEqual(codes, c.userData === 'handler-fails' ? ['jinja-render-error'] : []);
  });

  test(`template header, ${c.name}: cloud.cfg.d ${c.confd}`, () => {
    const file = { name: '/etc/cloud/cloud.cfg.d/90-x.cfg', bytes: new TextEncoder().encode(c.text) };
    for (const version of ['22.4', 'current'] as const) {
      if (c.confd === 'raises') {
        assert.throws(() => readConf(file, { instanceData: {}, version }), /Unknown template rendering type 'jinjax' requested/);
        continue;
      }
      const read = readConf(file, { instanceData: {}, version });
      assert.equal(toCanonicalJson(read.value).text, c.confd === 'rendered' ? '{"a":2}' : '{}');
    }
    const info = detectDocument(c.text, file.name);
    assert.equal(info?.kind, 'confd');
    assert.equal(info?.template === true, c.confd !== 'unrendered');
    if (c.confd === 'raises') {
      const [finding] = analyzeDocument(c.text, file.name).findings;
      assert.match(finding.message, /ValueError: Unknown template rendering type 'jinjax' requested\): the error leaves read_conf and the cloud-init stage fails/);
    }
  });
}

test('a templated cloud.cfg.d file gets no YAML error for its unrendered text', () => {
  // Regression: `a: {{ 1 + 1 }}` was reported as YAML cloud-init cannot load, though read_conf renders it first.
  const analysis = analyzeDocument('##template:jinja\n' + BODY, '/etc/cloud/cloud.cfg.d/90-x.cfg');
  assert.deepEqual(analysis.findings.map((f) => f.code), []);
  const plain = analyzeDocument('#cloud-config\na: {{ 1 + 1 }}\n', '/etc/cloud/cloud.cfg.d/90-x.cfg');
  assert.deepEqual(plain.findings.map((f) => f.code), ['yaml-invalid'], 'without a template header the same YAML is an error');
});

test('a failing template in cloud.cfg.d is described as read_conf treats it in each version, not as a dropped part', () => {
  // Outcomes as the oracle printed them (confd mode, instance data {"v1": {}}), and as readConf reproduces them.
  const cases: Array<[string, string, Record<'22.4' | 'current', RegExp>]> = [
    ['syntax', '## template: jinja\n#cloud-config\na: {{ 1 + }}\n', { '22.4': /read_conf lets the error through and the cloud-init stage fails/, current: /read_conf logs a warning and loads the file unrendered, as YAML/ }],
    ['undefined', '## template: jinja\n#cloud-config\na: {{ v1.nope.deeper }}\n', { '22.4': /"Ignoring jinja template" and reads this file as empty/, current: /'NoneType' object has no attribute 'decode'\) and the cloud-init stage fails/ }],
    ['runtime', '## template: jinja\n#cloud-config\na: {{ 1 / 0 }}\n', { '22.4': /read_conf lets the error through and the cloud-init stage fails/, current: /read_conf lets the error through and the cloud-init stage fails/ }],
    ['rendered YAML', '## template: jinja\n#cloud-config\na: {{ "[1" }}\n', { '22.4': /"Failed loading yaml blob" and reads this file as empty/, current: /"Failed loading yaml blob" and reads this file as empty/ }],
  ];
  const instanceData: InstanceDataChoice = { data: { v1: {} }, label: 'test data' };
  for (const [what, text, expected] of cases) {
    for (const version of ['22.4', 'current'] as const) {
      const file = { name: '/etc/cloud/cloud.cfg.d/90-x.cfg', bytes: new TextEncoder().encode(text) };
      let stageFails = false;
      try {
        readConf(file, { instanceData: { v1: {} }, version });
      } catch {
        stageFails = true;
      }
      const [finding] = analyzeDocument(text, file.name, { instanceData, version }).findings;
      assert.match(finding.message, expected[version], `${what}, ${version}`);
      assert.equal(/stage fails/.test(finding.message), stageFails, `${what}, ${version}: the message agrees with readConf`);
      assert.doesNotMatch(finding.message, /dropped|drops/, `${what}, ${version}`);
      // The same template as a user-data part is dropped by its handler.
      const [asPart] = analyzeDocument(text, 'user-data.yaml', { instanceData, version }).findings;
      assert.match(asPart.message, /drop|skips this whole part/, `${what}, ${version}, user-data`);
    }
  }
});
