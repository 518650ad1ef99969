/**
 * The `cloudConfigMerge/preview` request: the merged result of a set of
 * files as cloud-init would produce it, with per-line provenance mapped
 * back to URIs. Open editors' unsaved text is used where there is one;
 * files that cannot be read are reported, never fatal. `#include` reads
 * local files inside the workspace folders only (unless the user allows
 * more) and never fetches a URL.
 *
 * One answer is one moment: files on disk are read first (asynchronously, so
 * edits keep arriving meanwhile), then the open documents' texts are taken and
 * merged in one synchronous step, so a preview never mixes two versions of the
 * editor's documents.
 */
import { instanceDataFor } from './common/instanceData';
import { readError, readRegularFile, readRegularFileSync } from './common/readFile';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { instanceDataTextOr } from '../engine/template/instanceData';
import { detectCloudInitDocument, detectionTextOfBytes } from '../../../common/detect';
import { readMetaData } from '../engine/seed/metaData';
import { PREVIEW_MODES as EDITOR_PREVIEW_MODES, PreviewHeaderLink, PreviewHeaderSection, PreviewLineMap, PreviewLocation, PreviewParams, PreviewRequest, PreviewResult } from '../protocol';
import { planTargetOf } from './common/planTarget';
import { HeaderLink, PreviewModel, PREVIEW_BODY_MARKER, headerWidthOf, renderPreview, wrapHeaderLine } from '../engine/render/previewText';
import { SourceLocation } from '../engine/outcome/locate';
import { LineProvenance } from '../engine/outcome/provenance';
import { InputFile as PreviewFile, SystemLayers, runSet } from '../engine/outcome/run';
import { PreviewMode } from '../engine/outcome/mode';
import { SchemaReportCache } from '../engine/outcome/schema';
import { IncludeResolver } from '../engine/userdata/process';
import { ConfigFile } from '../engine/system/readConf';
import { PartLoadCache } from '../engine/userdata/cloudConfigHandler';
import { ServerContext } from './common/context';
import { ServerSettings, withImage } from './common/settings';
import { filePath, type OpenSet, type PartSets } from '../sets/partSets';
import { guardRequest } from './common/guard';
import { MAX_SCHEMA_PROBLEMS, uriPath } from './common/analysisCache';
import { isInside, realpathOr, workspaceIncludeResolver } from '../sets/workspaceIncludes';
import { pipelineFiles } from './pipeline';
import { AuthoredPart, findingLine, labelledFindings } from '../engine/lint/partFindings';
import { DiskCache } from '../sets/diskCache';

export function registerPreview(ctx: ServerContext, sets?: PartSets): void {
  ctx.connection.onRequest(
    PreviewRequest.method,
    guardRequest(ctx.log, 'preview', (params: PreviewParams) => preview(ctx, params, sets)),
  );
}

function savedSetOf(sets: PartSets, mode: string, uris: readonly unknown[], boot: PreviewParams['boot']): OpenSet | undefined {
  // (the parameters are a client's: anything that is not a list of addresses matches no saved set)
  const pathsOf = (list: readonly unknown[]) => (list.every((u) => typeof u === 'string') ? (list as string[]).map(filePath) : [null]);
  const files = pathsOf(uris);
  const confd = boot?.confd === undefined ? [] : Array.isArray(boot.confd) ? pathsOf(boot.confd) : [null];
  const roles = { vendor: boot?.vendor, vendor2: boot?.vendor2, cloudCfg: boot?.cloudCfg, dsConfig: boot?.dsConfig };
  const layers: OpenSet['boot'] = {};
  for (const [role, uri] of Object.entries(roles) as Array<[keyof typeof roles, unknown]>) {
    if (uri === undefined) continue;
    const file = typeof uri === 'string' ? filePath(uri) : null;
    if (file === null) return undefined;
    layers[role] = file;
  }
  if ([...files, ...confd].some((f) => f === null)) return undefined;
  if (boot?.confd !== undefined) layers.confd = confd as string[];
  return sets.declaredSetPreviewed(mode, files as string[], layers);
}

/** Part loads of the last preview: a refresh after an edit of one part loads only that part again. */
const partLoads = new WeakMap<ServerContext, PartLoadCache>();
/** The schema report of the last preview's cloud-config.txt. */
const schemaReports = new WeakMap<ServerContext, SchemaReportCache>();
/** Files read from disk by earlier previews, used again while unchanged. */
const diskCaches = new WeakMap<ServerContext, DiskCache>();
/** Files read from disk at once by one preview. */
const PARALLEL_READS = 8;

const BOOT_ROLES = ['cloudCfg', 'vendor', 'vendor2', 'dsConfig', 'runtimeCfg', 'cmdlineCfg', 'builtinCfg'] as const;

/** Reads inputs (open documents first) and names them; names are what the engine's locations carry. */
class Sources {
  readonly problems: string[] = [];
  /** What `prefetch` read from disk, by URI: the bytes, or why not. */
  private readonly disk = new Map<string, { bytes: Uint8Array } | { error: unknown }>();
  private readonly uriByName = new Map<string, string>();
  private readonly nameByUri = new Map<string, string>();
  /** Every local file this preview read or tried to read, `#include` targets too (the client refreshes on their edits). */
  readonly touched = new Set<string>();

  constructor(
    private readonly ctx: ServerContext,
    private readonly settings: ServerSettings,
    private readonly folders: string[],
    private readonly diskCache: DiskCache,
  ) {}

  /** A short, unique display name: workspace-relative for files inside a folder; an untitled editor's own name (`Untitled-1`). */
  nameFor(uri: string): string {
    const known = this.nameByUri.get(uri);
    if (known !== undefined) return known;
    let name = uri;
    const original = filePathOf(uri);
    if (/^untitled:./i.test(uri)) name = untitledName(uri);
    else if (original) {
      const file = realpathOr(original);
      const folder = this.folders.find((f) => isInside(file, f));
      name = folder && this.folders.length === 1 ? path.relative(folder, file) : folder ? path.join(path.basename(folder), path.relative(folder, file)) : file;
      name = name.split(path.sep).join('/');
    }
    if (this.uriByName.has(name)) name = uri;
    this.uriByName.set(name, uri);
    this.nameByUri.set(uri, name);
    return name;
  }

  uriFor(name: string): string | undefined {
    return this.uriByName.get(name);
  }

  /** The editor's texts of the sources open when the request is handled (`snapshot`): one moment for all of them. */
  private readonly atRequest = new Map<string, Uint8Array>();

  /**
   * Takes the text of every source open in the editor now. Reading the others from disk waits, and
   * edits are handled meanwhile, one message at a time: texts taken after it could mix two moments
   * (one file before an edit, another after the next). Call it with no await before it in the request.
   */
  snapshot(uris: readonly unknown[]): void {
    for (const uri of new Set(uris)) {
      if (typeof uri !== 'string') continue;
      const open = this.ctx.documents.get(uri);
      if (open) this.atRequest.set(uri, new TextEncoder().encode(open.getText()));
    }
  }

  /**
   * Reads from disk every source that is not open in the editor, ahead of `file()`. This is the
   * only step that waits: edits, opens and closes are handled meanwhile; the open ones were taken
   * by `snapshot` before it.
   */
  async prefetch(uris: readonly unknown[]): Promise<void> {
    const toRead: Array<{ uri: string; file: string }> = [];
    for (const uri of new Set(uris)) {
      if (typeof uri !== 'string' || this.disk.has(uri) || this.atRequest.has(uri) || this.ctx.documents.get(uri)) continue;
      const file = filePathOf(uri);
      if (!file) continue;
      const kept = this.diskCache.unchanged(file, this.settings.limits.maxFileBytes);
      if (kept) this.disk.set(uri, { bytes: kept });
      else toRead.push({ uri, file });
    }
    // A few at a time: a preview of thousands of files must not open thousands of descriptors at once.
    let next = 0;
    const reader = async () => {
      while (next < toRead.length) {
        const { uri, file } = toRead[next++];
        const read = await this.diskCache.read(file, () => readRegularFile(file, this.settings)).then((bytes) => ({ bytes }), (error: unknown) => ({ error }));
        this.disk.set(uri, read);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, toRead.length) }, reader));
  }

  /** A source: the editor's text taken by `snapshot`, else the disk's (read by `prefetch`). Never waits. */
  file(uri: string): ConfigFile | null {
    const bytes = this.read(uri);
    return bytes ? { name: this.nameFor(uri), bytes } : null;
  }

  private read(uri: string): Uint8Array | null {
    this.touched.add(uri);
    const taken = this.atRequest.get(uri);
    if (taken) return taken;
    // Read from disk while it was closed: that text is of the snapshot's moment, even if it is open now.
    let read = this.disk.get(uri);
    const open = read ? undefined : this.ctx.documents.get(uri);
    if (open) return new TextEncoder().encode(open.getText());
    const file = filePathOf(uri);
    if (!file) {
      this.problems.push(`${uri}: cannot be read (not open in the editor, and not a file).`);
      return null;
    }
    if (!read) {
      // Not among the sources read ahead (and not open): its disk text, now.
      try {
        read = { bytes: readRegularFileSync(file, this.settings) };
      } catch (error) {
        read = { error };
      }
    }
    if ('error' in read) {
      this.problems.push(`${this.nameFor(uri)}: cannot be read (${readError(read.error)}); it is left out of this preview.`);
      return null;
    }
    return read.bytes;
  }

  /** `#include` answers: local files in the workspace (or anywhere, if allowed); URLs are never fetched. */
  includeResolver(map?: ReadonlyArray<{ url: string; file: string }>): IncludeResolver {
    return workspaceIncludeResolver({
      settings: this.settings,
      folders: this.folders,
      ...(map?.length ? { map } : {}),
      openDocument: (file) => this.ctx.documents.all().find((d) => filePathOf(d.uri) === file),
      nameFor: (uri) => this.nameFor(uri),
      problem: (message) => this.problems.push(message),
      touched: (uri) => this.touched.add(uri),
    });
  }
}

/** The editor's modes and `handler` (after user-data, as the CLI lists them). */
const PREVIEW_MODES: readonly string[] = EDITOR_PREVIEW_MODES.flatMap((m): PreviewMode[] => (m === 'user-data' ? [m, 'handler'] : [m]));

export async function preview(ctx: ServerContext, params: PreviewParams, sets?: PartSets): Promise<PreviewResult> {
  params = params ?? ({} as PreviewParams);
  const uris = Array.isArray(params.files) ? params.files : [];
  const mode = params.mode ?? 'user-data';
  const scope = uris[0] ?? params.boot?.cloudCfg ?? '';
  let settings = await ctx.settings(scope);
  // A saved set previewed as saved is checked on its own image, as its fates are; any other selection is a run
  // of its own, on the folder's image (its first file's set does not decide it).
  const saved = sets && !params.source && params.exclude === undefined ? savedSetOf(sets, mode, uris, params.boot) : undefined;
  if (saved?.image) settings = { ...settings, ...withImage(settings, saved.image) };
  else if (settings.imageFrom) settings = { ...withImage(settings, ctx.clientSettings(scope).image), imageFrom: undefined };
  const diskCache = diskCaches.get(ctx) ?? diskCaches.set(ctx, new DiskCache()).get(ctx)!;
  const sources = new Sources(ctx, settings, ctx.workspaceFolders().map(realpathOr), diskCache);
  const width = headerWidthOf(params.headerWidth);
  if (!PREVIEW_MODES.includes(mode)) {
    // A client bug or a hand-made preview address: said in the preview, never merged some other way.
    return toResult(failedModel(`unknown preview mode ${JSON.stringify(mode)} (expected ${PREVIEW_MODES.join(', ')})`, width), sources, width);
  }
  if (params.source && (mode !== 'user-data' || uris.length !== 1)) {
    return toResult(failedModel('a Terraform or rendered source is previewed alone, in user-data mode', width), sources, width);
  }
  const userData = uris.filter((_, i) => params.exclude !== i + 1);
  const confd = Array.isArray(params.boot?.confd) ? params.boot.confd : [];
  // A saved set previewed as saved: its include map, instance data and seed are its run's (as `--set NAME` reads them).
  const instanceUri = saved?.instanceData ? pathToFileURL(saved.instanceData).href : undefined;
  const metaDataUri = saved?.seed?.metaData ? pathToFileURL(saved.seed.metaData).href : undefined;
  const sourceUris = [...userData, ...BOOT_ROLES.map((role) => params.boot?.[role]), ...confd, instanceUri, metaDataUri];
  sources.snapshot(sourceUris);
  await sources.prefetch(sourceUris);
  // No await from here on: the sources are the editor's texts of the snapshot and the disk's of the others.
  let files: PreviewFile[] = [];
  for (const uri of userData) {
    const file = sources.file(uri);
    if (file) files.push(file);
  }
  // A NoCloud seed's meta-data or network-config is not user-data: cloud-init never merges it (the CLI refuses it too).
  const notUserData = mode === 'handler' ? undefined : files.map((f) => ({ f, kind: detectCloudInitDocument(detectionTextOfBytes(f.bytes), f.name)?.kind })).find((x) => x.kind === 'meta-data' || x.kind === 'network-config');
  if (notUserData && !params.source) {
    const { f, kind } = notUserData;
    const what = kind === 'meta-data' ? "a NoCloud seed's meta-data" : 'a network-config';
    const reads = kind === 'meta-data' ? 'NoCloud reads it beside the user-data' : 'the network stage reads it';
    return toResult(failedModel(`${f.name} is ${what}, not user-data: cloud-init never merges it (${reads}). Leave it out of the preview; its own diagnostics show what cloud-init makes of it, and its NoCloud seed folder previews as a seed.`, width), sources, width);
  }
  // Terraform JSON or a rendered blob: the user-data an instance receives, and findings on its parts.
  let authored: AuthoredPart[] | undefined;
  if (params.source && files.length) {
    const piped = pipelineFiles(files[0], params.source);
    if (piped.failure) return toResult(failedModel(piped.failure, width), sources, width);
    files = piped.files;
    authored = piped.parts;
  }
  const boot: SystemLayers = {};
  for (const role of BOOT_ROLES) {
    const uri = params.boot?.[role];
    if (uri) boot[role] = sources.file(uri) ?? undefined;
  }
  if (confd.length) {
    boot.confd = [];
    for (const uri of confd) {
      const file = sources.file(uri);
      if (file) boot.confd.push(file);
    }
  }
  const custom = ctx.customMergers(settings);
  const instanceData = () => {
    if (!instanceUri) return instanceDataFor(settings, scope, ctx.workspaceFolders()).data;
    const file = sources.file(instanceUri);
    return file ? instanceDataTextOr(file.bytes) : undefined;
  };
  const metaData = metaDataUri ? sources.file(metaDataUri) : null;
  const seed = saved?.seed && metaData ? { folder: saved.seed.folder, metaData: readMetaData(metaData.bytes), vendorData: boot.vendor !== undefined, networkConfig: saved.seed.networkConfig !== undefined } : undefined;
  const outcome = runSet(mode, { files, layers: boot }, {
    version: settings.cloudInitVersion,
    customMergers: custom.modules.size ? custom.modules : undefined,
    includes: sources.includeResolver(saved?.includeMap),
    limits: settings.limits,
    instanceData: instanceData(),
    partCache: partLoads.get(ctx) ?? partLoads.set(ctx, new PartLoadCache()).get(ctx),
  });
  const model = renderPreview(outcome, {
    limitHint: (limit) => `setting cloudConfigMerge.limits.${limit}`,
    schema: settings.schema.enable,
    cache: schemaReports.get(ctx) ?? schemaReports.set(ctx, new SchemaReportCache()).get(ctx),
    maxProblems: MAX_SCHEMA_PROBLEMS,
    headerWidth: width,
    cloud: settings.cloud || undefined,
    seed,
    plan: planTargetOf(settings),
  });
  // A pipeline source: the findings of this very run, each naming the part its author wrote.
  const notes = authored && outcome.kind === 'user-data' ? labelledFindings(files[0].bytes, outcome.run, authored, settings.cloudInitVersion, settings.limits.maxDecompressedBytes).map(findingLine) : [];
  return toResult(model, sources, width, notes);
}

/** A preview that merged nothing: the header says why. */
function failedModel(failure: string, width: number): PreviewModel {
  const lines = ['# Cloud-Config Merge preview', ...wrapHeaderLine(`# ${failure.replace(/[\r\n]+/g, ' ')}`, width), PREVIEW_BODY_MARKER];
  return { text: lines.join('\n') + '\n', body: '', headerLineCount: lines.length, entries: [], parts: [], headerLinks: [], headerSections: [], dataFolds: [], failure };
}

function toResult(model: PreviewModel, sources: Sources, width: number, notes: string[] = []): PreviewResult {
  const problems = [...new Set(sources.problems)];
  // Problems go right under the title (wrapped too, perhaps: it ends where the first section starts), so
  // the body stays the tail of the text.
  const under = model.headerSections[0]?.line ?? 1;
  const problemLines = problems.flatMap((p) => wrapHeaderLine(`# Problem: ${p.replace(/[\r\n]+/g, ' ')}`, width));
  const findingLines = notes.flatMap((n) => wrapHeaderLine(`# Finding: ${n.replace(/[\r\n]+/g, ' ')}`, width));
  const inserted = [...problemLines, ...findingLines];
  const sections: PreviewHeaderSection[] = [];
  if (problemLines.length) sections.push({ kind: 'problems', line: under, endLine: under + problemLines.length - 1 });
  if (findingLines.length) sections.push({ kind: 'findings', line: under + problemLines.length, endLine: under + inserted.length - 1 });
  for (const s of model.headerSections) sections.push({ kind: s.kind, line: s.line + inserted.length, endLine: s.endLine + inserted.length });
  let text = model.text;
  if (inserted.length) {
    let at = 0;
    for (let line = 0; line < under && at < text.length; line++) at = text.indexOf('\n', at) + 1 || text.length;
    text = `${text.slice(0, at)}${inserted.join('\n')}\n${text.slice(at)}`;
  }
  return {
    text,
    bodyStart: text.length - model.body.length,
    lineMap: encodeLineMap(model.entries, inserted.length, (file) => sources.uriFor(file)),
    parts: model.parts.map((p) => ({ ...p, file: sources.uriFor(p.file) ?? p.file })),
    problems,
    sources: [...sources.touched],
    headerLinks: headerLinks(model.headerLinks, inserted.length, sources),
    headerSections: sections,
    dataFolds: inserted.length ? model.dataFolds.map((line) => line + inserted.length) : model.dataFolds,
    ...(model.failure ? { failure: model.failure } : {}),
  };
}

function previewLocation(l: SourceLocation | null | undefined, uriFor: (file: string) => string | undefined): PreviewLocation | null {
  if (!l) return null;
  const uri = uriFor(l.file);
  if (!uri) return null;
  return { uri, line: l.line, character: l.character, endLine: l.endLine, endCharacter: l.endCharacter, ...(l.note ? { note: l.note } : {}) };
}

/** The model's line entries in the wire's compact form (`PreviewLineMap`), `shift` lines down; `uriFor` names the engine's files. */
export function encodeLineMap(entries: readonly LineProvenance[], shift: number, uriFor: (file: string) => string | undefined): PreviewLineMap {
  const location = (l: SourceLocation | null | undefined) => previewLocation(l, uriFor);
  const files: PreviewLineMap['files'] = [];
  // By the engine's file name and note: one entry per file the places are in, not one URI per line.
  const fileIndex = new Map<string, number>();
  const indexOf = (l: SourceLocation): number => {
    const key = l.note ? `${l.file}\n${l.note}` : l.file;
    let index = fileIndex.get(key);
    if (index === undefined) {
      const uri = uriFor(l.file);
      index = uri === undefined ? 0 : files.push(l.note ? { uri, note: l.note } : { uri });
      fileIndex.set(key, index);
    }
    return index;
  };
  const rows: number[] = [];
  const paths: string[] = [];
  const history: PreviewLineMap['history'] = [];
  let line = 0;
  let path = '';
  let sourceLine = 0;
  // Neighbouring lines mostly come from one file: its index is looked up once for a run of them.
  let lastPlace: SourceLocation | null = null;
  let lastFile = 0;
  for (let entry = 0; entry < entries.length; entry++) {
    const e = entries[entry];
    let shared = 0;
    const limit = Math.min(path.length, e.path.length);
    while (shared < limit && path.charCodeAt(shared) === e.path.charCodeAt(shared)) shared++;
    paths.push(shared ? e.path.slice(shared) : e.path);
    path = e.path;
    const place = e.source;
    let file = 0;
    if (place) {
      file = lastPlace && place.file === lastPlace.file && place.note === lastPlace.note ? lastFile : indexOf(place);
      lastPlace = place;
      lastFile = file;
    }
    // In the order of PreviewLineField.
    if (place && file) {
      rows.push(e.line + shift - line, shared, file, place.line - sourceLine, place.character, place.endLine - place.line, place.endCharacter);
      sourceLine = place.line;
    } else {
      rows.push(e.line + shift - line, shared, 0, 0, 0, 0, 0);
    }
    line = e.line + shift;
    if (e.history.length) history.push({ entry, history: e.history.map((h) => ({ what: h.what, reason: h.reason, from: location(h.from), at: location(h.at) })) });
  }
  return { files, rows, paths, history };
}

/** The header's links (made by the engine as it wrote the header), `shift` lines down, to the URIs of this preview's files. */
function headerLinks(links: readonly HeaderLink[], shift: number, sources: Sources): PreviewHeaderLink[] {
  const out: PreviewHeaderLink[] = [];
  for (const l of links) {
    const uri = sources.uriFor(l.target.file);
    if (!uri) continue;
    const at = l.target.line;
    out.push({ line: l.line + shift, character: l.character, endCharacter: l.endCharacter, target: { uri, line: at, character: 0, endLine: at, endCharacter: 0 } });
  }
  return out;
}

/** An untitled editor's name, as its tab shows it (`untitled:Untitled-1` is `Untitled-1`). */
function untitledName(uri: string): string {
  const rest = uri.slice('untitled:'.length);
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}

function filePathOf(uri: string): string | null {
  if (!/^file:/i.test(uri)) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return uriPath(uri);
  }
}
