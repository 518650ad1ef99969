/**
 * The cloud-config part handler (spec §1.1, §3.6): each part is merged into
 * the accumulated mapping with ITS OWN spec (body spec + header spec, else
 * `dict(replace)+list()+str()`); nothing carries over between parts; a part
 * that fails is skipped and leaves the accumulation untouched.
 */
import { PyDict, PyValue, TextSpan, pyTypeName } from '../py/values';
import { PyError } from '../py/errors';
import { pyLStrip, pyStrip } from '../py/str';
import { loadYaml, mergeExpansionError, YamlLoadResult } from '../yaml/load';
import { atLeast } from '../version/versions';
import { BodySpecExtraction, CloudInitVersion, ParsedMerger, ParsedSpec, SpecError, bodySpecParser, extractBodySpec, parseStringSpec } from '../spec/parse';
import { DEFAULT_PART_SPEC } from '../spec/defaults';
import { constructMergers, MergerFactory } from '../merge/construct';
import { MergeEvent, MergeTracer } from '../merge/trace';
import { applyJsonPatch } from './jsonpatch';
import { specSpansFor } from './specSpans';
import { PYTHON_RECURSION } from '../limits';

export const MERGE_HEADERS = ['Merge-Type', 'X-Merge-Type'] as const;

/** What happened to one part in the handler. */
export interface HandledPart {
  filename: string;
  /** How the payload was read: YAML, or a JSON patch. */
  kind: 'yaml' | 'jsonp';
  merged: boolean;
  body?: { key: 'merge_how' | 'merge_type'; raw: PyValue; spec?: ParsedSpec };
  header?: { name: (typeof MERGE_HEADERS)[number]; value: string; spec?: ParsedSpec };
  /** The spec actually used (after defaults), when it got that far. */
  effective?: ParsedMerger[];
  defaulted?: boolean;
  /** `merge_type` stayed in the data because `merge_how` was present (§4.5). */
  leftoverMergeType?: boolean;
  /** Counted as merged, but no merger of its spec handles the accumulated value: nothing of it was kept. */
  discarded?: boolean;
  /** Why the part was skipped, in cloud-init's terms. */
  error?: { pyType: string; message: string; stage: 'yaml' | 'spec' | 'construct' | 'merge' | 'jsonp'; span?: TextSpan; detail?: string };
  /** The YAML load of the payload (kept for provenance and diagnostics). */
  yaml?: YamlLoadResult;
  /** Merge steps, when tracing. */
  events?: MergeEvent[];
}

/** A part's load and body spec, as mergePart needs them; the value already lacks the spec keys. */
interface LoadedPart {
  loaded: YamlLoadResult & { ok: true };
  config: PyDict;
  extraction: BodySpecExtraction;
  parse: () => ParsedSpec;
  /** The version `parse` parses for, and the spans it places the spec with (to parse for another version). */
  version: CloudInitVersion | undefined;
  spansOf: ReturnType<typeof specSpansFor>;
}

/**
 * Loads of cloud-config parts kept from one run to the next, by content (the preview runs again
 * after every edit of one part). Only what the last run used is kept. Sound because nothing
 * changes a part's value after its spec keys are taken out: merges copy what they change.
 */
export class PartLoadCache {
  private previous = new Map<string, LoadedPart>();
  private current = new Map<string, LoadedPart>();

  /**
   * @param keep `last-run` (the preview: only what the last run used is kept) or `all` (one command's runs
   *   on several cloud-init versions, `--check --image all`: each part is loaded once per loader variant,
   *   22.4/23.4 and 24.4 on, whatever the order of the versions).
   */
  constructor(private readonly keep: 'last-run' | 'all' = 'last-run') {}

  get(key: string): LoadedPart | undefined {
    const hit = this.current.get(key) ?? this.previous.get(key);
    if (hit) this.current.set(key, hit);
    return hit;
  }

  set(key: string, part: LoadedPart): void {
    this.current.set(key, part);
  }

  /** A run is over: what it did not use is dropped (unless all is kept). */
  endRun(): void {
    if (this.keep === 'all') return;
    this.previous = this.current;
    this.current = new Map();
  }
}

export interface HandlerOptions {
  version?: CloudInitVersion;
  trace?: boolean;
  /** Origin source index to stamp on the values of each part. */
  sourceOf?: (partIndex: number) => number;
  customMergers?: ReadonlyMap<string, MergerFactory>;
  /** maxExpandedNodes: merge keys that would copy more pairs stop everything (LimitExceededError). */
  maxExpandedNodes?: number;
  /** Loads kept from an earlier run (see PartLoadCache). */
  partCache?: PartLoadCache;
  /**
   * Record where every value was written (default true). False where nothing reads provenance: only
   * the body spec keeps its spans (spec errors point into the part); the merge result is the same.
   */
  provenance?: boolean;
}

/** The keys whose spans a part's own spec needs (specSpansFor). */
const SPEC_KEYS = ['merge_how', 'merge_type'] as const;

export class CloudConfigHandler {
  /** The accumulated config (`cloud_buf`); null until a part is attempted. */
  buffer: PyValue | null = null;
  readonly fileNames: string[] = [];
  /** Parts that failed with a ValueError (listed as SCHEMA_ERROR since cloud-init 23.3). */
  readonly valueErrorNames: string[] = [];
  readonly handled: HandledPart[] = [];

  /**
   * Copies made while merging into `buffer`, which later parts change in place (cloud-init copies the
   * accumulated config at every part; the result is the same). Not while tracing (the events keep
   * the values of each step) nor with custom mergers (their code may keep what it is given).
   */
  private ownedCopies?: WeakSet<object>;
  /** The parts merged so far, to rebuild `buffer` by copying if a merge fails half-way in place. */
  private readonly mergedSteps: Array<(buffer: PyValue) => PyValue> = [];
  /**
   * Whether `buffer` may reach one object twice (the dump then writes anchors). Only YAML anchors
   * (a part with an `&`), JSON patches and custom mergers can share objects; the merges place each
   * value of a part once.
   */
  mayShareValues: boolean;

  constructor(private readonly options: HandlerOptions = {}) {
    if (!options.trace && !options.customMergers?.size) this.ownedCopies = new WeakSet();
    this.mayShareValues = Boolean(options.customMergers?.size);
  }

  /** `handle_part` for a cloud-config, jsonp or rendered-jinja part. */
  handlePart(contentType: string, filename: string, payload: string, headers: Record<string, string>, source = 0): HandledPart {
    const record: HandledPart = { filename, kind: contentType === 'text/cloud-config-jsonp' ? 'jsonp' : 'yaml', merged: false };
    this.handled.push(record);
    if (this.buffer === null || this.fileNames.length === 0) this.buffer = new PyDict();
    const events: MergeEvent[] = [];
    const tracer: MergeTracer | undefined = this.options.trace ? { event: (e) => events.push(e) } : undefined;
    if (record.kind === 'jsonp' || payload.includes('&')) this.mayShareValues = true;
    try {
      if (record.kind === 'jsonp') this.buffer = this.mergePatch(payload, record);
      else this.buffer = this.mergePart(payload, headers, record, source, tracer);
      this.fileNames.push(pyStrip(filename.replace(/[\n\r\t]/g, ' ')));
      record.merged = true;
    } catch (e) {
      if (!(e instanceof PyError)) throw e;
      record.error ??= { pyType: e.pyType, message: e.message, stage: e instanceof SpecError ? (e.stage === 'parse' ? 'spec' : 'construct') : 'merge', span: e instanceof SpecError ? e.span : undefined };
      if (e.isValueError) this.valueErrorNames.push(filename);
    }
    if (tracer) record.events = events;
    return record;
  }

  private mergePart(payload: string, headers: Record<string, string>, record: HandledPart, source: number, tracer?: MergeTracer): PyValue {
    let headerText = '';
    for (const name of MERGE_HEADERS) {
      const value = headers[name] ?? '';
      if (value) {
        headerText = value;
        record.header = { name, value };
        break;
      }
    }
    const { loaded, config, extraction, parse } = this.loadPart(payload, record, source);
    record.yaml = loaded;
    if (extraction.key) record.body = { key: extraction.key, raw: extraction.raw };
    record.leftoverMergeType = extraction.leftoverMergeType;
    const body = parse();
    if (record.body) record.body.spec = body;
    let header: ParsedSpec;
    try {
      header = parseStringSpec(headerText, 0, this.options.version);
    } catch (e) {
      if (e instanceof SpecError) record.error = { pyType: e.pyType, message: e.message, stage: 'spec', detail: `in the ${record.header?.name} header` };
      throw e;
    }
    if (record.header) record.header.spec = header;
    let effective = [...body.mergers, ...header.mergers];
    record.defaulted = effective.length === 0;
    if (record.defaulted) effective = DEFAULT_PART_SPEC().mergers;
    record.effective = effective;
    const root = constructMergers(effective, { tracer, modules: this.options.customMergers, ownedCopies: this.ownedCopies });
    record.discarded = !root.handlerFor(pyTypeName(this.buffer));
    let merged: PyValue;
    try {
      merged = root.merge(this.buffer, config);
    } catch (e) {
      // A PyError skips the part (the buffer must be as it was); anything else ends the whole run.
      if (this.ownedCopies && e instanceof PyError) this.rebuildBuffer();
      throw e;
    }
    if (this.ownedCopies) this.mergedSteps.push((buffer) => constructMergers(effective, { modules: this.options.customMergers }).merge(buffer, config));
    return merged;
  }

  /** The part's YAML, its body spec taken out (load_yaml, then dict_extract_mergers); from the cache when the same text was loaded before. */
  private loadPart(payload: string, record: HandledPart, source: number): LoadedPart {
    const cache = this.options.partCache;
    const provenance = this.options.provenance !== false;
    // Up to 23.4 the loader accepts !!python/unicode; from 24.4 a plain safe_load rejects it.
    const pythonUnicodeTag = !atLeast(this.options.version ?? 'current', '24.4');
    // The load and the spec's extraction depend on the version only through that tag: runs on several versions
    // (--check --image all) share them, and parse the spec again for their version.
    const key = cache ? `${source}\0${pythonUnicodeTag}\0${this.options.maxExpandedNodes}\0${provenance}\0${payload}` : '';
    const hit = cache?.get(key);
    if (hit) return hit.version === this.options.version ? hit : { ...hit, version: this.options.version, parse: bodySpecParser(hit.extraction, hit.spansOf, this.options.version ?? 'current') };
    const loaded = loadYaml(payload, { source, pythonUnicodeTag, maxDepth: PYTHON_RECURSION.yamlPartDepth, maxMergedPairs: this.options.maxExpandedNodes, originKeys: provenance ? undefined : SPEC_KEYS });
    record.yaml = loaded;
    const overLimit = mergeExpansionError(loaded, this.options.maxExpandedNodes);
    if (overLimit) throw overLimit;
    if (!loaded.ok && loaded.error.kind === 'limit') {
      // PyYAML's composer recurses once per nesting level: cloud-init raises RecursionError,
      // which load_yaml does not catch (not a ValueError: no SCHEMA_ERROR line either).
      const detail = `the YAML nests collections more than ${PYTHON_RECURSION.yamlPartDepth} levels deep; PyYAML recurses once per level and Python's recursion limit stops it`;
      record.error = { pyType: 'RecursionError', message: 'maximum recursion depth exceeded', stage: 'yaml', span: loaded.error.span, detail };
      throw new PyError('RecursionError', 'maximum recursion depth exceeded');
    }
    if (!loaded.ok || !(loaded.value instanceof PyDict)) {
      const detail = !loaded.ok ? loaded.error.message : loaded.value === null ? 'the document is empty' : 'the top level is not a mapping';
      record.error = { pyType: 'ValueError', message: 'empty cloud config', stage: 'yaml', span: loaded.ok ? undefined : loaded.error.span, detail };
      throw new PyError('ValueError', 'empty cloud config');
    }
    const config = loaded.value;
    const spansOf = specSpansFor(loaded, payload);
    const part: LoadedPart = { loaded, config, ...extractBodySpec(config, spansOf, this.options.version), version: this.options.version, spansOf };
    cache?.set(key, part);
    return part;
  }

  /**
   * A merge failed after changing owned copies in place, where cloud-init leaves the accumulated config
   * untouched: replay the parts merged so far, copying at every step as cloud-init does (rare, and
   * the parts' own values were never changed).
   */
  private rebuildBuffer(): void {
    let buffer: PyValue = new PyDict();
    for (const step of this.mergedSteps) buffer = step(buffer);
    this.buffer = buffer;
    this.ownedCopies = new WeakSet();
  }

  private mergePatch(payload: string, record: HandledPart): PyValue {
    let text = pyLStrip(payload);
    if (text.startsWith('#cloud-config-jsonp')) text = text.slice('#cloud-config-jsonp'.length);
    const result = applyJsonPatch(this.buffer, text);
    if (!result.ok) {
      record.error = { pyType: result.pyType, message: result.message, stage: 'jsonp' };
      throw new PyError(result.pyType as PyError['pyType'], result.message);
    }
    if (this.ownedCopies) {
      // A patch may share or repeat parts of the buffer in its result: own nothing from here on.
      this.ownedCopies = new WeakSet();
      this.mergedSteps.push((buffer) => {
        const replayed = applyJsonPatch(buffer, text);
        return replayed.ok ? replayed.value : buffer;
      });
    }
    return result.value;
  }
}
