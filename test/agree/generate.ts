/**
 * Generated cases for the faces-agree suite: seeded, so every run (and every machine) makes the same ones. Parts
 * are drawn from pieces people write (valid and not: `runcmd: 5`, an owner created later, users without
 * default, a key the image does not read, a spec with an unreachable merger), put in sets with and without an
 * image and instance data, in NoCloud seeds, MIME multiparts, cloud.cfg.d folders and lone files.
 */
import { mime } from '../lsp/fixtures';
import type { Case } from './harness';

/** mulberry32: a small seeded generator of floats in [0, 1). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Top-level keys of a cloud-config part, by key name (one value each is drawn). */
const PIECES: Record<string, Array<(n: number) => string>> = {
  hostname: [(n) => `hostname: web-${n}`],
  packages: [() => 'packages: [nginx, curl]', () => 'packages: nginx'],
  runcmd: [(n) => `runcmd:\n  - echo part ${n}`, () => 'runcmd: 5', (n) => `runcmd: [[sh, -c, 'echo ${n}']]`],
  bootcmd: [() => 'bootcmd: [echo early]'],
  users: [(n) => `users:\n  - default\n  - name: app${n}`, (n) => `users:\n  - name: app${n}\n    shell: /bin/bash`],
  write_files: [(n) => `write_files:\n  - path: /etc/app${n}.conf\n    owner: app${n}\n    content: x`, (n) => `write_files:\n  - path: /etc/motd\n    content: hello ${n}`],
  ntp: [() => 'ntp:\n  enabled: true\n  servers: [ntp.example.com]'],
  timezone: [() => 'timezone: Europe/Berlin'],
  yum_repos: [() => 'yum_repos:\n  epel:\n    baseurl: http://mirror.example.com/epel'],
  ssh_pwauth: [() => 'ssh_pwauth: true', () => "ssh_pwauth: 'yes'"],
};

const SPECS = ['', 'merge_how: list(append)+dict(recurse_array)+str()\n', 'merge_how: dict(no_replace)+list()+str()\n', "merge_how: 'list(append)+dict(no_replace)+str()'\n"];
const IMAGES = [undefined, 'rhel-8', 'debian-12', 'ubuntu-24.04'];
/** Keys of a drop-in, by key name. */
const CONFD_PIECES: Record<string, string[]> = {
  datasource_list: ['datasource_list: [NoCloud, None]'],
  runcmd: ['runcmd: [echo confd]', 'runcmd: 7'],
  system_info: ['system_info:\n  default_user:\n    name: admin'],
  merge_how: ['merge_how: list(append)+dict(recurse_list)+str()'],
  network: ['network: {config: disabled}', 'network:\n  version: 2\n  ethernets:\n    eth0: {dhcp4: maybe}'],
};

function pick<T>(rnd: () => number, list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)];
}

function some<T>(rnd: () => number, list: readonly T[], min: number, max: number): T[] {
  const pool = [...list];
  const n = min + Math.floor(rnd() * (max - min + 1));
  const out: T[] = [];
  while (out.length < n && pool.length) out.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0]);
  return out;
}

/** A `#cloud-config` part (perhaps a Jinja template) of 2 to 4 keys. */
function part(rnd: () => number, n: number, jinja: boolean): string {
  const keys = some(rnd, Object.keys(PIECES), 2, 4);
  const body = keys.map((k) => pick(rnd, PIECES[k])(n)).join('\n');
  if (!jinja) return `#cloud-config\n${pick(rnd, SPECS)}${body}\n`;
  return `## template: jinja\n#cloud-config\n${pick(rnd, SPECS)}${body.replace(/^hostname: .*$/m, '')}\nfqdn: {{ v1.local_hostname }}.example.com\n`;
}

const INSTANCE_DATA = '{"v1": {"local_hostname": "gen-host", "region": "eu-central-1", "cloud_name": "nocloud"}}\n';
const NETWORK = ['network:\n  version: 2\n  ethernets:\n    eth0:\n      dhcp4: true\n', 'network:\n  version: 2\n  ethernets:\n    eth0:\n      dhcp4: maybe\n', 'version: 1\nconfig:\n  - type: physical\n    name: eth0\n    subnets: [{type: dhcp}]\n'];
const META = ['instance-id: iid-gen\nlocal-hostname: gen\n', 'instance_id: iid-gen\n', 'instance-id: iid-gen\ndsmode: local\n'];

/** `count` cases from `seed`, a little of everything. */
export function generatedCases(seed: number, count: number): Case[] {
  const rnd = random(seed);
  const out: Case[] = [];
  const kinds = ['set', 'seed', 'lone', 'confd', 'mime'] as const;
  for (let i = 0; i < count; i++) {
    const kind = kinds[i % kinds.length];
    const dir = `gen-${seed}-${i}`;
    const name = `gen-${seed}-${i}-${kind}`;
    if (kind === 'set') {
      const withData = rnd() < 0.5;
      const parts = Array.from({ length: 1 + Math.floor(rnd() * 3) }, (_, n) => part(rnd, n, rnd() < 0.3));
      const files: Record<string, string> = Object.fromEntries(parts.map((text, n) => [`${dir}/${10 + n * 10}-part.yaml`, text]));
      if (withData) files[`${dir}/instance.json`] = INSTANCE_DATA;
      const image = pick(rnd, IMAGES);
      out.push({ name, kind: 'set', files, set: { files: parts.map((_, n) => `${dir}/${10 + n * 10}-part.yaml`), ...(image ? { image } : {}), ...(withData ? { instanceData: `${dir}/instance.json` } : {}) } });
    } else if (kind === 'seed') {
      const files: Record<string, string> = { [`${dir}/user-data`]: part(rnd, i, false), [`${dir}/meta-data`]: pick(rnd, META) };
      if (rnd() < 0.7) files[`${dir}/vendor-data`] = part(rnd, i + 100, false);
      if (rnd() < 0.7) files[`${dir}/network-config`] = pick(rnd, NETWORK);
      // Half saved as a set's seed, half a folder in no set.
      out.push(rnd() < 0.5 ? { name, kind: 'set', files, set: { seed: dir } } : { name, kind: 'seed', seed: dir, files });
    } else if (kind === 'lone') {
      out.push({ name, kind: 'lone', files: { [`${dir}/user-data.yaml`]: part(rnd, i, rnd() < 0.3) }, args: [`${dir}/user-data.yaml`] });
    } else if (kind === 'mime') {
      const body = mime([
        { headers: rnd() < 0.5 ? ['Merge-Type: list(append)+dict(recurse_array)+str()'] : [], body: part(rnd, 1, false) },
        { body: part(rnd, 2, false) },
      ]);
      out.push({ name, kind: 'lone', files: { [`${dir}/user-data.mime`]: body }, args: [`${dir}/user-data.mime`] });
    } else {
      const names = some(rnd, ['10_a.cfg', '50_b.cfg', '90_c.cfg'], 2, 3).sort();
      const files: Record<string, string> = Object.fromEntries(names.map((f) => [`${dir}/etc/cloud/cloud.cfg.d/${f}`, some(rnd, Object.keys(CONFD_PIECES), 1, 2).map((k) => pick(rnd, CONFD_PIECES[k])).join('\n') + '\n']));
      out.push({ name, kind: 'confd', files, args: Object.keys(files) });
    }
  }
  return out;
}
