/**
 * What the editor says about an autoinstall key: its type and values from the extracted schema of the
 * image's Subiquity (facts.ts), when Subiquity reads it (its place in the controllers' order) and, for
 * each section, what it does in our own words (no Subiquity text).
 */
import { autoinstallKeys, subiquityFacts, type JsonSchema, type SubiquityProfile } from './facts';

/** What each section does, in our words. */
const PURPOSE: Readonly<Record<string, string>> = {
  version: 'The format version: 1 is the only one.',
  'interactive-sections': 'Sections the installer still asks about (`*` for all of them); the others are answered from this file.',
  'early-commands': 'Commands run in the installer system before anything else (disks probed, config read again afterwards).',
  reporting: 'Where the installer reports its progress (curtin handlers: log, print, webhook, journald).',
  'error-commands': 'Commands run in the installer system when the install fails.',
  'user-data': "Cloud-config for the installed system's cloud-init, merged with what the installer writes itself (users, ssh, locale...).",
  packages: 'Packages installed into the target system.',
  'debconf-selections': 'debconf answers (debconf-set-selections lines) for the target system.',
  locale: 'The locale of the installed system (e.g. en_US.UTF-8).',
  'refresh-installer': 'Whether the installer updates itself (its snap) before installing.',
  kernel: 'The kernel package or flavor to install (one of package, flavor).',
  'kernel-crash-dumps': 'Whether kdump is enabled on the installed system.',
  keyboard: "The keyboard layout and variant, checked against the installer's keyboard list.",
  zdevs: 'IBM Z devices to enable or disable.',
  source: 'The install source (an id of the ISO catalog: ubuntu-server, ubuntu-server-minimal...) and driver search.',
  network: 'Netplan config for the installer and the installed system (version 2).',
  'ubuntu-pro': 'An Ubuntu Pro token to attach the installed system.',
  'ubuntu-advantage': 'The former name of ubuntu-pro.',
  proxy: 'An HTTP proxy for the install and the installed system.',
  apt: 'Apt configuration of the install: mirrors (primary or mirror-selection), sources, geoip, fallback.',
  storage: 'Disk layout: a guided layout (name lvm, direct, zfs...) or a full curtin config; layout wins when both are given.',
  identity: 'The first user (username, crypt-hashed password) and the hostname; needed on Server unless user-data makes the users.',
  ssh: 'Whether openssh-server is installed, its authorized keys and whether password login is allowed.',
  snaps: 'Snaps to install.',
  'active-directory': 'An Active Directory domain to join.',
  codecs: 'Whether restricted codecs are installed.',
  drivers: 'Whether third-party drivers are installed.',
  oem: 'Whether OEM meta-packages are installed.',
  timezone: "The time zone of the installed system (a tz name, or geoip), checked against the live system's zone list.",
  updates: 'Which updates are installed during the install: security or all.',
  'late-commands': "Commands run in the installer system at the end; the installed system is mounted at /target (use curtin in-target --).",
  shutdown: 'What happens after the install: reboot or poweroff.',
};

export interface KeyDoc {
  key: string;
  types: string;
  values: unknown[];
  required: boolean;
  markdown: string;
}

function typesOf(s: JsonSchema | undefined): string {
  if (!s) return 'any';
  const t = s.type;
  const alternatives = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(t)) return t.join(' | ');
  if (typeof t === 'string') return t === 'array' && s.items && typeof s.items === 'object' ? `array of ${typesOf(s.items as JsonSchema)}` : t;
  if (alternatives) return [...new Set(alternatives.map(typesOf))].join(' | ');
  return 'any';
}

function valuesOf(s: JsonSchema | undefined): unknown[] {
  if (!s) return [];
  if (Array.isArray(s.enum)) return s.enum as unknown[];
  if ('const' in s) return [s.const];
  if (s.type === 'boolean') return [true, false];
  return [];
}

/** The schema at `path` under the autoinstall mapping (keys; list items as '[]'), or undefined. */
export function autoinstallSchemaAt(profile: SubiquityProfile, path: readonly string[]): JsonSchema | undefined {
  if (!path.length) return undefined;
  const facts = subiquityFacts(profile);
  const alias = facts.controllers.find((c) => c.alias === path[0]);
  let s: JsonSchema | undefined = facts.sections[alias?.key ?? path[0]] ?? ((facts.base.properties ?? {}) as Record<string, JsonSchema>)[path[0]];
  for (const seg of path.slice(1)) {
    if (!s) return undefined;
    if (seg === '[]') s = s.items as JsonSchema | undefined;
    else {
      const props = s.properties as Record<string, JsonSchema> | undefined;
      const alts = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
      s = props?.[seg] ?? alts?.map((a) => (a.properties as Record<string, JsonSchema> | undefined)?.[seg]).find((x) => x !== undefined);
    }
  }
  return s;
}

function markdownOf(profile: SubiquityProfile, path: readonly string[], s: JsonSchema | undefined, required: boolean): string {
  const key = path[path.length - 1];
  const facts = subiquityFacts(profile);
  const lines = [`**${key}** (autoinstall${path.length > 1 ? `: ${path.slice(0, -1).filter((p) => p !== '[]').join('.')}` : ''}): ${typesOf(s)}${required ? ', required' : ''}`];
  const values = valuesOf(s).filter((v) => typeof v !== 'boolean');
  if (values.length) lines.push(`Values: ${values.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`);
  if (path.length === 1) {
    if (PURPOSE[key]) lines.push(PURPOSE[key]);
    const order = facts.controllers.filter((c) => c.key !== null).map((c) => c.key);
    const alias = facts.controllers.find((c) => c.alias === key);
    const at = order.indexOf(alias?.key ?? key);
    if (alias) lines.push(`The former name of \`${alias.key}\`.`);
    if (at >= 0) lines.push(`Subiquity ${profile} reads it as section ${at + 1} of ${order.length}: a mistake here stops the install before the sections after it are read.`);
  }
  if (key === 'layout' && path[0] === 'keyboard') lines.push(`Subiquity ${profile} knows ${Object.keys(facts.keyboard).length} layouts (us, de, fr, gb...): \`en\` is none of them.`);
  if (key === 'password' && path[0] === 'identity') lines.push('A crypt(3) hash (`mkpasswd -m sha-512`): Subiquity hands it to `chpasswd --encrypted` as it is.');
  if (key === 'username' && path[0] === 'identity' && facts.checks.usernames) lines.push(`Lower case, digits, \`_\` and \`-\`, at most 32 characters, not root nor one of the ${facts.reserved.length} reserved system names.`);
  return lines.join('\n\n');
}

/** The key at `path` (under the autoinstall mapping), for hover; undefined when Subiquity has no such key. */
export function autoinstallKeyDoc(profile: SubiquityProfile, path: readonly string[]): KeyDoc | undefined {
  const s = autoinstallSchemaAt(profile, path);
  const top = path.length === 1 && autoinstallKeys(subiquityFacts(profile)).has(path[0]);
  if (!s && !top) return undefined;
  const parent = path.length > 1 ? autoinstallSchemaAt(profile, path.slice(0, -1)) : undefined;
  const required = path.length === 1 ? path[0] === 'version' : ((parent?.required as string[] | undefined) ?? []).includes(path[path.length - 1]);
  const key = path[path.length - 1];
  return { key, types: typesOf(s), values: valuesOf(s), required, markdown: markdownOf(profile, path, s, required) };
}

/** The keys a mapping at `parent` (under the autoinstall mapping; [] for its top level) may have. */
export function autoinstallKeysAt(profile: SubiquityProfile, parent: readonly string[]): KeyDoc[] {
  const facts = subiquityFacts(profile);
  if (!parent.length) return [...autoinstallKeys(facts)].map((k) => autoinstallKeyDoc(profile, [k])).filter((d): d is KeyDoc => d !== undefined);
  const s = autoinstallSchemaAt(profile, parent);
  const alts = s ? [s, ...(((s.oneOf ?? s.anyOf) as JsonSchema[] | undefined) ?? [])] : [];
  const keys = new Set<string>();
  for (const a of alts) for (const k of Object.keys((a.properties ?? {}))) keys.add(k);
  return [...keys].map((k) => autoinstallKeyDoc(profile, [...parent, k])).filter((d): d is KeyDoc => d !== undefined);
}
