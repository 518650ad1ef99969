/**
 * One command for CI (issue 31, item 7): `--check` reports what `--lint` reports (the editor's merge-spec
 * findings, from the same code), after cloud-init's own schema text, in text, JSON and SARIF, and fails on
 * them as `--lint` does; SARIF levels are the editor's severities; a Jinja file checked without instance
 * data says, in one line, that this is why it is not validated and what to pass.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCliIn } from '../support/cli';
import { assertValidSarif } from '../support/sarif';

function folder(files: Record<string, string>): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-check-ci-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const BASE = '#cloud-config\npackages: [curl]\nruncmd: [echo base]\n';
// A typo cloud-init ignores silently (the schema accepts neither: cloud-init's schema sees only merge_how's shape).
const WEB = '#cloud-config\nmerge_how: "list(append)+dict(no_replace,recurse_lists)+str()"\npackages: [nginx]\n';

type Sarif = { runs: Array<{ tool: { driver: { rules: Array<{ id: string; defaultConfiguration?: { level: string } }> } }; results: Array<{ ruleId: string; level: string; message: { text: string }; locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn?: number } } }> }> }> };

test('--check lists the findings --lint gives, after the schema report cloud-init would print, and fails on them', () => {
  const f = folder({ 'base.yaml': BASE, '20-web.yaml': WEB });
  try {
    const lint = runCliIn(['--lint', 'base.yaml', '20-web.yaml'], f.dir);
    assert.equal(lint.code, 1);
    const lintLines = lint.stdout.trim().split('\n');
    assert.ok(lintLines.some((l) => l.startsWith("20-web.yaml:2:42: warning: Unknown option 'recurse_lists' for dict()")), lint.stdout);

    const check = runCliIn(['--check', 'base.yaml', '20-web.yaml'], f.dir);
    assert.equal(check.code, 1, 'the schema is valid, but a warning fails CI as with --lint');
    const schemaReport = 'Valid schema base.yaml\nValid schema 20-web.yaml\nValid schema cloud-config.txt (the merged result)\n';
    assert.ok(check.stdout.startsWith(schemaReport), check.stdout);
    const rest = check.stdout.slice(schemaReport.length).split('\n');
    assert.equal(rest[0], `Lint findings (${lintLines.length}), as --lint and the editor give them:`);
    assert.deepEqual(rest.slice(1, 1 + lintLines.length), lintLines);
    assert.match(check.stdout, /^Error: 2 lint finding\(s\) are errors or warnings$/m);

    const clean = runCliIn(['--check', 'base.yaml'], f.dir);
    assert.deepEqual([clean.code, clean.stdout], [0, 'Valid schema base.yaml\nValid schema cloud-config.txt (the merged result)\n']);
  } finally {
    f.done();
  }
});

test('--check --format json carries the findings, as --lint places them', () => {
  const f = folder({ 'base.yaml': BASE, '20-web.yaml': WEB });
  try {
    const out = JSON.parse(runCliIn(['--check', '--format', 'json', 'base.yaml', '20-web.yaml'], f.dir).stdout) as { findings: Array<Record<string, unknown>> };
    assert.deepEqual(out.findings.find((x) => x.code === 'unknown-option'), {
      file: '20-web.yaml',
      line: 2,
      column: 42,
      endLine: 2,
      endColumn: 55,
      severity: 'warning',
      code: 'unknown-option',
      message: out.findings.find((x) => x.code === 'unknown-option')!.message,
    });
    assert.match(String(out.findings.find((x) => x.code === 'unknown-option')!.message), /^Unknown option 'recurse_lists' for dict\(\)/);
  } finally {
    f.done();
  }
});

test("--check --format sarif: --lint's results, and every level the editor's severity", () => {
  const f = folder({
    'base.yaml': BASE,
    '20-web.yaml': WEB,
    '30-old.yaml': '#cloud-config\nmerge_how: "dict(replace)+list()+str()"\napt_update: true\nruncmd: [echo old]\n',
    '40-include.txt': '#include\nhttp://example.com/extra.yaml\n',
    'extra.yaml': '#cloud-config\nruncmd: 5\n',
  });
  try {
    const files = ['base.yaml', '20-web.yaml', '30-old.yaml', '40-include.txt'];
    const lint = JSON.parse(runCliIn(['--lint', '--format', 'sarif', ...files], f.dir).stdout) as Sarif;
    const check = runCliIn(['--check', '--format', 'sarif', '--include-map', 'http://example.com/extra.yaml=extra.yaml', ...files], f.dir);
    assert.equal(check.code, 1);
    const sarif = JSON.parse(check.stdout) as Sarif;
    assertValidSarif(sarif);
    const results = sarif.runs[0].results;
    const key = (r: Sarif['runs'][0]['results'][number]) => JSON.stringify([r.ruleId, r.level, r.message.text, r.locations[0]?.physicalLocation]);
    const checkKeys = new Set(results.map(key));
    // cloud-init's own schema problems are --check's report, in its words (rules schema-error, schema-deprecation): not said twice.
    const besides = lint.runs[0].results.filter((r) => !r.ruleId.startsWith('schema-'));
    assert.ok(besides.length < lint.runs[0].results.length, 'the --lint results hold the schema findings the editor shows');
    for (const r of besides) assert.ok(checkKeys.has(key(r)), `missing from --check: ${key(r)}`);

    const levelOf = (rule: string, words: string) => results.find((r) => r.ruleId === rule && r.message.text.includes(words))?.level;
    // As the editor shows them: an unknown option is a Warning; a deprecated key in a file a Warning (struck through);
    // a value another part replaces is Information; a problem only the merged result has, Warning on the part.
    assert.equal(levelOf('unknown-option', "'recurse_lists'"), 'warning');
    assert.equal(levelOf('schema-deprecation', 'apt_update'), 'warning');
    assert.equal(levelOf('fate-replaced', 'runcmd'), 'note');
    assert.equal(levelOf('merged-schema-error', "runcmd: 5 is not of type 'array'"), 'warning');
    const rules = new Map(sarif.runs[0].tool.driver.rules.map((r) => [r.id, r.defaultConfiguration?.level]));
    assert.deepEqual([rules.get('schema-error'), rules.get('schema-deprecation'), rules.get('merged-schema-error'), rules.get('merged-schema-deprecation'), rules.get('unknown-option')], ['error', 'warning', 'warning', 'note', 'warning']);
  } finally {
    f.done();
  }
});

test('--check on a Jinja file without --instance-data: one line says that is why it is not validated, and what to pass', () => {
  const f = folder({ 'host.yaml': '## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostname }}\n' });
  try {
    const r = runCliIn(['--check', 'host.yaml'], f.dir);
    assert.equal(r.code, 1, "cloud-init's own schema command fails too");
    const line = r.stdout.split('\n').find((l) => l.includes('host.yaml'));
    assert.equal(
      line,
      'Not validated (host.yaml): needs instance data, as cloud-init renders a `## template: jinja` file before validating it (its own schema command fails without): pass --instance-data NAME (a sample: aws, azure, gce, openstack, lxd, nocloud) or --instance-data FILE (JSON, as /run/cloud-init/instance-data.json on an instance)',
    );
    const given = runCliIn(['--check', '--instance-data', 'aws', 'host.yaml'], f.dir);
    assert.equal(given.code, 0, given.stdout);
    assert.match(given.stdout, /^Valid schema host\.yaml$/m);
  } finally {
    f.done();
  }
});
