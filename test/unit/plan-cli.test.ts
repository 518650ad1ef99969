/**
 * `cloud-config-merge --plan` (issue 29): the boot plan of the merged FILEs on an image, as text or JSON,
 * with the pitfalls at the file:line:column of the value. The plans were checked with the oracle
 * (`../shared/oracle/plan.py merged.yaml --distro D --cloud-init-version V`), which flags the same
 * owner, home, default-user, bootcmd and yum_repos pitfalls for the files below.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCliIn } from '../support/cli';
import { parseArgs } from '../../server/src/cli/args';

function inFolder(files: Record<string, string>, argv: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-plan-cli-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return runCliIn(argv, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface PlanJson {
  target: { cloudInitVersion: string; distro: string; cloudCfg: string };
  stages: Record<string, Array<{ module: string; frequency: string | null; runs: boolean; reason: string; activatedBy?: Array<{ key: string; file: string; line: number }> }>>;
  boots: { first: string[]; reboot: string[]; newInstance: string[] };
  pitfalls: Array<{ code: string; severity: string; message: string; file: string; line: number; column: number }>;
}

const BASE = '#cloud-config\npackages: [curl]\n';
const APP = '#cloud-config\nusers:\n  - name: app\nwrite_files:\n  - path: /etc/app.conf\n    owner: app:app\n    content: x\nbootcmd:\n  - curl -s http://example\n';

test('--plan --format json: the stages, the three boots and the pitfalls where the values are written', () => {
  const r = inFolder({ 'base.yaml': BASE, 'app.yaml': APP }, ['--plan', '--format', 'json', 'base.yaml', 'app.yaml']);
  assert.equal(r.code, 1, r.stderr);
  const plan = JSON.parse(r.stdout) as PlanJson;
  assert.deepEqual(plan.target.distro, 'ubuntu');
  assert.equal(plan.target.cloudInitVersion, 'current');
  const writeFiles = plan.stages.init.find((m) => m.module === 'write_files');
  assert.deepEqual([writeFiles?.frequency, writeFiles?.runs], ['once-per-instance', true]);
  assert.deepEqual(writeFiles?.activatedBy?.map((a) => [a.key, a.file, a.line]), [['write_files', 'app.yaml', 4]]);
  assert.ok(plan.boots.first.includes('init:write_files'));
  assert.ok(plan.boots.reboot.includes('init:bootcmd') && !plan.boots.reboot.includes('init:write_files'));
  const owner = plan.pitfalls.find((p) => p.code === 'plan-owner-created-later');
  assert.deepEqual([owner?.severity, owner?.file, owner?.line, owner?.column], ['error', 'app.yaml', 6, 5]);
  assert.match(owner?.message ?? '', /user app and group app are created by users_groups .* after write_files/);
  const bootcmd = plan.pitfalls.find((p) => p.code === 'plan-bootcmd-before-packages');
  assert.deepEqual([bootcmd?.file, bootcmd?.line], ['app.yaml', 9]);
  const users = plan.pitfalls.find((p) => p.code === 'plan-no-default-user');
  assert.match(users?.message ?? '', /default user ubuntu is not created/);
});

test('--plan text is a timeline: stages, what a reboot runs again, and the pitfalls', () => {
  const r = inFolder({ 'app.yaml': '#cloud-config\nyum_repos: {epel: {baseurl: "http://x"}}\nruncmd: [echo hi]\n' }, ['--plan', 'app.yaml']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Boot plan: cloud-init current .*distro ubuntu/);
  // current says its release and what it is, not the commit its facts were extracted at (issue 42)
  assert.match(r.stdout, /^Boot plan: cloud-init current \(26\.2, upstream's main branch\), distro ubuntu/);
  assert.doesNotMatch(r.stdout, /26\.2-\d+-g[0-9a-f]+/);
  const older = inFolder({ 'app.yaml': '#cloud-config\nruncmd: [echo hi]\n' }, ['--plan', '--image', 'rhel-9', 'app.yaml']);
  assert.match(older.stdout, /^Boot plan: cloud-init 24\.4 \(24\.4\.1\), distro rhel/);
  assert.match(r.stdout, /config stage \(cloud_config_modules of the cloud.cfg\):\n/);
  assert.match(r.stdout, /runs +runcmd +once per instance +activated by runcmd \(app.yaml:3\)/);
  assert.match(r.stdout, /reboot: init:bootcmd|reboot: init:growpart/);
  assert.match(r.stdout, /app.yaml:2:1: warning: no module of this image reads yum_repos: yum_add_repo is in none of this image's module lists .*\[plan-key-not-read\]/);
});

test('--plan on Fedora with 24.4: yum_add_repo runs; a --distro cloud-init does not know is a usage error', () => {
  const fedora = inFolder({ 'app.yaml': '#cloud-config\nyum_repos: {epel: {baseurl: "http://x"}}\n' }, ['--plan', '--distro', 'fedora', '--cloud-init-version', '24.4', '--format', 'json', 'app.yaml']);
  const plan = JSON.parse(fedora.stdout) as PlanJson;
  assert.equal(plan.target.cloudInitVersion, '24.4');
  assert.equal(plan.stages.config.find((m) => m.module === 'yum_add_repo')?.runs, true);
  assert.equal(plan.pitfalls.find((p) => p.code === 'plan-key-not-read'), undefined);
  const bad = inFolder({ 'app.yaml': '#cloud-config\n{}\n' }, ['--plan', '--distro', 'plan9', 'app.yaml']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--distro: cloud-init current knows no distro 'plan9'; it knows .*fedora/);
});

test("--plan --cloud-cfg: the image's own cloud.cfg decides the module lists", () => {
  const r = inFolder({ 'cloud.cfg': 'cloud_config_modules: [runcmd]\ncloud_final_modules: [final_message]\nsystem_info: {distro: debian, default_user: {name: admin}}\n', 'app.yaml': '#cloud-config\nruncmd: [echo hi]\n' }, ['--plan', '--cloud-cfg', 'cloud.cfg', '--format', 'json', 'app.yaml']);
  const plan = JSON.parse(r.stdout) as PlanJson;
  assert.equal(plan.target.cloudCfg, 'cloud.cfg');
  assert.deepEqual(plan.stages.final.map((m) => m.module), ['final_message']);
  const never = plan.pitfalls.find((p) => p.code === 'plan-runcmd-never-run');
  assert.equal(never?.severity, 'error');
  assert.match(never?.message ?? '', /scripts_user is in none of this image's module lists/);
  assert.equal(r.code, 1);
});

test('--plan flags: a version as released, the image overridden by --cloud-init-version and --distro', () => {
  assert.equal(parseArgs(['--plan', '--cloud-init-version', '25.1.4', 'a']).target.version, '25.1');
  assert.deepEqual(parseArgs(['--plan', '--image', 'debian-13', '--distro', 'rhel', 'a']).target, { ...parseArgs(['--image', 'debian-13', 'a']).target, distro: 'rhel', cloudCfgVariant: 'rhel' });
  assert.throws(() => parseArgs(['--plan', '--format', 'yaml', 'a']), /--plan writes text or json/);
  assert.throws(() => parseArgs(['--cloud-init-version', '21.1', 'a']), /takes 22.4, 23.4, 24.4, 25.1, current/);
  assert.equal(parseArgs(['--cloud-init-version', '22.4.2']).version, '22.4');
});

test('--plan of a file for another tool says so once, instead of the image\'s module list', () => {
  const ign = '{"ignition":{"version":"3.4.0"},"passwd":{"users":[{"name":"core"}]}}\n';
  const r = inFolder({ 'config.ign': ign }, ['--plan', 'config.ign']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Boot plan: none of these files is cloud-init user-data \(cloud-init current/);
  assert.match(r.stdout, /config\.ign:1:1: warning: config\.ign is an Ignition config .*\[plan-other-tool\]\n$/);
  assert.doesNotMatch(r.stdout, /init stage|runs {5}/);
  const json = JSON.parse(inFolder({ 'config.ign': ign }, ['--plan', '--format', 'json', 'config.ign']).stdout) as PlanJson & { otherTool?: boolean };
  assert.equal(json.otherTool, true);
  assert.deepEqual(json.pitfalls.map((p) => p.code), ['plan-other-tool']);
});

test('--plan on Raspberry Pi OS: --distro raspberry-pi-os (as cloud-init spells it) and --image raspios-13 run the rpi: module', () => {
  const rpi = '#cloud-config\nrpi:\n  interfaces:\n    spi: true\n    i2c: true\n';
  for (const argv of [['--distro', 'raspberry-pi-os'], ['--image', 'raspios-13']]) {
    const r = inFolder({ 'user-data': rpi }, ['--plan', '--format', 'json', ...argv, 'user-data']);
    assert.equal(r.code, 0, r.stderr);
    const plan = JSON.parse(r.stdout) as PlanJson;
    assert.deepEqual([plan.target.distro, plan.target.cloudCfg], ['raspberry-pi-os', 'the raspberry-pi-os cloud.cfg of cloud-init current']);
    const row = plan.stages.config.find((m) => m.module === 'raspberry_pi');
    assert.deepEqual([row?.runs, row?.activatedBy?.map((a) => a.key)], [true, ['rpi']], argv.join(' '));
  }
  // With the image's own cloud.cfg the module runs too; under its module's spelling (raspberry_pi_os, a name
  // distros.fetch also finds) it is skipped: cc_raspberry_pi is verified on raspberry-pi-os only.
  const cfg = 'cloud_config_modules: [raspberry_pi]\nsystem_info:\n  distro: raspberry-pi-os\n  default_user: {name: pi}\n';
  const decided = (distro: string) => {
    const r = inFolder({ 'user-data': rpi, 'cloud.cfg': cfg }, ['--plan', '--format', 'json', '--distro', distro, '--cloud-cfg', 'cloud.cfg', 'user-data']);
    assert.equal(r.code, 0, r.stderr);
    const row = (JSON.parse(r.stdout) as PlanJson).stages.config[0];
    return [row.module, row.runs, row.reason.replace(/ \(only.*/, '')];
  };
  assert.deepEqual(decided('raspberry-pi-os'), ['raspberry_pi', true, 'activated by rpi']);
  assert.deepEqual(decided('raspberry_pi_os'), ['raspberry_pi', false, "not verified on distro 'raspberry_pi_os'"]);
  // cloud-init 25.1 has no such distro.
  const old = inFolder({ 'user-data': rpi }, ['--plan', '--distro', 'raspberry-pi-os', '--cloud-init-version', '25.1', 'user-data']);
  assert.equal(old.code, 2);
  assert.match(old.stderr, /cloud-init 25\.1 knows no distro 'raspberry-pi-os'/);
});
