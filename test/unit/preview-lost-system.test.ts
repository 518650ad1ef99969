// What the system-config merges lost, as the preview header and the CLI say it: a cloud.cfg.d drop-in's
// values that a drop-in merged before it kept (by default the alphabetically last file wins), cloud.cfg's
// values that the drop-ins took, and at boot what user-data took over vendor-data and the system config.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { HEADER_WIDTH, buildPreview, unwrapHeader } from '../../server/src/engine/render/previewText';
import { runCli } from '../support/cli';
import { header, unwrapped } from '../support/previewHeader';

const DPKG = 'datasource_list: [NoCloud, None]\npackages: [dpkg-pkg]\n';
const LOCAL = 'datasource_list: [ConfigDrive]\npreserve_hostname: true\n';
const CLOUD_CFG = 'preserve_hostname: false\ntimezone: UTC\n';
const USER_DATA = '#cloud-config\npackages: [curl]\n';
const VENDOR = '#cloud-config\npackages: [vendor-pkg]\ntimezone: Europe/Paris\n';
const enc = (text: string) => new TextEncoder().encode(text);

const dropIns = [
  { name: 'cloud.cfg.d/90_dpkg.cfg', bytes: enc(DPKG) },
  { name: 'cloud.cfg.d/99_local.cfg', bytes: enc(LOCAL) },
];
const cloudCfg = { name: 'cloud.cfg', bytes: enc(CLOUD_CFG) };

describe('what the cloud.cfg.d merge lost', () => {
  test('a drop-in merged later loses to the one merged first, cloud.cfg to the drop-ins; with places and specs', () => {
    const model = buildPreview('confd', dropIns, { layers: { cloudCfg } });
    const text = unwrapped(model.text);
    assert.match(text, /^# What this cloud\.cfg\.d merge lost \(2 values\), by the file that had it:$/m);
    assert.match(text, /^# {3}From cloud\.cfg\.d\/90_dpkg\.cfg, merged with list\(\)\+dict\(\)\+str\(\) \(default\):$/m);
    assert.match(text, /^# {5}datasource_list \['NoCloud', 'None'\] at cloud\.cfg\.d\/90_dpkg\.cfg:1: lost, cloud\.cfg\.d\/99_local\.cfg:1 kept \(dict\(no_replace\) keeps the existing value; a list is only merged with recurse_list\)$/m);
    assert.match(text, /^# {3}From cloud\.cfg, merged with list\(\)\+dict\(\)\+str\(\) \(default\):$/m);
    assert.match(text, /^# {5}preserve_hostname False at cloud\.cfg:1: lost, cloud\.cfg\.d\/99_local\.cfg:2 kept /m);
    assert.deepEqual(model.losses?.groups.map((g) => [g.owner, g.by, g.values.map((v) => v.path)]), [
      [0, 0, ['datasource_list']],
      [2, 2, ['preserve_hostname']],
    ]);
    // what was lost is really not in the result
    assert.match(model.body, /datasource_list:\n- ConfigDrive\n/);
    assert.match(model.body, /preserve_hostname: true\n/);
    for (const line of header(model.text)) assert.ok(line.length <= HEADER_WIDTH, line);
  });

  test('a drop-in whose merge_how replaces says what it overwrote, and an option its merger ignores', () => {
    const replacing = { name: 'cloud.cfg.d/10_replace.cfg', bytes: enc('merge_how: dict(replace,recurse_lst)+list()+str()\ndatasource_list: [Ec2]\n') };
    const model = buildPreview('confd', [replacing, ...dropIns]);
    const text = unwrapped(model.text);
    assert.match(text, /^# {3}Ignored option in cloud\.cfg\.d\/10_replace\.cfg, dict\(replace,recurse_lst\): 'recurse_lst' is not an option of dict\(\): ignored, so /m);
    assert.match(text, /^# {3}From cloud\.cfg\.d\/99_local\.cfg, displaced by cloud\.cfg\.d\/10_replace\.cfg, merged with dict\(replace,recurse_lst\)\+list\(\)\+str\(\):$/m);
    assert.match(text, /^# {5}datasource_list \['ConfigDrive'\] at cloud\.cfg\.d\/99_local\.cfg:1: replaced by cloud\.cfg\.d\/10_replace\.cfg:2 /m);
    assert.match(model.body, /datasource_list:\n- Ec2\n/);
  });

  test('nothing lost is said too', () => {
    const model = buildPreview('confd', [dropIns[1]]);
    assert.match(unwrapped(model.text), /^# What this cloud\.cfg\.d merge lost: nothing \(no value of a file was replaced, deleted, lost or dropped\)$/m);
  });
});

describe('what the boot-time layering lost', () => {
  test('user-data over vendor-data over the system config: each lost value with the layer and place that kept another', () => {
    const model = buildPreview('boot', [{ name: 'user-data.yaml', bytes: enc(USER_DATA) }], {
      layers: { cloudCfg, confd: dropIns, vendor: { name: 'vendor.yaml', bytes: enc(VENDOR) } },
    });
    const text = unwrapped(model.text);
    assert.match(text, /^# What this boot-time layering lost \(3 values\), by the layer that had it:$/m);
    assert.match(text, /^# {3}From vendor-data \(vendor\.yaml\), merged with list\(\)\+dict\(\)\+str\(\) \(default\):$/m);
    assert.match(text, /^# {5}packages \['vendor-pkg'\] at vendor\.yaml:2: lost, user-data\.yaml:2 kept /m);
    assert.match(text, /^# {3}From base \(system config\), merged with list\(\)\+dict\(\)\+str\(\) \(default\):$/m);
    assert.match(text, /^# {5}packages \['dpkg-pkg'\] at cloud\.cfg\.d\/90_dpkg\.cfg:2: lost, user-data\.yaml:2 kept /m);
    assert.match(text, /^# {5}timezone 'UTC' at cloud\.cfg:2: lost, vendor\.yaml:3 kept /m);
    // the user-data layer's own merge keeps its section
    assert.match(text, /^# What this user-data merge lost: nothing /m);
    assert.match(model.body, /packages:\n- curl\n/);
    assert.match(model.body, /timezone: Europe\/Paris\n/);
    for (const line of header(model.text)) assert.ok(line.length <= HEADER_WIDTH, line);
  });
});

describe('the CLI says it too', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ccm-lost-system-'));
    mkdirSync(path.join(dir, 'cloud.cfg.d'));
    writeFileSync(path.join(dir, 'cloud.cfg.d/90_dpkg.cfg'), DPKG);
    writeFileSync(path.join(dir, 'cloud.cfg.d/99_local.cfg'), LOCAL);
    writeFileSync(path.join(dir, 'cloud.cfg'), CLOUD_CFG);
    writeFileSync(path.join(dir, 'user-data.yaml'), USER_DATA);
    writeFileSync(path.join(dir, 'vendor.yaml'), VENDOR);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => path.join(dir, f);

  test('--mode confd --format preview and report', () => {
    const args = ['--mode', 'confd', '--cloud-cfg', at('cloud.cfg'), at('cloud.cfg.d/90_dpkg.cfg'), at('cloud.cfg.d/99_local.cfg')];
    const preview = runCli([...args, '--format', 'preview']);
    assert.equal(preview.code, 0, preview.stderr);
    for (const line of header(preview.stdout)) assert.ok(line.length <= HEADER_WIDTH, line);
    assert.match(unwrapHeader(preview.stdout), /datasource_list \['NoCloud', 'None'\] at .*90_dpkg\.cfg:1: lost, .*99_local\.cfg:1 kept/);
    const report = runCli([...args, '--format', 'report']);
    assert.equal(report.code, 0, report.stderr);
    const lost = JSON.parse(report.stdout).lost;
    assert.equal(lost.total, 2);
    assert.deepEqual(lost.values[0], {
      file: at('cloud.cfg.d/90_dpkg.cfg'),
      by_file: at('cloud.cfg.d/90_dpkg.cfg'),
      path: 'datasource_list',
      value: "['NoCloud', 'None']",
      what: 'lost',
      reason: 'dict(no_replace) keeps the existing value; a list is only merged with recurse_list',
      at: { file: at('cloud.cfg.d/90_dpkg.cfg'), line: 1, column: 18 },
      by: { file: at('cloud.cfg.d/99_local.cfg'), line: 1, column: 18 },
    });
    // Named as given (--cloud-cfg PATH), as provenance and the fates name it.
    assert.deepEqual([lost.values[1].file, lost.values[1].path], [at('cloud.cfg'), 'preserve_hostname']);
  });

  test('--mode boot --format preview and report', () => {
    const args = ['--mode', 'boot', '--cloud-cfg', at('cloud.cfg'), '--confd', at('cloud.cfg.d/90_dpkg.cfg'), '--confd', at('cloud.cfg.d/99_local.cfg'), '--vendor', at('vendor.yaml'), at('user-data.yaml')];
    const preview = runCli([...args, '--format', 'preview']);
    assert.equal(preview.code, 0, preview.stderr);
    for (const line of header(preview.stdout)) assert.ok(line.length <= HEADER_WIDTH, line);
    assert.match(unwrapHeader(preview.stdout), /timezone 'UTC' at .*cloud\.cfg:2: lost, .*vendor\.yaml:3 kept/);
    const report = runCli([...args, '--format', 'report']);
    assert.equal(report.code, 0, report.stderr);
    const lost = JSON.parse(report.stdout).lost;
    assert.equal(lost.total, 3);
    assert.deepEqual(
      lost.values.map((v: { layer: string; by_layer: string; path: string; what: string }) => [v.layer, v.by_layer, v.path, v.what]),
      [
        ['vendor-data', 'vendor-data', 'packages', 'lost'],
        ['base', 'base', 'packages', 'lost'],
        ['base', 'base', 'timezone', 'lost'],
      ],
    );
  });
});
