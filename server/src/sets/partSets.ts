/**
 * Which set of parts an open document belongs to, and the set's analysis
 * (fates, and the merged result's schema problems) at this moment: open
 * documents' unsaved text, else the disk. A document is in a set when
 *   1. a `cloud-config-merge.yaml` at a workspace folder's root lists it;
 *   2. else it is a `*.cfg` file of a `cloud.cfg.d` folder (the folder is the set, mode confd);
 *   3. else an open preview merges it (the client tells which previews are open).
 * Documents in no set get nothing from the features that read this. One
 * analysis per set and snapshot, shared by every document of the set.
 */
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FateReport } from '../engine/outcome/fates';
import { InputFile, Outcome, RunOptions, SystemLayers, runSet } from '../engine/outcome/run';
import { SET_FILE_MAX_BYTES, SET_FILE_NAME, SetFile } from '../engine/sets/setFile';
import { MergedSchemaReport } from '../engine/outcome/mergedSchema';
import { instanceDataTextOr } from '../engine/template/instanceData';
import { parseSetFile } from '../engine/sets/setFile';
import { ResolvedSet, listForPatterns, resolveSetFile } from '../node/sets';
import { ResolvedRun, confdRun, containerRun, runImage, runReads, savedSetRun, seedRun } from './resolve';
import { DiskCache } from './diskCache';
import { openDocument } from '../features/common/workspaceFiles';
import { readBoundedSync } from '../node/readFile';
import { isInside } from '../node/inside';
import { detectCloudInitDocument, isContainerKind } from '../../../common/detect';
import { workspaceIncludeResolver } from './workspaceIncludes';
import { ServerContext } from '../features/common/context';
import { MAX_SCHEMA_PROBLEMS } from '../features/common/analysisCache';
import { ServerSettings, withImage } from '../features/common/settings';
import { runCheck, type RunFinding } from '../engine/check/runFindings';
import { planTargetOf } from '../features/common/planTarget';

/** A run as the server keeps it: the resolved run (sets/resolve.ts) with its identity. */
export interface OpenSet extends ResolvedRun {
  /** Stable identity: `file:<set file>#<name>`, `confd:<folder>`, `seed:<folder>`, `preview:<id>` or `file:<file>` (a lone container). */
  key: string;
  /** How messages name the set. */
  label: string;
}

export interface SetAnalysis {
  set: OpenSet;
  /** The one run of the set's files at this moment: fates, schema problems and fixes all come from it. */
  outcome: Outcome;
  report: FateReport;
  /** The merged result's `cloud-init schema --system` problems (user-data mode, schema enabled). */
  schema?: MergedSchemaReport;
  /** Every finding of the run (fates, merged schema problems, the boot plan's pitfalls): engine/check/runFindings.ts. */
  findings: RunFinding[];
  /** The URI of a name the engine's locations carry. */
  uriOf(name: string): string | undefined;
  /** The name the engine's locations carry for a URI (undefined: not read by this run). */
  nameOf(uri: string): string | undefined;
  millis: number;
}

/** How long a folder listing (for globs and cloud.cfg.d folders) is trusted: new files on disk show up after this. */
const LISTING_MS = 2000;
/** ... and one that stopped at its budget (node/sets.ts WALK_BUDGET). */
const STOPPED_LISTING_MS = 30_000;

/** How the editor's user lifts a set's confinement and its limit. */
const SET_READING_WORDS = { folders: 'the workspace folders', allowOutside: 'setting cloudConfigMerge.includes.allowOutsideWorkspace', maxFiles: 'setting cloudConfigMerge.limits.maxSetFiles' };

export class PartSets {
  /** Open previews' selections, by an id the client chose. */
  private readonly previews = new Map<string, OpenSet>();
  private readonly listings = new Map<string, { at: number; files: unknown; ms: number }>();
  /** The last answer of declaredSets, with what it depends on. */
  private declared: { key: string; at: number; sets: OpenSet[] } | undefined;
  private readonly disk = new DiskCache();
  /** `included`: the files its parts' `#include`s read (or tried), whose changes count as the set's. */
  private readonly analyses = new Map<string, { snapshot: string; included: Array<{ file: string; stamp: string }>; analysis: SetAnalysis }>();

  constructor(private readonly ctx: ServerContext) {}

  /** The client opened, changed or closed a preview (`set` null when it closed). */
  setPreview(id: string, set: Omit<OpenSet, 'key' | 'label'> | null): void {
    if (set) this.previews.set(id, { ...set, key: `preview:${id}`, label: 'the open preview' });
    else {
      this.previews.delete(id);
      // Its analysis (the files' bytes, the #include targets that name it) goes with it.
      this.analyses.delete(`preview:${id}`);
    }
  }

  /** The sets this document belongs to (a set file's sets, else its cloud.cfg.d folder, else open previews). */
  setsOf(uri: string): OpenSet[] {
    const file = filePath(uri);
    if (!file) return [];
    const declared = this.declaredSets().filter((s) => runReads(s, file));
    if (declared.length) return declared;
    const confd = this.confdSet(file);
    if (confd) return [confd];
    const seed = this.seedSetOf(file);
    if (seed) return [seed];
    const previewed = [...this.previews.values()].filter((s) => runReads(s, file));
    if (previewed.length) return previewed;
    const container = this.containerSetOf(file, uri);
    return container ? [container] : [];
  }

  /**
   * A file that holds several parts (MIME multipart, #cloud-config-archive) and no set names: its parts
   * merge with each other, so it is a run of its own, as `--check FILE` takes it (its fates, the merged
   * result's schema, the plan of what they make).
   */
  private containerSetOf(file: string, uri: string): OpenSet | undefined {
    const open = this.ctx.documents.get(uri);
    const text = open ? open.getText() : undefined;
    if (text === undefined) return undefined;
    if (!isContainerKind(detectCloudInitDocument(text.slice(0, 64 * 1024), file, open?.languageId)?.kind)) return undefined;
    return { ...containerRun(file), key: `file:${file}`, label: `the parts of ${path.basename(file)}` };
  }

  /**
   * The saved set whose run a file is checked in: the first set (in the set file's order) that holds it and
   * names an image or instance data. Its diagnostics, hover, completion, plan and status use that image,
   * and its templates that instance data, as the set's own merge does.
   */
  runSetOf(uri: string): { name: string; setFile: string; image?: string; instanceData?: string } | undefined {
    const file = filePath(uri);
    if (!file) return undefined;
    const set = this.declaredSets().find((s) => (s.image || s.instanceData) && runReads(s, file));
    if (!set) return undefined;
    return { name: set.label, setFile: pathToFileURL(set.key.slice('file:'.length, set.key.lastIndexOf('#'))).href, ...(set.image ? { image: set.image } : {}), ...(set.instanceData ? { instanceData: set.instanceData } : {}) };
  }

  /**
   * The saved set that is exactly this preview: the same mode, the same files in the same order and the
   * same boot layers (its `image:` then decides the preview, as it decides the set's fates).
   */
  declaredSetPreviewed(mode: string, files: readonly string[], boot: OpenSet['boot']): OpenSet | undefined {
    const same = (a: readonly string[] | undefined, b: readonly string[] | undefined) => (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === (b ?? [])[i]);
    const roles = (b: OpenSet['boot']) => [b.vendor, b.vendor2, b.cloudCfg, b.dsConfig].map((x) => x ?? '');
    // A seed folder's own set (no set file names it) is previewed as its seed too.
    const seed = files.length === 1 ? this.seedSetOf(files[0]) : undefined;
    return [...this.declaredSets(), ...(seed ? [seed] : [])].find((s) => s.mode === mode && same(s.files, files) && same(roles(s.boot), roles(boot)) && same(s.boot.confd, boot.confd));
  }

  /** Every set of the workspace's set files. */
  declaredSets(): OpenSet[] {
    // Asked for on every request (a document's run settings, runSetOf): the set files are parsed and resolved
    // again only when one changes (its open version or its disk stamp), or once the listings' time is up.
    const folders = this.ctx.workspaceFolders();
    const key = JSON.stringify(folders.map((folder) => {
      const file = path.join(folder, SET_FILE_NAME);
      const settings = this.ctx.clientSettings(pathToFileURL(file).href);
      return [file, this.stamp(file), settings.includes.allowOutsideWorkspace, settings.limits.maxSetFiles];
    }));
    const kept = this.declared;
    if (kept && kept.key === key && Date.now() - kept.at < LISTING_MS) return kept.sets;
    const sets = this.resolveDeclaredSets(folders);
    this.declared = { key, at: Date.now(), sets };
    return sets;
  }

  private resolveDeclaredSets(folders: readonly string[]): OpenSet[] {
    const out: OpenSet[] = [];
    for (const folder of folders) {
      const setFilePath = path.join(folder, SET_FILE_NAME);
      const parsed = this.setFile(setFilePath);
      if (!parsed) continue;
      for (const resolved of this.resolveSets(folder, parsed, this.ctx.clientSettings(pathToFileURL(setFilePath).href))) {
        out.push({ ...savedSetRun(folder, resolved), key: `file:${setFilePath}#${resolved.set.name}`, label: `set ${resolved.set.name}` });
      }
    }
    return out;
  }

  /**
   * The sets of a folder's set file, resolved as they are merged: inside the workspace folders (as
   * `#include`s are read) unless `includes.allowOutsideWorkspace`, at most `limits.maxSetFiles` files;
   * the listing of their globs is cached.
   */
  resolveSets(folder: string, parsed: SetFile, settings: ServerSettings): ResolvedSet[] {
    const folders = settings.includes.allowOutsideWorkspace ? null : this.ctx.workspaceFolders();
    const reading = { folders, maxFiles: settings.limits.maxSetFiles, words: SET_READING_WORDS };
    // A listing that stopped at its budget is kept longer: walking again soon would only stop again.
    const list = (patterns: string[]) =>
      this.listing(`${folder}\n${folders?.join('\n') ?? '(anywhere)'}\n\n${patterns.join('\n')}`, () => listForPatterns(folder, patterns, folders), (l) => (l.stopped.length ? STOPPED_LISTING_MS : LISTING_MS));
    return resolveSetFile(folder, parsed, reading, list);
  }

  /** The set file of a folder: the editor's text when open, else the disk. */
  private setFile(file: string): SetFile | undefined {
    const open = this.ctx.documents.get(pathToFileURL(file).href);
    if (open) return parseSetFile(open.getText());
    const bytes = this.readDisk(file, SET_FILE_MAX_BYTES);
    return bytes ? parseSetFile(new TextDecoder().decode(bytes)) : undefined;
  }

  private confdSet(file: string): OpenSet | undefined {
    const folder = path.dirname(file);
    if (path.basename(folder) !== 'cloud.cfg.d' || !file.endsWith('.cfg')) return undefined;
    const names = this.listing(folder, () => {
      try {
        return readdirSync(folder).filter((n) => n.endsWith('.cfg')).sort();
      } catch {
        return [];
      }
    });
    // (the document itself, even before it is saved)
    const drops = names.includes(path.basename(file)) ? names : [...names, path.basename(file)];
    const cloudCfg = path.join(path.dirname(folder), 'cloud.cfg');
    const hasCloudCfg = this.readDisk(cloudCfg, 1 << 20) || this.ctx.documents.get(pathToFileURL(cloudCfg).href);
    return { ...confdRun(folder, drops, hasCloudCfg ? cloudCfg : undefined), key: `confd:${folder}`, label: `the ${folder} folder` };
  }

  /**
   * A NoCloud seed folder's user-data or vendor-data (a folder that holds user-data and meta-data, as
   * NoCloud takes it): the seed is a set in boot mode, its user-data laid over its vendor-data, as
   * cloud-init and `--seed DIR` take it. Only the files that resolve inside the workspace folders are
   * part of it (node/seed.ts), as a saved set's seed.
   */
  seedSetOf(file: string): OpenSet | undefined {
    const name = path.basename(file);
    if (name !== 'user-data' && name !== 'vendor-data') return undefined;
    const folder = path.dirname(file);
    const settings = this.ctx.clientSettings(pathToFileURL(file).href);
    const folders = settings.includes.allowOutsideWorkspace ? null : this.ctx.workspaceFolders();
    // Named from its workspace folder, as a set file beside it would name it (and `--seed` from there).
    const root = this.ctx.workspaceFolders().find((f) => isInside(folder, f) && folder !== f) ?? path.dirname(folder);
    const shown = path.relative(root, folder).split(path.sep).join('/');
    const { run } = this.listing(`seed:${folder}\n${folders?.join('\n') ?? '(anywhere)'}`, () => seedRun(folder, { folders, words: SET_READING_WORDS }, shown, root));
    // (a folder NoCloud does not use, or whose user-data or meta-data leads out, is no seed set: its files are checked alone)
    return run && { ...run, key: `seed:${folder}`, label: `the NoCloud seed ${shown}` };
  }

  private listing<T>(folder: string, list: () => T, trusted: (files: T) => number = () => LISTING_MS): T {
    const cached = this.listings.get(folder);
    if (cached && Date.now() - cached.at < cached.ms) return cached.files as T;
    const files = list();
    this.listings.set(folder, { at: Date.now(), files, ms: trusted(files) });
    return files;
  }

  /** A file's bytes from the disk (the bounded reader), kept while a stat says it is unchanged; null when it cannot be read. */
  private readDisk(file: string, maxBytes: number): Uint8Array | null {
    try {
      return this.disk.unchanged(file, maxBytes) ?? this.disk.readSync(file, () => readBoundedSync(file, { maxBytes }));
    } catch {
      return null;
    }
  }

  /** A file as it is now (the open document's text, else the disk) and its stamp. */
  private read(file: string, settings: ServerSettings): { bytes: Uint8Array; version: string } | null {
    const version = this.stamp(file);
    const open = openDocument(this.ctx.documents, file);
    const bytes = open ? new TextEncoder().encode(open.getText()) : this.readDisk(file, settings.limits.maxFileBytes);
    return bytes ? { bytes, version } : null;
  }

  /** What a file is now, cheaply: the open document's version, else its size and mtime on disk. */
  private stamp(file: string): string {
    const open = this.ctx.documents.get(pathToFileURL(file).href);
    if (open) return `v${open.version}`;
    try {
      const stat = statSync(file);
      return `d${stat.mtimeMs}:${stat.size}`;
    } catch {
      return 'missing';
    }
  }

  /** The set's fates (and merged schema problems) for the current texts; computed once per snapshot. */
  analyze(set: OpenSet, settings: ServerSettings): SetAnalysis {
    // The run's own image over the folder's (no request names one here).
    const image = runImage(set, {});
    if (image) settings = withImage(settings, image);
    const names = new Map<string, string>();
    const name = (file: string) => {
      const relative = path.relative(set.folder, file).split(path.sep).join('/');
      const shown = relative && !relative.startsWith('..') ? relative : file;
      names.set(shown, pathToFileURL(file).href);
      return shown;
    };
    // What the run depends on besides the files' texts: the mode, which file plays which role, the settings.
    const snapshot: string[] = [set.mode, JSON.stringify(set.boot), JSON.stringify(set.includeMap), set.instanceData ?? '', settings.cloudInitVersion, String(settings.schema.enable), String(settings.includes.allowOutsideWorkspace), String(settings.limits.maxFileBytes)];
    const readAll = (files: string[]) => {
      const out: InputFile[] = [];
      for (const f of files) {
        const read = this.read(f, settings);
        snapshot.push(`${f}@${read?.version ?? 'missing'}`);
        if (read) out.push({ name: name(f), bytes: read.bytes });
      }
      return out;
    };
    const files = readAll(set.files);
    const boot: SystemLayers = {};
    for (const role of ['vendor', 'vendor2', 'cloudCfg', 'dsConfig'] as const) {
      const file = set.boot[role];
      if (file) boot[role] = readAll([file])[0];
    }
    if (set.boot.confd) boot.confd = readAll(set.boot.confd);
    const instance = set.instanceData ? readAll([set.instanceData])[0] : undefined;
    const cached = this.analyses.get(set.key);
    const key = snapshot.join('\n');
    if (cached && cached.snapshot === key && cached.included.every((f) => f.stamp === this.stamp(f.file))) return cached.analysis;
    const started = performance.now();
    const custom = this.ctx.customMergers(settings);
    const included = new Set<string>();
    const options: RunOptions = {
      version: settings.cloudInitVersion,
      limits: settings.limits,
      customMergers: custom.modules.size ? custom.modules : undefined,
      // As the preview reads them: workspace files only (unless allowed), open editors' text first, no URL fetched.
      includes: workspaceIncludeResolver({
        settings,
        folders: this.ctx.workspaceFolders(),
        map: set.includeMap,
        openDocument: (file) => this.ctx.documents.get(pathToFileURL(file).href),
        nameFor: (uri) => name(filePath(uri) ?? uri),
        touched: (uri) => included.add(filePath(uri) ?? uri),
      }),
      // As the preview and the CLI pass it: the text, read by Python's json when a template is rendered.
      instanceData: instance ? instanceDataTextOr(instance.bytes) : undefined,
    };
    const outcome = runSet(set.mode, { files, layers: boot }, options);
    const target = planTargetOf(settings);
    const { findings, fates: report, schema } = runCheck(outcome, { schema: settings.schema.enable, maxProblems: MAX_SCHEMA_PROBLEMS, ...(target ? { target } : {}) });
    const analysis: SetAnalysis = { set, outcome, report, schema, findings, uriOf: (n) => names.get(n), nameOf: (uri) => [...names].find(([, u]) => u === uri)?.[0], millis: performance.now() - started };
    this.analyses.set(set.key, { snapshot: key, included: [...included].map((file) => ({ file, stamp: this.stamp(file) })), analysis });
    return analysis;
  }

  /** The analysis of a set by its key, as last computed for this document's settings. */
  analysisByKey(key: string, uri: string, settings: ServerSettings): SetAnalysis | undefined {
    const set = this.setsOf(uri).find((s) => s.key === key);
    return set ? this.analyze(set, settings) : undefined;
  }

  /** The keys of the sets whose parts `#include` this file (as last analysed): its edits change their fates. */
  includedBy(uri: string): string[] {
    const file = filePath(uri);
    if (!file) return [];
    return [...this.analyses].filter(([, entry]) => entry.included.some((i) => i.file === file)).map(([key]) => key);
  }

  /** Forget what was computed for sets that include this document (it closed). */
  forget(document: TextDocument): void {
    for (const set of this.setsOf(document.uri)) this.analyses.delete(set.key);
  }
}

export function filePath(uri: string): string | null {
  if (!/^file:/i.test(uri)) return null;
  try {
    return path.resolve(fileURLToPath(uri));
  } catch {
    return null;
  }
}
