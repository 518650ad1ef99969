/**
 * Set files on disk: reads `cloud-config-merge.yaml`, lists the folders its
 * globs name (bounded), and turns a set's names and globs into absolute
 * paths. Shared by the CLI's `--set` and the language server, so both merge
 * the same files in the same order, confined as `#include` is in the editor:
 * a set reads inside the workspace folders (the CLI: the set file's folder)
 * unless the user allows more (`cloudConfigMerge.includes.allowOutsideWorkspace`,
 * `--set-allow-outside`),
 * merges at most `maxSetFiles` files, and listing it never walks more than a
 * budget of entries and time, never through symbolic links.
 */
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { PartSet, SET_BOOT_ROLES, SET_FILE_MAX_BYTES, SetFile, SetFileProblem, SetBootRole, expandPatterns, parseSetFile, setPattern } from '../engine/sets/setFile';
import { pushAll } from '../engine/arrays';
import type { TextSpan } from '../engine/py/values';
import { readBoundedSync } from './readFile';
import { insideFolder } from './inside';
import { readConfinedSeedFolder } from './seed';
import { seedFolderProblem, type SeedFolder } from '../engine/seed/seedFolder';

/** Folders a glob's walk never enters (a dot-folder is entered only where a pattern names it). */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'out', 'dist']);

/** What one listing of a set file's globs may cost: folder entries read, and time (the server waits for it). */
export const WALK_BUDGET = { entries: 20_000, millis: 300 } as const;

export interface SetReading {
  /**
   * The folders a set reads in: the CLI's, the set file's; the editor's, the workspace folders. Null when
   * the user allows any path (the editor's allowOutsideWorkspace, the CLI's --set-allow-outside).
   */
  folders: readonly string[] | null;
  /** The limit maxSetFiles. */
  maxFiles: number;
  /** What the folders are, and how the user lifts the confinement or the limit, for messages. */
  words: { folders: string; allowOutside: string; maxFiles: string };
}

/** Whether a set confined to `folders` (null: not confined) may read `file` (absolute). */
export function readableBySet(file: string, folders: readonly string[] | null): boolean {
  return folders === null || folders.some((folder) => insideFolder(file, folder));
}

export interface SetListing {
  /** The files the patterns can match, relative to the folder as the patterns write them ('/' separators). */
  files: string[];
  /** The globs whose walk stopped at the budget (and those after them, not walked). */
  stopped: string[];
}

/**
 * Only the files the patterns can match, within the budget: plain names that exist, and each glob's
 * folder before its first glob character, walked as deep as the glob reaches. Nothing outside `folders`
 * is looked at (SetReading.folders).
 */
export function listForPatterns(root: string, patterns: readonly string[], folders: readonly string[] | null, budget: { entries: number; millis: number } = WALK_BUDGET): SetListing {
  const out = new Set<string>();
  const stopped: string[] = [];
  const walk = { entries: budget.entries, deadline: Date.now() + budget.millis };
  for (const raw of patterns) {
    const pattern = setPattern(raw);
    const where = path.resolve(root, pattern.kind === 'file' ? pattern.path : pattern.base);
    if (!readableBySet(where, folders)) continue;
    if (pattern.kind === 'file') {
      try {
        if (statSync(where).isFile()) out.add(pattern.path);
      } catch {
        /* unmatched: reported by resolveSet */
      }
      continue;
    }
    if (walk.entries <= 0 || Date.now() > walk.deadline) {
      stopped.push(raw);
      continue;
    }
    const complete = walkFolder(where, pattern.depth, walk, (relative) => out.add(joinBase(pattern.base, relative)));
    if (!complete) stopped.push(raw);
  }
  return { files: [...out], stopped };
}

function joinBase(base: string, relative: string): string {
  return !base ? relative : base.endsWith('/') ? base + relative : `${base}/${relative}`;
}

/**
 * The files under `root` down to `depth` folder levels, relative with '/' separators, in code-point
 * order level by level; dot-folders and build folders left out, symbolic links never followed (a link
 * is neither a file nor a folder here). False when the budget ran out first.
 */
function walkFolder(root: string, depth: number, budget: { entries: number; deadline: number }, found: (relative: string) => void): boolean {
  const pending: Array<{ relative: string; level: number }> = [{ relative: '', level: 1 }];
  for (let next = 0; next < pending.length; next++) {
    const { relative, level } = pending[next];
    if (budget.entries <= 0 || Date.now() > budget.deadline) return false;
    let entries;
    try {
      entries = readdirSync(path.join(root, relative), { withFileTypes: true });
    } catch {
      continue;
    }
    budget.entries -= entries.length;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (level < depth && !entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) pending.push({ relative: name, level: level + 1 });
      } else if (entry.isFile()) found(name);
    }
    if (budget.entries < 0) return false;
  }
  return true;
}

export interface ResolvedSet {
  set: PartSet;
  /** Absolute paths, in merge order (none when the set cannot be merged: see `problems`). */
  files: string[];
  boot: Partial<Record<SetBootRole, string>> & { confd?: string[] };
  includeMap: Array<{ url: string; file: string }>;
  instanceData?: string;
  /** Names and globs that match no file. */
  unmatched: string[];
  /** Where each of `unmatched` is written in the set file, in the same order. */
  unmatchedAt: TextSpan[];
  /** The set's NoCloud seed folder, as found on disk. */
  seed?: SeedFolder;
  /**
   * Where the set cannot be read as written: a path outside the folder (left out), a glob whose listing
   * stopped at the budget, more files than maxSetFiles (then nothing of the set is merged).
   */
  problems: SetFileProblem[];
}

/** A set's files as absolute paths under `folder` (the set file's folder). */
export function resolveSet(folder: string, set: PartSet, listing: SetListing, reading: SetReading): ResolvedSet {
  const problems: SetFileProblem[] = [];
  const at = (key: string) => set.places[key] ?? set.span;
  const allowed = (file: string, key: string, written: string): boolean => {
    if (readableBySet(file, reading.folders)) return true;
    problems.push({ message: `set ${set.name}: ${written} is outside ${reading.words.folders}, not read (${reading.words.allowOutside})`, severity: 'error', span: at(key) });
    return false;
  };
  const unmatched: string[] = [];
  const unmatchedAt: TextSpan[] = [];
  let stopped = false;
  const expand = (patterns: readonly string[], key: string): string[] => {
    const out: string[] = [];
    patterns.forEach((raw, i) => {
      const pattern = setPattern(raw);
      // A glob's walk never follows a link, so its folder decides for every file it lists.
      if (!allowed(path.resolve(folder, pattern.kind === 'file' ? pattern.path : pattern.base), `${key}.${i}`, raw)) return;
      if (listing.stopped.includes(raw)) {
        stopped = true;
        problems.push({ message: `set ${set.name}: listing the folders of ${raw} stopped after ${WALK_BUDGET.entries} entries or ${WALK_BUDGET.millis} ms: name a narrower folder (the set is not merged)`, severity: 'error', span: at(`${key}.${i}`) });
        return;
      }
      const expanded = expandPatterns([raw], listing.files);
      pushAll(unmatched, expanded.unmatched);
      for (const _ of expanded.unmatched) unmatchedAt.push(at(`${key}.${i}`));
      for (const f of expanded.files) out.push(path.resolve(folder, f));
    });
    return [...new Set(out)];
  };
  const files = expand(set.files, 'files');
  const boot: ResolvedSet['boot'] = {};
  if (set.boot.confd) boot.confd = expand(set.boot.confd, 'confd');
  for (const role of SET_BOOT_ROLES) {
    const file = set.boot[role];
    if (file && allowed(path.resolve(folder, file), role, file)) boot[role] = path.resolve(folder, file);
  }
  // A seed folder: its user-data before the set's files, its vendor-data the vendor layer unless one is named.
  let seed: SeedFolder | undefined;
  if (set.seed && allowed(path.resolve(folder, set.seed), 'seed', set.seed)) {
    // Each of its files is confined as a set's own files are: a link out of the folders is not read.
    const read = readConfinedSeedFolder(path.resolve(folder, set.seed), { folders: reading.folders, words: reading.words }, set.seed);
    seed = read.confined;
    const problem = seedFolderProblem({ ...read.seed, folder: set.seed });
    if (problem) problems.push({ message: `set ${set.name}: ${problem}`, severity: 'error', span: at('seed') });
    for (const refused of read.refused) problems.push({ message: `set ${set.name}: ${refused}`, severity: 'error', span: at('seed') });
    if (seed.present['user-data'] && !files.includes(seed.present['user-data'])) files.unshift(seed.present['user-data']);
    if (seed.present['vendor-data'] && !boot.vendor) boot.vendor = seed.present['vendor-data'];
  }
  const includeMap = set.includeMap.flatMap((m, i) => (allowed(path.resolve(folder, m.file), `includeMap.${i}`, m.file) ? [{ url: m.url, file: path.resolve(folder, m.file) }] : []));
  const instanceData = set.instanceData && allowed(path.resolve(folder, set.instanceData), 'instanceData', set.instanceData) ? path.resolve(folder, set.instanceData) : undefined;
  const count = files.length + (boot.confd?.length ?? 0);
  if (count > reading.maxFiles || stopped) {
    if (count > reading.maxFiles) problems.push({ message: `set ${set.name}: ${count} files, more than the limit maxSetFiles = ${reading.maxFiles} (${reading.words.maxFiles}): the set is not merged`, severity: 'error', span: set.span });
    return { set, files: [], boot: {}, includeMap: [], unmatched, unmatchedAt, problems };
  }
  return { set, files, boot, includeMap, instanceData, unmatched, unmatchedAt, problems, ...(seed ? { seed } : {}) };
}

/** Every name and glob a set lists (its files and its drop-ins). */
export function setPatterns(set: PartSet): string[] {
  return [...set.files, ...(set.boot.confd ?? [])];
}

/** The sets of a set file, resolved against one listing of all their globs. */
export function resolveSetFile(folder: string, parsed: SetFile, reading: SetReading, list: (patterns: string[]) => SetListing = (p) => listForPatterns(folder, p, reading.folders)): ResolvedSet[] {
  const patterns = [...new Set(parsed.sets.flatMap(setPatterns))];
  const listing = list(patterns);
  return parsed.sets.map((set) => resolveSet(folder, set, listing, reading));
}

/** The set file at `file`, parsed; undefined when there is none or it cannot be read (over SET_FILE_MAX_BYTES too). */
export function readSetFile(file: string): SetFile | undefined {
  try {
    return parseSetFile(new TextDecoder().decode(readBoundedSync(file, { maxBytes: SET_FILE_MAX_BYTES })));
  } catch {
    return undefined;
  }
}
