/**
 * What changes between the cloud-init releases the project reproduces, in the terms a user meets it: each
 * test pins the last version with the old behaviour and the first with the new one. Every threshold was
 * found with the oracles (`../shared/oracle/oracle.py` on each install of `setup.sh --where V`), and the
 * expected words are what those printed; the differential suites (test/oracle) check thousands more cases
 * on each of the five versions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runUserData } from '../../server/src/engine/userdata/run';
import { renderCloudInitJinja } from '../../server/src/engine/userdata/jinja';
import { readConf } from '../../server/src/engine/system/readConf';
import { PyError } from '../../server/src/engine/py/errors';
import { validateCloudConfigText } from '../../server/src/engine/schema/validate';
import { annotateCloudConfigFile } from '../../server/src/engine/schema/annotate';
import { sampleInstanceData } from '../../server/src/engine/template/samples';
import { schemaKeyMarkdown } from '../../server/src/features/common/schemaDocs';
import { schemaAt } from '../../server/src/engine/schema/navigate';
import { runCli } from '../support/cli';
import { templateFindings } from '../../server/src/engine/lint/templateLint';
import { checkFile } from '../../server/src/engine/outcome/check';
import type { CloudInitVersion } from '../../server/src/engine/version/versions';
import { pyRepr } from '../../server/src/engine/py/repr';
import type { PyValue } from '../../server/src/engine/py/values';

const repr = (v: PyValue | null | undefined) => (v === null || v === undefined ? null : pyRepr(v));

const utf8 = (text: string) => new TextEncoder().encode(text);
const userData = (version: CloudInitVersion, ...parts: string[]) =>
  runUserData(
    parts.map((text, i) => ({ name: `part${i}`, bytes: utf8(text) })),
    { version },
  );

test('an #include cloud-init cannot fetch stops user-data with Exception on 22.4, RuntimeError from 23.4', () => {
  const include = '#include\nhttp://example.invalid/x\n';
  assert.equal(userData('22.4', include).fatal?.pyType, 'Exception');
  assert.equal(userData('23.4', include).fatal?.pyType, 'RuntimeError');
  assert.equal(userData('25.1', include).fatal?.pyType, 'RuntimeError');
});

test('a bad merge_how is a "Matcher identifer" up to 23.4 and a "Matcher identifier" from 24.4', () => {
  const part = '#cloud-config\nmerge_how: "bad!"\na: 1\n';
  const said = (v: CloudInitVersion) => userData(v, part).messages.map((m) => m.message).join('\n');
  assert.match(said('23.4'), /Matcher identifer 'bad!' is not in the right format/);
  assert.match(said('24.4'), /Matcher identifier 'bad!' is not in the right format/);
});

test('a part cloud-init drops for a bad merge_how is listed in cloud-config.txt from 23.4 on, not on 22.4', () => {
  const parts = ['#cloud-config\na: 1\n', '#cloud-config\nmerge_how: "bad!"\nb: 2\n'];
  assert.doesNotMatch(userData('22.4', ...parts).cloudConfigTxt, /SCHEMA_ERROR/);
  assert.match(userData('23.4', ...parts).cloudConfigTxt, /^# Cloud-config part ignored SCHEMA_ERROR: part-002$/m);
});

test('!!python/unicode loads as a string up to 23.4; from 24.4 the part is not valid YAML and is left out', () => {
  const part = '#cloud-config\na: !!python/unicode hello\n';
  assert.equal(repr(userData('23.4', part).result), "{'a': 'hello'}");
  const newer = userData('24.4', part);
  assert.equal(repr(newer.result), '{}');
  assert.deepEqual(newer.messages.map((m) => m.message), ['Failed at merging in cloud config part from part-001: empty cloud config']);
  assert.match(newer.reports[0].note ?? '', /could not determine a constructor for the tag 'tag:yaml\.org,2002:python\/unicode'/);
});

test('a template with range(100001) renders on 25.1 (plain Jinja) and fails in the sandbox of current', () => {
  const template = '## template: jinja\n#cloud-config\na: {{ range(100001)|length }}\n';
  const old = renderCloudInitJinja(template, {}, { version: '25.1' });
  assert.ok(old.ok);
  assert.equal(old.text, '#cloud-config\na: 100001\n');
  const sandboxed = renderCloudInitJinja(template, {}, { version: 'current' });
  assert.ok(!sandboxed.ok);
  assert.equal(sandboxed.exception, 'OverflowError');
  assert.match(sandboxed.message, /^Range too big\. The sandbox blocks ranges larger than MAX_RANGE \(100000\)\.$/);
});

test('a Jinja syntax error in a user-data part: the handler fails on 23.4, cloud-init says "Failed to render template" from 24.4', () => {
  const template = '## template: jinja\n#cloud-config\na: {% if %}\n';
  const said = (v: CloudInitVersion) => userData(v, template).messages.map((m) => m.message).join('\n');
  assert.match(said('23.4'), /^Failed calling handler JinjaTemplatePartHandler/m);
  assert.match(said('24.4'), /^Ignoring jinja template for part-001\. Failed to render template\. Unable to parse Jinja template due to syntax error: Expected an expression, got 'end of statement block' on line 3: a: \{% if %\}/m);
});

test('a cloud.cfg.d drop-in whose template uses an undefined variable reads as {} on 23.4 and fails the stage from 24.4', () => {
  const file = { name: '/etc/cloud/cloud.cfg.d/20-undef.cfg', bytes: utf8('## template: jinja\n#cloud-config\na: {{ x.y.z }}\n') };
  const data = { v1: { a: 1 } };
  const old = readConf(file, { instanceData: data, version: '23.4' });
  assert.equal(repr(old.value), '{}');
  assert.deepEqual(old.warnings, ["Ignoring jinja template for /etc/cloud/cloud.cfg.d/20-undef.cfg: 'x' is undefined"]);
  assert.throws(() => readConf(file, { instanceData: data, version: '24.4' }), (e: unknown) => e instanceof PyError && e.pyType === 'AttributeError');
});

test('a cloud.cfg.d drop-in with a Jinja syntax error fails the stage on 23.4 and loads unrendered from 24.4', () => {
  const file = { name: '10-syn.cfg', bytes: utf8('## template: jinja\na: 1\nb: "{% if %}"\n') };
  assert.throws(() => readConf(file, { instanceData: { v1: {} }, version: '23.4' }), (e: unknown) => e instanceof PyError && e.pyType === 'TemplateSyntaxError');
  const newer = readConf(file, { instanceData: { v1: {} }, version: '24.4' });
  assert.equal(repr(newer.value), "{'a': 1, 'b': '{% if %}'}");
  assert.match(newer.warnings[0], /^Failed to render templated yaml config file '10-syn\.cfg'\. Unable to parse Jinja template due to syntax error/);
});

test('the schema of each version: ubuntu_pro is unknown on 23.4 and valid from 24.4; rpi only in current', () => {
  const unknown = (v: CloudInitVersion, text: string) => validateCloudConfigText(text, v).errors.map((e) => `${e.path}: ${e.message}`);
  assert.deepEqual(unknown('23.4', '#cloud-config\nubuntu_pro: {}\n'), ["ubuntu_pro: Additional properties are not allowed ('ubuntu_pro' was unexpected)"]);
  assert.deepEqual(unknown('24.4', '#cloud-config\nubuntu_pro: {}\n'), []);
  assert.deepEqual(unknown('25.1', '#cloud-config\nrpi: {}\n'), ["rpi: Additional properties are not allowed ('rpi' was unexpected)"]);
  assert.deepEqual(unknown('current', '#cloud-config\nrpi: {}\n'), []);
});

test('deprecations in each version\'s words: 23.4 names the replacement in ``double backquotes``, 24.4 in **bold**', () => {
  const said = (v: CloudInitVersion) => validateCloudConfigText('#cloud-config\napt_update: true\n', v).deprecations.map((d) => d.message);
  assert.deepEqual(said('23.4'), ['Default: ``false``. Deprecated in version 22.2. Use ``package_update`` instead.']);
  assert.deepEqual(said('24.4'), [' Deprecated in version 22.2. Use **package_update** instead.']);
});

test('a value that fits no alternative (anyOf, oneOf): one "not valid under any" error on 22.4, each type it misses from 23.4', () => {
  const said = (v: CloudInitVersion) => validateCloudConfigText('#cloud-config\nruncmd:\n - 5\nusers:\n - name: a\n   groups: 5\n', v).errors.map((e) => `${e.path}: ${e.message}`);
  assert.deepEqual(said('22.4'), ['runcmd.0: 5 is not valid under any of the given schemas', "users.0: {'name': 'a', 'groups': 5} is not valid under any of the given schemas"]);
  assert.deepEqual(said('23.4'), [
    "runcmd.0: 5 is not of type 'array'",
    "runcmd.0: 5 is not of type 'null'",
    "runcmd.0: 5 is not of type 'string'",
    "users.0.groups: 5 is not of type 'array'",
    "users.0.groups: 5 is not of type 'object'",
    "users.0.groups: 5 is not of type 'string'",
  ]);
  const chpasswd = (v: CloudInitVersion) => validateCloudConfigText('#cloud-config\nchpasswd:\n  users:\n  - name: a\n    password: 5\n', v).errors.map((e) => `${e.path}: ${e.message}`);
  assert.deepEqual(chpasswd('22.4'), ["chpasswd.users.0: {'name': 'a', 'password': 5} is not valid under any of the given schemas"]);
  assert.deepEqual(chpasswd('23.4'), ["chpasswd.users.0: 'type' is a required property", "chpasswd.users.0: {'name': 'a', 'password': 5} is not valid under any of the given schemas"]);
});

test('--check on 23.4 calls a file UNKNOWN_CONFIG_HEADER, as its schema command does; 24.4 calls it user-data', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-versions-'));
  try {
    const file = join(dir, 'f');
    writeFileSync(file, '#cloud-config\nruncmd: 5\n');
    const old = runCli(['--check', '--cloud-init-version', '23.4', file]);
    assert.equal(old.code, 1);
    assert.ok(old.stdout.startsWith(`Invalid UNKNOWN_CONFIG_HEADER ${file}\nError: Cloud config schema errors: runcmd: 5 is not of type 'array'\n`));
    // The merged result is what `cloud-init schema --system` checks: user-data there.
    assert.match(old.stdout, /^Invalid user-data cloud-config\.txt \(the merged result\)$/m);
    assert.match(old.stdout, /\nError: Invalid schema: UNKNOWN_CONFIG_HEADER, user-data\n\n$/);
    const newer = runCli(['--check', '--cloud-init-version', '24.4.1', file]);
    assert.ok(newer.stdout.startsWith(`Invalid user-data ${file}\nError: Cloud config schema errors: runcmd: 5 is not of type 'array'\n`));
    assert.match(newer.stdout, /\nError: Invalid schema: user-data\n\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--annotate on 23.4 prints the annotation without a closing error line, 24.4 ends with "Error: Invalid schema"', () => {
  const text = '#cloud-config\nruncmd: 5\n';
  const annotated = "#cloud-config\nruncmd: 5\t\t# E1\n\n# Errors: -------------\n# E1: 5 is not of type 'array'\n\n\n";
  assert.deepEqual(annotateCloudConfigFile(text, '23.4', { path: 'f', valid: 'f' }), { stdout: annotated, stderr: '' });
  assert.deepEqual(annotateCloudConfigFile(text, '24.4', { path: 'f', valid: 'f' }), { stdout: annotated, stderr: 'Error: Invalid schema: user-data\n\n' });
  // A document that is not a mapping: 23.4 annotates it as 22.4 does.
  assert.equal(annotateCloudConfigFile('#cloud-config\n- 1\n', '23.4', { path: 'f', valid: 'f' }).stdout, '#cloud-config\n- 1\n\n# Errors: -------------\n# E1: Cloud-config is not a YAML dict.\n\n\n');
});

test('the sample instance data follows the version: 23.4 lists ten sensitive keys and its own feature flags', () => {
  const v22 = sampleInstanceData('aws', '22.4');
  const v23 = sampleInstanceData('aws', '23.4');
  const v25 = sampleInstanceData('aws', '25.1');
  assert.equal(v22.features, undefined);
  assert.ok((v22.sensitive_keys as string[]).includes('merged_cfg'));
  assert.ok(!(v22.sensitive_keys as string[]).includes('merged_system_cfg'));
  assert.ok((v23.sensitive_keys as string[]).includes('merged_system_cfg'));
  assert.equal((v23.features as Record<string, unknown>).DEPRECATION_INFO_BOUNDARY, undefined, 'added in 24.x');
  assert.equal((v25.features as Record<string, unknown>).MANUAL_NETWORK_WAIT, true);
  assert.equal((v25.features as Record<string, unknown>).STRIP_INVALID_MTU, undefined, 'only in current');
});

test('a hover names the version whose schema it quotes', () => {
  const md = schemaKeyMarkdown('24.4', ['apt_update'], schemaAt('24.4', ['apt_update']));
  assert.match(md, /cloud-init 24\.4 says:/);
});

test('the editor says what a cloud.cfg.d template with a syntax error does: the stage fails on 23.4, the file loads unrendered from 24.4', () => {
  const text = '## template: jinja\na: 1\nb: "{% if %}"\n';
  const said = (version: CloudInitVersion) =>
    templateFindings(text, { instanceData: { label: 'instance data', data: { v1: {} } }, version, configFile: true })
      .map((f) => f.message)
      .join('\n');
  assert.match(said('23.4'), /read_conf lets the error through and the cloud-init stage fails/);
  assert.match(said('24.4'), /read_conf logs a warning and loads the file unrendered, as YAML/);
});

test('--check of a file that is not YAML: 22.4 says "not valid yaml" of the bytes, 23.4 and later "not valid YAML" of the text', () => {
  const said = (version: CloudInitVersion) => checkFile('f', utf8('#cloud-config\na: [1\n'), version)[0].errors.map((e) => e.message)[0];
  assert.match(said('22.4'), /^File f is not valid yaml\. while parsing a flow sequence\n {2}in "<byte string>"/);
  assert.match(said('23.4'), /^File f is not valid YAML\. while parsing a flow sequence\n {2}in "<unicode string>"/);
});
