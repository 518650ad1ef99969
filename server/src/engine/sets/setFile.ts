/**
 * Sets of parts: the workspace file `cloud-config-merge.yaml` (our own
 * config, not cloud-init's) names ordered sets of files, each merged in one
 * mode, so that the editor, its preview and the CLI's `--set` all merge the
 * same things. This module owns the file: reading it (with the PyYAML port, as
 * every YAML here is read), writing a set into it (so that what is written
 * reads back as meant), and what its globs match (picomatch, as
 * yaml-language-server matches). The caller lists the files of the folder, so
 * this stays free of any file system and transport.
 *
 *   sets:
 *     web:
 *       mode: user-data            # user-data (default) | confd | boot | chef
 *       files: [base.yaml, "parts/*.yaml"]
 *       includeMap: { "https://example.com/x.yaml": x.yaml }
 *       instanceData: instance.json
 *       vendor: vendor.yaml        # boot mode: vendor2, cloudCfg, confd, dsConfig too
 *     nocloud:
 *       seed: seed/                # a NoCloud seed folder: boot mode, its user-data over its vendor-data
 */
import picomatch from 'picomatch/posix';
import { PyDict, PyValue, TextSpan, getListOrigins } from '../py/values';
import { loadYaml } from '../yaml/load';
import { pyRStripChars } from '../py/str';
import { pyKeyDisplay } from '../yaml/dump';
import { NON_PRINTABLE } from '../yaml/reader';
import { escapeChar } from '../yaml/scalarAnalysis';
import { SET_MODES, type SetMode } from '../outcome/mode';
import { imageProfile, unknownImageMessage } from '../version/profiles';

/** The name of the set file at a workspace folder's root. */
export const SET_FILE_NAME = 'cloud-config-merge.yaml';

/** A larger set file is not read (the editor and the CLI alike). */
export const SET_FILE_MAX_BYTES = 1 << 20;

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
  /** The image profile the set is checked against (the folder's `cloudConfigMerge.image` otherwise). */
  image?: string;
  boot: Partial<Record<SetBootRole, string>> & { confd?: string[] };
  /** Where the set's name is written in the set file. */
  span: TextSpan;
  /** Where each file or glob is written: keys `files.0`, `confd.0`, `includeMap.0`, `instanceData`, `vendor`... */
  places: Record<string, TextSpan>;
  /** A NoCloud seed folder (boot mode): its user-data first in `files`, its vendor-data the vendor layer (node/sets.ts). */
  seed?: string;
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

const SET_KEYS = ['mode', 'files', 'includeMap', 'instanceData', 'image', 'confd', 'seed', ...SET_BOOT_ROLES];

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
  const set: PartSet = { name, mode: 'user-data', files: [], includeMap: [], boot: {}, span, places: {} };
  const at = (key: string) => value.originOf(key)?.value ?? span;
  for (const { key, origin } of value.items()) {
    if (typeof key !== 'string' || !SET_KEYS.includes(key)) problems.push({ message: `set ${name}: unknown key ${pyKeyDisplay(key)} (expected ${SET_KEYS.join(', ')})`, severity: 'warning', span: origin?.key ?? span });
  }
  const mode = value.get('mode');
  if (mode !== undefined) {
    if (typeof mode === 'string' && (SET_MODES as string[]).includes(mode)) set.mode = mode as SetMode;
    else problems.push({ message: `set ${name}: mode is one of ${SET_MODES.join(', ')}`, severity: 'error', span: at('mode') });
  }
  const seed = value.get('seed');
  if (typeof seed === 'string' && seed) {
    set.seed = seed;
    set.places.seed = at('seed');
    if (mode !== undefined && set.mode !== 'boot') problems.push({ message: `set ${name}: a seed is merged in boot mode (its user-data over its vendor-data); mode is ${set.mode}`, severity: 'error', span: at('mode') });
    set.mode = 'boot';
  } else if (seed !== undefined && seed !== null) problems.push({ message: `set ${name}: seed is one folder (holding user-data and meta-data, and vendor-data and network-config when there are some)`, severity: 'error', span: at('seed') });
  const strings = (key: string): string[] | undefined => {
    const v = value.get(key);
    if (v === undefined || v === null) return undefined;
    const list = typeof v === 'string' ? [v] : Array.isArray(v) && v.every((x) => typeof x === 'string' && x) ? (v as string[]) : null;
    if (!list) problems.push({ message: `set ${name}: ${key} is a file or glob, or a list of them`, severity: 'error', span: at(key) });
    const origins = Array.isArray(v) ? getListOrigins(v) : undefined;
    list?.forEach((_, i) => (set.places[`${key}.${i}`] = origins?.[i]?.value ?? at(key)));
    return list ?? undefined;
  };
  set.files = strings('files') ?? [];
  if (!set.files.length && set.mode !== 'confd' && set.mode !== 'boot') problems.push({ message: `set ${name}: no files (add \`files\`, in merge order)`, severity: 'error', span });
  const confd = strings('confd');
  if (confd) set.boot.confd = confd;
  for (const role of SET_BOOT_ROLES) {
    const v = value.get(role);
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' && v) {
      set.boot[role] = v;
      set.places[role] = at(role);
    } else problems.push({ message: `set ${name}: ${role} is one file`, severity: 'error', span: at(role) });
  }
  const instanceData = value.get('instanceData');
  if (typeof instanceData === 'string' && instanceData) {
    set.instanceData = instanceData;
    set.places.instanceData = at('instanceData');
  } else if (instanceData !== undefined && instanceData !== null) problems.push({ message: `set ${name}: instanceData is one JSON file`, severity: 'error', span: at('instanceData') });
  const image = value.get('image');
  if (typeof image === 'string' && imageProfile(image)) {
    set.image = imageProfile(image)!.id;
    set.places.image = at('image');
  } else if (image !== undefined && image !== null) problems.push({ message: `set ${name}: ${unknownImageMessage(typeof image === 'string' ? image : pyKeyDisplay(image))}`, severity: 'error', span: at('image') });
  const includeMap = value.get('includeMap');
  if (includeMap instanceof PyDict) {
    for (const { key, value: file, origin } of includeMap.items()) {
      if (typeof key === 'string' && typeof file === 'string' && file) {
        set.places[`includeMap.${set.includeMap.length}`] = origin?.value ?? at('includeMap');
        set.includeMap.push({ url: key, file });
      } else problems.push({ message: `set ${name}: includeMap maps each #include URL to a local file`, severity: 'error', span: at('includeMap') });
    }
  } else if (includeMap !== undefined && includeMap !== null) {
    problems.push({ message: `set ${name}: includeMap maps each #include URL to a local file`, severity: 'error', span: at('includeMap') });
  }
  if (set.mode !== 'boot' && (set.boot.confd || SET_BOOT_ROLES.some((r) => set.boot[r] && !(r === 'cloudCfg' && set.mode === 'confd')))) {
    problems.push({ message: `set ${name}: vendor, vendor2, dsConfig and confd are boot-mode layers; mode is ${set.mode}`, severity: 'warning', span });
  }
  return set;
}

// ---------------------------------------------------------------------------
// Globs: picomatch's syntax (what yaml-language-server uses), `/` separators, `\` escapes the next character.

/** How a set's globs match: dot files only where the pattern writes the dot; a leading `!` is a name, not a negation. */
const GLOB_OPTIONS: picomatch.PicomatchOptions = { dot: false, nonegate: true };

/**
 * One entry of `files` or `confd`: a file's path (relative to the set file's folder, or absolute), or a glob
 * with the folder before its first glob character (`base`, '' for the set's folder) and how many folder
 * levels below `base` it can reach (Infinity with `**` or braces).
 */
export type SetPattern = { kind: 'file'; path: string } | { kind: 'glob'; base: string; depth: number; test: (file: string) => boolean };

const compiledPatterns = new Map<string, SetPattern>();

export function setPattern(raw: string): SetPattern {
  let compiled = compiledPatterns.get(raw);
  if (!compiled) {
    if (compiledPatterns.size > 1000) compiledPatterns.clear();
    compiledPatterns.set(raw, (compiled = compilePattern(raw)));
  }
  return compiled;
}

function compilePattern(raw: string): SetPattern {
  const pattern = raw.replace(/^(?:\.\/)+/, '');
  const scan = picomatch.scan(pattern, { nonegate: true, unescape: true });
  if (!scan.isGlob) return { kind: 'file', path: pattern.replace(/\\(.)/gsu, '$1') };
  const depth = /\*\*|\{/.test(scan.glob) ? Infinity : scan.glob.split('/').length;
  const isMatch = picomatch(pattern, GLOB_OPTIONS);
  return { kind: 'glob', base: scan.base, depth, test: (file) => isMatch(file) };
}

/** A file's path written so that it is not read as a glob (`a[1].yaml` → `a\[1\].yaml`). */
export function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]{}()]/g, '\\$&');
}

/**
 * The files of a list of names and globs, in order: a glob's matches sorted by code point (so
 * `10-base.yaml` before `20-app.yaml`), each file once. `files` are the folder's files, relative,
 * with '/' separators (as the patterns' folders are written). Patterns that match nothing are returned too.
 */
export function expandPatterns(patterns: readonly string[], files: readonly string[]): { files: string[]; unmatched: string[] } {
  const out: string[] = [];
  const seen = new Set<string>();
  const unmatched: string[] = [];
  const listed = new Set(files);
  for (const raw of patterns) {
    const pattern = setPattern(raw);
    // A plain name that is not listed is kept (reported as unmatched): it may not be saved yet.
    const matches = pattern.kind === 'file' ? [pattern.path] : files.filter(pattern.test).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (pattern.kind === 'file' ? !listed.has(pattern.path) : !matches.length) unmatched.push(raw);
    for (const f of matches) {
      if (seen.has(f)) continue;
      seen.add(f);
      out.push(f);
    }
  }
  return { files: out, unmatched };
}

// ---------------------------------------------------------------------------
// Writing a set into the file

/** A set as the editor saves it: paths relative to the set file's folder, `/` separators, each one file. */
export interface SetEntry {
  name: string;
  mode: SetMode;
  files: string[];
  boot?: Partial<Record<SetBootRole, string>> & { confd?: string[] };
  includeMap?: Array<{ url: string; file: string }>;
  instanceData?: string;
  /** Absent: a set of this name keeps the image it names. */
  image?: string;
  /** A NoCloud seed folder (boot mode): its user-data and vendor-data are not written again in `files` and `vendor`. */
  seed?: string;
}

export type SetWrite = { text: string } | { error: string };

/**
 * The set file's text with `entry` written as the set of its name: added at the end of `sets` (in the
 * style `sets` is written in), or replacing the set of that name, the rest of the text kept byte for
 * byte. Every scalar is written so that this module's reader reads back exactly that string (quoted
 * where YAML 1.1 would read `on`, `1`, `~`... as something else), files escaped so that none reads as a
 * glob; and the result is read back: a text that would not give this set, and every other set as
 * before, is never returned.
 */
export function writeSet(text: string, entry: SetEntry): SetWrite {
  const loaded = loadYaml(text, { maxDepth: 100 });
  if (!loaded.ok) {
    const line = text.slice(0, loaded.error.span?.start ?? 0).split('\n').length;
    return { error: `${SET_FILE_NAME} has YAML errors: fix them first (line ${line}: ${loaded.error.message.split('\n').join(': ')})` };
  }
  // The image is the user's choice, not the preview's: a set saved again keeps it.
  if (entry.image === undefined) {
    const kept = parseSetFile(text).sets.find((s) => s.name === entry.name)?.image;
    if (kept) entry = { ...entry, image: kept };
  }
  const fields = entryFields(entry);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const root = loaded.value;
  let written: string | { error: string };
  if (root === null) {
    written = `${text}${text && !text.endsWith('\n') ? eol : ''}sets:${eol}${blockEntry(entry.name, fields, '  ', eol)}`;
  } else if (!(root instanceof PyDict) || !loaded.rootSpan || text[loaded.rootSpan.start] === '{') {
    return { error: `${SET_FILE_NAME} is not a block mapping with \`sets\`: fix it first` };
  } else {
    written = intoRoot(text, root, loaded.rootSpan, entry.name, fields, eol);
  }
  if (typeof written !== 'string') return written;
  return readsBackAs(written, text, entry) ? { text: written } : { error: `the set ${JSON.stringify(entry.name)} cannot be written into ${SET_FILE_NAME} so that it reads back the same: edit the file by hand` };
}

/** A set's keys in the order written: a string, a list of them, or a mapping (`includeMap`). */
type Fields = Array<[string, string | string[] | { map: Array<[string, string]> }]>;

function entryFields(entry: SetEntry): Fields {
  const fields: Fields = [];
  // A seed is merged in boot mode: its `mode` goes without saying.
  if (entry.mode !== 'user-data' && !(entry.seed && entry.mode === 'boot')) fields.push(['mode', entry.mode]);
  if (entry.seed) fields.push(['seed', entry.seed]);
  if (entry.files.length || !entry.seed) fields.push(['files', entry.files.map(escapeGlob)]);
  for (const role of SET_BOOT_ROLES) {
    const file = entry.boot?.[role];
    if (file) fields.push([role, file]);
  }
  if (entry.boot?.confd?.length) fields.push(['confd', entry.boot.confd.map(escapeGlob)]);
  if (entry.includeMap?.length) fields.push(['includeMap', { map: entry.includeMap.map((m) => [m.url, m.file]) }]);
  if (entry.instanceData) fields.push(['instanceData', entry.instanceData]);
  if (entry.image) fields.push(['image', entry.image]);
  return fields;
}

function intoRoot(text: string, root: PyDict, rootSpan: TextSpan, name: string, fields: Fields, eol: string): string | { error: string } {
  const origin = root.originOf('sets');
  const sets = root.get('sets');
  if (sets === undefined || !origin?.key) {
    const indent = ' '.repeat(columnOf(text, rootSpan.start));
    const at = lineAfter(text, rootSpan.end);
    const before = text.slice(0, at);
    return `${before}${before && !before.endsWith('\n') ? eol : ''}${indent}sets:${eol}${blockEntry(name, fields, `${indent}  `, eol)}${text.slice(at)}`;
  }
  const keyColumn = columnOf(text, origin.key.start);
  const flow = text[origin.value.start] === '{';
  if (sets === null || (sets instanceof PyDict && flow && sets.size === 0)) {
    // `sets:`, `sets: ~` or `sets: {}`: the value becomes the block.
    const at = lineAfter(text, Math.max(origin.key.end, origin.value.end));
    const head = pyRStripChars(text.slice(0, origin.value.start), ' \t') + text.slice(origin.value.end, at);
    return `${head}${head.endsWith('\n') ? '' : eol}${blockEntry(name, fields, ' '.repeat(keyColumn + 2), eol)}${text.slice(at)}`;
  }
  if (!(sets instanceof PyDict)) return { error: `\`sets\` in ${SET_FILE_NAME} is not a mapping: fix it first` };
  // The entry to replace: the set of this name, or a key written as this name that YAML 1.1 reads as something else (`on:`).
  const same = [...sets.items()].reverse().find((item) => item.origin?.key && (item.key === name || (typeof item.key !== 'string' && text.slice(item.origin.key.start, item.origin.key.end) === name)));
  if (flow) {
    const entryText = flowEntry(name, fields);
    if (same?.origin?.key) return text.slice(0, same.origin.key.start) + entryText + text.slice(same.origin.value.end);
    const last = [...sets.items()].at(-1)?.origin?.value.end;
    if (last === undefined) return { error: `\`sets\` in ${SET_FILE_NAME} cannot be added to: edit it by hand` };
    return `${text.slice(0, last)}, ${entryText}${text.slice(last)}`;
  }
  const first = [...sets.items()][0]?.origin?.key;
  const indent = ' '.repeat(first ? columnOf(text, first.start) : keyColumn + 2);
  if (same?.origin?.key) {
    // From its key's line to the end of its value's last line (comments after it stay).
    const from = text.lastIndexOf('\n', same.origin.key.start - 1) + 1;
    return text.slice(0, from) + blockEntry(name, fields, indent, eol) + text.slice(lineAfter(text, same.origin.value.end));
  }
  const at = lineAfter(text, origin.value.end);
  const before = text.slice(0, at);
  return `${before}${before.endsWith('\n') ? '' : eol}${blockEntry(name, fields, indent, eol)}${text.slice(at)}`;
}

/** The column of an offset. */
function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** The start of the line after the one holding the character before `end` (the text's end on the last line). */
function lineAfter(text: string, end: number): number {
  const lineEnd = text.indexOf('\n', Math.max(end - 1, 0));
  return lineEnd < 0 ? text.length : lineEnd + 1;
}

function blockEntry(name: string, fields: Fields, indent: string, eol: string): string {
  const lines = [`${indent}${scalar(name, false)}:`];
  for (const [key, value] of fields) {
    if (Array.isArray(value)) lines.push(`${indent}  ${key}:`, ...value.map((v) => `${indent}    - ${scalar(v, false)}`));
    else if (typeof value === 'object') lines.push(`${indent}  ${key}:`, ...value.map.map(([k, v]) => `${indent}    ${scalar(k, false)}: ${scalar(v, false)}`));
    else lines.push(`${indent}  ${key}: ${scalar(value, false)}`);
  }
  return lines.join(eol) + eol;
}

function flowEntry(name: string, fields: Fields): string {
  const text = (value: Fields[number][1]) =>
    Array.isArray(value) ? `[${value.map((v) => scalar(v, true)).join(', ')}]` : typeof value === 'object' ? `{${value.map.map(([k, v]) => `${scalar(k, true)}: ${scalar(v, true)}`).join(', ')}}` : scalar(value, true);
  return `${scalar(name, true)}: {${fields.map(([key, value]) => `${key}: ${text(value)}`).join(', ')}}`;
}

/**
 * A string as a YAML scalar that the reader reads back as exactly that string, in block or flow context:
 * plain when that reads back (`web`, `parts/a.yaml`), else single-quoted (`'on'`, `'1'`, `'~'`, `'- x'`),
 * else double-quoted with escapes (line breaks, characters YAML cannot carry).
 */
export function scalar(value: string, flow: boolean): string {
  const single = `'${value.replace(/'/g, "''")}'`;
  for (const candidate of [value, single]) if (scalarReadsBack(candidate, value, flow)) return candidate;
  let double = '"';
  for (const ch of value) double += ch === '"' || ch === '\\' || ch === '\uFEFF' || /[\n\r\t\x85\u2028\u2029]/.test(ch) || NON_PRINTABLE.test(ch) ? escapeChar(ch) : ch;
  return `${double}"`;
}

/** Whether `candidate` reads back as `value` as a key, a value and a list item. */
function scalarReadsBack(candidate: string, value: string, flow: boolean): boolean {
  const probe = flow ? `{${candidate}: {k: ${candidate}, l: [${candidate}]}}\n` : `${candidate}:\n  k: ${candidate}\n  l:\n    - ${candidate}\n`;
  const loaded = loadYaml(probe, { maxDepth: 5 });
  if (!loaded.ok || !(loaded.value instanceof PyDict) || loaded.value.size !== 1) return false;
  const inner = loaded.value.get(value);
  if (!(inner instanceof PyDict) || inner.size !== 2 || inner.get('k') !== value) return false;
  const list = inner.get('l');
  return Array.isArray(list) && list.length === 1 && list[0] === value;
}

/** Whether `written` holds the entry as its set of that name, and every other set of `before` unchanged. */
function readsBackAs(written: string, before: string, entry: SetEntry): boolean {
  const after = parseSetFile(written);
  if (after.problems.some((p) => p.message.startsWith('not YAML'))) return false;
  const mine = after.sets.filter((s) => s.name === entry.name);
  if (mine.length !== 1) return false;
  const meant = { ...entry, files: entry.files.map(escapeGlob), boot: { ...entry.boot, ...(entry.boot?.confd?.length ? { confd: entry.boot.confd.map(escapeGlob) } : { confd: undefined }) } };
  const same = (a: Omit<SetEntry, 'name'>) => JSON.stringify([a.mode, a.files, SET_BOOT_ROLES.map((r) => a.boot?.[r] ?? null), a.boot?.confd ?? null, a.includeMap ?? [], a.instanceData ?? null, a.image ?? null, a.seed ?? null]);
  if (same(mine[0]) !== same(meant)) return false;
  const others = (file: SetFile) => JSON.stringify(file.sets.filter((s) => s.name !== entry.name).map((s) => [s.name, same(s)]));
  return others(after) === others(parseSetFile(before));
}
