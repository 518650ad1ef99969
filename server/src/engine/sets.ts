/**
 * Sets of parts: the workspace file `cloud-config-merge.yaml` (our own
 * config, not cloud-init's) names ordered sets of files, each merged in one
 * mode, so that the editor, its preview and the CLI's `--set` all merge the
 * same things. Parsing and glob matching only: the caller lists the files of
 * the folder, so this stays free of any file system and transport.
 *
 *   sets:
 *     web:
 *       mode: user-data            # user-data (default) | confd | boot | chef
 *       files: [base.yaml, "parts/*.yaml"]
 *       includeMap: { "https://example.com/x.yaml": x.yaml }
 *       instanceData: instance.json
 *       vendor: vendor.yaml        # boot mode: vendor2, cloudCfg, confd, dsConfig too
 */
import { PyDict, PyValue, TextSpan } from './values';
import { loadYaml } from './yaml/load';
import { pyKeyDisplay } from './yaml/dump';
import { SET_MODES, type SetMode } from './outcome/mode';

/** The name of the set file at a workspace folder's root. */
export const SET_FILE_NAME = 'cloud-config-merge.yaml';

export { SET_MODES };

/** Boot-mode roles a set can name, each one file (confd: a list). */
export const SET_BOOT_ROLES = ['vendor', 'vendor2', 'cloudCfg', 'dsConfig'] as const;
export type SetBootRole = (typeof SET_BOOT_ROLES)[number];

export interface PartSet {
  name: string;
  mode: SetMode;
  /** Files or globs relative to the set file's folder, in merge order. */
  files: string[];
  includeMap: Array<{ url: string; file: string }>;
  instanceData?: string;
  boot: Partial<Record<SetBootRole, string>> & { confd?: string[] };
  /** Where the set's name is written in the set file. */
  span: TextSpan;
}

export interface SetFileProblem {
  message: string;
  severity: 'error' | 'warning';
  span: TextSpan;
}

export interface SetFile {
  sets: PartSet[];
  problems: SetFileProblem[];
}

const SET_KEYS = ['mode', 'files', 'includeMap', 'instanceData', 'confd', ...SET_BOOT_ROLES];

/** Reads a set file; every problem is reported with its place, and what is readable is kept. */
export function parseSetFile(text: string): SetFile {
  const problems: SetFileProblem[] = [];
  const whole = { start: 0, end: Math.min(text.length, Math.max(0, text.search(/\r|\n|$/))) };
  const loaded = loadYaml(text, { maxDepth: 100 });
  if (!loaded.ok) return { sets: [], problems: [{ message: `not YAML: ${loaded.error.message}`, severity: 'error', span: loaded.error.span ?? whole }] };
  const root = loaded.value;
  if (root === null) return { sets: [], problems: [] };
  if (!(root instanceof PyDict)) return { sets: [], problems: [{ message: 'a set file is a mapping with a `sets` key', severity: 'error', span: loaded.rootSpan ?? whole }] };
  for (const { key, origin } of root.items()) {
    if (key !== 'sets') problems.push({ message: `unknown key ${pyKeyDisplay(key)}: a set file has only \`sets\``, severity: 'warning', span: origin?.key ?? whole });
  }
  const sets: PartSet[] = [];
  const setsValue = root.get('sets');
  const setsSpan = root.originOf('sets')?.value ?? whole;
  if (setsValue === undefined || setsValue === null) return { sets, problems };
  if (!(setsValue instanceof PyDict)) return { sets, problems: [...problems, { message: '`sets` maps each set name to its files and mode', severity: 'error', span: setsSpan }] };
  for (const { key, value, origin } of setsValue.items()) {
    const span = origin?.key ?? setsSpan;
    if (typeof key !== 'string' || !key) {
      problems.push({ message: 'a set name is a non-empty string', severity: 'error', span });
      continue;
    }
    const set = readSet(key, value, span, origin?.value ?? span, problems);
    if (set) sets.push(set);
  }
  return { sets, problems };
}

function readSet(name: string, value: PyValue, span: TextSpan, valueSpan: TextSpan, problems: SetFileProblem[]): PartSet | null {
  if (!(value instanceof PyDict)) {
    problems.push({ message: `set ${name}: expected a mapping with \`files\` (and \`mode\`, ...)`, severity: 'error', span: valueSpan });
    return null;
  }
  const set: PartSet = { name, mode: 'user-data', files: [], includeMap: [], boot: {}, span };
  const at = (key: string) => value.originOf(key)?.value ?? span;
  for (const { key, origin } of value.items()) {
    if (typeof key !== 'string' || !SET_KEYS.includes(key)) problems.push({ message: `set ${name}: unknown key ${pyKeyDisplay(key)} (expected ${SET_KEYS.join(', ')})`, severity: 'warning', span: origin?.key ?? span });
  }
  const mode = value.get('mode');
  if (mode !== undefined) {
    if (typeof mode === 'string' && (SET_MODES as string[]).includes(mode)) set.mode = mode as SetMode;
    else problems.push({ message: `set ${name}: mode is one of ${SET_MODES.join(', ')}`, severity: 'error', span: at('mode') });
  }
  const strings = (key: string): string[] | undefined => {
    const v = value.get(key);
    if (v === undefined || v === null) return undefined;
    const list = typeof v === 'string' ? [v] : Array.isArray(v) && v.every((x) => typeof x === 'string' && x) ? (v as string[]) : null;
    if (!list) problems.push({ message: `set ${name}: ${key} is a file or glob, or a list of them`, severity: 'error', span: at(key) });
    return list ?? undefined;
  };
  set.files = strings('files') ?? [];
  if (!set.files.length && set.mode !== 'confd' && set.mode !== 'boot') problems.push({ message: `set ${name}: no files (add \`files\`, in merge order)`, severity: 'error', span });
  const confd = strings('confd');
  if (confd) set.boot.confd = confd;
  for (const role of SET_BOOT_ROLES) {
    const v = value.get(role);
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' && v) set.boot[role] = v;
    else problems.push({ message: `set ${name}: ${role} is one file`, severity: 'error', span: at(role) });
  }
  const instanceData = value.get('instanceData');
  if (typeof instanceData === 'string' && instanceData) set.instanceData = instanceData;
  else if (instanceData !== undefined && instanceData !== null) problems.push({ message: `set ${name}: instanceData is one JSON file`, severity: 'error', span: at('instanceData') });
  const includeMap = value.get('includeMap');
  if (includeMap instanceof PyDict) {
    for (const { key, value: file } of includeMap.items()) {
      if (typeof key === 'string' && typeof file === 'string' && file) set.includeMap.push({ url: key, file });
      else problems.push({ message: `set ${name}: includeMap maps each #include URL to a local file`, severity: 'error', span: at('includeMap') });
    }
  } else if (includeMap !== undefined && includeMap !== null) {
    problems.push({ message: `set ${name}: includeMap maps each #include URL to a local file`, severity: 'error', span: at('includeMap') });
  }
  if (set.mode !== 'boot' && (set.boot.confd || SET_BOOT_ROLES.some((r) => set.boot[r] && !(r === 'cloudCfg' && set.mode === 'confd')))) {
    problems.push({ message: `set ${name}: vendor, vendor2, dsConfig and confd are boot-mode layers; mode is ${set.mode}`, severity: 'warning', span });
  }
  return set;
}

/** True when the pattern has glob characters (`*`, `?`, `[...]`). */
export function isGlob(pattern: string): boolean {
  return /[*?[]/.test(pattern);
}

/** `*` within a path segment, `**` across segments, `?` one character, `[...]` a class. */
export function globRegExp(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      const slash = pattern[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 1);
      if (close < 0) out += '\\[';
      else {
        out += `[${pattern.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/**
 * The files of a list of names and globs, in order: a glob's matches sorted by code point (so
 * `10-base.yaml` before `20-app.yaml`), each file once. `files` are the folder's files, relative,
 * with '/' separators. Patterns that match nothing are returned too.
 */
export function expandPatterns(patterns: string[], files: readonly string[]): { files: string[]; unmatched: string[] } {
  const out: string[] = [];
  const seen = new Set<string>();
  const unmatched: string[] = [];
  for (const raw of patterns) {
    const pattern = raw.replace(/^\.\//, '');
    const matches = isGlob(pattern) ? files.filter((f) => globRegExp(pattern).test(f)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) : files.includes(pattern) ? [pattern] : [];
    if (!matches.length) unmatched.push(raw);
    // A plain name that is not listed is kept: it may be outside the listing (`../x`) or not yet saved.
    for (const f of matches.length || isGlob(pattern) ? matches : [pattern]) {
      if (seen.has(f)) continue;
      seen.add(f);
      out.push(f);
    }
  }
  return { files: out, unmatched };
}
