/**
 * Set files on disk: finds `cloud-config-merge.yaml`, lists the folder it
 * sits in (bounded), and turns a set's names and globs into absolute paths.
 * Shared by the CLI's `--set` and the language server, so both merge the
 * same files in the same order.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { PartSet, SET_BOOT_ROLES, SetFile, SetBootRole, expandPatterns, isGlob, parseSetFile } from '../engine/sets';
import { pushAll } from '../engine/arrays';

/** Files listed per folder at most, and folders never entered: a set lives in a small tree of its own. */
export const MAX_LISTED_FILES = 20_000;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'out', 'dist']);

/** The files under `root`, relative with '/' separators, dot-folders and build folders left out. */
export function listFolderFiles(root: string, limit = MAX_LISTED_FILES): string[] {
  const out: string[] = [];
  const pending = [''];
  while (pending.length && out.length < limit) {
    const relative = pending.shift() as string;
    let entries;
    try {
      entries = readdirSync(path.join(root, relative), { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) pending.push(name);
      } else if (entry.isFile() && out.length < limit) out.push(name);
    }
  }
  return out;
}

/**
 * Only the files the patterns can match: each glob's folder before its first glob character (walked
 * whole for `**`), and plain names that exist. A set in a large repository does not walk the repository.
 */
export function listForPatterns(root: string, patterns: readonly string[], limit = MAX_LISTED_FILES): string[] {
  const out = new Set<string>();
  for (const raw of patterns) {
    const pattern = raw.replace(/^\.\//, '');
    if (!isGlob(pattern)) {
      try {
        if (statSync(path.join(root, pattern)).isFile()) out.add(pattern);
      } catch {
        /* unmatched: reported by resolveSet */
      }
      continue;
    }
    const segments = pattern.split('/');
    const fixed = segments.slice(0, segments.findIndex((seg) => isGlob(seg))).join('/');
    const deep = segments.length - fixed.split('/').filter(Boolean).length > 1 || pattern.includes('**');
    const base = path.join(root, fixed);
    const files = deep ? listFolderFiles(base, limit) : shallow(base);
    for (const f of files) out.add(fixed ? `${fixed}/${f}` : f);
    if (out.size >= limit) break;
  }
  return [...out];
}

function shallow(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
}

export interface ResolvedSet {
  set: PartSet;
  /** Absolute paths, in merge order. */
  files: string[];
  boot: Partial<Record<SetBootRole, string>> & { confd?: string[] };
  includeMap: Array<{ url: string; file: string }>;
  instanceData?: string;
  /** Names and globs that match no file. */
  unmatched: string[];
}

/** A set's files as absolute paths under `folder` (the set file's folder); `listing` defaults to the folder's files. */
export function resolveSet(folder: string, set: PartSet, listing: readonly string[] = listForPatterns(folder, setPatterns(set))): ResolvedSet {
  const absolute = (f: string) => path.resolve(folder, f);
  const main = expandPatterns(set.files, listing);
  const unmatched = [...main.unmatched];
  const boot: ResolvedSet['boot'] = {};
  if (set.boot.confd) {
    const confd = expandPatterns(set.boot.confd, listing);
    pushAll(unmatched, confd.unmatched);
    boot.confd = confd.files.map(absolute);
  }
  for (const role of SET_BOOT_ROLES) {
    const file = set.boot[role];
    if (file) boot[role] = absolute(file);
  }
  return {
    set,
    files: main.files.map(absolute),
    boot,
    includeMap: set.includeMap.map((m) => ({ url: m.url, file: absolute(m.file) })),
    instanceData: set.instanceData ? absolute(set.instanceData) : undefined,
    unmatched,
  };
}

/** Every name and glob a set lists (its files and its drop-ins). */
export function setPatterns(set: PartSet): string[] {
  return [...set.files, ...(set.boot.confd ?? [])];
}

/** The set file of a folder, parsed; undefined when the folder has none. */
export function readSetFile(file: string): SetFile | undefined {
  try {
    if (!statSync(file).isFile()) return undefined;
    return parseSetFile(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
