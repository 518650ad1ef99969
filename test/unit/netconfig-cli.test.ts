/**
 * A seed's `network-config` given to a merge as a FILE (`cloud-config-merge seed/user-data seed/network-config`):
 * cloud-init never merges network-config into user-data, so a merge, `--plan`, the JSON, report and preview,
 * `--check --image` and `--check --annotate` refuse it in words, as they refuse a meta-data FILE, instead of
 * dropping it as an unhandled part (exit 0, empty output). `--check` validates it as before; `--lint --type`
 * reads any FILE as a network-config or meta-data, as `--check --type` does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCli } from '../support/cli';

const USER = '#cloud-config\nruncmd:\n  - echo user\n';
const NETWORK = 'version: 2\nethernets:\n  eth0:\n    dhcp4: true\n';

function folder(files: Record<string, string>): { dir: string; file: (name: string) => string; done: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'ccm-nc-'));
  const dir = join(root, 'seed');
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, file: (name) => join(dir, name), done: () => rmSync(root, { recursive: true, force: true }) };
}

const REFUSED = /network-config is a network-config \(it is named network-config\), not user-data: cloud-init never merges network-config into user-data, its network stage reads it\. Validate it with --check \S+network-config \(--check --type network-config reads any FILE as one\), or give its seed folder with --seed DIR/;

test('a merge, --plan, JSON, report, the preview and boot mode refuse a file named network-config, alone or beside user-data', () => {
  const s = folder({ 'user-data': USER, 'meta-data': 'instance-id: iid-01\n', 'network-config': NETWORK });
  try {
    for (const args of [[], ['--format', 'json'], ['--format', 'report'], ['--format', 'preview'], ['--plan'], ['--mode', 'boot']]) {
      for (const files of [[s.file('network-config')], [s.file('user-data'), s.file('network-config')]]) {
        const r = runCli([...args, ...files]);
        const what = [...args, ...files].join(' ');
        assert.equal(r.code, 2, what);
        assert.equal(r.stdout, '', what);
        assert.match(r.stderr, REFUSED, what);
        assert.doesNotMatch(r.stderr, /Unhandled non-multipart/, what);
      }
    }
    // --seed merges the seed's user-data and leaves its network-config beside it: nothing refused.
    assert.equal(runCli(['--seed', s.dir]).code, 0);
  } finally {
    s.done();
  }
});

test('a YAML file whose top level is a network config is refused by a merge, said as found by its content', () => {
  const s = folder({ 'netplan.yaml': NETWORK, 'user-data': USER });
  try {
    const r = runCli([s.file('user-data'), s.file('netplan.yaml')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /netplan\.yaml is a network-config \(its top level is a network config\), not user-data: cloud-init never merges network-config into user-data/);
    // The same YAML with a #cloud-config header is user-data: merged, as cloud-init merges it.
    writeFileSync(s.file('netplan.yaml'), '#cloud-config\n' + NETWORK);
    const merged = runCli([s.file('netplan.yaml')]);
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stdout, /^version: 2$/m);
    // Handler mode: a FILE is a cloud-config part's payload, merged whatever it holds.
    assert.equal(runCli(['--mode', 'handler', s.file('netplan.yaml')]).code, 0);
  } finally {
    s.done();
  }
});

test('--plan --type network-config is refused in words, not planned as user-data', () => {
  const s = folder({ 'nc.txt': NETWORK });
  try {
    for (const type of ['network-config', 'meta-data']) {
      const r = runCli(['--plan', '--type', type, s.file('nc.txt')]);
      assert.equal(r.code, 2, type);
      assert.equal(r.stdout, '', type);
      assert.match(r.stderr, /--type goes with --check or --lint/, type);
    }
  } finally {
    s.done();
  }
});

test('--check still validates a network-config beside user-data; --image all and --annotate refuse it, naming it', () => {
  const s = folder({ 'user-data': USER, 'network-config': NETWORK });
  try {
    const checked = runCli(['--check', s.file('user-data'), s.file('network-config')]);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    assert.match(checked.stdout, /^Valid schema \S+network-config\n/);
    assert.match(checked.stdout, /^Valid schema \S+user-data$/m);
    const images = runCli(['--check', '--image', 'all', s.file('network-config')]);
    assert.equal(images.code, 2);
    assert.equal(images.stdout, '');
    assert.match(images.stderr, /--image all gives each image's verdict on user-data: \S+network-config is a network-config \(it is named network-config\); check it for one image at a time: --check --image ID /);
    const one = runCli(['--check', '--image', 'ubuntu-24.04', s.file('network-config')]);
    assert.equal(one.code, 0, one.stdout + one.stderr);
    assert.match(one.stdout, /^Valid schema \S+network-config\n/);
    for (const files of [[s.file('network-config')], [s.file('user-data'), s.file('network-config')]]) {
      const annotate = runCli(['--check', '--annotate', ...files]);
      assert.equal(annotate.code, 2, files.join(' '));
      assert.match(annotate.stderr, /--annotate prints user-data with its problems: \S+network-config is a network-config, check it without --annotate/);
    }
  } finally {
    s.done();
  }
});

test('--check --mode boot reads a network-config FILE as one, as the user-data mode does', () => {
  const s = folder({ 'network-config': 'version: 1\nconfig:\n  - type: physical\n    name: eth0\n    subnets:\n      - type: static\n        adress: 10.0.0.2/24\n' });
  try {
    const r = runCli(['--check', '--mode', 'boot', s.file('network-config')]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^Invalid network-config \S+network-config\n/);
    assert.match(r.stdout, /'adress' was unexpected/);
  } finally {
    s.done();
  }
});

test('--lint --type reads any FILE as a network-config or meta-data, as --check --type does', () => {
  // (a tunnel's mode: what netplan checks and the model does not, so the network-config read says "not checked")
  const s = folder({ 'nc.txt': '#cloud-config\nversion: 2\ntunnels:\n  gre1: {mode: gre, local: 10.0.0.1, remote: 10.0.0.2}\n', 'md.txt': 'instance_id: iid-01\n' });
  try {
    const code = (line: string) => /\[([a-z0-9-]+)\]$/.exec(line)?.[1];
    const findings = (stdout: string) => stdout.split('\n').filter((l) => /^\S+:\d+:\d+: (error|warning|info|hint): /.test(l));
    const network = runCli(['--lint', '--type', 'network-config', s.file('nc.txt')]);
    assert.deepEqual(findings(network.stdout).map(code), ['network-not-checked'], network.stdout);
    // Without --type the file is the #cloud-config its header says: cloud-config's schema, as the editor shows it, not network-config's.
    assert.deepEqual(findings(runCli(['--lint', s.file('nc.txt')]).stdout).map(code), ['schema-error']);
    const metaData = runCli(['--lint', '--type', 'meta-data', s.file('md.txt')]);
    assert.equal(metaData.code, 1);
    assert.match(metaData.stdout, /md\.txt:1:1: warning: NoCloud reads instance-id, not instance_id: this key is ignored/);
    assert.deepEqual(findings(metaData.stdout), findings(runCli(['--check', '--type', 'meta-data', s.file('md.txt')]).stdout));
    assert.deepEqual(findings(runCli(['--lint', s.file('md.txt')]).stdout), []);
  } finally {
    s.done();
  }
});
