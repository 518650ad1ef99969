/**
 * The boot-plan pitfalls (issue 29): our own checks of what cloud-init does at boot, on the line where the
 * value is written, with the quick fix where one is obvious (the text it inserts, in the file's own style).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergedValue, runSet } from '../../server/src/engine/outcome/run';
import { planBoot } from '../../server/src/engine/plan/plan';
import { planTarget } from '../../server/src/engine/plan/facts';
import { Pitfall, planPitfalls } from '../../server/src/engine/plan/pitfalls';
import type { Target } from '../../server/src/engine/version/target';

function pitfalls(text: string, distro = 'ubuntu', cloudCfg?: string, oncePerInstanceHints = false): Pitfall[] {
  const outcome = runSet('user-data', { files: [{ name: 'u.yaml', bytes: Buffer.from(text) }] });
  assert.equal(outcome.kind, 'user-data');
  const target = planTarget('current', distro) as Target;
  const given = cloudCfg === undefined ? {} : { cloudCfg: { name: 'cloud.cfg', value: mergedValue(runSet('system', { files: [{ name: 'cloud.cfg', bytes: Buffer.from(cloudCfg) }] })) } };
  const result = planBoot(mergedValue(outcome), target, given);
  assert.ok(result.ok);
  return planPitfalls(result.plan, mergedValue(outcome), outcome.kind === 'user-data' ? outcome.locate : null, () => text, { oncePerInstanceHints });
}

const apply = (text: string, p: Pitfall) => {
  assert.ok(p.fix, `${p.code} has a fix`);
  const lines = text.split('\n');
  const line = lines[p.fix.at.line];
  lines[p.fix.at.line] = line.slice(0, p.fix.at.character) + p.fix.text + line.slice(p.fix.at.character);
  return lines.join('\n');
};

test('a file owned by a user created later: error on owner, and adding defer: true clears it', () => {
  const text = '#cloud-config\nusers: [default, app]\nwrite_files:\n- path: /etc/app\n  owner: app\n';
  const found = pitfalls(text).find((p) => p.code === 'plan-owner-created-later');
  assert.deepEqual([found?.severity, found?.at?.line, found?.at?.character], ['error', 4, 2]);
  const fixed = apply(text, found as Pitfall);
  assert.equal(fixed, '#cloud-config\nusers: [default, app]\nwrite_files:\n- path: /etc/app\n  defer: true\n  owner: app\n');
  assert.equal(pitfalls(fixed).find((p) => p.code === 'plan-owner-created-later'), undefined);
});

test('the defer fix follows a flow mapping', () => {
  const text = '#cloud-config\nusers: [default, app]\nwrite_files: [{path: /etc/app, owner: app}]\n';
  const found = pitfalls(text).find((p) => p.code === 'plan-owner-created-later') as Pitfall;
  assert.equal(apply(text, found), '#cloud-config\nusers: [default, app]\nwrite_files: [{path: /etc/app, defer: true, owner: app}]\n');
});

test('users without default: warning naming the default user, and the fix adds - default', () => {
  const text = '#cloud-config\nusers:\n  - name: app\n    sudo: ALL\n';
  const found = pitfalls(text, 'fedora').find((p) => p.code === 'plan-no-default-user') as Pitfall;
  assert.equal(found.severity, 'warning');
  assert.match(found.message, /default user fedora is not created/);
  assert.equal(apply(text, found), '#cloud-config\nusers:\n  - default\n  - name: app\n    sudo: ALL\n');
  assert.equal(pitfalls(apply(text, found), 'fedora').find((p) => p.code === 'plan-no-default-user'), undefined);
  assert.equal(apply('#cloud-config\nusers: [app]\n', pitfalls('#cloud-config\nusers: [app]\n').find((p) => p.code === 'plan-no-default-user') as Pitfall), '#cloud-config\nusers: [default, app]\n');
});

test('defer: true where write_files_deferred does not run: the file is never written', () => {
  const cfg = 'cloud_init_modules: [write_files, users_groups]\ncloud_final_modules: [scripts_user]\n';
  const found = pitfalls('#cloud-config\nwrite_files:\n- path: /x\n  defer: true\n', 'ubuntu', cfg).find((p) => p.code === 'plan-defer-never-written');
  assert.equal(found?.severity, 'error');
  assert.equal(found?.at?.line, 3);
  assert.match(found?.message ?? '', /never written.*write_files_deferred is in none of this image's module lists/);
});

test('reboot in bootcmd is an error (every boot); in runcmd a warning naming the modules it cuts off', () => {
  const boot = pitfalls('#cloud-config\nbootcmd: [reboot]\n').find((p) => p.code === 'plan-reboot-early');
  assert.equal(boot?.severity, 'error');
  const run = pitfalls('#cloud-config\nruncmd: [[/sbin/shutdown, -r, now]]\n').find((p) => p.code === 'plan-reboot-early');
  assert.equal(run?.severity, 'warning');
  assert.match(run?.message ?? '', /before .*final_message run/);
});

test('a file under two users\' homes names the first user listed; one beside a home (/home/ab for /home/a) is none', () => {
  const text = '#cloud-config\nusers:\n- {name: a, homedir: /srv}\n- {name: b, homedir: /srv/b/}\n- {name: c}\nwrite_files:\n- {path: /srv/b/.profile, content: x}\n- {path: /home/cd/x, content: x}\n- {path: /home/c/x, content: x}\n';
  const homes = pitfalls(text).filter((p) => p.code === 'plan-home-before-user');
  assert.deepEqual(homes.map((p) => [p.path, /creates (\w+)/.exec(p.message)?.[1]]), [
    ['write_files[0].path', 'a'],
    ['write_files[2].path', 'c'],
  ]);
});

test('a file into a home directory before its user exists; keys of once-per-instance modules get a hint when asked', () => {
  const text = '#cloud-config\nusers: [default]\nwrite_files:\n- path: /home/ubuntu/.profile\n  content: x\n';
  const all = pitfalls(text);
  const home = all.find((p) => p.code === 'plan-home-before-user');
  assert.equal(home?.at?.line, 3);
  assert.match(home?.message ?? '', /before users_groups .* creates ubuntu/);
  // True of most keys of most files: quiet unless asked for (PlanOptions.oncePerInstanceHints, --plan-hints).
  assert.equal(all.find((p) => p.code === 'plan-once-per-instance'), undefined);
  const hint = pitfalls(text, 'ubuntu', undefined, true).find((p) => p.code === 'plan-once-per-instance' && p.path === 'write_files');
  assert.equal(hint?.severity, 'hint');
});
