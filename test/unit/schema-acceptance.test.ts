// A schema finding only some images raise says whose schema it is and which versions accept it, in the
// editor and in --check (issue 42, item 3); near-miss renames fit the value's type and a finding with no
// path starts with its message (item 7).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { MAX_ACCEPTANCE_ERRORS, acceptanceNote, versionRange, withAcceptance } from '../../server/src/engine/schema/acceptance';
import { validateCloudConfigText } from '../../server/src/engine/schema/validate';
import { formatText } from '../../server/src/engine/render/checkText';
import type { CloudInitVersion } from '../../server/src/engine/version/versions';

const schemaFindings = (text: string, version: CloudInitVersion) => analyzeDocument(text, '/w/user-data.yaml', { version, schema: true }).findings.filter((f) => f.code === 'schema-error');

const WRITE_FILES_SOURCE = '#cloud-config\nwrite_files:\n  - path: /etc/motd\n    source:\n      uri: https://example.com/motd\n';

test("on rhel-8's 23.4, write_files' source says it is 23.4's schema and 24.4 and later accept it", () => {
  const [f, ...rest] = schemaFindings(WRITE_FILES_SOURCE, '23.4');
  assert.equal(rest.length, 0);
  assert.equal(f.message, "write_files.0: Additional properties are not allowed ('source' was unexpected) — cloud-init 23.4's schema; 24.4 and later accept it");
  assert.deepEqual(schemaFindings(WRITE_FILES_SOURCE, '24.4'), [], '24.4 accepts it indeed');
});

test('an error every version raises says nothing of versions', () => {
  const [f] = schemaFindings('#cloud-config\nwrite_files:\n  - path: /etc/motd\n    colour: blue\n', '23.4');
  assert.equal(f.message, "write_files.0: Additional properties are not allowed ('colour' was unexpected)");
  const [t] = schemaFindings('#cloud-config\npackage_update: maybe\n', 'current');
  assert.doesNotMatch(t.message, /accept/);
});

test('with two unknown keys, each key says what accepts it, and only the key other versions accept is named', () => {
  const text = '#cloud-config\nwrite_files:\n  - path: /etc/motd\n    colour: blue\n    source:\n      uri: https://example.com/motd\n';
  const found = schemaFindings(text, '23.4');
  assert.equal(found.length, 2);
  const [colour, source] = found.sort((a, b) => a.span.start - b.span.start);
  assert.equal(colour.message, "write_files.0: Additional properties are not allowed ('colour', 'source' were unexpected)");
  assert.equal(source.message, `${colour.message} — cloud-init 23.4's schema; 24.4 and later accept it`);
  // --check's note for the whole problem names the key.
  const report = withAcceptance(validateCloudConfigText(text.replace(/^#cloud-config\n/, ''), '23.4'), '23.4');
  assert.equal(report.errors[0].accepted, "cloud-init 23.4's schema; 24.4 and later accept 'source'");
});

test("two unknown top-level keys: the message starts with cloud-init's words, not ': '; 22.4, which checks no top-level name, is not said to accept them", () => {
  const found = schemaFindings('#cloud-config\nfrobnicate: 1\nwibble: 2\n', 'current');
  assert.equal(found.length, 2);
  for (const f of found) assert.equal(f.message, "Additional properties are not allowed ('frobnicate', 'wibble' were unexpected)");
});

test("`package: [x]` beside packages is not offered package_reboot_if_required (a boolean); `package: true` is", () => {
  const list = schemaFindings('#cloud-config\npackages: [nginx]\npackage: [curl]\n', 'current');
  assert.equal(list.length, 1);
  assert.equal(list[0].fixes, undefined);
  const bool = schemaFindings('#cloud-config\npackages: [nginx]\npackage: true\n', 'current');
  assert.deepEqual(bool[0].fixes?.map((x) => x.title), ["Change to 'package_reboot_if_required'"]);
  // A misspelt key whose value fits is still renamed.
  const typo = schemaFindings('#cloud-config\npackges: [curl]\n', 'current');
  assert.deepEqual(typo[0].fixes?.map((x) => x.title), ["Change to 'packages'"]);
});

test('a document with more errors than MAX_ACCEPTANCE_ERRORS is not validated again for each version', () => {
  const items = Array.from({ length: MAX_ACCEPTANCE_ERRORS + 1 }, (_, i) => `  - path: /etc/f${i}\n    source: {uri: "https://example.com/${i}"}\n`).join('');
  const found = schemaFindings(`#cloud-config\nwrite_files:\n${items}`, '23.4');
  assert.equal(found.length, MAX_ACCEPTANCE_ERRORS + 1);
  assert.ok(found.every((f) => !/accept/.test(f.message)));
});

test('the versions in words', () => {
  assert.equal(versionRange(['24.4', '25.1', 'current']), '24.4 and later');
  assert.equal(versionRange(['22.4', '23.4']), '22.4 and 23.4');
  assert.equal(versionRange(['22.4', '25.1', 'current']), '22.4, 25.1 and later');
  assert.equal(versionRange(['22.4', '24.4', '25.1', 'current']), '22.4, 24.4 and later');
  assert.equal(versionRange(['22.4', '23.4', 'current']), '22.4, 23.4 and 26.2');
  assert.equal(versionRange(['current']), '26.2');
  assert.equal(acceptanceNote('25.1', []), undefined);
  assert.equal(acceptanceNote('current', ['22.4']), "cloud-init 26.2's schema; 22.4 accepts it");
});

test('--check prints the note under the error it is about', () => {
  const report = withAcceptance(validateCloudConfigText(WRITE_FILES_SOURCE, '23.4'), '23.4');
  const result = { files: [{ file: 'user-data.yaml', valid: false, errors: report.errors.map((p) => ({ path: p.path, message: p.message, file: 'user-data.yaml', line: 4, column: 5, accepted: p.accepted })), deprecations: [] }], merged: null };
  const text = formatText(result, '23.4');
  assert.match(text, /^Error: Cloud config schema errors: write_files\.0: Additional properties are not allowed \('source' was unexpected\)\n/m);
  assert.match(text, /^ {2}write_files\.0: written in user-data\.yaml:4:5\n {2}write_files\.0: cloud-init 23\.4's schema; 24\.4 and later accept 'source'$/m);
});
