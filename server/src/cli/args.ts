/** Command-line arguments of `cloud-config-merge`. */
import { DEFAULT_LIMITS, LIMIT_NAMES, Limits, isLimitName } from '../engine/limits';
import { EFFECT_KINDS as FATE_KINDS, type EffectKind as FateKind } from '../engine/outcome/effects';
import { pushAll } from '../engine/arrays';

export type Mode = 'user-data' | 'handler' | 'confd' | 'system' | 'boot' | 'chef';
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
  version: 'current' | '22.4';
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
  /** `--check --annotate`: each file printed with its problems, as `cloud-init schema --annotate` prints it. */
  annotate: boolean;
  /** `--set NAME`: the files, mode and layers of a set of the set file. */
  set?: string;
  /** `--set-file PATH`: the set file (default ./cloud-config-merge.yaml). */
  setFile?: string;
  /** `--fail-on KINDS`: --check exits 1 when a value meets one of these fates. */
  failOn: FateKind[];
}

export class UsageError extends Error {}

/** Modes `--check` works with: schema checks need user-data; fates need parts with specs. */
export const CHECK_MODES: readonly Mode[] = ['user-data', 'handler', 'confd', 'boot'];

const MODES: Mode[] = ['user-data', 'handler', 'confd', 'system', 'boot', 'chef'];
const FORMATS: Format[] = ['yaml', 'json', 'report', 'preview', 'text', 'sarif'];

export const USAGE = `Usage:
  cloud-config-merge [--mode user-data|handler|confd|system|boot|chef] [--format yaml|json|report|preview] [options] FILE...
  cloud-config-merge --spec SPEC [--format yaml|json] VALUE_FILE...     merge JSON/YAML values with one merger set
  cloud-config-merge --spec-merge-how YAML [--format yaml|json] VALUE_FILE...   the same with a list/dict form spec
  cloud-config-merge --explain SPEC | --explain-merge-how YAML [--format json]  how cloud-init reads a spec
  cloud-config-merge --batch CASES.jsonl                                many spec merges in one process
  cloud-config-merge --from-terraform PLAN_OR_STATE.json [--address ADDR] [--format ...]
                              the user-data of each cloudinit_config in \`terraform show -json\` output
                              (or \`pulumi stack export\`), with findings naming the part
  cloud-config-merge --rendered [--format ...] BLOB...   saved rendered user-data (base64, gzip or MIME)
  cloud-config-merge --lint [--format sarif] FILE...   the editor's merge-spec findings (file:line:col: severity:
                              message [code], or SARIF 2.1.0 for code scanning); files that are not cloud-init
                              documents are skipped; exit 1 on an error or warning
  cloud-config-merge make-mime [--gzip --base64] FILE[:CONTENT-TYPE[:MERGE-TYPE]]...
                              MIME user-data as \`cloud-init devel make-mime\` writes it (make-mime --help)
  cloud-config-merge --check [--format text|json|sarif] [--cloud-init-version 22.4|current] FILE...
                              validate each FILE and the merged result as cloud-init's schema validator does,
                              and list the merge's fates: each value of a part that is replaced, deleted,
                              lost, dropped with its part, overridden at boot, or appended/prepended, with
                              the file:line of both values (user-data, confd and boot modes)
  cloud-config-merge --set NAME [--set-file PATH] [--check | --format ...]
                              merge the set NAME of ./cloud-config-merge.yaml (or PATH): the same files, mode,
                              include map, instance data and boot layers the editor merges for that set
  cloud-config-merge --check --annotate [--cloud-init-version 22.4|current] FILE...
                              each FILE (and the merged result) with its problems marked on their lines,
                              as \`cloud-init schema --annotate\` prints it

Modes:
  user-data  each FILE is one raw user-data blob (MIME, gzip, #include, archives, jinja), in order (default)
  handler    each FILE goes straight to the cloud-config part handler; MIME headers from FILE.headers.json
  confd      FILEs are cloud.cfg.d drop-ins, merged in cloud-init's order (--confd-order given keeps yours)
  system     util.mergemanydict over the FILEs (--reverse to reverse them)
  boot       FILEs are user-data, layered over vendor-data, datasource and system config
  chef       Chef-style deep merge of role, environment or attribute files (JSON or YAML), later files win

Options:
  --format yaml|json|report|preview   output: cloud-config.txt text (default), canonical JSON, a JSON report,
                              or the editor preview's text (a header listing the parts, then the yaml output)
  --include-map URL=FILE      answer "#include URL" with FILE (repeatable); other remote URLs are never fetched
  --include-missing error|skip  an unreachable #include fails all user-data (error, cloud-init's default) or is skipped
  --instance-data FILE|NAME   instance data for "## template: jinja" parts: a JSON file, or a shipped
                              sample: aws, azure, gce, openstack, lxd, nocloud
  --launch-index N            keep only parts for this launch index
  --cloud-cfg FILE            /etc/cloud/cloud.cfg (confd and boot modes)
  --confd FILE                a cloud.cfg.d drop-in (boot mode; repeatable)
  --confd-order name|given    drop-in order: cloud-init's (by name, default) or as given
  --runtime-cfg FILE, --cmdline-cfg FILE, --ds-config FILE, --builtin-cfg FILE   boot-mode layers
  --vendor FILE, --vendor2 FILE   vendor-data and vendor-data2 blobs (boot mode)
  --no-builtin                boot mode: an empty builtin layer, so vendor-data is only read when a config enables it
                              (by default it is on, as with cloud-init's own builtin config)
  --reverse                   system mode: merge the FILEs in reverse order
  --cloud-init-version current|22.4   reproduce today's cloud-init (default) or Debian's 22.4.2
  --custom-merger NAME=PATH   a custom merger: a JavaScript module exporting a Merger class with _on_<type>
                              methods, used for specs that name NAME (repeatable; the module's code runs)
  --limit NAME=N              change one of this tool's resource limits (repeatable; the defaults):
${LIMIT_NAMES.map((n) => `                                ${n}=${DEFAULT_LIMITS[n]}`).join('\n')}
  --fail-on KINDS             with --check: exit 1 when a value meets one of these fates (comma-separated:
                              ${FATE_KINDS.join(', ')})
  --pretty                    indent JSON output
  -h, --help                  this help; --version  the version

Exit codes: 0 ok; 1 --check: cloud-init would report schema errors (or a value meets a --fail-on fate),
--lint: a problem found;
2 bad usage or unreadable input; 3 cloud-init itself would fail;
4 done, but a Jinja template could not be reproduced (cloud-init renders it; see note: lines).`;

export function parseArgs(argv: string[]): CliOptions {
  const o: CliOptions = {
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
  };
  let formatGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      pushAll(o.files, argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      o.files.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 && arg.startsWith('--') ? arg.slice(0, eq) : arg;
    const inline = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : undefined;
    const value = (): string => {
      if (inline !== undefined) return inline;
      if (i + 1 >= argv.length) throw new UsageError(`${name} needs a value`);
      return argv[++i];
    };
    switch (name) {
      case '-h':
      case '--help':
        o.help = true;
        break;
      case '--version':
        o.showVersion = true;
        break;
      case '--mode': {
        const m = value();
        const mode = (m === 'userdata' ? 'user-data' : m === 'mergemany' ? 'system' : m) as Mode;
        if (!MODES.includes(mode)) throw new UsageError(`unknown mode '${m}' (expected ${MODES.join(', ')})`);
        o.mode = mode;
        break;
      }
      case '--format': {
        const f = value() as Format;
        if (!FORMATS.includes(f)) throw new UsageError(`unknown format '${f}' (expected ${FORMATS.join(', ')})`);
        o.format = f;
        formatGiven = true;
        break;
      }
      case '--spec':
        o.spec = value();
        break;
      case '--spec-merge-how':
        o.specMergeHow = value();
        break;
      case '--explain':
        o.explain = value();
        break;
      case '--explain-merge-how':
        o.explainMergeHow = value();
        break;
      case '--batch':
        o.batch = value();
        break;
      case '--include-map': {
        const v = value();
        const at = v.indexOf('=');
        if (at <= 0) throw new UsageError(`--include-map wants URL=FILE, got '${v}'`);
        o.includeMap.push({ url: v.slice(0, at).trim(), file: v.slice(at + 1) });
        break;
      }
      case '--limit': {
        const v = value();
        const match = /^(\w+)=(\d+)$/.exec(v.trim());
        if (!match) throw new UsageError(`--limit wants NAME=N (a positive integer), got '${v}'`);
        if (!isLimitName(match[1])) throw new UsageError(`--limit: unknown limit '${match[1]}' (expected ${LIMIT_NAMES.join(', ')})`);
        const n = Number(match[2]);
        if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--limit ${match[1]} must be a positive integer, got '${match[2]}'`);
        o.limits[match[1]] = n;
        break;
      }
      case '--include-missing': {
        const v = value();
        if (v !== 'error' && v !== 'skip') throw new UsageError(`--include-missing takes error or skip, not '${v}'`);
        o.includeMissing = v;
        break;
      }
      case '--instance-data':
        o.instanceData = value();
        break;
      case '--launch-index': {
        const v = value();
        if (!/^-?\d+$/.test(v)) throw new UsageError(`--launch-index wants an integer, got '${v}'`);
        o.launchIndex = Number(v);
        break;
      }
      case '--confd-order': {
        const v = value();
        if (v !== 'name' && v !== 'given') throw new UsageError(`--confd-order takes name or given, not '${v}'`);
        o.confdOrder = v;
        break;
      }
      case '--cloud-cfg':
        o.cloudCfg = value();
        break;
      case '--confd':
        o.confd.push(value());
        break;
      case '--runtime-cfg':
        o.runtimeCfg = value();
        break;
      case '--cmdline-cfg':
        o.cmdlineCfg = value();
        break;
      case '--ds-config':
        o.dsConfig = value();
        break;
      case '--vendor':
        o.vendor = value();
        break;
      case '--vendor2':
        o.vendor2 = value();
        break;
      case '--builtin-cfg':
        o.builtinCfg = value();
        break;
      case '--no-builtin':
        o.noBuiltin = true;
        break;
      case '--reverse':
        o.reverse = true;
        break;
      case '--cloud-init-version': {
        const v = value();
        if (v === 'current' || v === 'head') o.version = 'current';
        else if (v === '22.4' || v === '22.4.2') o.version = '22.4';
        else throw new UsageError(`--cloud-init-version takes current or 22.4, not '${v}'`);
        break;
      }
      case '--custom-merger': {
        const v = value();
        const at = v.indexOf('=');
        if (at <= 0) throw new UsageError(`--custom-merger wants NAME=PATH, got '${v}'`);
        o.customMergers.push({ name: v.slice(0, at).trim(), path: v.slice(at + 1) });
        break;
      }
      case '--pretty':
        o.pretty = true;
        break;
      case '--from-terraform':
        o.fromTerraform = value();
        break;
      case '--address':
        o.address = value();
        break;
      case '--rendered':
        o.rendered = true;
        break;
      case '--lint':
        o.lint = true;
        break;
      case '--check':
        o.check = true;
        break;
      case '--annotate':
        o.annotate = true;
        break;
      case '--set':
        o.set = value();
        break;
      case '--set-file':
        o.setFile = value();
        break;
      case '--fail-on': {
        const v = value();
        const kinds = v.split(',').map((k) => k.trim()).filter(Boolean);
        for (const k of kinds) if (!(FATE_KINDS as string[]).includes(k)) throw new UsageError(`--fail-on: unknown fate '${k}' (expected ${FATE_KINDS.join(', ')})`);
        if (!kinds.length) throw new UsageError(`--fail-on needs one or more of ${FATE_KINDS.join(', ')}`);
        o.failOn = kinds as FateKind[];
        break;
      }
      default:
        throw new UsageError(`unknown option ${name}`);
    }
  }
  if ((o.spec !== undefined || o.specMergeHow !== undefined) && !formatGiven) o.format = 'yaml';
  if (o.check) {
    if (!formatGiven) o.format = 'text';
    else if (o.format !== 'text' && o.format !== 'json' && o.format !== 'sarif') throw new UsageError(`--check writes text, json or sarif, not '${o.format}'`);
    // With --set, the set file decides the mode: checked once it is read.
    if (o.set === undefined && !CHECK_MODES.includes(o.mode)) throw new UsageError('--check works with the user-data, handler, confd and boot modes');
    if (o.annotate && o.format !== 'text') throw new UsageError('--annotate prints text: it does not go with --format json or sarif');
  } else if (o.annotate) throw new UsageError('--annotate goes with --check');
  else if (o.format === 'text') throw new UsageError('--format text goes with --check');
  else if (o.format === 'sarif' && !o.lint) throw new UsageError('--format sarif goes with --check or --lint');
  if (o.failOn.length && !o.check) throw new UsageError('--fail-on goes with --check');
  if (o.setFile !== undefined && o.set === undefined) throw new UsageError('--set-file goes with --set NAME');
  return o;
}
