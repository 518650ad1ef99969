/**
 * User-data processing (spec §3.1–§3.4): raw blobs → the flat list of parts
 * that cloud-init hands to its part handlers, with MIME, gzip, `#include`,
 * `#cloud-config-archive`, content sniffing, part names and launch indexes
 * exactly as `UserDataProcessor` produces them.
 */
import { PyBytes, PyDict, PySet, PyValue, TextSpan, getListOrigins } from '../py/values';
import { pyClassName } from '../py/values';
import { pyReprForMessage, pyStr, pyStrRepr } from '../py/repr';
import { pySplitLines, pyStrip, pyLStrip } from '../py/str';
import { loadYaml, mergeExpansionError } from '../yaml/load';
import { valueOffsetMap } from '../yaml/scalarSource';
import { convertUserDataBlob, partHeaderSpan } from './mime';
import { decodeUtf8Surrogateescape, encodeUtf8Surrogateescape, rawUnicodeEscape } from '../py/codecs';
import { gunzipPart } from './gzip';
import { HeaderList, setFilename } from './headers';
import { PartRoute, ProcessingMessage, UserDataPart } from './parts';
import { ARCHIVE_TYPE, CLOUD_CONFIG_TYPE, GZIP_TYPES, INCLUDE_TYPES, NOT_MULTIPART_TYPE, sniffContentType } from './sniff';
import { Limits, DEFAULT_LIMITS, LimitExceededError, PYTHON_RECURSION } from '../limits';
import type { FindingCode } from '../findings/codes';
import { atLeast, type CloudInitVersion } from '../version/versions';

/** An input to user-data processing: a file given by the user, or one reached by `#include`. */
export interface UserDataSource {
  /** Display name (a path or a URL). */
  name: string;
  bytes: Uint8Array;
  /** Set for sources reached through `#include`. */
  includedBy?: { source: number; url: string };
}

/** How `#include` URLs are answered. Nothing here ever touches the network by itself. */
export interface IncludeResolver {
  read(url: string): { ok: true; bytes: Uint8Array; name: string } | { ok: false; message: string };
}

/** cloud-init's `features.ERROR_ON_USER_DATA_FAILURE`, true in 22.4.2 and today. */
export type IncludeFailure = 'error' | 'skip';

export interface ProcessOptions {
  includes?: IncludeResolver;
  onIncludeFailure?: IncludeFailure;
  limits?: Limits;
  /** Whose `_handle_error` raises: 22.4's raises Exception, 23.4 and later RuntimeError (default current). */
  version?: CloudInitVersion;
}

export interface ProcessResult {
  parts: UserDataPart[];
  sources: UserDataSource[];
  messages: ProcessingMessage[];
  /**
   * Set when cloud-init's processing itself would raise: then no user-data is used at all.
   * With `limit`, it is not cloud-init that fails but one of our limits that stopped the
   * processing (the input is over the limit; what cloud-init does with it is not known).
   */
  fatal?: { pyType: string; message: string; source?: number; span?: TextSpan; limit?: keyof Limits };
}

class FatalUserDataError extends Error {
  constructor(
    readonly pyType: string,
    message: string,
    readonly source?: number,
    readonly span?: TextSpan,
    /** Set when one of our limits stopped the processing, not cloud-init. */
    readonly limit?: keyof Limits,
  ) {
    super(message);
  }
}

/** A part on its way to being attached. */
interface PendingPart {
  contentType: string;
  declaredType: string | null;
  headers: HeaderList;
  text: string | null;
  bytes: Uint8Array | null;
  /** The filename Python's `get_filename()` reports before attaching. */
  filename: string | null;
  source: number;
  route: PartRoute[];
  /** Where the part's body is written in the blob (what messages about the part point at). */
  span?: TextSpan;
  /** `text` is the body at `span` as written, not decoded from it (MimeLeaf.literal): offsets in it are offsets from `span.start`. */
  literal?: boolean;
  /** For a body decoded from what is written: where the blob stands for it (Part.anchor). */
  anchor?: TextSpan;
  offsetInBlob?: (offset: number) => number | undefined;
}

export function processUserData(inputs: Array<{ name: string; bytes: Uint8Array }>, options: ProcessOptions = {}): ProcessResult {
  const processor = new UserDataProcessor(options);
  const sources: UserDataSource[] = inputs.map((i) => ({ name: i.name, bytes: i.bytes }));
  processor.sources = sources;
  try {
    sources.forEach((_, i) => processor.processSource(i, [], 0));
  } catch (e) {
    if (e instanceof FatalUserDataError) {
      return { parts: [], sources, messages: processor.messages, fatal: { pyType: e.pyType, message: e.message, source: e.source, span: e.span, limit: e.limit } };
    }
    if (e instanceof LimitExceededError) {
      return { parts: [], sources, messages: processor.messages, fatal: { pyType: 'LimitError', message: e.message, limit: e.limit } };
    }
    throw e;
  }
  return { parts: processor.parts, sources, messages: processor.messages };
}

class UserDataProcessor {
  sources: UserDataSource[] = [];
  readonly parts: UserDataPart[] = [];
  readonly messages: ProcessingMessage[] = [];
  private readonly limits: Limits;
  private readonly includeOnceCache = new Map<string, Uint8Array>();

  constructor(private readonly options: ProcessOptions) {
    this.limits = options.limits ?? DEFAULT_LIMITS;
  }

  /** `convert_string` + `_process_msg` for one blob. */
  processSource(source: number, route: PartRoute[], depth: number): void {
    const blob = this.sources[source].bytes;
    const converted = convertUserDataBlob(blob, { maxBytes: this.limits.maxDecompressedBytes });
    if (converted.error) {
      // convert_string raising (e.g. a MIME blob that is not UTF-8) aborts all processing.
      if (converted.errorType === 'GzipCapExceeded') {
        throw new FatalUserDataError('LimitError', `${converted.errorMessage ?? converted.error} (limit maxDecompressedBytes = ${this.limits.maxDecompressedBytes})`, source, undefined, 'maxDecompressedBytes');
      }
      throw new FatalUserDataError(converted.errorType ?? 'Exception', converted.errorMessage ?? converted.error, source);
    }
    for (const c of converted.containers) {
      // cloud-init walks past a multipart it could not split, without a word: its content is lost.
      if (c.isMultipart || !c.body || !pyStrip(c.body)) continue;
      const why = c.defects.length ? ` (${c.defects.join(', ')})` : '';
      this.messages.push({
        level: 'info',
        message: `a ${c.contentType} part has no usable boundary${why}: cloud-init cannot split it and silently drops everything in it (${c.body.length} characters)`,
        blob: source,
        span: converted.gzipped ? undefined : c.span,
        code: 'mime-unsplittable',
      });
    }
    const baseRoute: PartRoute[] = [...route, ...(converted.gzipped ? [{ via: 'gzip' as const }] : [])];
    converted.leaves.forEach((leaf, index) => {
      const leafRoute: PartRoute[] = converted.kind === 'mime' ? [...baseRoute, { via: 'mime', leaf: index }] : [...baseRoute, { via: 'blob' }];
      const headers = new HeaderList(leaf.headers.map((h) => ({ name: h.name, value: h.value })));
      this.processPart(
        {
          contentType: leaf.contentType,
          declaredType: leaf.contentType,
          headers,
          text: leaf.text,
          bytes: leaf.text === null ? leaf.payload : null,
          filename: leaf.filename,
          source,
          route: leafRoute,
          span: converted.gzipped ? undefined : leaf.span,
          literal: !converted.gzipped && leaf.literal,
          anchor: converted.gzipped || leaf.literal ? undefined : partHeaderSpan(leaf),
        },
        depth,
      );
    });
  }

  private processPart(part: PendingPart, depth: number): void {
    let declared: string | null = part.contentType;
    let payload: string | Uint8Array | null = part.text ?? part.bytes;
    let wasCompressed = false;
    if (declared && GZIP_TYPES.has(declared)) {
      const result = gunzipPart(toBytes(payload), { maxBytes: this.limits.maxDecompressedBytes });
      if (!result.ok && result.capExceeded) {
        throw new FatalUserDataError('LimitError', `a part of type ${declared} decompresses to more than ${this.limits.maxDecompressedBytes} bytes (limit maxDecompressedBytes)`, part.source, part.span, 'maxDecompressedBytes');
      }
      if (!result.ok) {
        const length = payload === null ? 0 : typeof payload === 'string' ? payload.length : payload.length;
        this.userDataFailure(`Failed decompressing payload from ${declared} of length ${length} due to: ${result.message}`, part, 'gzip-failed');
        return;
      }
      payload = result.text;
      declared = null;
      wasCompressed = true;
    }
    const original = declared ?? 'text/plain';
    let type: string | null = null;
    if (original === 'text/plain' || original === NOT_MULTIPART_TYPE || original === 'text/x-shellscript') {
      type = payload === null ? null : sniffContentType(payload);
    }
    type ??= original;

    let current = part;
    if (wasCompressed) {
      // A new part replaces the compressed one: only the filename and Launch-Index survive.
      const headers = new HeaderList([
        { name: 'Content-Type', value: type },
        { name: 'MIME-Version', value: '1.0' },
      ]);
      if (part.filename) setFilename(headers, part.filename);
      const launchIndex = part.headers.get('Launch-Index');
      if (launchIndex !== null) headers.replace('Launch-Index', launchIndex);
      const text = reDecodeStoredPayload(payload as string, type);
      current = { ...part, headers, text: text.text, bytes: text.bytes, filename: part.filename || null, route: [...part.route, { via: 'gzip' }], span: undefined, literal: false };
    }
    if (type !== original) current.headers.replace('Content-Type', type);
    current = { ...current, contentType: type, declaredType: part.declaredType };

    if (INCLUDE_TYPES.has(type)) {
      this.doInclude(typeof payload === 'string' ? payload : '', current, depth);
      return;
    }
    if (type === ARCHIVE_TYPE) {
      this.explodeArchive(typeof payload === 'string' ? payload : '', current);
      return;
    }
    this.attach(current);
  }

  /** `_attach_part`: name it `part-NNN` if it has no file name, note its launch index. */
  private attach(part: PendingPart): void {
    if (this.parts.length >= this.limits.maxParts) {
      throw new FatalUserDataError('LimitError', `more than ${this.limits.maxParts} user-data parts (limit maxParts = ${this.limits.maxParts})`, part.source, undefined, 'maxParts');
    }
    const number = this.parts.length + 1;
    let filename = part.filename;
    if (!filename) {
      filename = `part-${String(number).padStart(3, '0')}`;
      setFilename(part.headers, filename);
    }
    attachLaunchIndex(part);
    this.parts.push({
      number,
      contentType: part.contentType,
      declaredType: part.declaredType !== part.contentType ? part.declaredType : null,
      filename,
      headers: part.headers.list,
      headerDict: { ...part.headers.toDict(), 'Content-Type': part.contentType },
      text: part.text,
      bytes: part.bytes,
      blob: part.source,
      route: part.route,
      span: part.literal ? part.span : undefined,
      anchor: part.anchor,
      offsetInBlob: part.offsetInBlob,
      launchIndex: part.headers.get('Launch-Index'),
    });
  }

  /** `_do_include`: one URL per line; `#include-once` switches caching on for the lines after it. */
  private doInclude(content: string, part: PendingPart, depth: number): void {
    let once = false;
    for (let line of pySplitLines(content)) {
      const lower = line.toLowerCase();
      if (lower.startsWith('#include-once')) {
        line = pyLStrip(line.slice('#include-once'.length));
        once = true;
      } else if (lower.startsWith('#include')) {
        line = pyLStrip(line.slice('#include'.length));
        once = false;
      }
      if (line.startsWith('#')) continue;
      const url = pyStrip(line);
      if (!url) continue;
      let bytes = once ? this.includeOnceCache.get(url) : undefined;
      let name = url;
      if (!bytes) {
        const answer = this.options.includes?.read(url) ?? { ok: false as const, message: `${url}: not fetched (remote includes are never fetched)` };
        if (!answer.ok) {
          const message = answer.message.includes(url) ? answer.message : `${answer.message} for url: ${url}`;
          this.userDataFailure(message, part, 'include-unreachable');
          continue;
        }
        bytes = answer.bytes;
        name = answer.name;
        if (once) this.includeOnceCache.set(url, bytes);
      }
      const chain = this.includeChain(part.source);
      const again = chain.findIndex((c) => c.name === name || c.url === url);
      if (again >= 0) {
        // cloud-init includes the same content again and again, until Python's recursion limit.
        const loop = [...chain.slice(again).map((c) => c.name), name].join(' -> ');
        throw new FatalUserDataError('RecursionError', `maximum recursion depth exceeded (an #include loop: ${loop})`, part.source, part.span);
      }
      if (depth + 1 > this.limits.maxIncludeDepth) {
        // Not a loop: cloud-init would go on (until about 490 levels, where Python's recursion limit stops it).
        throw new FatalUserDataError('LimitError', `#include nesting deeper than ${this.limits.maxIncludeDepth} at ${url} (limit maxIncludeDepth = ${this.limits.maxIncludeDepth})`, part.source, part.span, 'maxIncludeDepth');
      }
      this.sources.push({ name, bytes, includedBy: { source: part.source, url } });
      this.processSource(this.sources.length - 1, [...part.route, { via: 'include', url, once }], depth + 1);
    }
  }

  /** The sources that included this one (name, and the URL that reached it), outermost first, itself last. */
  private includeChain(source: number): Array<{ name: string; url?: string }> {
    const chain: Array<{ name: string; url?: string }> = [];
    for (let s: number | undefined = source, guard = 0; s !== undefined && guard <= this.sources.length; guard++) {
      const src: UserDataSource = this.sources[s];
      chain.unshift({ name: src.name, url: src.includedBy?.url });
      s = src.includedBy?.source;
    }
    return chain;
  }

  /** `_explode_archive`: a YAML list of entries, attached as they are (no sniffing of declared types, no includes). */
  private explodeArchive(archive: string, part: PendingPart): void {
    const loaded = loadYaml(archive, { source: part.source, maxDepth: PYTHON_RECURSION.yamlArchiveDepth, maxMergedPairs: this.limits.maxExpandedNodes });
    const overLimit = mergeExpansionError(loaded, this.limits.maxExpandedNodes);
    if (overLimit) throw new FatalUserDataError('LimitError', overLimit.message, part.source, part.span, 'maxExpandedNodes');
    let entries: PyValue[] = [];
    if (!loaded.ok && loaded.error.kind === 'limit') {
      // PyYAML recurses once per level; load_yaml does not catch RecursionError, so all user-data processing fails.
      throw new FatalUserDataError('RecursionError', `maximum recursion depth exceeded (the #cloud-config-archive nests more than ${PYTHON_RECURSION.yamlArchiveDepth} levels deep)`, part.source, part.span);
    }
    if (!loaded.ok) {
      this.warn(`Failed loading yaml blob. ${loaded.error.message}`, part, 'archive-invalid-yaml');
    } else if (Array.isArray(loaded.value)) {
      entries = loaded.value;
    } else if (loaded.value instanceof PySet) {
      entries = loaded.value.values();
    } else if (loaded.value !== null) {
      this.warn(`Failed loading yaml blob. Yaml load allows (<class 'list'>, <class 'set'>) root types, but got ${pyClassName(loaded.value)} instead`, part, 'archive-not-a-list');
    }
    const itemOrigins = loaded.ok && entries === loaded.value ? getListOrigins(entries) : undefined;
    entries.forEach((raw, entryIndex) => {
      const entry = typeof raw === 'string' ? PyDict.from([['content', raw]]) : raw;
      if (!(entry instanceof PyDict)) return;
      const fail = (pyType: string, message: string) => {
        throw new FatalUserDataError(pyType, `#cloud-config-archive entry ${entryIndex + 1}: ${message}`, part.source, part.span);
      };
      const content = entry.has('content') ? (entry.get('content') as PyValue) : '';
      let type = entry.get('type') ?? null;
      if (!type || (typeof type !== 'string' && !pyTruthyScalar(type))) {
        const fallback = content instanceof PyBytes ? 'application/octet-stream' : CLOUD_CONFIG_TYPE;
        if (typeof content !== 'string' && !(content instanceof PyBytes)) fail('AttributeError', `${pyStrRepr(pyClassName(content))} object has no attribute 'lower'`);
        type = sniffContentType(content instanceof PyBytes ? content.bytes : (content as string), fallback);
      }
      if (typeof type !== 'string') return fail('AttributeError', `${pyStrRepr(pyClassName(type))} object has no attribute 'split'`);
      const slash = type.indexOf('/');
      if (slash < 0) return fail('ValueError', `type ${pyStrRepr(type)} has no '/': not enough values to unpack (expected 2, got 1)`);
      const main = type.slice(0, slash);
      const sub = type.slice(slash + 1);
      const headers = new HeaderList();
      let text: string | null;
      let bytes: Uint8Array | null = null;
      if (main === 'text') {
        let body: string;
        if (content instanceof PyBytes) {
          try {
            body = new TextDecoder('utf-8', { fatal: true }).decode(content.bytes);
          } catch {
            return fail('UnicodeDecodeError', "'utf-8' codec can't decode the content");
          }
        } else if (typeof content === 'string') body = content;
        else return fail('TypeError', `MIMEText cannot take a ${pyClassName(content)} as content`);
        // MIMEText keeps the text exactly (us-ascii 7bit, else utf-8 base64).
        const ascii = /^[\x00-\x7f]*$/.test(body);
        headers.add('Content-Type', `text/${sub}; charset="${ascii ? 'us-ascii' : 'utf-8'}"`);
        headers.add('MIME-Version', '1.0');
        headers.add('Content-Transfer-Encoding', ascii ? '7bit' : 'base64');
        text = body;
      } else {
        headers.add('Content-Type', type);
        headers.add('MIME-Version', '1.0');
        const stored = content instanceof PyBytes ? content.bytes : typeof content === 'string' ? content : null;
        if (stored === null) return fail('TypeError', `cannot use a ${pyClassName(content)} as a part payload`);
        const decoded = reDecodeStoredPayload(stored, type);
        text = decoded.text;
        bytes = decoded.bytes;
      }
      let filename: string | null = null;
      if (entry.has('filename')) {
        filename = pyStr(entry.get('filename') as PyValue);
        setFilename(headers, filename);
      }
      if (entry.has('launch-index')) headers.add('Launch-Index', pyStr(entry.get('launch-index') as PyValue));
      const reserved = new Set(['content', 'filename', 'type', 'launch-index', 'content-disposition', 'number-attachments', 'content-type']);
      for (const key of entry.keys()) {
        if (typeof key !== 'string') return fail('AttributeError', `${pyStrRepr(pyClassName(key))} object has no attribute 'lower'`);
        if (reserved.has(key.toLowerCase())) continue;
        const value = entry.get(key) as PyValue;
        if (value === null) headers.add(key, '');
        else if (typeof value === 'string') headers.add(key, value);
        else return fail('TypeError', `header ${pyStrRepr(key)}: sequence item 0: expected str instance, ${pyClassName(value)} found (${pyReprForMessage(value)})`);
      }
      this.attach({
        contentType: pyContentType(main === 'text' ? `text/${sub}` : type),
        declaredType: null,
        headers,
        text,
        bytes,
        filename,
        source: part.source,
        route: [...part.route, { via: 'archive', entry: entryIndex }],
        span: undefined,
        anchor: part.anchor,
        offsetInBlob: main === 'text' && typeof content === 'string' ? contentInBlob(archive, part, content, typeof raw === 'string' ? itemOrigins?.[entryIndex]?.value : entry.originOf('content')?.value) : undefined,
      });
    });
  }

  /** cloud-init's `_handle_error`: fatal with ERROR_ON_USER_DATA_FAILURE (the default), else a warning. */
  private userDataFailure(message: string, part: PendingPart, code: FindingCode): void {
    if ((this.options.onIncludeFailure ?? 'error') === 'error') {
      throw new FatalUserDataError(atLeast(this.options.version ?? 'current', '23.4') ? 'RuntimeError' : 'Exception', message, part.source, part.span);
    }
    this.warn(message, part, code);
  }

  private warn(message: string, part: PendingPart, code: FindingCode): void {
    this.messages.push({ level: 'warning', message, blob: part.source, span: part.span, code });
  }
}

/** Where the characters of an archive entry's text content are in the blob (the archive itself a slice of it). */
function contentInBlob(archive: string, part: PendingPart, content: string, written: TextSpan | undefined): ((offset: number) => number | undefined) | undefined {
  // Only where the archive is the part's own text, a slice of the blob (not gunzipped, decoded or included).
  const archiveStart = part.span?.start;
  if (!written || archiveStart === undefined || !part.literal || part.text !== archive) return undefined;
  const inArchive = valueOffsetMap(archive, written, content);
  if (!inArchive) return undefined;
  return (offset) => {
    const at = inArchive(offset);
    return at === undefined ? undefined : archiveStart + at;
  };
}

/** `Message.get_content_type()` for a Content-Type value: before any `;`, lowercased, exactly one `/`. */
export function pyContentType(value: string): string {
  const type = pyStrip(value.split(';')[0]).toLowerCase();
  return type.split('/').length === 2 ? type : 'text/plain';
}

function pyTruthyScalar(v: PyValue): boolean {
  return !(v === null || v === false || v === 0n || v === 0);
}

function toBytes(payload: string | Uint8Array | null): Uint8Array {
  if (payload === null) return new Uint8Array();
  return typeof payload === 'string' ? encodeUtf8Surrogateescape(payload) : payload;
}

/**
 * A payload that cloud-init stores with `set_payload(str)` and no charset is
 * read back with `get_payload(decode=True)`: ASCII text as is, anything else
 * through Python's raw-unicode-escape codec, then decoded as UTF-8 with
 * surrogate escapes for text types. Non-ASCII text therefore comes back
 * mangled, exactly as it does in cloud-init.
 */
function reDecodeStoredPayload(stored: string | Uint8Array, type: string): { text: string | null; bytes: Uint8Array | null } {
  const bytes = typeof stored === 'string' ? rawUnicodeEscape(stored) : stored;
  if (type.toLowerCase().startsWith('text/')) return { text: decodeUtf8Surrogateescape(bytes), bytes: null };
  return { text: null, bytes };
}


/**
 * Whether a YAML text can have a `launch-index` key at all: only if it spells
 * it out, or escapes it inside a double-quoted scalar (which needs a `\` and
 * a `"`). Folding never joins lines without a space. Skips a full parse of
 * nearly every part (the handler parses it again anyway).
 */
function mayHaveLaunchIndex(text: string): boolean {
  return text.includes('launch-index') || (text.includes('\\') && text.includes('"'));
}

/** `_attach_launch_index`: a cloud-config's `launch-index` key becomes a header unless one is there. */
function attachLaunchIndex(part: PendingPart): void {
  const header = part.headers.get('Launch-Index');
  let index: PyValue = null;
  // With a header the payload's key is never used, so the payload need not be parsed.
  if (header === null && part.contentType === CLOUD_CONFIG_TYPE && part.text !== null && mayHaveLaunchIndex(part.text) && !/[\udc80-\udcff]/.test(part.text)) {
    // Only the value is read: no origins.
    const loaded = loadYaml(part.text, { source: part.source, originKeys: [] });
    if (loaded.ok && loaded.value instanceof PyDict && loaded.value.size > 0) index = loaded.value.get('launch-index') ?? null;
  }
  if (header !== null) index = header;
  if (index === null) return;
  const asInt = pyInt(index);
  if (asInt !== null) part.headers.add('Launch-Index', asInt.toString());
}

/** Python `int(x)` for the values a launch index can be, or null where it raises. */
export function pyInt(value: PyValue): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'boolean') return value ? 1n : 0n;
  if (typeof value === 'number') return Number.isFinite(value) ? BigInt(Math.trunc(value)) : null;
  if (typeof value === 'string') {
    const text = pyStrip(value);
    if (!/^[-+]?\d+(?:_\d+)*$/.test(text)) return null;
    return BigInt(text.replace(/_/g, ''));
  }
  if (value instanceof PyBytes) return pyInt(new TextDecoder().decode(value.bytes));
  return null;
}
