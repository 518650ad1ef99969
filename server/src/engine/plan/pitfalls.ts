/**
 * Pitfalls: this project's own checks of a boot plan (not cloud-init's findings), each placed where the value
 * is written. They read the plan (which modules run, in which stage and order, how often) and the merged
 * cloud-config: a file owned by a user that users_groups creates after write_files runs, a file in a home
 * directory before its user exists, `defer: true` where write_files_deferred does not run, keys no module of
 * the image reads, `users` without `default`, bootcmd calling what packages installs later, runcmd without
 * scripts_user, a reboot before modules that still have work, entries of the file's own module lists that
 * name no module of this cloud-init, and (only when asked: true of most keys of most files) keys that only
 * once-per-instance modules read (edits that do not re-run on an existing instance).
 */
import { PyDict, PyValue, getListOrigins, isPyList, Origin } from '../py/values';
import { coded, FindingCode, SeverityOf } from '../findings/codes';
import { nearest } from '../findings/findings';
import type { Severity } from '../findings/findings';
import type { Locator, SourceLocation } from '../outcome/locate';
import { BootPlan, PlanRow, STAGES, STAGE_KEYS, Stage, moduleListEntries } from './plan';
import { LineIndex } from '../text/lineIndex';

export interface PlanFix {
  title: string;
  /** Insert `text` at this place (0-based, in the file's own text). */
  at: { file: string; line: number; character: number };
  text: string;
}

export interface Pitfall {
  code: FindingCode;
  severity: Severity;
  message: string;
  /** `write_files[0].owner`, `users`. */
  path: string;
  /** Where the value is written (null when no place is known). */
  at: SourceLocation | null;
  fix?: PlanFix;
}

/** The texts of the input files, by name, for quick fixes (an insertion copies its line's indentation). */
export type FileText = (file: string) => string | undefined;

export interface PitfallOptions {
  /** Also give the once-per-instance hints (`PlanOptions.oncePerInstanceHints`). */
  oncePerInstanceHints?: boolean;
}

interface Located {
  row: PlanRow;
  stage: Stage;
}

/** The pitfalls of a plan for its merged config; `locate` places values, `text` gives files for fixes. */
export function planPitfalls(plan: BootPlan, merged: PyValue | null, locate: Locator | null, text: FileText = () => undefined, options: PitfallOptions = {}): Pitfall[] {
  const cfg = merged instanceof PyDict ? merged : new PyDict();
  const out: Pitfall[] = [];
  const at = (origin: Origin | undefined, which: 'key' | 'value' = 'key') => (origin && locate ? locate(origin, which) : null);
  const lineOf = lineReader(text);
  const push = <C extends FindingCode>(code: C, path: string, where: SourceLocation | null, message: string, extra: { severity?: SeverityOf<C>; fix?: PlanFix | null } = {}) => {
    const { severity } = coded(code, extra.severity);
    out.push({ code, severity: severity as Severity, message, path, at: where, ...(extra.fix ? { fix: extra.fix } : {}) });
  };
  // The first row of each module, and the first that runs, in stage order: looked up once per key and per
  // write_files entry, so a scan of every row each time is quadratic on module lists of 100,000 entries.
  const firstRow = new Map<string, Located>();
  const firstRunning = new Map<string, Located>();
  for (const stage of STAGES) {
    for (const row of plan.stages[stage].rows) {
      if (row.cc === null) continue;
      if (!firstRow.has(row.cc)) firstRow.set(row.cc, { row, stage });
      if (row.runs && !firstRunning.has(row.cc)) firstRunning.set(row.cc, { row, stage });
    }
  }
  const find = (cc: string): Located | undefined => firstRow.get(cc);
  const running = (cc: string): Located | undefined => firstRunning.get(cc);
  const order = (l: Located) => STAGES.indexOf(l.stage) * 10000 + l.row.position;
  const said = (l: Located | undefined, cc: string) => (l ? `${l.row.module} (${l.stage} stage, ${l.row.frequency})` : `${cc.slice(3)}`);
  const whereList = (stage: Stage) => {
    const place = at(cfg.originOf(STAGE_KEYS[stage]));
    return place ? ` (${place.file}:${place.line + 1})` : '';
  };
  // The list that leaves a module out: the file's own (or a drop-in's) override of the image's, or the image's.
  const whyNot = (cc: string) => {
    const l = find(cc);
    if (l) return `${l.row.module} is skipped in the ${l.stage} stage: ${l.row.reason}`;
    const imageStage = STAGES.find((s) => plan.stages[s].imageModules.includes(cc));
    if (imageStage && plan.stages[imageStage].listFrom === 'user') return `${cc.slice(3)} is left out of ${STAGE_KEYS[imageStage]}${whereList(imageStage)}, which replaces the image's list (the image's runs it in the ${imageStage} stage)`;
    return `${cc.slice(3)} is in none of this image's module lists`;
  };

  // Users and groups users_groups creates (the names the config gives; `default` is the image's user), and
  // the home directory each user gets (`homedir`, else /home/NAME; none made for no_create_home or system users).
  const users = new Set<string>();
  const groups = new Set<string>();
  const homes = new Map<string, string>();
  // The users the boot creates: the file's `users`, else the image's (ConfigMerger: the user's value wins).
  const usersValue = cfg.get('users');
  const userNames = userEntries(plan.config.get('users')).map((e) => e.name);
  for (const { name, entry } of userEntries(plan.config.get('users'))) {
    const real = name === 'default' ? plan.defaultUser : name;
    if (!real) continue;
    users.add(real);
    if (entry && (truthy(entry.get('no_create_home')) || truthy(entry.get('system')))) continue;
    const homedir = entry?.get('homedir');
    const home = typeof homedir === 'string' && homedir.startsWith('/') ? homedir.replace(/\/+$/, '') : `/home/${real}`;
    if (home && !homes.has(home)) homes.set(home, real);
  }
  const groupsValue = cfg.get('groups');
  for (const g of isPyList(groupsValue) ? groupsValue : groupsValue instanceof PyDict ? groupsValue.keys() : typeof groupsValue === 'string' ? groupsValue.split(',') : []) {
    if (typeof g === 'string') groups.add(g.trim());
    else if (g instanceof PyDict) for (const k of g.keys()) if (typeof k === 'string') groups.add(k);
  }
  const usersGroups = running('cc_users_groups');

  // The user of the first home (in the order above) that `path` is under: the homes among its parent directories
  // (a file per directory, not every home per file: thousands of both are a big merged config's).
  const homeOrder = new Map([...homes.keys()].map((h, i) => [h, i]));
  const homeOf = (path: string): string | undefined => {
    let first: string | undefined;
    let firstOrder = Infinity;
    for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
      const order = homeOrder.get(path.slice(0, slash));
      if (order !== undefined && order < firstOrder) {
        firstOrder = order;
        first = path.slice(0, slash);
      }
    }
    return first === undefined ? undefined : homes.get(first);
  };
  // write_files: owners and homes created later, deferred files never written.
  const files = cfg.get('write_files');
  if (isPyList(files)) {
    const origins = getListOrigins(files);
    files.forEach((entry, i) => {
      if (!(entry instanceof PyDict)) return;
      const deferred = truthy(entry.has('defer') ? entry.get('defer') : false);
      const cc = deferred ? 'cc_write_files_deferred' : 'cc_write_files';
      const writer = running(cc);
      if (deferred && !writer) {
        const entryAt = at(entry.originOf('path') ?? origins?.[i], 'key') ?? at(origins?.[i], 'value');
        push('plan-defer-never-written', `write_files[${i}].defer`, at(entry.originOf('defer')) ?? entryAt, `this file is never written: it has defer: true, and ${whyNot('cc_write_files_deferred')}`);
        return;
      }
      if (!writer || deferred || !usersGroups || order(writer) > order(usersGroups)) return;
      const owner = entry.get('owner');
      if (typeof owner === 'string') {
        const [u, g] = owner.includes(':') ? [owner.slice(0, owner.indexOf(':')), owner.slice(owner.indexOf(':') + 1)] : [owner, null];
        const late = [u && (users.has(u) || groups.has(u)) ? `user ${u}` : null, g && (groups.has(g) || users.has(g)) ? `group ${g}` : null].filter((x): x is string => !!x);
        if (late.length) {
          const ownerAt = at(entry.originOf('owner'));
          push('plan-owner-created-later', `write_files[${i}].owner`, ownerAt, `owner ${owner}: ${late.join(' and ')} ${late.length > 1 ? 'are' : 'is'} created by ${said(usersGroups, 'cc_users_groups')} after ${said(writer, cc)} writes this file, so the chown fails; defer: true writes it in the final stage instead`, { fix: deferFix(ownerAt, lineOf) });
        }
      }
      const path = entry.get('path');
      if (typeof path === 'string') {
        const user = homeOf(path);
        if (user) {
          const pathAt = at(entry.originOf('path'));
          push('plan-home-before-user', `write_files[${i}].path`, pathAt, `${path} is written by ${said(writer, cc)} before ${said(usersGroups, 'cc_users_groups')} creates ${user}: the home directory is made by root without the skeleton files, and useradd does not fix it; defer: true writes it after`, { fix: deferFix(pathAt, lineOf) });
        }
      }
    });
  }

  // users without default.
  // Not when the file creates the default user itself by name, or names a user we cannot read (a template's).
  const createsDefault = plan.defaultUser !== null && userNames.includes(plan.defaultUser);
  const unread = userNames.some((n) => /\{\{|\$\{|\{%|%\{/.test(n));
  // cc_ssh gives the cloud's keys to the default user, and to root: usable there when disable_root is false
  // (get_cfg_option_bool, default true; the file's or the image's), and with allow_public_ssh_keys false it
  // takes none at all.
  const option = (key: string) => (plan.config.has(key) ? truthy(plan.config.get(key)) : true);
  const keysUsable = option('disable_root') && option('allow_public_ssh_keys');
  if (usersValue !== undefined && isPyList(usersValue) && !userNames.includes('default') && !createsDefault && !unread && keysUsable && !cfg.has('user') && usersGroups) {
    const first = getListOrigins(usersValue)?.[0];
    push('plan-no-default-user', 'users', at(cfg.originOf('users')), `users has no default entry: ${plan.defaultUser ? `the image's default user ${plan.defaultUser}` : "the image's default user"} is not created, and the SSH keys the cloud provides (it installs them for that user) go nowhere; add - default to keep it`, { fix: defaultFix(at(first, 'value'), lineOf) });
  }

  // runcmd and bootcmd.
  const runcmd = running('cc_runcmd');
  const scriptsUser = running('cc_scripts_user');
  if (cfg.has('runcmd') && runcmd && !scriptsUser) {
    push('plan-runcmd-never-run', 'runcmd', at(cfg.originOf('runcmd')), `runcmd (${said(runcmd, 'cc_runcmd')}) only writes a script for scripts_user to run, and ${whyNot('cc_scripts_user')}: the commands never run`);
  }
  const packages = cfg.get('packages');
  const packageNames = new Set((isPyList(packages) ? packages : []).map((p) => (typeof p === 'string' ? p : isPyList(p) && typeof p[0] === 'string' ? p[0] : null)).filter((p): p is string => !!p));
  const bootcmd = running('cc_bootcmd');
  const installer = running('cc_package_update_upgrade_install');
  commands(cfg, 'bootcmd').forEach(({ word, origin }, i) => {
    if (!bootcmd) return;
    if (packageNames.has(word) && installer) push('plan-bootcmd-before-packages', `bootcmd[${i}]`, at(origin, 'value'), `bootcmd runs ${word} in the ${bootcmd.stage} stage on every boot, but packages installs ${word} later (${said(installer, 'cc_package_update_upgrade_install')}): on the first boot it is not there yet`);
    if (REBOOTS.has(word)) push('plan-reboot-early', `bootcmd[${i}]`, at(origin, 'value'), `bootcmd runs on every boot, before every other module: ${word} here stops each boot before users, files, packages and runcmd, again and again`, { severity: 'error' });
  });
  if (runcmd && scriptsUser) {
    const after = plan.stages[scriptsUser.stage].rows.filter((r) => r.runs && r.position > scriptsUser.row.position && r.cc !== null && WORKERS.has(r.cc));
    commands(cfg, 'runcmd').forEach(({ word, origin }, i) => {
      if (REBOOTS.has(word) && after.length) push('plan-reboot-early', `runcmd[${i}]`, at(origin, 'value'), `${word} in runcmd stops the boot inside scripts_user, before ${after.map((r) => r.module).join(', ')} run; power_state (with a delay or a condition) reboots after them`);
    });
  }

  // Keys no module of this image reads; keys of once-per-instance modules.
  for (const { key, origin } of cfg.entryList()) {
    if (typeof key !== 'string' || !Object.hasOwn(plan.facts.keyModules, key)) continue;
    const owners = plan.facts.keyModules[key].filter((cc) => Object.hasOwn(plan.facts.modules, cc));
    if (!owners.length) continue;
    const runs = owners.map(running).filter((l): l is Located => !!l);
    if (!runs.length) {
      push('plan-key-not-read', key, at(origin), `no module of this image reads ${key}: ${owners.map(whyNot).join('; ')} (cloud-init ${plan.target.version}, ${plan.target.distro}, cloud.cfg ${plan.cloudCfgGiven ? plan.cloudCfg : plan.target.cloudCfgVariant})`);
    } else if (options.oncePerInstanceHints && runs.every((l) => l.row.frequency === 'once-per-instance')) {
      push('plan-once-per-instance', key, at(origin), `${runs.map((l) => `${l.row.module} (${l.stage} stage)`).join(', ')} reads ${key} once per instance: editing it on a running instance changes nothing at the next boot, only a new instance (or cloud-init clean) runs it again`);
    }
  }

  // Entries of the file's own module lists that name no module of this cloud-init (cloud-init logs them and
  // skips them); the image's lists are the image's business.
  let suggested = 0;
  for (const stage of STAGES) {
    if (plan.stages[stage].listFrom !== 'user') continue;
    const list = cfg.get(STAGE_KEYS[stage]);
    if (typeof list === 'string') {
      // `for item in value` over a string: each character is an entry, and (but for a one-letter name) none is a module.
      const missing = plan.stages[stage].rows.filter((r) => r.decision === 'skip_not_found' || r.decision === 'skip_removed');
      if (missing.length) push('plan-unknown-module', STAGE_KEYS[stage], at(cfg.originOf(STAGE_KEYS[stage]), 'value'), `${STAGE_KEYS[stage]} is a string, not a list: cloud-init reads each of its characters as a module name (${missing.slice(0, 6).map((r) => r.module).join(', ')}${missing.length > 6 ? ', ...' : ''}), warns "Could not find module named ${missing[0].cc}" for each, and runs none of them; write [${list}]`);
      continue;
    }
    const listed = moduleListEntries(list);
    const origins = isPyList(list) ? getListOrigins(list) : undefined;
    if (!listed) continue;
    let unknown = 0;
    for (const row of plan.stages[stage].rows) {
      if (row.decision !== 'skip_not_found' && row.decision !== 'skip_removed') continue;
      if (row.cc === null) continue;
      const entry = listed[row.position];
      if (!entry || entry.module !== row.module) continue;
      // Past MAX_UNKNOWN_ENTRIES a list's entries are counted, and said once (cloud-init warns for each).
      if (++unknown > MAX_UNKNOWN_ENTRIES) continue;
      const where = at(origins?.[entry.index], 'value') ?? at(cfg.originOf(STAGE_KEYS[stage]));
      const path = `${STAGE_KEYS[stage]}[${entry.index}]`;
      if (row.decision === 'skip_removed') push('plan-unknown-module', path, where, `${row.module}: cloud-init ${plan.target.version} has removed this module and skips it (it logs at INFO: "Module \`${row.module}\` has been removed from cloud-init. It may be removed from \`/etc/cloud/cloud.cfg\`.")`, { severity: 'info' });
      else push('plan-unknown-module', path, where, `${row.module}: cloud-init ${plan.target.version} has no such module and skips this entry, with the warning "Could not find module named ${row.cc} (searched ['${row.cc}', 'cloudinit.config.${row.cc}'])"${suggested++ < MAX_SUGGESTIONS ? nearModule(row.cc, plan) : ''}`);
    }
    if (unknown > MAX_UNKNOWN_ENTRIES) {
      push('plan-unknown-module', STAGE_KEYS[stage], at(cfg.originOf(STAGE_KEYS[stage])), `${STAGE_KEYS[stage]}: ${unknown - MAX_UNKNOWN_ENTRIES} more entries after the first ${MAX_UNKNOWN_ENTRIES} name no module of cloud-init ${plan.target.version} or a removed one; cloud-init skips each, with a warning or a note for each`);
    }
  }
  return out;
}

/** Unknown module entries said one by one in a list; the rest are counted in one more (a list can have 100,000). */
const MAX_UNKNOWN_ENTRIES = 1_000;

/** Unknown module entries that get a near-miss suggestion: a list of 100,000 of them is not searched 100,000 times. */
const MAX_SUGGESTIONS = 200;

/** The module names of a plan's cloud-init, without `cc_`, listed once per plan. */
const moduleNames = new WeakMap<BootPlan, string[]>();

/** ", did you mean ...?" for a module name one small edit away from a module of this cloud-init. */
function nearModule(cc: string, plan: BootPlan): string {
  let names = moduleNames.get(plan);
  if (!names) moduleNames.set(plan, (names = Object.keys(plan.facts.modules).map((m) => m.slice(3))));
  const guess = nearest(cc.slice(3), names);
  return guess ? `; did you mean ${guess}?` : '';
}

/**
 * The users of `users` as `ug_util._normalize_users` names them: a list's strings (comma-separated) and
 * mappings (`name`, or `default` when it has none), or a mapping's keys; each with its mapping, if any.
 */
function userEntries(value: PyValue | undefined): Array<{ name: string; entry: PyDict | null }> {
  const out: Array<{ name: string; entry: PyDict | null }> = [];
  const names = (s: string) => s.split(',').map((n) => n.trim()).filter((n) => n).forEach((name) => out.push({ name, entry: null }));
  if (typeof value === 'string') names(value);
  else if (value instanceof PyDict) {
    for (const { key: k, value: v } of value.entryList()) {
      if (typeof k !== 'string') continue;
      if (v instanceof PyDict) out.push({ name: k, entry: v });
      else if (truthy(v)) out.push({ name: k, entry: null });
    }
  } else if (isPyList(value)) {
    for (const u of value) {
      if (typeof u === 'string') names(u);
      else if (isPyList(u)) for (const n of u) if (typeof n === 'string') names(n);
      if (u instanceof PyDict) {
        const name = u.has('name') ? u.get('name') : 'default';
        if (typeof name === 'string') out.push({ name, entry: u });
      }
    }
  }
  return out;
}

/** The first word of each command of a bootcmd or runcmd list (a string's, or a list's first item). */
function commands(cfg: PyDict, key: string): Array<{ word: string; origin: Origin | undefined }> {
  const value = cfg.get(key);
  if (!isPyList(value)) return [];
  const origins = getListOrigins(value);
  return value.map((c, i) => {
    const word = typeof c === 'string' ? c.trim().split(/\s+/)[0] ?? '' : isPyList(c) && typeof c[0] === 'string' ? c[0] : '';
    return { word: word.replace(/^.*\//, ''), origin: origins?.[i] };
  });
}

/** Commands that stop or restart the machine. */
const REBOOTS = new Set(['reboot', 'shutdown', 'poweroff', 'halt']);
/** Final-stage modules that still do something the user asked for after scripts_user. */
const WORKERS = new Set(['cc_phone_home', 'cc_power_state_change', 'cc_final_message', 'cc_keys_to_console', 'cc_ssh_authkey_fingerprints', 'cc_scripts_per_boot', 'cc_scripts_per_instance']);

/** `util.get_cfg_option_bool`'s reading of a value. */
function truthy(v: PyValue | undefined): boolean {
  if (v === undefined || v === null || v === false || v === '' || v === 0 || v === 0n) return false;
  if (v === true) return true;
  const s = typeof v === 'string' ? v : typeof v === 'bigint' || typeof v === 'number' ? String(v) : '';
  return ['true', '1', 'on', 'yes'].includes(s.toLowerCase().trim());
}

/** `defer: true` inserted before the key at `at`, in the mapping's own style (block or flow). */
function deferFix(at: SourceLocation | null, lineOf: LineOf): PlanFix | null {
  const line = lineOf(at);
  if (!at || line === undefined) return null;
  const before = line.slice(0, at.character);
  const flow = /[{,]\s*$/.test(before);
  return { title: 'Add defer: true (write the file in the final stage)', at: { file: at.file, line: at.line, character: at.character }, text: flow ? 'defer: true, ' : `defer: true\n${before.replace(/[^\s]/g, ' ')}` };
}

/** `- default` inserted before the first item of `users`, in the list's own style. */
function defaultFix(first: SourceLocation | null, lineOf: LineOf): PlanFix | null {
  const line = lineOf(first);
  if (!first || line === undefined) return null;
  const before = line.slice(0, first.character);
  const flow = /[[,]\s*$/.test(before);
  if (!flow && !/-\s+$/.test(before)) return null;
  return { title: "Add - default (keep the image's default user)", at: { file: first.file, line: first.line, character: first.character }, text: flow ? 'default, ' : `default\n${before}` };
}

/** A place's line of its file (without its line break), each file indexed once (text/lineIndex: its line breaks). */
type LineOf = (at: SourceLocation | null) => string | undefined;

function lineReader(text: FileText): LineOf {
  const indexes = new Map<string, LineIndex | null>();
  return (at) => {
    if (!at || at.note) return undefined;
    let index = indexes.get(at.file);
    if (index === undefined) {
      const file = text(at.file);
      indexes.set(at.file, (index = file === undefined ? null : new LineIndex(file)));
    }
    if (!index || at.line >= index.lineCount) return undefined;
    const end = at.line + 1 < index.lineCount ? index.lineStart(at.line + 1) : index.text.length;
    return index.text.slice(index.lineStart(at.line), end).replace(/\r\n$|[\r\n]$/, '');
  };
}
