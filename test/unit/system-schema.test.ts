/**
 * Issue 30: a cloud.cfg.d drop-in or cloud.cfg checked against cloud-init's schema the way cloud-init holds
 * system config to it (engine/schema/systemConfig.ts; read from main_init and checked with the oracle's
 * confd, boot and schema modes): the problem is shown on the value, as a warning that says where cloud-init
 * reports it (22.4: its boot log; later: nowhere), and `system_info`, the system-config key, is not one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { buildPreview } from '../../server/src/engine/render/previewText';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCli } from '../support/cli';

const DROP_IN = 'preserve_hostname: flase\nsystem_info:\n  distro: debian\n';
const enc = (s: string) => new TextEncoder().encode(s);

test('a drop-in with preserve_hostname: flase gets a warning on the value, saying cloud-init does not report it', () => {
  const found = analyzeDocument(DROP_IN, '/etc/cloud/cloud.cfg.d/50-hostname.cfg', { schema: true }).findings.filter((f) => f.code.startsWith('schema-'));
  assert.equal(found.length, 1, JSON.stringify(found));
  const [f] = found;
  assert.equal(f.severity, 'warning');
  assert.equal(DROP_IN.slice(f.span.start, f.span.end), 'flase');
  assert.match(f.message, /^preserve_hostname: 'flase' is not of type 'boolean' — cloud-init checks only user-data .*reported nowhere/);
});

test('on 22.4 the same drop-in says what the boot log says', () => {
  const found = analyzeDocument(DROP_IN, '/etc/cloud/cloud.cfg.d/50-hostname.cfg', { schema: true, version: '22.4' }).findings.filter((f) => f.code === 'schema-error');
  assert.ok(found.length >= 1);
  assert.match(found[0].message, /22\.4 checks the merged config, system config included, at boot: its log only says "Invalid cloud-config provided/);
});

test('cloud.cfg with system_info, keys only system config has, and a correct drop-in: nothing to report', () => {
  const cfg = 'system_info:\n  distro: debian\n  default_user: {name: debian}\ndatasource_list: [NoCloud, None]\ndef_log_file: /var/log/cloud-init.log\ncloud_init_modules: [seed_random]\n';
  assert.deepEqual(analyzeDocument(cfg, '/etc/cloud/cloud.cfg', { schema: true }).findings, []);
  assert.deepEqual(analyzeDocument('preserve_hostname: true\n', 'cloud.cfg.d/50-ok.cfg', { schema: true }).findings, []);
});

test('the confd preview lists the problem with the drop-in and line that wrote it', () => {
  const model = buildPreview('confd', [{ name: '10-base.cfg', bytes: enc('preserve_hostname: true\n') }, { name: '50-hostname.cfg', bytes: enc('\n' + DROP_IN) }], { schema: true });
  const lines = model.text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('# Schema of this system config (1 error, 0 deprecations)'));
  assert.ok(at > 0, model.text);
  assert.ok(lines.slice(at).some((l) => l === "#   error: preserve_hostname: 'flase' is not of type 'boolean' (50-hostname.cfg:2)"), model.text);
  const clean = buildPreview('confd', [{ name: '10-base.cfg', bytes: enc('preserve_hostname: true\n') }], { schema: true });
  assert.doesNotMatch(clean.text, /Schema/);
});

test('--check --mode confd lists the drop-in\'s problem with its place and exits 1; a correct drop-in exits 0', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-confd-'));
  try {
    const bad = join(dir, '50-hostname.cfg');
    writeFileSync(bad, DROP_IN);
    const r = runCli(['--check', '--mode', 'confd', bad]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^Schema of this system config \(1 error, 0 deprecations\): cloud-init checks only user-data against its schema/m);
    assert.match(r.stdout, /^ {2}error: preserve_hostname: 'flase' is not of type 'boolean' \(.*50-hostname\.cfg:1\)$/m);
    const good = join(dir, '60-ok.cfg');
    writeFileSync(good, 'preserve_hostname: true\n');
    assert.equal(runCli(['--check', '--mode', 'confd', good]).code, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
