/**
 * The pitfall corpus (test/support/pitfallCorpus.ts, issue 38): each boot-plan pitfall fires on the files
 * where the boot really goes wrong and stays quiet where it does not, on the line of the value. What
 * cloud-init itself decides in each case is checked against the oracle by test/oracle/pitfalls.diff.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergedValue, runSet } from '../../server/src/engine/outcome/run';
import { planTarget } from '../../server/src/engine/plan/facts';
import { planOfOutcome } from '../../server/src/engine/plan/ofOutcome';
import type { Pitfall } from '../../server/src/engine/plan/pitfalls';
import type { Target } from '../../server/src/engine/version/target';
import { PITFALL_CORPUS, type PitfallCase } from '../support/pitfallCorpus';
import { FINDING_CODES } from '../../server/src/engine/findings/codes';
import { buildPreview } from '../../server/src/engine/render/previewText';

function pitfallsOf(c: PitfallCase): { pitfalls: Pitfall[]; otherTool: boolean } {
  const outcome = runSet('user-data', { files: c.files.map(([name, text]) => ({ name, bytes: Buffer.from(text) })) });
  const target = planTarget('current', c.distro ?? 'ubuntu');
  assert.equal(typeof target, 'object', `${c.name}: ${String(target)}`);
  const cloudCfg = c.cloudCfg === undefined ? undefined : { name: 'cloud.cfg', value: mergedValue(runSet('system', { files: [{ name: 'cloud.cfg', bytes: Buffer.from(c.cloudCfg) }] })) };
  const plan = planOfOutcome(outcome, target as Target, { ...(cloudCfg ? { cloudCfg } : {}), oncePerInstanceHints: c.hints === true });
  assert.ok(!('error' in plan), `${c.name}: ${'error' in plan ? plan.error : ''}`);
  return { pitfalls: plan.pitfalls, otherTool: plan.otherTool === true };
}

for (const c of PITFALL_CORPUS) {
  test(`${c.code} ${c.fires ? 'fires' : 'is quiet'}: ${c.name} (the boot: ${c.boot})`, () => {
    const { pitfalls } = pitfallsOf(c);
    const mine = pitfalls.filter((p) => p.code === c.code);
    if (!c.fires) {
      assert.deepEqual(mine.map((p) => p.message), [], `${c.name}: no ${c.code}`);
      return;
    }
    assert.ok(mine.length > 0, `${c.name}: ${c.code} expected, got ${pitfalls.map((p) => p.code).join(', ') || 'none'}`);
    if (c.message) assert.ok(mine.some((p) => c.message!.test(p.message)), `${c.name}: ${mine.map((p) => p.message).join(' | ')}`);
    if (c.line !== undefined) assert.ok(mine.some((p) => p.at?.line === c.line && p.at?.file === c.files[0][0]), `${c.name}: at ${mine.map((p) => p.at && `${p.at.file}:${p.at.line}`).join(', ')}`);
  });
}

test('every pitfall code has a case where it fires and one where it does not', () => {
  const codes = Object.keys(FINDING_CODES).filter((c) => c.startsWith('plan-'));
  for (const code of codes) {
    assert.ok(PITFALL_CORPUS.some((c) => c.code === code && c.fires), `${code} fires somewhere`);
    assert.ok(PITFALL_CORPUS.some((c) => c.code === code && !c.fires), `${code} is quiet somewhere`);
  }
});

test('a file for another tool is named once, and --plan says that instead of a module list', () => {
  const coreos = PITFALL_CORPUS.find((c) => c.name === 'a coreos-cloudinit file')!;
  const { pitfalls, otherTool } = pitfallsOf(coreos);
  // ssh_authorized_keys would otherwise get its own pitfalls: the file is said once, as what it is.
  assert.deepEqual(pitfalls.map((p) => p.code), ['plan-other-tool']);
  assert.ok(otherTool);
  // Beside a real cloud-config, the set is planned; the other tool's file is still named.
  const mixed = pitfallsOf({ ...coreos, files: [...coreos.files, ['extra.yaml', '#cloud-config\nusers:\n  - name: ops\n']] });
  assert.equal(mixed.otherTool, false);
  assert.deepEqual(mixed.pitfalls.map((p) => p.code).sort(), ['plan-no-default-user', 'plan-other-tool']);
});

test('unknown modules of the image list are not the file\'s: only its own list entries are placed', () => {
  const c = PITFALL_CORPUS.find((x) => x.name === 'a removed module')!;
  const found = pitfallsOf(c).pitfalls.find((p) => p.code === 'plan-unknown-module');
  assert.deepEqual([found?.severity, found?.path, found?.at?.line, found?.at?.character], ['info', 'cloud_config_modules[0]', 2, 4]);
});

test("the preview's Boot plan section names a file for another tool once, linked to it, and lists no module", () => {
  const coreos = PITFALL_CORPUS.find((c) => c.name === 'a coreos-cloudinit file')!;
  const target = planTarget('current', 'ubuntu') as Target;
  const preview = buildPreview('user-data', coreos.files.map(([name, text]) => ({ name, bytes: Buffer.from(text) })), { plan: target });
  assert.match(preview.text, /^# Boot plan: none: user-data:3 is a coreos-cloudinit file/m);
  assert.doesNotMatch(preview.text, /# Boot plan on /);
});

test('odd shapes of users, homedir and module lists give pitfalls or none, never a crash', () => {
  const odd = [
    '#cloud-config\nusers: 5\n',
    '#cloud-config\nusers: {app: true, svc: {homedir: 7, system: yes}, off: false}\nwrite_files: [{path: /home/app/x}]\n',
    '#cloud-config\nusers: "app, ops"\nwrite_files: [{path: /home/ops/.profile, owner: ops}]\n',
    '#cloud-config\nusers: [[a, b], {homedir: /}, null, {name: 3}]\nwrite_files: [{path: /x}]\n',
    '#cloud-config\ncloud_final_modules: runcmd\nruncmd: [ls]\n',
    '#cloud-config\ncloud_config_modules: [{}, [], "", [3], {name: no_such}]\n',
    '#cloud-config\ncoreos: 1\n',
    '{"ignition": "3.0"}\n',
    '{"ignition": {"version": 3}}\n',
    'variant: fcos\n',
    'autoinstall: 1\n',
  ];
  const codes = odd.map((text) => {
    const outcome = runSet('user-data', { files: [{ name: 'u', bytes: Buffer.from(text) }] });
    const plan = planOfOutcome(outcome, planTarget('current', 'ubuntu') as Target);
    return 'error' in plan ? `error: ${plan.error.slice(0, 40)}` : plan.pitfalls.map((p) => p.code).join(',');
  });
  assert.deepEqual(codes, [
    '',
    'plan-home-before-user',
    'plan-owner-created-later,plan-home-before-user',
    '',
    'plan-runcmd-never-run,plan-unknown-module',
    '',
    'plan-other-tool',
    '',
    '',
    '',
    'plan-other-tool',
  ]);
});
