/**
 * Deterministic, seeded generators of realistic #cloud-config content for the
 * benchmarks: users, packages (plain and [name, version]), write_files with
 * multi-line block content, runcmd/bootcmd in string and list form, apt
 * sources, ssh keys, ntp, a few top-level settings, and a merge_how in
 * string form, list form, or none (cloud-init's default).
 *
 * "K keys" = the number of mapping keys plus sequence items in a part (each
 * slot that holds a value, at any depth; the lines inside a block scalar
 * are not counted). Top-level keys come from the fixed cloud-config
 * vocabulary, as in real user-data, so parts overlap and merge.
 */

/** mulberry32: small, fast, deterministic. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seedOf(...parts) {
  let h = 2166136261;
  for (const ch of parts.join('|')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

const PKGS = ['nginx', 'curl', 'git', 'htop', 'jq', 'vim', 'tmux', 'python3-pip', 'postgresql-client', 'redis-tools', 'unzip', 'make', 'gcc', 'fail2ban', 'ufw', 'chrony', 'rsync', 'wget', 'ca-certificates', 'gnupg', 'lsb-release', 'docker.io', 'nfs-common', 'awscli', 'zsh'];
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango'];
const SHELLS = ['/bin/bash', '/bin/sh', '/usr/bin/zsh'];
const GROUPS = ['sudo', 'adm', 'docker', 'users', 'wheel', 'systemd-journal'];

/** The merge_how variants of the overlay parts, mixed (string form and list form). */
export const SPECS = [
  { kind: 'string', lines: ["merge_how: 'list(append)+dict(no_replace,recurse_list)+str()'"] },
  {
    kind: 'list',
    lines: ['merge_how:', '  - name: list', '    settings: [append]', '  - name: dict', '    settings: [no_replace, recurse_list]'],
  },
  { kind: 'string', lines: ['merge_type: "dict(recurse_array)+list(append)+str()"'] },
  {
    kind: 'list',
    lines: ['merge_how:', '  - name: dict', '    settings: [recurse_dict, recurse_list]', '  - name: list', '    settings: [prepend]', '  - name: str', '    settings: []'],
  },
];
/** The base part (the first) has no spec: cloud-init's default dict(replace)+list()+str(). */
export const NO_SPEC = { kind: 'none', lines: [] };

const pick = (r, a) => a[Math.floor(r() * a.length)];
const hex = (r, n) => {
  let s = '';
  for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(r() * 16)];
  return s;
};

/**
 * One part. `budget` is either {keys: K} or {lines: N}; generation stops
 * when the budget is reached. Returns the text and, for the LSP benchmarks,
 * interesting positions (0-based line, character).
 */
export function generatePart(seed, budget, index = 0, spec = index === 0 ? NO_SPEC : SPECS[(index - 1) % SPECS.length]) {
  const r = rng(seed);
  const sections = new Map(); // top-level key -> lines (without the key line)
  const order = [];
  let keys = 0;
  let lines = 1; // "#cloud-config"
  const head = ['#cloud-config', ...spec.lines];
  if (spec.kind === 'string') keys += 1;
  else if (spec.kind === 'list') keys += 1 + ((spec.lines.length - 1) / 2) * 3; // merge_how + per merger: item, name, settings
  lines += spec.lines.length;

  const section = (name, header = `${name}:`) => {
    if (!sections.has(name)) {
      sections.set(name, { header, lines: [] });
      order.push(name);
      keys += 1;
      lines += 1;
    }
    return sections.get(name).lines;
  };
  const add = (name, entryLines, entryKeys, header) => {
    section(name, header).push(...entryLines);
    keys += entryKeys;
    lines += entryLines.length;
  };
  const tag = `${index}-${seed % 100000}`;
  let n = 0;
  const scalars = [
    () => [`hostname: node-${tag}`],
    () => [`timezone: Etc/UTC`],
    () => [`locale: en_US.UTF-8`],
    () => [`package_update: ${r() < 0.5}`],
    () => [`package_upgrade: ${r() < 0.5}`],
    () => [`ssh_pwauth: false`],
    () => [`manage_etc_hosts: true`],
    () => [`preserve_hostname: false`],
  ];
  const done = () => ('keys' in budget ? keys >= budget.keys : lines >= budget.lines);
  while (!done()) {
    n++;
    const x = r();
    if (x < 0.04 && scalars.length) {
      const s = scalars.splice(Math.floor(r() * scalars.length), 1)[0]();
      sections.set(`#scalar${n}`, { header: s[0], lines: [] });
      order.push(`#scalar${n}`);
      keys += 1;
      lines += 1;
    } else if (x < 0.30) {
      if (r() < 0.8) add('packages', [`  - ${pick(r, PKGS)}-${tag}-${n}`], 1);
      else add('packages', [`  - [${pick(r, PKGS)}, "1.${Math.floor(r() * 30)}.${n}"]`], 3);
    } else if (x < 0.45) {
      if (r() < 0.6) add('runcmd', [`  - echo "step ${n} of ${tag}" >> /var/log/provision.log`], 1);
      else add('runcmd', [`  - [sh, -c, "systemctl restart ${pick(r, PKGS)}-${n} || true"]`], 4);
    } else if (x < 0.50) {
      if (r() < 0.5) add('bootcmd', [`  - mkdir -p /srv/${pick(r, WORDS)}/${n}`], 1);
      else add('bootcmd', [`  - [cloud-init-per, once, mk${n}, mkdir, -p, /data/${n}]`], 7);
    } else if (x < 0.62) {
      const body = [];
      const bodyLines = 3 + Math.floor(r() * 8);
      for (let i = 0; i < bodyLines; i++) body.push(`      ${pick(r, WORDS)}_${i} = ${pick(r, WORDS)}-${n}-${i} # ${hex(r, 8)}`);
      add(
        'write_files',
        [`  - path: /etc/app/${pick(r, WORDS)}-${tag}-${n}.conf`, `    permissions: '0644'`, `    owner: root:root`, `    content: |`, ...body],
        5,
      );
    } else if (x < 0.70) {
      const nk = 1 + Math.floor(r() * 2);
      const keyLines = [];
      for (let i = 0; i < nk; i++) keyLines.push(`      - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA${hex(r, 40)} u${n}@${tag}`);
      add(
        'users',
        [
          `  - name: user${n}x${tag.replace(/-/g, 'x')}`,
          `    groups: [${pick(r, GROUPS)}, ${pick(r, GROUPS)}]`,
          `    shell: ${pick(r, SHELLS)}`,
          `    sudo: ${r() < 0.5 ? "'ALL=(ALL) NOPASSWD:ALL'" : 'false'}`,
          `    lock_passwd: true`,
          `    ssh_authorized_keys:`,
          ...keyLines,
        ],
        1 + 7 + nk,
      );
    } else if (x < 0.82) {
      const name = `src-${tag}-${n}`;
      const s = section('apt', 'apt:');
      if (!s.length) {
        s.push('  preserve_sources_list: true', '  sources:');
        keys += 2;
        lines += 2;
      }
      add('apt', [`    ${name}:`, `      source: "deb [signed-by=$KEY_FILE] http://ppa.example.org/${pick(r, WORDS)} $RELEASE main"`, `      keyid: ${hex(r, 40).toUpperCase()}`], 3);
    } else if (x < 0.90) {
      add('ssh_authorized_keys', [`  - ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ${hex(r, 60)} ops${n}@example.org`], 1);
    } else if (x < 0.95) {
      const s = section('ntp', 'ntp:');
      if (!s.length) {
        s.push('  enabled: true', '  servers:');
        keys += 2;
        lines += 2;
      }
      add('ntp', [`    - ntp${n}.${pick(r, WORDS)}.example.org`], 1);
    } else {
      const s = section('bench_settings', 'bench_settings:');
      if (!s.length) {
        s.push(`  part: ${index}`);
        keys += 1;
        lines += 1;
      }
      add('bench_settings', [`  ${pick(r, WORDS)}_${n}: ${r() < 0.5 ? `"${pick(r, WORDS)}"` : Math.floor(r() * 100000)}`], 1);
    }
  }
  const out = [...head];
  for (const name of order) {
    const s = sections.get(name);
    out.push(s.header, ...s.lines);
  }
  const text = out.join('\n') + '\n';
  return { text, keys, lines: out.length };
}

/** M parts of K keys each, as files' bytes, deterministic for (M, K). */
export function generateParts(M, K) {
  const parts = [];
  for (let i = 0; i < M; i++) {
    const { text } = generatePart(seedOf('part', M, K, i), { keys: K }, i);
    parts.push({ name: `part-${String(i).padStart(4, '0')}.yaml`, text });
  }
  return parts;
}

/** One document of about N lines (a list-form merge_how first), for the language servers. */
export function generateDocument(N, seed = 1) {
  return generatePart(seedOf('doc', N, seed), { lines: N }, 1, SPECS[1]).text;
}

const HEADER_SPECS = ['list(append)+dict(no_replace,recurse_list)+str()', 'dict(recurse_array)+list(append)+str()', 'list(prepend)+dict(replace)+str(append)'];

/**
 * A MIME multipart user-data of about `bytes` bytes: cloud-config parts of 5 to 60 keys, every
 * other one with a Merge-Type header (X-Merge-Type on some), a shell script now and then.
 */
export function generateMultipart(bytes, seed = 1) {
  const r = rng(seedOf('mime', bytes, seed));
  const boundary = '===============' + hex(r, 16) + '==';
  const out = [`Content-Type: multipart/mixed; boundary="${boundary}"`, 'MIME-Version: 1.0', ''];
  let size = out.join('\n').length;
  for (let i = 0; size < bytes; i++) {
    const lines = [`--${boundary}`];
    if (i % 7 === 6) {
      lines.push('Content-Type: text/x-shellscript; charset="us-ascii"', 'MIME-Version: 1.0', `Content-Disposition: attachment; filename="script-${i}.sh"`, '', '#!/bin/sh', `echo part ${i} > /tmp/part-${i}`);
    } else {
      lines.push('Content-Type: text/cloud-config; charset="us-ascii"', 'MIME-Version: 1.0', `Content-Disposition: attachment; filename="part-${i}.yaml"`);
      if (i % 2 === 1) lines.push(`${i % 6 === 1 ? 'X-Merge-Type' : 'Merge-Type'}: ${HEADER_SPECS[i % HEADER_SPECS.length]}`);
      lines.push('', generatePart(seedOf('mime-part', bytes, seed, i), { keys: 5 + Math.floor(r() * 56) }, i).text);
    }
    const text = lines.join('\n') + '\n';
    out.push(text);
    size += text.length + 1;
  }
  out.push(`--${boundary}--`, '');
  return out.join('\n');
}
