/**
 * The boot plan (issue 29) in a user's terms: what cloud-init runs at boot for a cloud-config on an image.
 * The expectations were checked with the oracle (`../shared/oracle/plan.py CONFIG --distro D
 * --cloud-init-version V`); test/oracle/plan.diff.ts compares random configs on every version.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergedValue, runSet } from '../../server/src/engine/outcome/run';
import { BootPlan, planBoot } from '../../server/src/engine/plan/plan';
import { defaultCloudCfgVariant } from '../../server/src/engine/plan/facts';
import type { CloudInitVersion } from '../../server/src/engine/version/versions';

function plan(text: string, distro = 'ubuntu', version: CloudInitVersion = 'current'): BootPlan {
  const outcome = runSet('user-data', { files: [{ name: 'user-data', bytes: Buffer.from(text) }] }, { detail: 'value' });
  const variant = defaultCloudCfgVariant(version, distro);
  assert.ok(variant, `a cloud.cfg for ${distro}`);
  const result = planBoot(mergedValue(outcome), { version, distro, cloudCfgVariant: variant, netplan: 'none' });
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.plan;
}

function row(p: BootPlan, module: string) {
  for (const stage of ['init', 'config', 'final'] as const) {
    const found = p.stages[stage].rows.find((r) => r.module === module);
    if (found) return { stage, ...found };
  }
  return undefined;
}

test('runcmd is written in the config stage once per instance and run by scripts_user in the final stage', () => {
  const p = plan('#cloud-config\nruncmd: [echo hi]\n');
  assert.deepEqual([row(p, 'runcmd')?.stage, row(p, 'runcmd')?.frequency, row(p, 'runcmd')?.runs], ['config', 'once-per-instance', true]);
  assert.deepEqual(row(p, 'runcmd')?.activatedBy, ['runcmd']);
  assert.equal(row(p, 'scripts_user')?.stage, 'final');
  assert.ok(p.boots.first.includes('config:runcmd'));
  assert.ok(!p.boots.reboot.includes('config:runcmd'), 'a reboot does not run runcmd again');
  assert.ok(p.boots.newInstance.includes('config:runcmd'), 'a new instance does');
});

test('bootcmd runs on every boot; without bootcmd cloud-init skips it for want of config', () => {
  assert.ok(plan('#cloud-config\nbootcmd: [echo hi]\n').boots.reboot.includes('init:bootcmd'));
  const idle = row(plan('#cloud-config\n{}\n'), 'bootcmd');
  assert.equal(idle?.decision, 'skip_inactive');
  assert.match(idle?.reason ?? '', /no applicable config/);
});

test('yum_repos on Ubuntu: no module of the image reads it; on Fedora yum_add_repo runs', () => {
  assert.equal(row(plan('#cloud-config\nyum_repos: {a: {baseurl: "http://x"}}\n'), 'yum_add_repo'), undefined);
  assert.equal(row(plan('#cloud-config\nyum_repos: {a: {baseurl: "http://x"}}\n', 'fedora'), 'yum_add_repo')?.runs, true);
});

test("the user's own module list replaces the image's, with renamed, removed and unknown modules", () => {
  const p = plan('#cloud-config\ncloud_final_modules: [ubuntu-advantage, migrator, nope, [runcmd, always]]\n', 'ubuntu', '24.4');
  assert.equal(p.stages.final.listFrom, 'user');
  assert.deepEqual(
    p.stages.final.rows.map((r) => [r.module, r.cc, r.decision, r.frequency]),
    [
      ['ubuntu-advantage', 'cc_ubuntu_pro', 'skip_inactive', 'once-per-instance'],
      ['migrator', 'cc_migrator', 'skip_removed', null],
      ['nope', 'cc_nope', 'skip_not_found', null],
      ['runcmd', 'cc_runcmd', 'skip_inactive', 'always'],
    ],
  );
  assert.equal(row(p, 'scripts_user'), undefined);
});

test('a module not verified on the distro is skipped unless unverified_modules names it', () => {
  const skipped = plan('#cloud-config\ncloud_config_modules: [spacewalk]\nspacewalk: {server: x}\n');
  assert.equal(row(skipped, 'spacewalk')?.decision, 'skip_distro');
  const forced = plan('#cloud-config\ncloud_config_modules: [spacewalk]\nspacewalk: {server: x}\nunverified_modules: [spacewalk]\n');
  assert.equal(row(forced, 'spacewalk')?.decision, 'run_forced');
});

test('Debian 12 (22.4) plans with the Debian package\'s own cloud.cfg', () => {
  assert.equal(defaultCloudCfgVariant('22.4', 'debian'), 'debian-package');
  assert.equal(defaultCloudCfgVariant('current', 'debian'), 'debian');
  assert.equal(defaultCloudCfgVariant('current', 'opensuse'), 'suse');
  assert.equal(defaultCloudCfgVariant('current', 'no-such-os'), undefined);
});

test('an unknown cloud.cfg variant is an error naming the ones there are', () => {
  const result = planBoot(null, { version: 'current', distro: 'ubuntu', cloudCfgVariant: 'nope', netplan: 'none' });
  assert.equal(result.ok, false);
  assert.match(result.ok ? '' : result.error, /no cloud.cfg variant 'nope' \(it has .*ubuntu/);
});

test('a module list cloud-init cannot read stops that stage, as it does at boot', () => {
  const p = plan('#cloud-config\ncloud_config_modules: [3]\n');
  assert.match(p.stages.config.error ?? '', /TypeError/);
  assert.deepEqual(p.stages.config.rows, []);
});
