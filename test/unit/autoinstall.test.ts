/**
 * Ubuntu autoinstall: Subiquity's verdict (engine/autoinstall/) as the installers of 24.04 and 26.04 decide
 * it, its findings in the editor's terms, and what `--check`/`--lint` give for it. Every expected verdict
 * here is what ../shared/oracle/autoinstall.py answered for the same file (test/oracle/autoinstall.diff.ts
 * compares the two over a corpus).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCli } from '../support/cli';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { autoinstallOfText } from '../../server/src/engine/autoinstall/recognise';
import { subiquityFacts } from '../../server/src/engine/autoinstall/facts';
import { resolveTarget } from '../../server/src/engine/version/profiles';
import type { Finding } from '../../server/src/engine/findings/findings';

const CC = (body: string) => `#cloud-config\nautoinstall:\n  version: 1\n${body}`;
const IDENTITY = "  identity: {hostname: h, username: ubuntu, password: '$6$abc$def'}\n";

function first(text: string, profile: '24.04' | '26.04' = '24.04', path = 'user-data') {
  const r = autoinstallOfText(text, path, profile);
  assert.ok(r, 'an autoinstall config');
  return { verdict: r.verdict.verdict, error: r.verdict.errors[0] ? `${r.verdict.errors[0].section}: ${r.verdict.errors[0].cause}: ${r.verdict.errors[0].message}` : null, verdictOf: r.verdict };
}

function apply(text: string, f: Finding): string {
  const fix = f.fixes?.[0];
  assert.ok(fix, `a fix on ${f.code}`);
  let out = text;
  // Edits of one fix never overlap: apply from the end so earlier offsets hold; an insert before a delete at the same place.
  const edits = fix.edits.map((e, i) => ({ ...e, i })).sort((a, b) => b.span.start - a.span.start || b.i - a.i);
  for (const e of edits) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}

test('the facts are extracted per snapshot, with the commit, in controller order', () => {
  for (const p of ['24.04', '26.04'] as const) {
    const f = subiquityFacts(p);
    assert.match(f['x-ccm'].commit, /^[0-9a-f]{12}$/);
    const keys = f.controllers.map((c) => c.key).filter((k) => k !== null);
    assert.ok(keys.indexOf('keyboard') < keys.indexOf('identity') && keys.indexOf('identity') < keys.indexOf('timezone'));
    assert.ok(f.keyboard.us.includes('intl') && !('en' in f.keyboard));
    assert.ok(f.reserved.includes('daemon'));
    assert.ok(!JSON.stringify(f.sections).includes('"description"'), 'no Subiquity prose');
  }
  assert.equal(subiquityFacts('24.04').checks.usernames, false);
  assert.equal(subiquityFacts('26.04').checks.usernames, true);
  assert.equal(resolveTarget({ image: 'ubuntu-26.04' }).subiquity, '26.04');
  assert.equal(resolveTarget({ image: 'debian-12' }).subiquity, undefined);
});

test('the first error is the one that stops the install, in Subiquity order and words', () => {
  assert.deepEqual(first(CC(`  keyboard: {layout: en}\n${IDENTITY}  timezone: Mars/Base\n`)).error, 'keyboard: ValueError: Unknown keyboard layout "en"');
  assert.equal(first(CC(`${IDENTITY}  timezone: Mars/Base\n`)).error, 'timezone: AutoinstallError: unknown timezone: Mars/Base');
  assert.equal(first(CC(`  keyboard: {layout: us, variant: uk}\n${IDENTITY}`)).error, 'keyboard: ValueError: Unknown keyboard variant "uk" for layout "us"');
  assert.equal(first(CC('  shutdown: halt\n' + IDENTITY)).error, "shutdown: AutoinstallValidationError: Malformed autoinstall in 'shutdown' section");
  assert.equal(first('#cloud-config\nautoinstall:\n  version: 2\n').error, "version or interactive-sections: AutoinstallValidationError: Malformed autoinstall in 'version or interactive-sections' section");
  assert.equal(first(CC('  locale: en_US.UTF-8\n')).error, 'identity: AutoinstallError: neither identity nor user-data provided');
  assert.equal(first(CC('  user-data: {users: [{name: ops}]}\n')).verdict, 'valid');
  assert.equal(first(CC('  user-data: {runcmd: reboot}\n')).error, "user-data: CloudInitSchemaValidationError: Cloud config schema errors: autoinstall.user-data.runcmd: 'reboot' is not of type 'array'");
  assert.equal(first(CC(IDENTITY + '  apt: {primary: [], mirror-selection: {primary: [country-mirror]}}\n')).error, 'apt: ValueError: apt->primary and apt->mirror-selection are mutually exclusive.');
  assert.equal(first(CC(IDENTITY + '  reporting: {hook: {type: rsyslog}}\n')).error, "reporting: KeyError: 'rsyslog'");
});

test('user names: 24.04 takes any, 26.04 rejects reserved and invalid ones', () => {
  const daemon = CC("  identity: {hostname: h, username: daemon, password: '$6$a$b'}\n");
  assert.equal(first(daemon, '24.04').verdict, 'valid');
  assert.equal(first(daemon, '26.04').error, 'identity: AutoinstallError: Username is reserved by the system: daemon');
  assert.equal(first(CC("  identity: {hostname: h, username: Admin, password: '$6$a$b'}\n"), '26.04').error, 'identity: AutoinstallError: Username contains invalid characters: Admin');
  assert.equal(first(CC("  identity: {hostname: h, username: root, password: '$6$a$b'}\n"), '26.04').error, 'identity: AutoinstallError: Username is already in use: root');
});

test('where the config is found: misplaced keys, the media file, no autoinstall', () => {
  const misplaced = first(`${CC(IDENTITY)}late-commands: ['true']\n`);
  assert.equal(misplaced.error, 'top-level keys: AutoinstallError: Misplaced autoinstall directives resulted in a cloud-init schema validation failure.');
  // cloud-init knows `packages`: not caught, only our warning
  const packages = first(`${CC(IDENTITY)}packages: [vim]\n`);
  assert.equal(packages.verdict, 'valid');
  assert.deepEqual(packages.verdictOf.outside, ['packages']);
  assert.equal(autoinstallOfText('#cloud-config\nautoinstall: {}\n', 'user-data', '24.04')?.verdict.verdict, 'no-autoinstall');
  assert.equal(autoinstallOfText('#cloud-config\npackages: [vim]\n', 'user-data', '24.04'), null);
  const media = first(`autoinstall:\n  version: 1\n${IDENTITY}packages: [x]\n`, '24.04', '/iso/autoinstall.yaml');
  assert.equal(media.error, "top-level keys: AutoinstallValidationError: Malformed autoinstall in 'top-level keys' section");
  const whole = first(`version: 1\n${IDENTITY.trimStart()}`, '24.04', 'autoinstall.yaml');
  assert.equal(whole.verdict, 'valid');
  assert.equal(whole.verdictOf.foundAt, 'whole file');
  const typo = first(CC(`${IDENTITY}  early-coomands: [ls]\n  package_update: true\n`));
  assert.equal(typo.verdict, 'valid');
  assert.deepEqual(typo.verdictOf.unrecognized, ['early-coomands', 'package_update']);
});

test('the editor: findings with their codes, severities, places and fixes', () => {
  const text = `${CC(`  keyboard: {layout: en}\n  identity:\n    hostname: h\n    username: ubuntu\n    password: secret\n  late-commands:\n    - apt install foo\n  storage:\n    layout: {name: lvm}\n    config: []\n  early-coomands: [ls]\n`)}packages: [vim]\n`;
  const a = analyzeDocument(text, 'user-data');
  const byCode = (c: string) => a.findings.filter((f) => f.code === c);
  const [stop] = byCode('autoinstall-error');
  assert.equal(stop.severity, 'error');
  assert.match(stop.message, /^Subiquity 24\.04 stops the install: ValueError: Unknown keyboard layout "en"/);
  assert.equal(text.slice(stop.span.start, stop.span.end), 'en');
  const pw = byCode('autoinstall-password-not-hashed');
  assert.equal(pw.length, 1);
  assert.equal(text.slice(pw[0].span.start, pw[0].span.end), 'secret');
  const late = byCode('autoinstall-late-command-not-in-target')[0];
  assert.equal(late.severity, 'warning');
  assert.match(apply(text, late), /- curtin in-target -- apt install foo\n/);
  assert.equal(byCode('autoinstall-warning').length, 1, "storage with both layout and config");
  assert.match(byCode('autoinstall-unknown-key')[0].message, /did you mean 'early-commands'/);
  const outside = byCode('autoinstall-key-outside')[0];
  const moved = apply(text, outside);
  assert.ok(!/^packages:/m.test(moved) && /\n {2}packages: \[vim\]\n/.test(moved), moved);
  assert.equal(analyzeDocument(moved, 'user-data').findings.filter((f) => f.code === 'autoinstall-key-outside').length, 0);
  assert.deepEqual(a.autoinstall?.errors.map((e) => [e.section, e.line, e.column]), [['keyboard', 4, 14]]);
  // An image without Subiquity: nothing of it.
  assert.equal(analyzeDocument(text, 'user-data', { subiquity: null }).findings.filter((f) => f.code.startsWith('autoinstall')).length, 0);
});

test('the misplaced key is moved under autoinstall by its fix', () => {
  const text = `${CC(IDENTITY)}late-commands:\n  - 'true'\n`;
  const f = analyzeDocument(text, 'user-data').findings.find((x) => x.code === 'autoinstall-error');
  assert.ok(f);
  const fixed = apply(text, f);
  assert.equal(fixed, `${CC(IDENTITY)}  late-commands:\n    - 'true'\n`);
  assert.equal(first(fixed).verdict, 'valid');
  // Where autoinstall: has the key already, the move would shadow it: no fix.
  const both = `${CC(`${IDENTITY}  late-commands: [ls]\n`)}late-commands:\n  - 'true'\n`;
  assert.equal(analyzeDocument(both, 'user-data').findings.find((x) => x.code === 'autoinstall-error')?.fixes, undefined);
});

test('an autoinstall.yaml is its own kind; a top-level autoinstall: in other files needs #cloud-config', () => {
  const a = analyzeDocument(`autoinstall:\n  version: 1\n${IDENTITY}  timezone: Mars/Base\n`, '/iso/autoinstall.yaml');
  assert.equal(a.info?.kind, 'autoinstall');
  assert.deepEqual(a.findings.map((f) => f.code), ['autoinstall-error']);
  // Subiquity cannot load it: the install stops at _read_config (the oracle: ScannerError, no section, its mark on line 4).
  const broken = analyzeDocument('autoinstall:\n  version: 1\napt install curl -y\n', '/iso/autoinstall.yaml');
  assert.deepEqual(broken.findings.map((f) => [f.code, f.severity]), [['yaml-invalid', 'error']]);
  assert.deepEqual([broken.autoinstall?.valid, broken.autoinstall?.errors[0].section, broken.autoinstall?.errors[0].cause, broken.autoinstall?.errors[0].line], [false, null, 'YAMLError', 4]);
  const typed = analyzeDocument(`autoinstall:\n  version: 1\n${IDENTITY}`, 'user-data', { kind: 'autoinstall' });
  assert.deepEqual(typed.findings.map((f) => f.code), ['autoinstall-no-cloud-config-header']);
});

test('--check --format json gives each autoinstall file its verdict, the stopping error first; --lint the same findings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-autoinstall-'));
  try {
    const ud = join(dir, 'user-data');
    writeFileSync(ud, CC(`  keyboard: {layout: en}\n${IDENTITY}  timezone: Mars/Base\n`));
    const media = join(dir, 'autoinstall.yaml');
    writeFileSync(media, `autoinstall:\n  version: 1\n  identity: {hostname: h, username: daemon, password: '$6$a$b'}\n`);
    const r = runCli(['--check', '--format', 'json', '--image', 'ubuntu-26.04', ud, media]);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout) as { files: Array<{ file: string; autoinstall?: { valid: boolean; subiquity: string; errors: Array<{ section: string; message: string; line: number }> } }>; findings: Array<{ code: string; severity: string; file: string }> };
    const u = out.files.find((f) => f.file === ud)?.autoinstall;
    assert.equal(u?.valid, false);
    assert.equal(u?.subiquity, '26.04');
    assert.deepEqual(u?.errors.map((e) => [e.section, e.message]), [['keyboard', 'Unknown keyboard layout "en"'], ['timezone', 'unknown timezone: Mars/Base']]);
    const m = out.files.find((f) => f.file === media)?.autoinstall;
    assert.deepEqual(m?.errors.map((e) => e.message), ['Username is reserved by the system: daemon']);
    // The media file is not user-data: cloud-init's schema is not run on it.
    assert.equal(out.files.filter((f) => f.file === media).length, 1);
    const lint = runCli(['--lint', '--image', 'ubuntu-26.04', ud, media]);
    const codes = lint.stdout.split('\n').filter((l) => l.includes('[autoinstall-')).length;
    assert.equal(codes, out.findings.filter((f) => f.code.startsWith('autoinstall-')).length);
    assert.equal(runCli(['--check', '--format', 'json', '--image', 'debian-12', ud]).stdout.includes('"autoinstall"'), false);
    // The text says Subiquity's verdict on each, also when it is valid (it said nothing at all before).
    const text = runCli(['--check', '--image', 'ubuntu-26.04', ud, media]);
    assert.match(text.stdout, new RegExp(`^Invalid autoinstall ${ud.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} \\(Subiquity 26\\.04, delivered as cloud-config\\): Unknown keyboard layout "en"$`, 'm'));
    writeFileSync(media, `autoinstall:\n  version: 1\n  identity: {hostname: h, username: ubuntu, password: '$6$a$b'}\n`);
    const valid = runCli(['--check', '--image', 'ubuntu-26.04', media]);
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    assert.match(valid.stdout, /^Valid autoinstall .*autoinstall\.yaml \(Subiquity 26\.04, as the install media carry it\)$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
