/**
 * Subiquity's verdict on an autoinstall config, as its code decides it (canonical/subiquity,
 * `subiquity/server/server.py` and the controllers' `load_autoinstall_data`), for the snapshot of each
 * Ubuntu release (facts.ts). The sequence, in Subiquity's order; Subiquity stops at the first exception,
 * which is `errors[0]`; the others are what it would raise next, each section checked on its own:
 *
 * 1. Delivered by cloud-init (a `#cloud-config` user-data): `cloud-init schema` runs on the combined
 *    config and Subiquity reads only the FIRST "('k' was unexpected)" of what it prints
 *    (`cloudinit.py get_unknown_keys`); if one of those keys is an autoinstall key, "Misplaced autoinstall
 *    directives" stops the install. The config is the combined config's `autoinstall` value; `{}` or none
 *    is no autoinstall (an interactive install).
 * 2. `_read_config`: a top-level `autoinstall:` is unwrapped and must be alone ('top-level keys').
 * 3. Early: reporting (and curtin's handler registry), error-commands, the base schema (`version`,
 *    `interactive-sections`), unknown top-level keys (version 1: warnings, dropped), early-commands; then
 *    every controller in order: its section's schema, then its load-time checks (user-data as cloud-config
 *    with the live installer's cloud-init, zdevs, apt, keyboard, identity and user names, time zone).
 * 4. What Subiquity raises later without the hardware (`applyTime`: the storage layout).
 *
 * Messages are Subiquity's words where the install stops on them (they are what its log and error
 * report show), and the facts (section names, keys) are extracted; the detail of a schema failure is ours.
 */
import { PyDict, type PyValue } from '../py/values';
import { comparePyStr } from '../py/str';
import { pyRepr, pyStr } from '../py/repr';
import { validateCloudConfig } from '../schema/validate';
import { autoinstallKeys, subiquityFacts, timezoneNames, type Controller, type SubiquityFacts, type SubiquityProfile } from './facts';
import { asPy, firstFailure } from './jsonschema';

export type Delivery = 'cloud-config' | 'autoinstall.yaml';

export interface AutoinstallError {
  phase: 'cloud-config' | 'read' | 'early' | 'main';
  /** Subiquity's section (`identity`, `top-level keys`, `version or interactive-sections`), null before one. */
  section: string | null;
  /** The exception Subiquity raises (AutoinstallValidationError, AutoinstallError, ValueError, KeyError...). */
  cause: string;
  message: string;
  /** Where in the document (keys and indices from its root). */
  path: PyValue[];
  /** What is wrong, in our words (a schema failure's detail; Subiquity logs its own). */
  detail?: string;
}

export interface AutoinstallNote {
  section: string;
  message: string;
  path: PyValue[];
}

export interface AutoinstallVerdict {
  profile: SubiquityProfile;
  commit: string;
  delivery: Delivery;
  /** Subiquity finds an autoinstall config (else the install is interactive). */
  found: boolean;
  foundAt?: string;
  valid: boolean;
  verdict: 'valid' | 'invalid' | 'no-autoinstall';
  /** errors[0] stops the install. */
  errors: AutoinstallError[];
  warnings: AutoinstallNote[];
  /** Top-level keys version 1 drops with a warning. */
  unrecognized: string[];
  /** What Subiquity raises later, when it applies the config (storage). */
  applyTime: AutoinstallNote[];
  /** The autoinstall config as Subiquity reads it, and where it is in the document. */
  config?: PyValue;
  root: PyValue[];
  /** Top-level keys of the cloud-config that are autoinstall keys cloud-init also knows (not caught). */
  outside: string[];
}

export interface VerdictInput {
  profile: SubiquityProfile;
  delivery: Delivery;
  /** autoinstall.yaml: the file as loaded; cloud-config: cloud-init's combined config. */
  value: PyValue;
  /** `server` (the default) requires identity or user-data; `desktop` does not. */
  variant?: 'server' | 'desktop';
}

/** An exception Python would raise in Subiquity's code: it stops the install like the others. */
class PyCrash extends Error {
  constructor(
    override readonly cause: string,
    message: string,
    readonly path: PyValue[] = [],
  ) {
    super(message);
  }
}

/** `subiquity/cloudinit.py`: what Subiquity's regex reads in `cloud-init schema`'s output. */
const UNKNOWN_KEYS = /\(('[^']+'(?:,\s'[^']+')*) (?:was|were) unexpected\)/;

/** curtin/reporter/handlers.py: the handler types and their constructors' keyword arguments (allowed, required). */
const CURTIN_HANDLERS: Record<string, { cls: string; allowed: string[]; required: string[] }> = {
  log: { cls: 'LogHandler', allowed: ['level'], required: [] },
  print: { cls: 'PrintHandler', allowed: [], required: [] },
  webhook: { cls: 'WebHookHandler', allowed: ['endpoint', 'consumer_key', 'token_key', 'token_secret', 'consumer_secret', 'timeout', 'retries', 'level'], required: ['endpoint'] },
  journald: { cls: 'JournaldHandler', allowed: ['level', 'identifier'], required: [] },
};

/** models/identity.py and the users checks (main and 26.04). */
const USERNAME = /^[a-z_][a-z0-9_-]*$/;
const USERNAME_MAXLEN = 32;
const LAYOUT_MODES = ['reformat_disk', 'use_gap'];
const MIRROR_FALLBACKS = ['abort', 'continue-anyway', 'offline-install'];

function typeName(v: PyValue): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'float';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  if (v instanceof PyDict) return 'dict';
  return 'object';
}

/** Python's `d.get(k, default)` on what may not be a dict. */
function pyGet(d: PyValue | undefined, key: string, fallback: PyValue, path: PyValue[] = []): PyValue {
  if (!(d instanceof PyDict)) throw new PyCrash('AttributeError', `'${typeName(d ?? null)}' object has no attribute 'get'`, path);
  return d.has(key) ? (d.get(key) as PyValue) : fallback;
}

/** Python's `x in container`. */
function pyIn(x: string, container: PyValue, path: PyValue[] = []): boolean {
  if (container instanceof PyDict) return container.has(x);
  if (Array.isArray(container)) return container.some((v) => v === x);
  if (typeof container === 'string') return container.includes(x);
  throw new PyCrash('TypeError', `argument of type '${typeName(container)}' is not iterable`, path);
}

class Sim {
  readonly facts: SubiquityFacts;
  readonly errors: AutoinstallError[] = [];
  readonly warnings: AutoinstallNote[] = [];
  readonly applyTime: AutoinstallNote[] = [];
  unrecognized: string[] = [];
  cfg: PyValue = null;
  interactive = false;
  root: PyValue[] = [];

  constructor(
    readonly input: VerdictInput,
    readonly keys: ReadonlySet<string>,
  ) {
    this.facts = subiquityFacts(input.profile);
  }

  error(e: Omit<AutoinstallError, 'path'> & { path?: PyValue[] }): void {
    this.errors.push({ ...e, path: [...this.root, ...(e.path ?? [])] });
  }

  /** server.py `_read_config`: the config, or null when Subiquity cannot go on. */
  readConfig(value: PyValue): { cfg: PyValue; foundAt: string } | null {
    if (!pyIn('autoinstall', value)) return { cfg: value, foundAt: 'whole file' };
    if (!(value instanceof PyDict)) {
      this.crash('read', null, new PyCrash('AttributeError', `'${typeName(value)}' object has no attribute 'pop'`));
      return null;
    }
    const cfg = value.get('autoinstall') as PyValue;
    const others = value.keys().filter((k) => !(k === 'autoinstall'));
    if (others.length) {
      this.interactive = cfg instanceof PyDict && truthy(pyGet(cfg, 'interactive-sections', null));
      this.errors.push({
        phase: 'read',
        section: 'top-level keys',
        cause: 'AutoinstallValidationError',
        message: "Malformed autoinstall in 'top-level keys' section",
        path: [...this.root, others[0]],
        detail: `no other key may be beside 'autoinstall' at the top level of an autoinstall file: ${others.map((k) => pyRepr(k)).join(', ')}`,
      });
    }
    this.root = [...this.root, 'autoinstall'];
    return { cfg, foundAt: "file's top-level 'autoinstall' key" };
  }

  crash(phase: AutoinstallError['phase'], section: string | null, e: unknown): void {
    if (!(e instanceof PyCrash)) throw e;
    this.error({ phase, section, cause: e.cause, message: e.message, path: e.path });
  }

  sectionData(c: Controller): { data: PyValue; used: string | null } {
    const cfg = this.cfg as PyDict;
    for (const k of [c.key, c.alias]) if (k !== null && cfg.has(k)) return { data: cfg.get(k) as PyValue, used: k };
    return { data: asPy(c.default), used: null };
  }

  setup(phase: 'early' | 'main', c: Controller): void {
    if (!(this.cfg instanceof PyDict) || this.cfg.size === 0) return;
    if (c.key === null) return;
    const { data, used } = this.sectionData(c);
    const schema = this.facts.sections[c.key];
    const at = used ?? c.key;
    if (data !== null && schema !== undefined) {
      const f = firstFailure(data, schema);
      if (f) {
        this.error({ phase, section: c.key, cause: 'AutoinstallValidationError', message: `Malformed autoinstall in '${c.key}' section`, path: [at, ...f.path], detail: f.detail });
        return;
      }
    }
    try {
      this.load(phase, c, data, at);
    } catch (e) {
      this.crash(phase, c.key, e);
    }
  }

  load(phase: 'early' | 'main', c: Controller, data: PyValue, at: string): void {
    const fail = (cause: string, message: string, path: PyValue[] = [at], detail?: string) => this.error({ phase, section: c.key, cause, message, path, detail });
    switch (c.name) {
      case 'Reporting':
        return this.loadReporting(phase, data, at);
      case 'Userdata':
        return this.loadUserdata(data, fail);
      case 'Keyboard': {
        if (data === null || !this.facts.checks.keyboard) return;
        const layout = pyGet(data, 'layout', null) as string;
        const variant = pyGet(data, 'variant', '') as string;
        const lt = layout.split(',');
        const vt = variant.split(',');
        if (lt.length !== vt.length) return fail('ValueError', `inconsistent multi-layout: layouts="${layout}" variants="${variant}"`);
        for (let i = 0; i < lt.length; i++) {
          const variants = Object.prototype.hasOwnProperty.call(this.facts.keyboard, lt[i]) ? this.facts.keyboard[lt[i]] : undefined;
          if (!variants) return fail('ValueError', `Unknown keyboard layout "${lt[i]}"`, [at, 'layout']);
          if (!variants.includes(vt[i])) return fail('ValueError', `Unknown keyboard variant "${vt[i]}" for layout "${lt[i]}"`, [at, 'variant']);
        }
        return;
      }
      case 'Zdev': {
        if (!Array.isArray(data)) return;
        for (let i = 0; i < data.length; i++) {
          for (const k of ['id', 'enabled']) if (!pyIn(k, data[i])) return fail('KeyError', `'${k}'`, [at, BigInt(i)]);
        }
        return;
      }
      case 'Mirror':
        return this.loadMirror(data, at, fail);
      case 'Identity':
        return this.loadIdentity(c, data, at, fail);
      case 'TimeZone': {
        if (data === null || typeof data !== 'string') return;
        if (data !== '' && data !== 'geoip' && !timezoneNames().has(data)) fail('AutoinstallError', `unknown timezone: ${data}`);
        return;
      }
      default:
        return;
    }
  }

  loadReporting(phase: 'early' | 'main', data: PyValue, at: string): void {
    if (phase !== 'early' || this.interactive) return;
    // ReportingController.start(): the defaults, updated with the section, go to curtin's update_configuration.
    const config: Array<[PyValue, PyValue, boolean]> = [['logging', null, false], ['builtin', null, false]];
    if (data instanceof PyDict) {
      for (const [k, v] of data.entries()) {
        const i = config.findIndex(([name]) => name === k);
        if (i >= 0) config[i] = [k, v, true];
        else config.push([k, v, true]);
      }
    }
    for (const [name, hcfg, given] of config) {
      if (!given) continue;
      if (!truthy(hcfg)) continue;
      const cfg = hcfg as PyDict;
      const htype = cfg.get('type') as PyValue;
      const handler = typeof htype === 'string' && Object.prototype.hasOwnProperty.call(CURTIN_HANDLERS, htype) ? CURTIN_HANDLERS[htype] : undefined;
      const path = [at, name];
      if (!handler) {
        this.error({ phase: 'early', section: 'reporting', cause: 'KeyError', message: pyRepr(htype), path: [...path, 'type'], detail: 'curtin has no reporting handler of this type (log, print, webhook, journald)' });
        return;
      }
      const keys = cfg.keys().filter((k) => k !== 'type');
      const extra = keys.filter((k) => typeof k !== 'string' || !handler.allowed.includes(k)).map((k) => pyStr(k)).sort(comparePyStr);
      const missing = handler.required.filter((k) => !keys.includes(k)).sort(comparePyStr);
      if (extra.length) {
        this.error({ phase: 'early', section: 'reporting', cause: 'TypeError', message: `${handler.cls}.__init__() got an unexpected keyword argument '${extra[0]}'`, path: [...path, extra[0]] });
        return;
      }
      if (missing.length) {
        this.error({ phase: 'early', section: 'reporting', cause: 'TypeError', message: `${handler.cls}.__init__() missing 1 required positional argument: '${missing[0]}'`, path });
        return;
      }
    }
  }

  loadUserdata(data: PyValue, fail: (cause: string, message: string, path?: PyValue[], detail?: string) => void): void {
    if (data === null || !truthy(data)) return;
    const report = validateCloudConfig(data, this.facts['x-ccm'].liveCloudInit);
    if (!report.errors.length) return;
    // SchemaValidationError sorts its (path, message) pairs; with one prefix, the joined strings sort alike.
    const pairs = report.errors.map((p) => [`autoinstall.user-data.${p.path}`, p.message] as const);
    pairs.sort((a, b) => comparePyStr(a[0], b[0]) || comparePyStr(a[1], b[1]));
    const text = [...new Set(pairs.map(([p, m]) => `${p}: ${m}`))];
    const first = report.errors[0];
    fail('CloudInitSchemaValidationError', `Cloud config schema errors: ${text.join(', ')}`, ['user-data', ...first.segments]);
  }

  loadMirror(data: PyValue, at: string, fail: (cause: string, message: string, path?: PyValue[]) => void): void {
    if (!(data instanceof PyDict)) return;
    if (data.has('primary') && data.has('mirror-selection')) return fail('ValueError', 'apt->primary and apt->mirror-selection are mutually exclusive.', [at, 'mirror-selection']);
    const ms = data.get('mirror-selection');
    if (ms instanceof PyDict && ms.has('primary')) {
      const primary = ms.get('primary') as PyValue;
      if (Array.isArray(primary)) {
        for (let i = 0; i < primary.length; i++) {
          const section = primary[i];
          if (section === 'country-mirror') continue;
          const path = [at, 'mirror-selection', 'primary', BigInt(i)];
          const uri = pyGet(section, 'uri', null, path);
          if (uri === null) return fail('ValueError', 'uri is mandatory', path);
          const extra = (section as PyDict).keys().find((k) => k !== 'uri' && k !== 'arches');
          if (extra !== undefined) return fail('TypeError', `PrimaryEntry.__init__() got an unexpected keyword argument ${pyRepr(extra)}`, [...path, extra]);
        }
      }
    }
    if (data.has('fallback')) {
      const fb = data.get('fallback') as PyValue;
      if (!(typeof fb === 'string' && MIRROR_FALLBACKS.includes(fb))) fail('ValueError', `${pyRepr(fb)} is not a valid MirrorSelectionFallback`, [at, 'fallback']);
    }
  }

  loadIdentity(c: Controller, data: PyValue, at: string, fail: (cause: string, message: string, path?: PyValue[], detail?: string) => void): void {
    if (data !== null) {
      if (this.facts.checks.groups && data instanceof PyDict && data.has('groups')) {
        const g = data.get('groups');
        if (g instanceof PyDict) {
          if (g.has('override') && g.has('append')) return fail('AutoinstallError', 'cannot combine `groups: append` and `groups: override`', [at, 'groups']);
          if (!g.has('override') && !g.has('append')) return fail('ValueError', '', [at, 'groups'], 'groups as a mapping needs override or append');
        }
      }
      if (this.facts.checks.usernames && data instanceof PyDict) {
        const u = data.get('username');
        if (typeof u === 'string') {
          let why: string | undefined;
          if (u === 'root') why = 'Username is already in use';
          else if (this.facts.reserved.includes(u)) why = 'Username is reserved by the system';
          else if (!USERNAME.test(u)) why = 'Username contains invalid characters';
          else if (u.length > USERNAME_MAXLEN) why = 'Username is too long';
          if (why) return fail('AutoinstallError', `${why}: ${u}`, [at, 'username']);
        }
      }
      return;
    }
    const cfg = this.cfg as PyDict;
    if (cfg.has('user-data')) return;
    if ((this.input.variant ?? 'server') !== 'server') return;
    const storage = pyGet(cfg, 'storage', new PyDict(), ['storage']);
    const layout = pyGet(storage, 'layout', new PyDict(), ['storage', 'layout']);
    if (truthy(pyGet(layout, 'reset-partition-only', false, ['storage', 'layout']))) return;
    if (this.controllerInteractive(c)) return;
    this.error({ phase: 'main', section: 'identity', cause: 'AutoinstallError', message: 'neither identity nor user-data provided', path: [] });
  }

  controllerInteractive(c: Controller): boolean {
    if (!(this.cfg instanceof PyDict) || this.cfg.size === 0) return true;
    const sections = pyGet(this.cfg, 'interactive-sections', []);
    return pyIn('*', sections) || (c.key !== null && pyIn(c.key, sections)) || (c.alias !== null && pyIn(c.alias, sections));
  }

  validateBase(): boolean {
    const f = firstFailure(this.cfg, this.facts.base);
    if (f) {
      this.error({ phase: 'early', section: 'version or interactive-sections', cause: 'AutoinstallValidationError', message: "Malformed autoinstall in 'version or interactive-sections' section", path: f.path, detail: f.detail });
      return false;
    }
    const cfg = this.cfg as PyDict;
    const invalid = cfg.keys().filter((k) => !(typeof k === 'string' && this.keys.has(k)));
    for (const k of invalid) this.warnings.push({ section: 'top-level keys', message: `Unrecognized top-level key ${pyRepr(k)}`, path: [...this.root, k] });
    this.unrecognized = invalid.map((k) => pyStr(k));
    return true;
  }

  storageApply(): void {
    if (!(this.cfg instanceof PyDict)) return;
    const st = this.cfg.get('storage');
    const c = this.facts.controllers.find((x) => x.key === 'storage');
    if (!c || this.controllerInteractive(c) || !(st instanceof PyDict)) return;
    const at = [...this.root, 'storage'];
    const note = (message: string, path: PyValue[] = at): void => {
      this.applyTime.push({ section: 'storage', message, path });
    };
    if (st.has('layout') && st.has('config')) this.warnings.push({ section: 'storage', message: "The 'storage' section should not contain both 'layout' and 'config', using 'layout'", path: [...at, 'config'] });
    if (st.has('layout')) {
      const lay = st.get('layout');
      if (!(lay instanceof PyDict)) return note('storage.layout is not a mapping', [...at, 'layout']);
      if (!lay.has('name')) return note("KeyError: 'name' (storage.layout needs a name)", [...at, 'layout']);
      const name = lay.get('name');
      const mode = lay.has('mode') ? lay.get('mode') : 'reformat_disk';
      if (!(typeof mode === 'string' && LAYOUT_MODES.includes(mode))) note(`Unknown layout mode ${typeof mode === 'string' ? mode : pyRepr(mode as PyValue)}`, [...at, 'layout', 'mode']);
      if (name === 'lvm') {
        const sp = lay.get('sizing-policy');
        if (!(sp === undefined || sp === null || sp === 'scaled' || sp === 'all')) note(`Unknown SizingPolicy value ${typeof sp === 'string' ? sp : pyRepr(sp)}`, [...at, 'layout', 'sizing-policy']);
        if (truthy(lay.get('recovery-key') ?? false) && (lay.get('password') ?? null) === null) note('recovery_key can only be used if password is specified', [...at, 'layout', 'recovery-key']);
      }
    } else if (!st.has('config')) {
      note('autoinstall config did not match requirement MOUNT_ROOT: Mount a filesystem at /');
    }
  }

  run(value: PyValue): string | null {
    const read = (() => {
      try {
        return this.readConfig(value);
      } catch (e) {
        this.crash('read', null, e);
        return null;
      }
    })();
    if (!read) return null;
    this.cfg = read.cfg;
    if (!(this.cfg instanceof PyDict)) {
      this.crash('early', null, new PyCrash('AttributeError', `'${typeName(this.cfg)}' object has no attribute 'get'`));
      return read.foundAt;
    }
    this.interactive = truthy(pyGet(this.cfg, 'interactive-sections', null));
    const byName = (n: string) => this.facts.controllers.find((c) => c.name === n);
    const early = ['Reporting', 'Integrity', 'Error'];
    for (const n of early) {
      const c = byName(n);
      if (c) this.setup('early', c);
    }
    this.validateBase();
    const e = byName('Early');
    if (e) this.setup('early', e);
    for (const c of this.facts.controllers) {
      if ([...early, 'Early'].includes(c.name)) continue;
      this.setup('main', c);
    }
    try {
      this.storageApply();
    } catch (x) {
      if (!(x instanceof PyCrash)) throw x;
    }
    return read.foundAt;
  }
}

function truthy(v: PyValue | undefined): boolean {
  if (v === undefined || v === null || v === false || v === '' || v === 0 || v === 0n) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof PyDict) return v.size > 0;
  return true;
}

/**
 * For a cloud-config delivery: the first "unexpected" keys of cloud-init's schema output on the combined
 * config, as Subiquity's regex reads them (the live installer's cloud-init).
 */
export function unexpectedKeysSeen(config: PyValue, profile: SubiquityProfile): string[] {
  const report = validateCloudConfig(config, subiquityFacts(profile)['x-ccm'].liveCloudInit);
  for (const p of report.errors) {
    const m = UNKNOWN_KEYS.exec(`${p.path}: ${p.message}`);
    if (m) return m[1].split(', ').map((k) => k.slice(1, -1));
  }
  return [];
}

/** Subiquity's verdict on one autoinstall config. */
export function subiquityVerdict(input: VerdictInput): AutoinstallVerdict {
  const facts = subiquityFacts(input.profile);
  const keys = autoinstallKeys(facts);
  const sim = new Sim(input, keys);
  const base = { profile: input.profile, commit: facts['x-ccm'].commit, delivery: input.delivery };
  const outside: string[] = [];
  let value = input.value;
  if (input.delivery === 'cloud-config') {
    const cc = input.value;
    if (!(cc instanceof PyDict)) return finish(sim, base, false, undefined, outside);
    let bad: string[];
    try {
      bad = unexpectedKeysSeen(cc, input.profile);
    } catch {
      // cloud-init's validator raising (keys it cannot sort): no "unexpected" line for the regex to read.
      bad = [];
    }
    const misplaced = bad.filter((k) => keys.has(k));
    if (misplaced.length) {
      sim.errors.push({ phase: 'cloud-config', section: 'top-level keys', cause: 'AutoinstallError', message: 'Misplaced autoinstall directives resulted in a cloud-init schema validation failure.', path: [misplaced[0]], detail: `${misplaced.map((k) => `'${k}'`).join(', ')} ${misplaced.length > 1 ? 'are' : 'is'} valid autoinstall but not found under 'autoinstall'` });
    }
    for (const k of cc.keys()) if (typeof k === 'string' && keys.has(k) && !bad.includes(k) && k !== 'autoinstall') outside.push(k);
    const ai = cc.has('autoinstall') ? (cc.get('autoinstall') as PyValue) : new PyDict();
    if (ai instanceof PyDict && ai.size === 0) return finish(sim, base, false, undefined, outside);
    value = ai;
    sim.root = ['autoinstall'];
  }
  const foundAt = sim.run(value);
  let at = foundAt ?? undefined;
  if (input.delivery === 'cloud-config' && at) at = at === 'whole file' ? "cloud-config 'autoinstall' key" : "cloud-config 'autoinstall' key, then its own nested 'autoinstall' key";
  return finish(sim, base, foundAt !== null, at, outside);
}

function finish(sim: Sim, base: { profile: SubiquityProfile; commit: string; delivery: Delivery }, found: boolean, foundAt: string | undefined, outside: string[]): AutoinstallVerdict {
  const errors = sim.errors;
  return {
    ...base,
    found,
    ...(foundAt ? { foundAt } : {}),
    valid: found && errors.length === 0,
    verdict: errors.length ? 'invalid' : found ? 'valid' : 'no-autoinstall',
    errors,
    warnings: sim.warnings,
    unrecognized: sim.unrecognized,
    applyTime: sim.applyTime,
    ...(found ? { config: sim.cfg } : {}),
    root: sim.root,
    outside,
  };
}
