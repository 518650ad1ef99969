/**
 * MIME user-data, parsed the way cloud-init (22.4) sees it through CPython 3.11's `email` package
 * with the compat32 policy: cloud-init's `convert_string` (gunzip when the blob is a valid gzip file,
 * `decomp_gzip(quiet=True)`: any failure keeps the original bytes; then the `mime-version:` sniff over
 * the first 4096 bytes, ASCII case-insensitive; then strict UTF-8 decoding, whose error is reported as
 * `error` with Python's UnicodeDecodeError text, since in cloud-init it propagates out of
 * `UserDataProcessor.process()` and the init stage fails; else one `text/x-not-multipart` part holding
 * the bytes), then `msg.walk()` and, for text/* parts, `fully_decoded_payload` (UTF-8 with
 * surrogateescape: a parsed part's `get_charset()` is always None, so the charset parameter is never
 * used). Each point is checked against python3 by test/unit/mime.test.ts and the randomised oracle
 * test/oracle/mime.diff.ts.
 *
 * The `email` package's pieces follow its modules, each with its own residual differences:
 * mime/feedparser.ts (feedparser.py), mime/message.ts (message.py), mime/headers.ts (parameters:
 * message.py, utils.py), mime/encodings.ts (_encoded_words.py, _decode_uu); CPython's codecs are
 * engine/py/codecs.ts, gzip userdata/gzip.ts.
 */
import { PyError } from '../py/errors';
import { decodeUtf8Strict, decodeUtf8Surrogateescape } from '../py/codecs';
import { DEFAULT_MAX_GUNZIP_BYTES, gunzipIfGzip } from './gzip';
import { hasMimeVersion } from '../../../../common/detect';

// The user-data conversion's API also names the codecs, decoders and gzip steps it is made of.
export { decodeUtf8Strict, decodeUtf8Surrogateescape, encodeUtf8Surrogateescape, rawUnicodeEscape } from '../py/codecs';
export { decodeB, decodeUu } from './mime/encodings';
export { pyUnquote } from './mime/headers';
export { DEFAULT_MAX_GUNZIP_BYTES, decompGzipStrict, gunzipIfGzip, gunzipPart, pyGunzip, type GunzipPartResult, type GunzipResult } from './gzip';
import { FeedParser } from './mime/feedparser';
import { PMsg } from './mime/message';
import { pyLower } from './mime/strings';

export interface MimeHeader {
  name: string;
  value: string;
  /** Range of the whole header field (all its lines, without the final line break) in `ConvertedBlob.source`. */
  span?: { start: number; end: number };
  /** Offset in `ConvertedBlob.source` where `value` begins. */
  valueStart?: number;
}

export interface MimeLeaf {
  /** `get_content_type()`. */
  contentType: string;
  /** Headers in order, as parsed. */
  headers: MimeHeader[];
  /** What `dict(part)` gives (exact-case keys; each maps to the first value found case-insensitively). */
  headerDict: Record<string, string>;
  /** The same, as ordered entries (Python dict order). */
  headerDictEntries: [string, string][];
  /** `get_filename()`; null when absent (or when computing it raised, see `filenameError`). */
  filename: string | null;
  /** Set when Python's `get_filename()` raises (e.g. TypeError for mixed RFC 2231 sections). */
  filenameError?: string;
  /** `get_payload(decode=True)` bytes (empty when `container`). */
  payload: Uint8Array;
  /** `fully_decoded_payload()` for text/* (UTF-8 + surrogateescape, lone U+DC80..U+DCFF for undecodable bytes), else null. */
  text: string | null;
  /** True for message/* parts: `is_multipart()` is true and `get_payload(decode=True)` is None; the nested message follows as its own leaf. */
  container: boolean;
  /** Where the raw (undecoded) body lies in `ConvertedBlob.source`, when it is a literal slice of it. */
  span?: { start: number; end: number };
  /**
   * True when `text` is the body exactly as written at `span`, so that an offset in `text` is one from
   * `span.start`; false when decoding changed it (base64, quoted-printable with escapes, uuencode, bytes
   * that are not ASCII) and positions in `text` are not positions in the file.
   */
  literal: boolean;
  /** First Content-Transfer-Encoding header value, as is. */
  transferEncoding: string | null;
  /** Parser and decoder defects (Python class names), e.g. StartBoundaryNotFoundDefect. */
  defects: string[];
  /** Position of this part in `msg.walk()` order (containers included). */
  walkIndex: number;
  /** Nesting depth (0 = the root message). */
  depth: number;
}

/** A multipart/* part: walked by cloud-init but skipped as a container. */
export interface MimeContainer {
  contentType: string;
  headers: MimeHeader[];
  defects: string[];
  walkIndex: number;
  depth: number;
  /** False when the parser could not split it (no boundary, start boundary missing): its text is then lost to cloud-init. */
  isMultipart: boolean;
  boundary: string | null;
  /** For a multipart the parser could not split: its body as text. */
  body?: string;
  span?: { start: number; end: number };
}

export interface ConvertedBlob {
  kind: 'mime' | 'not-multipart';
  leaves: MimeLeaf[];
  gzipped: boolean;
  /** Set when cloud-init would raise (UnicodeDecodeError, RecursionError, TypeError ...) or the gzip cap was hit; leaves are then empty. */
  error?: string;
  /** Python exception type for `error` ('GzipCapExceeded' for the cap). */
  errorType?: string;
  /** `str(e)` of that exception (`error` is `errorType + ': ' + errorMessage`). */
  errorMessage?: string;
  /** The text that spans refer to: the UTF-8 decoding of the (gunzipped) bytes (surrogateescape for 'not-multipart'). */
  source: string;
  /** multipart/* parts, skipped by cloud-init. */
  containers: MimeContainer[];
}

export interface MimeOptions {
  /** Cap on gunzipped output (bytes). Default 64 MiB. */
  maxGunzipBytes?: number;
  /** Alias of `maxGunzipBytes`. */
  maxBytes?: number;
  /** Maximum nesting of parsed messages before reporting RecursionError. Default 970. */
  maxDepth?: number;
}

export const DEFAULT_MAX_DEPTH = 970;

function publicHeaders(m: PMsg): MimeHeader[] {
  return m.headers.map((h) =>
    h.start >= 0 ? { name: h.name, value: h.value, span: { start: h.start, end: h.end }, valueStart: h.valueStart } : { name: h.name, value: h.value },
  );
}

function headerDictOf(headers: { name: string; value: string }[]): { dict: Record<string, string>; entries: [string, string][] } {
  const first = new Map<string, string>();
  for (const h of headers) {
    const l = h.name.toLowerCase();
    if (!first.has(l)) first.set(l, h.value);
  }
  const dict: Record<string, string> = Object.create(null) as Record<string, string>;
  const entries: [string, string][] = [];
  const seen = new Set<string>();
  for (const h of headers) {
    if (seen.has(h.name)) continue;
    seen.add(h.name);
    const v = first.get(h.name.toLowerCase())!;
    dict[h.name] = v;
    entries.push([h.name, v]);
  }
  return { dict, entries };
}

function notMultipart(data: Uint8Array, gzipped: boolean): ConvertedBlob {
  const text = decodeUtf8Surrogateescape(data);
  const headers: MimeHeader[] = [
    { name: 'Content-Type', value: 'text/x-not-multipart' },
    { name: 'MIME-Version', value: '1.0' },
  ];
  const hd = headerDictOf(headers);
  return {
    kind: 'not-multipart',
    gzipped,
    source: text,
    containers: [],
    leaves: [
      {
        contentType: 'text/x-not-multipart',
        headers,
        headerDict: hd.dict,
        headerDictEntries: hd.entries,
        filename: null,
        payload: data,
        text,
        container: false,
        span: { start: 0, end: text.length },
        literal: true,
        transferEncoding: null,
        defects: [],
        walkIndex: 0,
        depth: 0,
      },
    ],
  };
}

/** Parse an already-decoded MIME text (what `email.message_from_string` gets). */
export function parseMimeText(
  source: string,
  opts: MimeOptions = {},
): { leaves: MimeLeaf[]; containers: MimeContainer[]; error?: string; errorType?: string; errorMessage?: string } {
  let root: PMsg;
  try {
    root = new FeedParser(source, opts.maxDepth ?? DEFAULT_MAX_DEPTH).parse();
  } catch (e) {
    let err: PyError;
    if (e instanceof PyError) err = e;
    else if (e instanceof RangeError) err = new PyError('RecursionError', 'maximum recursion depth exceeded');
    else throw e;
    return { leaves: [], containers: [], error: err.toString(), errorType: err.pyType, errorMessage: err.message };
  }
  const leaves: MimeLeaf[] = [];
  const containers: MimeContainer[] = [];
  const todo: [PMsg, number][] = [[root, 0]];
  let walkIndex = 0;
  while (todo.length) {
    const [m, depth] = todo.pop()!;
    const index = walkIndex++;
    if (Array.isArray(m.payload)) for (let k = m.payload.length - 1; k >= 0; k--) todo.push([m.payload[k], depth + 1]);
    const ctype = m.getContentType();
    const span =
      typeof m.payload === 'string' && m.payloadOff >= 0
        ? { start: m.payloadOff, end: m.payloadOff + m.payload.length }
        : undefined;
    if (pyLower(ctype.split('/')[0]) === 'multipart') {
      let boundary: string | null;
      try {
        boundary = m.getBoundary();
      } catch {
        boundary = null;
      }
      const c: MimeContainer = {
        contentType: ctype,
        headers: publicHeaders(m),
        defects: m.defects.slice(),
        walkIndex: index,
        depth,
        isMultipart: m.isMultipart(),
        boundary,
      };
      if (typeof m.payload === 'string') c.body = m.payload;
      if (span) c.span = span;
      containers.push(c);
      continue;
    }
    const decoded = m.getDecodedPayload();
    let filename: string | null = null;
    let filenameError: string | undefined;
    try {
      filename = m.getFilename();
    } catch (e) {
      if (!(e instanceof PyError)) throw e;
      filenameError = e.toString();
    }
    const hd = headerDictOf(m.headers);
    const leaf: MimeLeaf = {
      contentType: ctype,
      headers: publicHeaders(m),
      headerDict: hd.dict,
      headerDictEntries: hd.entries,
      filename,
      payload: decoded ?? new Uint8Array(0),
      text: decoded !== null && ctype.split('/')[0] === 'text' ? decodeUtf8Surrogateescape(decoded) : null,
      container: decoded === null,
      literal: false,
      transferEncoding: m.get('content-transfer-encoding') ?? null,
      defects: m.defects.slice(),
      walkIndex: index,
      depth,
    };
    if (filenameError !== undefined) leaf.filenameError = filenameError;
    if (span) leaf.span = span;
    leaf.literal = span !== undefined && leaf.text !== null && leaf.text === m.payload;
    leaves.push(leaf);
  }
  return { leaves, containers };
}

/**
 * The header-derived values of a part with these headers, computed as the
 * email package does (`get_content_type()`, `get_filename()`,
 * `get_boundary()`); a Python exception is reported in the `...Error` field.
 */
export function describeHeaders(headers: { name: string; value: string }[]): {
  contentType: string;
  filename: string | null;
  filenameError?: string;
  boundary: string | null;
  boundaryError?: string;
} {
  const m = new PMsg();
  for (const h of headers) m.headers.push({ name: h.name, value: h.value, start: -1, end: -1, valueStart: -1 });
  const out: ReturnType<typeof describeHeaders> = { contentType: m.getContentType(), filename: null, boundary: null };
  try {
    out.filename = m.getFilename();
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    out.filenameError = e.toString();
  }
  try {
    out.boundary = m.getBoundary();
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    out.boundaryError = e.toString();
  }
  return out;
}

/**
 * The last blob converted and its result: a document's analysis and the run of the same document (a lone
 * MIME is a run of its own) convert the same bytes one after the other, and a multipart of thousands of parts
 * costs a tenth of a second each time. Its readers never change a ConvertedBlob.
 */
let lastConverted: { bytes: Uint8Array; options: string; result: ConvertedBlob } | undefined;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** cloud-init's `convert_string(bytes)` followed by `msg.walk()` (multipart containers reported separately). */
export function convertUserDataBlob(bytes: Uint8Array, opts: MimeOptions = {}): ConvertedBlob {
  const options = `${opts.maxGunzipBytes ?? opts.maxBytes ?? DEFAULT_MAX_GUNZIP_BYTES}:${opts.maxDepth ?? DEFAULT_MAX_DEPTH}`;
  // Only blobs worth keeping: a small one converts faster than it compares.
  if (bytes.length >= 64 * 1024 && lastConverted?.options === options && sameBytes(lastConverted.bytes, bytes)) return lastConverted.result;
  const result = convertBlob(bytes, opts);
  if (bytes.length >= 64 * 1024) lastConverted = { bytes: bytes.slice(), options, result };
  return result;
}

function convertBlob(bytes: Uint8Array, opts: MimeOptions): ConvertedBlob {
  const failed = (kind: ConvertedBlob['kind'], gzipped: boolean, errorType: string, errorMessage: string): ConvertedBlob => ({
    kind,
    leaves: [],
    gzipped,
    error: `${errorType}: ${errorMessage}`,
    errorType,
    errorMessage,
    source: '',
    containers: [],
  });
  const gz = gunzipIfGzip(bytes, { maxOutputBytes: opts.maxGunzipBytes ?? opts.maxBytes });
  if (gz.error !== undefined) return failed('not-multipart', true, 'GzipCapExceeded', gz.error);
  const data = gz.bytes;
  if (!hasMimeVersion(data)) return notMultipart(data, gz.gzipped);
  let source: string;
  try {
    source = decodeUtf8Strict(data);
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    return failed('mime', gz.gzipped, e.pyType, e.message);
  }
  const r = parseMimeText(source, opts);
  if (r.error !== undefined) return { ...failed('mime', gz.gzipped, r.errorType!, r.errorMessage!), source };
  return { kind: 'mime', leaves: r.leaves, gzipped: gz.gzipped, source, containers: r.containers };
}

/**
 * Where a part is reported as a whole, and where what is inside it is reported when positions in its decoded
 * text are not positions in the file (a base64 or quoted-printable body): the name of its Content-Type header,
 * else of its first header; the body's start when it has no header.
 */
export function partHeaderSpan(leaf: Pick<MimeLeaf, 'headers' | 'span'>): { start: number; end: number } {
  const header = leaf.headers.find((h) => h.span && /^content-type$/i.test(h.name)) ?? leaf.headers.find((h) => h.span);
  if (header?.span) return { start: header.span.start, end: header.span.start + header.name.length };
  const start = leaf.span?.start ?? 0;
  return { start, end: start };
}
