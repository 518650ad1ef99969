/**
 * Command-line arguments of `cloud-config-merge`: one table of flags (FLAGS) from which both the
 * parser's configuration (node:util parseArgs) and the help (usage()) are made, so the two never disagree.
 */
import { parseArgs as parseTokens, type ParseArgsConfig } from 'node:util';
import { DEFAULT_LIMITS, LIMIT_NAMES, Limits, isLimitName } from '../engine/limits';
import { EFFECT_KINDS as FATE_KINDS, type EffectKind as FateKind } from '../engine/outcome/effects';
import { CHECK_MODES, MODES, type Mode } from '../engine/outcome/mode';
import { NETPLAN_HOSTS, type NetplanHost } from '../engine/version/target';
import { nearest } from '../engine/findings/findings';
import { DEFAULT_IMAGE, IMAGE_IDS, TargetError, imageProfile, resolveTarget, unknownImageMessage, type ImageProfile } from '../engine/version/profiles';
import { CLOUD_INIT_VERSIONS, parseCloudInitVersion, type CloudInitVersion } from '../engine/version/versions';
import type { Target } from '../engine/version/target';
import { CLOUD_NAMES, type CloudName } from '../engine/delivery/limits';

export type { Mode };
export type Format = 'yaml' | 'json' | 'report' | 'preview' | 'text' | 'sarif';

export interface CliOptions {
  mode: Mode;
  format: Format;
  files: string[];
  spec?: string;
  specMergeHow?: string;
  explain?: string;
  explainMergeHow?: string;
  batch?: string;
  includeMap: Array<{ url: string; file: string }>;
  includeMissing: 'error' | 'skip';
  instanceData?: string;
  launchIndex?: number;
  confdOrder: 'name' | 'given';
  cloudCfg?: string;
  reverse: boolean;
  confd: string[];
  runtimeCfg?: string;
  cmdlineCfg?: string;
  dsConfig?: string;
  vendor?: string;
  vendor2?: string;
  builtinCfg?: string;
  noBuiltin: boolean;
  version: CloudInitVersion;
  /** `--image ID`: the image profile checked against (the default profile when absent; `--set` may name one). */
  image?: string;
  /** `--image all` or `--image ID,ID`: --check gives the verdict on each of these images. */
  images?: ImageProfile[];
  /** `--distro D`: overrides the image's `system_info.distro`. */
  distro?: string;
  /** `--cloud-init-version` was given: it overrides the image's version. */
  /** `--cloud-init-version`: overrides the image's version (applyTarget sets `version` from the target). */
  versionOverride?: CloudInitVersion;
  /** The image (or the default one) with the overrides: what the run reproduces. */
  target: Target;
  customMergers: Array<{ name: string; path: string }>;
  /** Our resource limits (cloud-init has none), with the --limit overrides. */
  limits: Limits;
  /** `--from-terraform FILE`: the cloudinit_config parts of a `terraform show -json` (or `pulumi stack export`) text. */
  fromTerraform?: string;
  /** `--address ADDR`: only this config of `--from-terraform`. */
  address?: string;
  /** `--rendered`: each FILE is a saved `rendered` blob (base64 decoded first). */
  rendered: boolean;
  /** `--lint`: the editor's merge-spec findings for each FILE; exit 1 on an error or a warning. */
  lint: boolean;
  pretty: boolean;
  help: boolean;
  showVersion: boolean;
  /** `--check`: cloud-init's schema validation of each FILE and of the merged result. */
  check: boolean;
  /** `--check --each`: each FILE checked as its own user-data, one verdict per file. */
  each?: boolean;
  /** `--check --annotate`: each file printed with its problems, as `cloud-init schema --annotate` prints it. */
  annotate: boolean;
  /** `--set NAME`: the files, mode and layers of a set of the set file. */
  set?: string;
  /** `--set-file PATH`: the set file (default ./cloud-config-merge.yaml). */
  setFile?: string;
  /** `--seed-allow-outside`: a seed folder's files may resolve outside it (links). */
  seedAllowOutside?: boolean;
  /** `--set-allow-outside`: a set may name files outside the set file's folder. */
  setAllowOutside?: boolean;
  /** `--fail-on KINDS`: --check exits 1 when a value meets one of these fates. */
  failOn: FateKind[];
  /** `--cloud NAME`: --check and the preview hold the user-data to this cloud's user-data limit. */
  cloud?: CloudName;
  /** `--seed DIR` (or a set's `seed`): a NoCloud seed folder, checked and previewed as a set. */
  seed?: string;
  /** With a seed: its meta-data and network-config files, when present (set by the seed, not a flag). */
  seedFiles?: { metaData?: string; networkConfig?: string };
  /** `--plan`: the boot plan of the merged result. */
  plan: boolean;
  /** `--plan-hints`: with --plan, also the keys only once-per-instance modules read. */
  planHints?: boolean;
  /** Not a flag: part loads shared by the runs of one command (`--check --image all` runs once per image). */
  partCache?: import('../engine/userdata/cloudConfigHandler').PartLoadCache;
  /** Not a flag: the documents' YAML loads shared by the images' analyses (the same text, whatever the version). */
  loadedBodies?: Map<string, import('../engine/yaml/load').YamlLoadResult>;
  /** `--fail-on secrets`: secret findings (secret-*) are errors, not warnings (text, JSON, SARIF level). */
  failOnSecrets?: boolean;
  /** `--type network-config` or `--type meta-data`: --check and --lint read every FILE as that, whatever its name or content. */
  type?: 'network-config' | 'meta-data' | 'autoinstall';
  /** `--netplan HOST`: how the host hands a v2 network-config on (none, cli, api). */
  netplan?: NetplanHost;
}

export class UsageError extends Error {}

/** The modes, with what their FILEs are (the help's "Modes" section). */
const MODE_HELP: Record<Mode, string> = {
  'user-data': 'each FILE is one raw user-data blob (MIME, gzip, #include, archives, jinja), in order (default)',
  handler: 'each FILE goes straight to the cloud-config part handler; MIME headers from FILE.headers.json',
  confd: "FILEs are cloud.cfg.d drop-ins, merged in cloud-init's order (--confd-order given keeps yours)",
  system: 'util.mergemanydict over the FILEs (--reverse to reverse them)',
  boot: 'FILEs are user-data, layered over vendor-data, datasource and system config',
  chef: 'Chef-style deep merge of role, environment or attribute files (JSON or YAML), later files win',
};
/** Older names of two modes. */
const MODE_ALIASES: ReadonlyMap<string, Mode> = new Map([['userdata', 'user-data'], ['mergemany', 'system']]);
const FORMATS: Format[] = ['yaml', 'json', 'report', 'preview', 'text', 'sarif'];

/** One command-line flag: how it is written, what it takes, what the help says, what it sets. */
export interface Flag {
  /** The long name, without its dashes. */
  flag: string;
  /** A one-letter alias (`-h`). */
  short?: string;
  /** The value the flag takes, as the help writes it; a flag without one is a switch. */
  value?: string;
  /** The help's words (a new line where `\n` is; long lines are wrapped). */
  help: string;
  section: Section;
  /** Stores the flag in the options, refusing a bad value (a switch is given ''). */
  set(o: CliOptions, value: string): void;
}

type Section = 'What to run' | 'Inputs' | 'Boot, confd and system modes' | 'Output' | 'Limits' | 'Help';
const SECTIONS: Section[] = ['What to run', 'Inputs', 'Boot, confd and system modes', 'Output', 'Limits', 'Help'];

/** `NAME=VALUE` split at its first '=' (a URL may hold more), or a UsageError in the flag's words. */
function pair(flag: string, wanted: string, v: string): { name: string; value: string } {
  const at = v.indexOf('=');
  if (at <= 0) throw new UsageError(`--${flag} wants ${wanted}, got '${v}'`);
  return { name: v.slice(0, at).trim(), value: v.slice(at + 1) };
}

/** One of a few words, or a UsageError naming them. */
function oneOf<T extends string>(v: string, choices: readonly T[], refuse: () => string): T {
  if (!(choices as readonly string[]).includes(v)) throw new UsageError(refuse());
  return v as T;
}

function setLimit(o: CliOptions, v: string): void {
  const match = /^(\w+)=(\d+)$/.exec(v.trim());
  if (!match) throw new UsageError(`--limit wants NAME=N (a positive integer), got '${v}'`);
  if (!isLimitName(match[1])) throw new UsageError(`--limit: unknown limit '${match[1]}' (expected ${LIMIT_NAMES.join(', ')})`);
  const n = Number(match[2]);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--limit ${match[1]} must be a positive integer, got '${match[2]}'`);
  o.limits[match[1]] = n;
}

function setFailOn(o: CliOptions, v: string): void {
  const kinds = v.split(',').map((k) => k.trim()).filter(Boolean);
  const known: string[] = [...FATE_KINDS, 'secrets'];
  for (const k of kinds) if (!known.includes(k)) throw new UsageError(`--fail-on: unknown kind '${k}' (expected ${known.join(', ')})`);
  if (!kinds.length) throw new UsageError(`--fail-on needs one or more of ${known.join(', ')}`);
  o.failOnSecrets = kinds.includes('secrets');
  o.failOn = kinds.filter((k) => k !== 'secrets') as FateKind[];
}

function setVersion(o: CliOptions, v: string): void {
  const version = parseCloudInitVersion(v);
  if (!version) throw new UsageError(`--cloud-init-version takes ${CLOUD_INIT_VERSIONS.join(', ')} (or a full release such as 24.4.1), not '${v}'`);
  o.versionOverride = version;
}

/** Every flag, in the order the help lists them. */
export const FLAGS: readonly Flag[] = [
  {
    flag: 'check',
    section: 'What to run',
    help: "validate each FILE and the merged result as cloud-init's schema validator does, add the findings --lint gives, and list the merge's fates: each value of a part that is replaced, deleted, lost, dropped with its part, overridden at boot, or appended/prepended, with the file:line of both values (the schema: user-data and handler modes; the fates: user-data, confd and boot modes); a FILE named network-config or meta-data is checked as that NoCloud seed file, not merged (see --type); exit 1 on a schema error, a finding that is an error or warning, or a --fail-on fate",
    set: (o) => (o.check = true),
  },
  {
    flag: 'type',
    value: 'network-config|meta-data|autoinstall',
    section: 'What to run',
    help: "with --check or --lint: read every FILE as a network-config (NoCloud's network-config file: v1 or v2, or under `network:`), or as a NoCloud seed's meta-data (what NoCloud makes of it, as --seed reads it; never merged), whatever its name, or as an Ubuntu autoinstall file (Subiquity's verdict for the image's installer, as autoinstall.yaml on the install media is read); files named network-config or network-config.yaml, YAML whose top level is a network config, and files named meta-data are read as one without it (a merge, --plan and the preview refuse them: they are not user-data)",
    set: (o, v) => (o.type = oneOf(v, ['network-config', 'meta-data', 'autoinstall'] as const, () => `--type takes network-config, meta-data or autoinstall, not '${v}'`)),
  },
  {
    flag: 'netplan',
    value: 'none|cli|api',
    section: 'What to run',
    help: "with --check: the host a v2 network-config is checked for: api (netplan's Python API, Ubuntu 23.10 and later: cloud-init 24.4+ hands v2 to netplan's parser), cli (netplan's command only, older Ubuntu: v2 is not validated) or none (no netplan: cloud-init's v2 JSON schema); default: the image's host",
    set: (o, v) => (o.netplan = oneOf(v, NETPLAN_HOSTS, () => `--netplan takes none, cli or api, not '${v}'`)),
  },
  {
    flag: 'each',
    section: 'What to run',
    help: 'with --check: check each FILE on its own, as its own user-data (no merged result; a drop-in as a drop-in, a network-config or meta-data as that seed file), with one verdict per file, in one process (several threads for many files); files that are not cloud-init documents are skipped; exit 1 when any file fails',
    set: (o) => (o.each = true),
  },
  { flag: 'annotate', section: 'What to run', help: 'with --check: each FILE (and the merged result) with its problems marked on their lines, as `cloud-init schema --annotate` prints it', set: (o) => (o.annotate = true) },
  {
    flag: 'cloud',
    value: 'NAME',
    section: 'What to run',
    help: `with --check or --format preview: the user-data FILEs as delivered to this cloud (one file as it is, several as one make-mime multipart) against its documented user-data limit, raw or base64 as the cloud counts it, what gzip would save, and base64 text cloud-init will not decode; --check exits 1 when over (${CLOUD_NAMES.join(', ')})`,
    set: (o, v) => (o.cloud = oneOf(v, CLOUD_NAMES, () => `--cloud: unknown cloud '${v}' (expected ${CLOUD_NAMES.join(', ')})`)),
  },
  { flag: 'fail-on', value: 'KINDS', section: 'What to run', help: `with --check: exit 1 when a value meets one of these fates (comma-separated: ${FATE_KINDS.join(', ')}); secrets: report every secret finding (plaintext passwords, weak hashes, private keys, tokens) as an error`, set: setFailOn },
  {
    flag: 'lint',
    section: 'What to run',
    help: "the editor's merge-spec findings for each FILE (file:line:col: severity: message [code], or SARIF 2.1.0 for code scanning with --format sarif); files that are not cloud-init documents are skipped; exit 1 on an error or warning",
    set: (o) => (o.lint = true),
  },
  { flag: 'set', value: 'NAME', section: 'What to run', help: 'merge the set NAME of ./cloud-config-merge.yaml: the same files, mode, include map, instance data and boot layers the editor merges for that set', set: (o, v) => (o.set = v) },
  {
    flag: 'seed',
    value: 'DIR',
    section: 'What to run',
    help: "a NoCloud seed folder as a set: its user-data laid over its vendor-data (boot mode), its meta-data read as NoCloud reads it (--check lists what NoCloud makes of it), its network-config beside them; a folder NoCloud would skip (no user-data or no meta-data) is an error",
    set: (o, v) => (o.seed = v),
  },
  { flag: 'set-file', value: 'PATH', section: 'What to run', help: 'with --set: the set file (default ./cloud-config-merge.yaml)', set: (o, v) => (o.setFile = v) },
  { flag: 'seed-allow-outside', section: 'What to run', help: "with --seed: read the seed's files that are links to files outside DIR too", set: (o) => (o.seedAllowOutside = true) },
  { flag: 'set-allow-outside', section: 'What to run', help: "with --set: read the set's files outside the set file's folder too", set: (o) => (o.setAllowOutside = true) },
  { flag: 'spec', value: 'SPEC', section: 'What to run', help: 'merge JSON/YAML values (each FILE a value: .json read as JSON, others as YAML) with one merger set', set: (o, v) => (o.spec = v) },
  { flag: 'spec-merge-how', value: 'YAML', section: 'What to run', help: 'the same with a spec in list/dict form', set: (o, v) => (o.specMergeHow = v) },
  { flag: 'explain', value: 'SPEC', section: 'What to run', help: 'how cloud-init reads a spec, in words (--format json: as JSON)', set: (o, v) => (o.explain = v) },
  { flag: 'explain-merge-how', value: 'YAML', section: 'What to run', help: 'the same for a spec in list/dict form', set: (o, v) => (o.explainMergeHow = v) },
  { flag: 'batch', value: 'CASES.jsonl', section: 'What to run', help: 'many spec merges in one process', set: (o, v) => (o.batch = v) },
  {
    flag: 'from-terraform',
    value: 'PLAN_OR_STATE.json',
    section: 'What to run',
    help: 'the user-data of each cloudinit_config in `terraform show -json` output (or `pulumi stack export`), with findings naming the part',
    set: (o, v) => (o.fromTerraform = v),
  },
  { flag: 'address', value: 'ADDR', section: 'What to run', help: 'with --from-terraform: only the cloudinit_config at this address', set: (o, v) => (o.address = v) },
  {
    flag: 'plan',
    section: 'What to run',
    help: "cloud-init's boot plan for the merged result: per stage (init, config, final) each module in order, how often it runs, whether it runs or why cloud-init skips it, what a reboot and a new instance run again, and our pitfalls at the file:line:column of the value (--format text, the default, or json); exit 1 on a pitfall that is an error",
    set: (o) => (o.plan = true),
  },
  {
    flag: 'plan-hints',
    section: 'What to run',
    help: 'with --plan: also hint at keys that only once-per-instance modules read (editing them on a running instance changes nothing until a new instance or cloud-init clean); off by default, as it is true of most keys',
    set: (o) => (o.planHints = true),
  },
  { flag: 'rendered', section: 'What to run', help: 'each FILE is saved rendered user-data (base64, gzip or MIME)', set: (o) => (o.rendered = true) },

  {
    flag: 'mode',
    value: MODES.join('|'),
    section: 'Inputs',
    help: 'what the FILEs are (Modes, below; default user-data)',
    set: (o, v) => (o.mode = oneOf(MODE_ALIASES.get(v) ?? v, MODES, () => `unknown mode '${v}' (expected ${MODES.join(', ')})`)),
  },
  { flag: 'include-map', value: 'URL=FILE', section: 'Inputs', help: 'answer "#include URL" with FILE (repeatable); other remote URLs are never fetched', set: (o, v) => { const p = pair('include-map', 'URL=FILE', v); o.includeMap.push({ url: p.name, file: p.value }); } },
  { flag: 'include-missing', value: 'error|skip', section: 'Inputs', help: "an unreachable #include fails all user-data (error, cloud-init's default) or is skipped", set: (o, v) => (o.includeMissing = oneOf(v, ['error', 'skip'], () => `--include-missing takes error or skip, not '${v}'`)) },
  { flag: 'instance-data', value: 'FILE|NAME', section: 'Inputs', help: 'instance data for "## template: jinja" parts (merged and linted): a JSON file, or a shipped sample: aws, azure, gce, openstack, lxd, nocloud', set: (o, v) => (o.instanceData = v) },
  {
    flag: 'launch-index',
    value: 'N',
    section: 'Inputs',
    help: 'keep only parts for this launch index',
    set: (o, v) => {
      if (!/^-?\d+$/.test(v)) throw new UsageError(`--launch-index wants an integer, got '${v}'`);
      o.launchIndex = Number(v);
    },
  },
  { flag: 'cloud-init-version', value: CLOUD_INIT_VERSIONS.join('|'), section: 'Inputs', help: 'which cloud-init release to reproduce (default current, 26.2); a full release such as 24.4.1 names its series', set: setVersion },
  { flag: 'image', value: 'ID|all|ID,ID', section: 'Inputs', help: `check against the cloud-init, distro and cloud.cfg of an image (default ${DEFAULT_IMAGE}): ${IMAGE_IDS.join(', ')}; with --check, all (or a list) gives the verdict on each image`, set: (o, v) => (o.image = v) },
  { flag: 'distro', value: 'D', section: 'Inputs', help: "override the image's system_info.distro (a distro that image's cloud-init knows)", set: (o, v) => (o.distro = v) },
  {
    flag: 'custom-merger',
    value: 'NAME=PATH',
    section: 'Inputs',
    help: 'a custom merger: a JavaScript module exporting a Merger class with _on_<type> methods, used for specs that name NAME, in merges and --lint (repeatable; the module\'s code runs)',
    set: (o, v) => { const p = pair('custom-merger', 'NAME=PATH', v); o.customMergers.push({ name: p.name, path: p.value }); },
  },

  { flag: 'cloud-cfg', value: 'FILE', section: 'Boot, confd and system modes', help: '/etc/cloud/cloud.cfg (confd and boot modes, and --plan)', set: (o, v) => (o.cloudCfg = v) },
  { flag: 'confd', value: 'FILE', section: 'Boot, confd and system modes', help: 'a cloud.cfg.d drop-in (boot mode; repeatable)', set: (o, v) => o.confd.push(v) },
  { flag: 'confd-order', value: 'name|given', section: 'Boot, confd and system modes', help: "drop-in order: cloud-init's (by name, default) or as given", set: (o, v) => (o.confdOrder = oneOf(v, ['name', 'given'], () => `--confd-order takes name or given, not '${v}'`)) },
  { flag: 'runtime-cfg', value: 'FILE', section: 'Boot, confd and system modes', help: 'boot mode: the runtime config (/run/cloud-init/cloud.cfg)', set: (o, v) => (o.runtimeCfg = v) },
  { flag: 'cmdline-cfg', value: 'FILE', section: 'Boot, confd and system modes', help: "boot mode: the config from the kernel's command line", set: (o, v) => (o.cmdlineCfg = v) },
  { flag: 'ds-config', value: 'FILE', section: 'Boot, confd and system modes', help: "boot mode: the datasource's config", set: (o, v) => (o.dsConfig = v) },
  { flag: 'builtin-cfg', value: 'FILE', section: 'Boot, confd and system modes', help: "boot mode: cloud-init's builtin config", set: (o, v) => (o.builtinCfg = v) },
  { flag: 'vendor', value: 'FILE', section: 'Boot, confd and system modes', help: 'boot mode: the vendor-data blob', set: (o, v) => (o.vendor = v) },
  { flag: 'vendor2', value: 'FILE', section: 'Boot, confd and system modes', help: 'boot mode: the vendor-data2 blob', set: (o, v) => (o.vendor2 = v) },
  {
    flag: 'no-builtin',
    section: 'Boot, confd and system modes',
    help: "boot mode: an empty builtin layer, so vendor-data is only read when a config enables it (by default it is on, as with cloud-init's own builtin config)",
    set: (o) => (o.noBuiltin = true),
  },
  { flag: 'reverse', section: 'Boot, confd and system modes', help: 'system mode: merge the FILEs in reverse order', set: (o) => (o.reverse = true) },

  {
    flag: 'format',
    value: FORMATS.join('|'),
    section: 'Output',
    help: "a merge writes cloud-config.txt's text (yaml, the default), canonical JSON, a JSON report, or the editor preview's text (a header listing the parts, then the yaml output); --check writes text (the default), json or sarif; --lint writes lines or sarif",
    set: (o, v) => (o.format = oneOf(v, FORMATS, () => `unknown format '${v}' (expected ${FORMATS.join(', ')})`)),
  },
  { flag: 'pretty', section: 'Output', help: 'indent JSON output', set: (o) => (o.pretty = true) },

  {
    flag: 'limit',
    value: 'NAME=N',
    section: 'Limits',
    help: `change one of this tool's resource limits (repeatable; the defaults):\n${LIMIT_NAMES.map((n) => `  ${n}=${DEFAULT_LIMITS[n]}`).join('\n')}`,
    set: setLimit,
  },

  { flag: 'help', short: 'h', section: 'Help', help: 'this help', set: (o) => (o.help = true) },
  { flag: 'version', section: 'Help', help: "this tool's version", set: (o) => (o.showVersion = true) },
];

const BY_NAME = new Map(FLAGS.map((f) => [f.flag, f]));

/** node:util's parseArgs configuration, made from the table: which flags take a value, and the short aliases. */
const PARSER_OPTIONS: NonNullable<ParseArgsConfig['options']> = Object.fromEntries(
  FLAGS.map((f) => [f.flag, { type: f.value === undefined ? ('boolean' as const) : ('string' as const), ...(f.short ? { short: f.short } : {}) }]),
);

/** The words that name a flag on a command line: `--check`, `-h`. */
const FLAG_WORDS = new Set(FLAGS.flatMap((f) => [`--${f.flag}`, ...(f.short ? [`-${f.short}`] : [])]));

const HELP_COLUMN = 30;
const HELP_WIDTH = 112;

/** Words wrapped into lines of at most `width` characters (a longer word stays whole). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    const indent = /^ */.exec(paragraph)?.[0] ?? '';
    let line = '';
    for (const word of paragraph.trim().split(/ +/)) {
      if (line && indent.length + line.length + 1 + word.length > width) {
        lines.push(indent + line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(indent + line);
  }
  return lines;
}

/** One flag in the help: its spelling in the left column, its words from HELP_COLUMN on. */
function flagHelp(f: Flag): string {
  const left = `  ${f.short ? `-${f.short}, ` : ''}--${f.flag}${f.value ? ` ${f.value}` : ''}`;
  const help = wrap(f.help, HELP_WIDTH - HELP_COLUMN).map((l) => ' '.repeat(HELP_COLUMN) + l);
  if (left.length + 2 <= HELP_COLUMN) help[0] = left.padEnd(HELP_COLUMN) + help[0].slice(HELP_COLUMN);
  else help.unshift(left);
  return help.join('\n');
}

/** What each way of running the tool looks like; each flag is explained in the sections below it. */
const SYNOPSIS = `Usage:
  cloud-config-merge [--mode MODE] [--format yaml|json|report|preview] [options] FILE...
  cloud-config-merge --check [--annotate] [--fail-on KINDS] [--format text|json|sarif] [options] FILE...
  cloud-config-merge --check --each [--format text|json|sarif] [options] FILE...
  cloud-config-merge --lint [--format sarif] [options] FILE...
  cloud-config-merge --plan [--plan-hints] [--image P] [--distro D] [--cloud-cfg F] [--format text|json] FILE...
  cloud-config-merge --set NAME [--set-file PATH] [--set-allow-outside] [--check | --lint | --format ...]
  cloud-config-merge --seed DIR [--seed-allow-outside] [--check | --format ...]
  cloud-config-merge --spec SPEC | --spec-merge-how YAML [--format yaml|json] VALUE_FILE...
  cloud-config-merge --explain SPEC | --explain-merge-how YAML [--format json]
  cloud-config-merge --batch CASES.jsonl
  cloud-config-merge --from-terraform PLAN_OR_STATE.json [--address ADDR] [--format ...]
  cloud-config-merge --rendered [--format ...] BLOB...
  cloud-config-merge make-mime [--gzip --base64] FILE[:CONTENT-TYPE[:MERGE-TYPE]]...
                              MIME user-data as \`cloud-init devel make-mime\` writes it (make-mime --help)`;

const EXIT_CODES = `Exit codes:
  0  ok
  1  --check: cloud-init would report schema errors (--image all or a list: on any image listed), or a value
     meets a --fail-on fate; --lint: a problem found; --plan: a pitfall that is an error
  2  bad usage, unreadable input or input over a limit
  3  cloud-init itself would fail
  4  done, but a Jinja template could not be reproduced (cloud-init renders it; see the note: lines)`;

/** The help `--help` prints (made when asked: a run that does not print it does not pay for it). */
export function usage(): string {
  return [
    SYNOPSIS,
    `Modes:\n${MODES.map((m) => `  ${m.padEnd(11)}${MODE_HELP[m]}`).join('\n')}`,
    ...SECTIONS.map((s) => `${s}:\n${FLAGS.filter((f) => f.section === s).map(flagHelp).join('\n')}`),
    EXIT_CODES,
  ].join('\n\n');
}

/** The options before any flag. */
function defaults(): CliOptions {
  return {
    mode: 'user-data',
    format: 'yaml',
    files: [],
    includeMap: [],
    includeMissing: 'error',
    confdOrder: 'name',
    reverse: false,
    noBuiltin: false,
    confd: [],
    version: 'current',
    target: resolveTarget(),
    customMergers: [],
    limits: { ...DEFAULT_LIMITS },
    rendered: false,
    lint: false,
    pretty: false,
    help: false,
    showVersion: false,
    check: false,
    annotate: false,
    failOn: [],
    plan: false,
  };
}

/** `unknown option --chek (did you mean --check?)` */
function unknownFlag(written: string): UsageError {
  const guess = nearest(written.replace(/^-+/, '').replace(/=.*/s, ''), FLAGS.map((f) => f.flag));
  return new UsageError(`unknown option ${written}${guess ? ` (did you mean --${guess}?)` : ''}`);
}

type OptionToken = { kind: 'option'; name: string; rawName: string; index: number; value?: string; inlineValue?: boolean };

/** The flag one option token names, with its value checked against what the flag takes. */
function flagOf(token: OptionToken, argv: readonly string[]): { flag: Flag; value: string } {
  const written = argv[token.index];
  // `-check` reaches parseArgs as the short flags -c -h -e -c -k: it is one unknown word.
  const flag = token.rawName.startsWith('--') || written === token.rawName ? BY_NAME.get(token.name) : undefined;
  if (!flag) throw unknownFlag(token.rawName.startsWith('--') ? token.rawName : written);
  const name = `--${flag.flag}`;
  if (flag.value === undefined) {
    if (token.value !== undefined) throw new UsageError(`${name} takes no value (got ${written})`);
    return { flag, value: '' };
  }
  // A value left out before the next flag would be read as that flag (`--instance-data --check`).
  if (token.value === undefined || (!token.inlineValue && FLAG_WORDS.has(token.value))) {
    throw new UsageError(`${name} needs a value (${flag.value})${token.value === undefined ? '' : `, not the flag ${token.value}`}`);
  }
  return { flag, value: token.value };
}

export function parseArgs(argv: string[]): CliOptions {
  const o = defaults();
  const { tokens } = parseTokens({ args: argv, options: PARSER_OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const given = new Set<string>();
  for (const token of tokens) {
    if (token.kind === 'positional') o.files.push(token.value);
    else if (token.kind === 'option') {
      const { flag, value } = flagOf(token, argv);
      flag.set(o, value);
      given.add(flag.flag);
    }
  }
  checkCombinations(o, given.has('format'));
  applyTarget(o);
  return o;
}

/**
 * The target from --image (or the default image), --cloud-init-version and --distro; the version the engine
 * runs follows it. `--image all` or a list keeps the default target: --check runs each image's version itself.
 * Run again after --set, whose set may name an image.
 */
export function applyTarget(o: CliOptions): void {
  const image = o.image?.trim();
  if (image !== undefined && (image === 'all' || image.includes(','))) {
    const ids = image === 'all' ? IMAGE_IDS : image.split(',').map((id) => id.trim()).filter(Boolean);
    if (!ids.length) refuse(`--image ${image} names no image`);
    o.images = ids.map((id) => imageProfile(id) ?? refuse(`--image: ${unknownImageMessage(id)}`));
    if (!o.check) refuse(`--image ${image} goes with --check (one image at a time otherwise)`);
    if (o.versionOverride !== undefined || o.distro !== undefined) refuse(`--image ${image} checks each image with its own cloud-init and distro: drop --cloud-init-version and --distro`);
    if (o.annotate || o.format === 'sarif' || o.failOn.length) refuse(`--image ${image} writes each image's verdict as text or json: it does not go with --annotate, --format sarif or --fail-on`);
    return;
  }
  o.images = undefined;
  if (image !== undefined && !imageProfile(image)) refuse(`--image: ${unknownImageMessage(image)}`);
  try {
    o.target = resolveTarget({ image, version: o.versionOverride, distro: o.distro, netplan: o.netplan });
  } catch (e) {
    if (e instanceof TargetError) refuse(`--distro: ${e.message}`);
    throw e;
  }
  o.version = o.target.version;
}

function refuse(message: string): never {
  throw new UsageError(message);
}

/** Flags that only mean something with others, and the formats each command writes. */
function checkCombinations(o: CliOptions, formatGiven: boolean): void {
  if (o.plan) {
    if (o.check || o.lint) throw new UsageError(`--plan does not go with ${o.check ? '--check' : '--lint'}`);
    if (o.type !== undefined) throw new UsageError('--type goes with --check or --lint');
    if (!formatGiven) o.format = 'text';
    else if (o.format !== 'text' && o.format !== 'json') throw new UsageError(`--plan writes text or json, not '${o.format}'`);
    return;
  }
  if ((o.spec !== undefined || o.specMergeHow !== undefined) && !formatGiven) o.format = 'yaml';
  if (o.check) {
    if (!formatGiven) o.format = 'text';
    else if (o.format !== 'text' && o.format !== 'json' && o.format !== 'sarif') throw new UsageError(`--check writes text, json or sarif, not '${o.format}'`);
    // With --set, the set file decides the mode: checked once it is read.
    if (o.set === undefined && !CHECK_MODES.includes(o.mode)) throw new UsageError('--check works with the user-data, handler, confd and boot modes');
    if (o.annotate && o.format !== 'text') throw new UsageError('--annotate prints text: it does not go with --format json or sarif');
    if (o.each) {
      const other = o.set !== undefined ? '--set' : o.seed !== undefined ? '--seed' : o.annotate ? '--annotate' : o.mode !== 'user-data' ? `--mode ${o.mode}` : o.image?.includes(',') || o.image === 'all' ? `--image ${o.image}` : undefined;
      if (other) throw new UsageError(`--each checks each FILE as its own user-data: it does not go with ${other}`);
    }
  } else if (o.annotate) throw new UsageError('--annotate goes with --check');
  else if (o.each) throw new UsageError('--each goes with --check');
  else if (o.type !== undefined && !o.lint) throw new UsageError('--type goes with --check or --lint');
  else if (o.netplan !== undefined && !o.lint) throw new UsageError('--netplan goes with --check or --lint');
  else if (o.format === 'text') throw new UsageError('--format text goes with --check');
  else if (o.format === 'sarif' && !o.lint) throw new UsageError('--format sarif goes with --check or --lint');
  if ((o.failOn.length || o.failOnSecrets) && !o.check) throw new UsageError('--fail-on goes with --check');
  if (o.planHints && !o.plan) throw new UsageError('--plan-hints goes with --plan');
  if (o.setFile !== undefined && o.set === undefined) throw new UsageError('--set-file goes with --set NAME');
  if (o.setAllowOutside && o.set === undefined) throw new UsageError('--set-allow-outside goes with --set NAME');
  if (o.seedAllowOutside && o.seed === undefined) throw new UsageError('--seed-allow-outside goes with --seed DIR');
}
