/**
 * Differential test of Subiquity's verdict (server/src/engine/autoinstall/) against
 * ../shared/oracle/autoinstall.py, for the Subiquity of Ubuntu 24.04 and of 26.04:
 *
 *   node out/test/oracle/autoinstall.diff.js [--profiles 24.04,26.04]
 *
 * The corpus: the real files of test/oracle/autoinstall-corpus (origins in its index.json), Subiquity's own
 * examples where a snapshot under /opt/subiquity-oracle carries them (read there, never committed), and
 * mutations of each real file: the mistakes real files make (keyboard layouts Subiquity does not know,
 * reserved and invalid user names, unknown time zones, cloud-config keys at the autoinstall level,
 * autoinstall keys outside `autoinstall:`, apt/reporting/zdevs load-time failures, schema failures of
 * every section, a nested user-data that is no valid cloud-config, missing identity) and each file
 * delivered as autoinstall.yaml (no `#cloud-config`: a top-level `autoinstall:`, alone or not, or the
 * whole file). Required identical: the verdict (valid, invalid, no-autoinstall), and the first error
 * (the one that stops the install): its section, exception and message; and the unrecognised top-level
 * keys version 1 drops. Exit 1 on any difference.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { loadYaml } from '../../server/src/engine/yaml/load';
import { toJsonValue } from '../../server/src/engine/py/json';
import { autoinstallOfText } from '../../server/src/engine/autoinstall/recognise';
import { SUBIQUITY_PROFILES, type SubiquityProfile } from '../../server/src/engine/autoinstall/facts';

// ../shared beside the checkout (a worktree one level deeper finds it one level up).
const ORACLE = [resolve(__dirname, '../../../../shared/oracle/autoinstall.py'), resolve(__dirname, '../../../../../shared/oracle/autoinstall.py')].find((p) => existsSync(p)) ?? '';
const CORPUS = resolve(__dirname, '../../../test/oracle/autoinstall-corpus');
const SUBIQUITY = '/opt/subiquity-oracle';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const PROFILES = (arg('--profiles')?.split(',') ?? [...SUBIQUITY_PROFILES]) as SubiquityProfile[];

type Obj = Record<string, unknown>;
interface Case {
  name: string;
  text: string;
}

function realFiles(): Case[] {
  const out: Case[] = [];
  const index = JSON.parse(readFileSync(join(CORPUS, 'index.json'), 'utf8')) as { files: Array<{ file: string }> };
  for (const f of index.files) out.push({ name: f.file, text: readFileSync(join(CORPUS, f.file), 'utf8') });
  // Subiquity's own examples (GPL-3): read where a snapshot has them, never copied into the repository.
  for (const p of ['main', ...SUBIQUITY_PROFILES]) {
    const dir = join(SUBIQUITY, p, 'examples', 'autoinstall');
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)) if (/\.yaml$/.test(f)) out.push({ name: `subiquity-${p}-${f}`, text: readFileSync(join(dir, f), 'utf8') });
  }
  return out;
}

const asYaml = (o: unknown, header = true) => `${header ? '#cloud-config\n' : ''}${JSON.stringify(o, null, 1)}\n`;
const clone = <T>(o: T): T => JSON.parse(JSON.stringify(o)) as T;

/** Mutations of the autoinstall mapping `ai` (in place), each a mistake real files make. */
const AI_MUTATIONS: Record<string, (ai: Obj) => void> = {
  'keyboard-en': (ai) => (ai.keyboard = { layout: 'en' }),
  'keyboard-en-us': (ai) => (ai.keyboard = { layout: 'en', variant: 'us' }),
  'keyboard-us-uk': (ai) => (ai.keyboard = { layout: 'us', variant: 'uk' }),
  'keyboard-fr-latin9': (ai) => (ai.keyboard = { layout: 'fr', variant: 'latin9' }),
  'keyboard-multi': (ai) => (ai.keyboard = { layout: 'us,de', variant: ',' }),
  'keyboard-multi-short': (ai) => (ai.keyboard = { layout: 'us,de', variant: '' }),
  'keyboard-no-layout': (ai) => (ai.keyboard = { variant: 'intl' }),
  'keyboard-toggle-null': (ai) => (ai.keyboard = { layout: 'de', variant: '', toggle: null }),
  'user-root': (ai) => ident(ai).username = 'root',
  'user-reserved': (ai) => ident(ai).username = 'daemon',
  'user-upper': (ai) => ident(ai).username = 'Admin',
  'user-long': (ai) => ident(ai).username = 'a'.repeat(40),
  'user-dot': (ai) => ident(ai).username = 'first.last',
  'identity-no-password': (ai) => delete ident(ai).password,
  'identity-plain-password': (ai) => ident(ai).password = 'ubuntu',
  'identity-extra-key': (ai) => ident(ai).ssh_authorized_keys = ['ssh-ed25519 AAAA'],
  'identity-groups-list': (ai) => ident(ai).groups = ['adm', 'sudo'],
  'identity-groups-both': (ai) => ident(ai).groups = { append: ['a'], override: ['b'] },
  'identity-groups-neither': (ai) => ident(ai).groups = { other: ['a'] },
  'identity-removed': (ai) => delete ai.identity,
  'identity-removed-user-data': (ai) => {
    delete ai.identity;
    ai['user-data'] = { users: [{ name: 'ops', groups: ['sudo'] }] };
  },
  'identity-removed-interactive': (ai) => {
    delete ai.identity;
    ai['interactive-sections'] = ['identity'];
  },
  'timezone-ok': (ai) => (ai.timezone = 'Europe/Paris'),
  'timezone-link': (ai) => (ai.timezone = 'US/Pacific'),
  'timezone-unknown': (ai) => (ai.timezone = 'Europe/Nowhere'),
  'timezone-geoip': (ai) => (ai.timezone = 'geoip'),
  'timezone-number': (ai) => (ai.timezone = 5),
  'version-2': (ai) => (ai.version = 2),
  'version-string': (ai) => (ai.version = '1'),
  'version-missing': (ai) => delete ai.version,
  'interactive-star': (ai) => (ai['interactive-sections'] = ['*']),
  'interactive-string': (ai) => (ai['interactive-sections'] = 'identity'),
  'typo-early-coomands': (ai) => (ai['early-coomands'] = ['true']),
  'cloud-keys-inside': (ai) => {
    ai.package_update = true;
    ai.users = [{ name: 'x' }];
    ai.write_files = [{ path: '/x', content: 'y' }];
  },
  'storage-both': (ai) => (ai.storage = { layout: { name: 'lvm' }, config: [{ type: 'disk', id: 'd' }] }),
  'storage-mode-bad': (ai) => (ai.storage = { layout: { name: 'direct', mode: 'wipe' } }),
  'storage-empty': (ai) => (ai.storage = {}),
  'storage-list': (ai) => (ai.storage = [{ layout: 'lvm' }]),
  'apt-both': (ai) => (ai.apt = { primary: [{ arches: ['default'], uri: 'http://x/' }], 'mirror-selection': { primary: ['country-mirror'] } }),
  'apt-fallback-bad': (ai) => (ai.apt = { fallback: 'retry' }),
  'apt-ms-no-uri': (ai) => (ai.apt = { 'mirror-selection': { primary: [{ arches: ['amd64'] }] } }),
  'apt-ms-extra': (ai) => (ai.apt = { 'mirror-selection': { primary: [{ uri: 'http://x/', search: ['y'] }] } }),
  'apt-components-bad': (ai) => (ai.apt = { disable_components: ['main'] }),
  'reporting-type-bad': (ai) => (ai.reporting = { hook: { type: 'rsyslog' } }),
  'reporting-webhook-no-endpoint': (ai) => (ai.reporting = { hook: { type: 'webhook', level: 'INFO' } }),
  'reporting-log-extra': (ai) => (ai.reporting = { hook: { type: 'log', path: '/x' } }),
  'reporting-no-type': (ai) => (ai.reporting = { hook: { level: 'INFO' } }),
  'zdevs-no-enabled': (ai) => (ai.zdevs = [{ id: '0.0.1500' }]),
  'user-data-unknown-key': (ai) => (ai['user-data'] = { hostname_x: 'a', runcmd: ['true'] }),
  'user-data-bad-type': (ai) => (ai['user-data'] = { runcmd: 'reboot', users: 'x' }),
  'user-data-valid': (ai) => (ai['user-data'] = { package_upgrade: true, timezone: 'UTC' }),
  'user-data-not-mapping': (ai) => (ai['user-data'] = ['x']),
  'shutdown-bad': (ai) => (ai.shutdown = 'halt'),
  'updates-bad': (ai) => (ai.updates = 'none'),
  'ssh-cloud-keys': (ai) => (ai.ssh = { 'install-server': true, disable_root: true }),
  'ssh-yes-string': (ai) => (ai.ssh = { 'install-server': 'yes' }),
  'source-id-number': (ai) => (ai.source = { id: 5 }),
  'pro-alias-bad-token': (ai) => (ai['ubuntu-advantage'] = { token: 'abc' }),
  'late-commands-string': (ai) => (ai['late-commands'] = 'reboot'),
  'late-commands-nested': (ai) => (ai['late-commands'] = [['curtin', 'in-target', '--', 'true'], [['x']]]),
  'network-v3': (ai) => (ai.network = { version: 3 }),
  'drivers-bad': (ai) => (ai.drivers = { install: 'yes' }),
  'packages-mapping': (ai) => (ai.packages = { a: 1 }),
  'locale-number': (ai) => (ai.locale = 5),
  'kernel-both': (ai) => (ai.kernel = { package: 'a', flavor: 'b' }),
  'codecs-extra': (ai) => (ai.codecs = { install: true, x: 1 }),
};

function ident(ai: Obj): Obj {
  if (typeof ai.identity !== 'object' || ai.identity === null) ai.identity = { hostname: 'h', username: 'ubuntu', password: '$6$x$y' };
  return ai.identity as Obj;
}

/** Mutations of the whole cloud-config (keys outside `autoinstall:`). */
const TOP_MUTATIONS: Record<string, (cc: Obj) => void> = {
  'outside-identity': (cc) => (cc.identity = { hostname: 'h', username: 'u', password: '$6$x$y' }),
  'outside-late-commands': (cc) => (cc['late-commands'] = ['true']),
  'outside-storage-and-users': (cc) => {
    cc.users = ['default'];
    cc.storage = { layout: { name: 'lvm' } };
  },
  'outside-packages': (cc) => (cc.packages = ['vim']),
  'outside-version': (cc) => (cc.version = 1),
  'outside-unknown-cloud-key': (cc) => (cc.not_a_key = 1),
  'autoinstall-empty': (cc) => (cc.autoinstall = {}),
  'autoinstall-null': (cc) => (cc.autoinstall = null),
  'autoinstall-nested': (cc) => (cc.autoinstall = { autoinstall: cc.autoinstall }),
};

function cases(): Case[] {
  const out: Case[] = [];
  for (const real of realFiles()) {
    out.push(real);
    const loaded = loadYaml(real.text);
    if (!loaded.ok) continue;
    const cc = toJsonValue(loaded.value).value as Obj;
    if (typeof cc !== 'object' || cc === null || typeof cc.autoinstall !== 'object') continue;
    for (const [m, f] of Object.entries(AI_MUTATIONS)) {
      const c = clone(cc);
      f(c.autoinstall as Obj);
      out.push({ name: `${real.name}+${m}`, text: asYaml(c) });
    }
    for (const [m, f] of Object.entries(TOP_MUTATIONS)) {
      const c = clone(cc);
      f(c);
      out.push({ name: `${real.name}+${m}`, text: asYaml(c) });
    }
    // Delivered as autoinstall.yaml: wrapped, wrapped with a neighbour, the whole file.
    out.push({ name: `${real.name}@media`, text: asYaml({ autoinstall: cc.autoinstall }, false) });
    out.push({ name: `${real.name}@media+neighbour`, text: asYaml({ autoinstall: cc.autoinstall, packages: ['x'] }, false) });
    out.push({ name: `${real.name}@media-whole`, text: asYaml(cc.autoinstall, false) });
    out.push({ name: `${real.name}@media-whole+keyboard-en`, text: asYaml({ ...(cc.autoinstall as Obj), keyboard: { layout: 'en' } }, false) });
  }
  return out;
}

interface OracleEntry {
  file: string;
  verdict: string;
  error: { section: string | null; cause: string; message: string } | null;
  unrecognized_keys: string[];
}

function oracle(profile: SubiquityProfile, files: string[]): OracleEntry[] {
  const r = spawnSync('python3', [ORACLE, '--subiquity', profile, ...files], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`autoinstall.py --subiquity ${profile} failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as OracleEntry[];
}

function main(): number {
  if (!existsSync(ORACLE) || !existsSync(join(SUBIQUITY, '24.04'))) {
    console.error('autoinstall.diff: the oracle is not installed (bash ../shared/oracle/setup.sh --subiquity)');
    return 2;
  }
  const all = cases();
  const dir = mkdtempSync(join(tmpdir(), 'autoinstall-diff-'));
  let failures = 0;
  try {
    const files = all.map((c, i) => {
      const f = join(dir, `case-${i}.yaml`);
      writeFileSync(f, c.text);
      return f;
    });
    for (const profile of PROFILES) {
      const expected = oracle(profile, files);
      const tally = { cases: all.length, valid: 0, invalid: 0, none: 0, same: 0 };
      const causes = new Map<string, number>();
      for (let i = 0; i < all.length; i++) {
        const want = expected[i];
        const got = autoinstallOfText(all[i].text, files[i], profile, { forced: true });
        const verdict = got?.verdict.verdict ?? 'no-autoinstall';
        const first = got?.verdict.errors[0];
        const mine = { verdict, error: first ? { section: first.section, cause: first.cause, message: first.message } : null, unrecognized: [...(got?.verdict.unrecognized ?? [])].sort() };
        const theirs = { verdict: want.verdict, error: want.error ? { section: want.error.section, cause: want.error.cause, message: want.error.message } : null, unrecognized: [...(want.unrecognized_keys ?? [])].sort() };
        if (want.verdict === 'valid') tally.valid++;
        else if (want.verdict === 'invalid') tally.invalid++;
        else tally.none++;
        if (want.error) causes.set(`${want.error.section}: ${want.error.cause}`, (causes.get(`${want.error.section}: ${want.error.cause}`) ?? 0) + 1);
        if (JSON.stringify(mine) === JSON.stringify(theirs)) {
          tally.same++;
          continue;
        }
        failures++;
        console.log(`DIFF [${profile}] ${all[i].name}\n  subiquity: ${JSON.stringify(theirs)}\n  ours:      ${JSON.stringify(mine)}`);
      }
      console.log(`Subiquity ${profile}: ${tally.same}/${tally.cases} identical (oracle: ${tally.valid} valid, ${tally.invalid} invalid, ${tally.none} no autoinstall); first errors by section and cause: ${[...causes].map(([k, n]) => `${k} ${n}`).join('; ')}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return failures ? 1 : 0;
}

process.exitCode = main();
