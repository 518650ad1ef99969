/**
 * MIME user-data, parsed the way cloud-init (22.4) sees it through CPython
 * 3.11's `email` package with the compat32 policy.
 *
 * What is reproduced (each point checked against python3 by
 * test/unit/mime.test.ts and the randomised oracle test/oracle/mime.diff.ts):
 *
 * - `convert_string`: gunzip when the blob is a valid gzip file (cloud-init's
 *   `decomp_gzip(quiet=True)`: any failure keeps the original bytes), then the
 *   `mime-version:` sniff over the first 4096 bytes (ASCII case-insensitive),
 *   then strict UTF-8 decoding (a decode error is reported as `error`, with
 *   Python's UnicodeDecodeError text: in cloud-init it propagates out of
 *   `UserDataProcessor.process()`, i.e. out of `Init.update()`, and the init
 *   stage fails), else one `text/x-not-multipart` part holding the bytes.
 * - The feed parser: line splitting on CRLF / CR / LF, header collection
 *   (`From ` envelope lines, continuation lines, a first line that is a
 *   continuation, a line without a colon ending the headers with
 *   MissingHeaderBodySeparatorDefect, a header with an empty name), multipart
 *   boundary search with the stack of "false EOF" matchers (outer boundaries
 *   end inner parts), runs of repeated boundary lines, the line break before a
 *   boundary belonging to the boundary, missing start / close boundary,
 *   multipart without boundary, message/* parts parsed as nested messages
 *   (their payload is a list: `get_payload(decode=True)` is None),
 *   message/delivery-status header blocks, the multipart/digest default type.
 * - Header values as compat32 returns them (not unfolded: continuation line
 *   breaks stay, only the trailing line break is removed), `dict(part)`.
 * - Content-Type / Content-Disposition parameters: `_parseparam` (quoted `;`),
 *   RFC 2231 continuations and charsets, the repeated unquoting that
 *   `get_filename()` / `get_boundary()` apply, and the TypeError Python raises
 *   when `name*` and `name*0` are mixed.
 * - `get_payload(decode=True)`: non-ASCII payload text turned into bytes with
 *   raw-unicode-escape, base64 through `email._encoded_words.decode_b` and
 *   binascii.a2b_base64 (strict pass, then lenient passes; bytes after
 *   completed padding are dropped; undecodable input returned as is), quoted-
 *   printable through binascii.a2b_qp, x-uuencode through `_decode_uu`. The
 *   CTE header value is compared after lower-casing only (no stripping).
 * - `fully_decoded_payload`: text/* parts decoded as UTF-8 with
 *   surrogateescape (a parsed part's `get_charset()` is always None, so the
 *   charset parameter is never used).
 * - gzip as Python's gzip module reads it: several members, zero padding
 *   between/after members, anything else after a member is an error (so the
 *   whole blob stays compressed), CRC and length checked, header CRC skipped,
 *   reserved flag bits ignored.
 *
 * Residual differences (deliberate or not reproducible):
 * - RFC 2231 parameter charsets: only the utf-8, ascii and latin-1 codecs
 *   (with all their Python aliases and name normalisation) are implemented;
 *   a name Python maps to another codec (cp1252, utf-16, koi8-r ...) is
 *   treated as unknown, i.e. the value is only unquoted where Python would
 *   decode it with that codec.
 * - RecursionError: Python's limit depends on the caller's stack. Called at
 *   top level, 3.11 fails at 984 nested multiparts / 988 nested message/*
 *   parts; cloud-init's call chain is about 10 frames deeper. We report
 *   RecursionError beyond `maxDepth` (default 970) nested parts, and also if
 *   the JavaScript stack runs out first (small `--stack-size`).
 * - The text of a TypeError / RecursionError may differ from Python's (the
 *   type is exact; UnicodeDecodeError and DecompressionError texts are exact).
 * - gzip output is capped (`maxGunzipBytes`, default 64 MiB); Python has no
 *   cap. Exceeding it is an explicit 'GzipCapExceeded' error.
 * - `lower()` of header values / parameter names uses the JavaScript engine's
 *   Unicode tables (may differ from Python 3.11's for a few rare characters);
 *   `strip()` uses Python's exact whitespace set.
 * - Lone surrogates other than U+DC80..U+DCFF cannot be encoded with
 *   surrogateescape (Python raises); `encodeUtf8Surrogateescape` writes
 *   U+FFFD for them.
 * - Python feeds the parser in 8192-character chunks; the parser's result does
 *   not depend on chunking (a CRLF split across chunks is covered by a test),
 *   so the whole text is parsed at once here.
 */
import { PyError } from '../py/errors';
import { comparePyStr, pySplitMax, pyStrip, pyRStrip as pyRstrip } from '../py/str';
import { pyBytesRepr } from '../py/repr';
import { a2bBase64, a2bQp, a2bUu } from '../py/binascii';
import { pushAll } from '../arrays';

/** node:zlib (and node:stream under it) loaded when a gzip part is met: most inputs have none, and every start-up would pay for it. */
const zlib = (): typeof import('node:zlib') => require('node:zlib') as typeof import('node:zlib');

// ---------------------------------------------------------------------------
// Public API

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

export const DEFAULT_MAX_GUNZIP_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_DEPTH = 970;


// ---------------------------------------------------------------------------
// Small Python string helpers


function stripCharsRight(s: string, chars: string): string {
  let b = s.length;
  while (b > 0 && chars.includes(s[b - 1])) b--;
  return s.slice(0, b);
}

function stripCharsLeft(s: string, chars: string): string {
  let a = 0;
  while (a < s.length && chars.includes(s[a])) a++;
  return s.slice(a);
}

function pyLower(s: string): string {
  return s.toLowerCase();
}

/** Length of the line break at the end of `s` (NLCRE_eol: \r\n|\r|\n at the end). */
function eolLength(s: string): number {
  const n = s.length;
  if (n === 0) return 0;
  const c = s.charCodeAt(n - 1);
  if (c === 10) return n >= 2 && s.charCodeAt(n - 2) === 13 ? 2 : 1;
  if (c === 13) return 1;
  return 0;
}

/** Length of the line break at the start of `s` (NLCRE_bol / NLCRE.match). */
function bolLength(s: string): number {
  const c = s.charCodeAt(0);
  if (c === 13) return s.charCodeAt(1) === 10 ? 2 : 1;
  if (c === 10) return 1;
  return 0;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

function bytesFromLatin1(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

function latin1FromBytes(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length; i += 8192) {
    out += String.fromCharCode.apply(null, Array.from(b.subarray(i, i + 8192)));
  }
  return out;
}

/** str.encode('raw-unicode-escape'). */
export function rawUnicodeEscape(s: string): Uint8Array {
  const out: number[] = [];
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c < 0x100) out.push(c);
    else {
      const hex = c < 0x10000 ? '\\u' + c.toString(16).padStart(4, '0') : '\\U' + c.toString(16).padStart(8, '0');
      for (let i = 0; i < hex.length; i++) out.push(hex.charCodeAt(i));
    }
  }
  return Uint8Array.from(out);
}


// ---------------------------------------------------------------------------
// UTF-8

type Utf8Errors = 'strict' | 'replace' | 'surrogateescape';

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Python's UTF-8 decoder. Error ranges follow CPython: an invalid start byte
 * is one byte; a bad continuation covers the valid prefix read so far; a
 * truncated sequence at the end covers the rest of the data.
 */
function decodeUtf8(bytes: Uint8Array, errors: Utf8Errors): string {
  try {
    return fatalDecoder.decode(bytes);
  } catch {
    // fall through to the slow path
  }
  const units: number[] = [];
  let out = '';
  const flush = (): void => {
    if (units.length) {
      out += String.fromCharCode.apply(null, units);
      units.length = 0;
    }
  };
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b0 = bytes[i];
    if (b0 < 0x80) {
      units.push(b0);
      i++;
    } else {
      let need = 0;
      let lo = 0x80;
      let hi = 0xbf;
      if (b0 >= 0xc2 && b0 <= 0xdf) need = 2;
      else if (b0 >= 0xe0 && b0 <= 0xef) {
        need = 3;
        if (b0 === 0xe0) lo = 0xa0;
        else if (b0 === 0xed) hi = 0x9f;
      } else if (b0 >= 0xf0 && b0 <= 0xf4) {
        need = 4;
        if (b0 === 0xf0) lo = 0x90;
        else if (b0 === 0xf4) hi = 0x8f;
      }
      let errEnd = -1;
      let reason = '';
      if (need === 0) {
        errEnd = i + 1;
        reason = 'invalid start byte';
      } else {
        for (let j = 1; j < need; j++) {
          if (i + j >= n) {
            errEnd = n;
            reason = 'unexpected end of data';
            break;
          }
          const b = bytes[i + j];
          const l = j === 1 ? lo : 0x80;
          const h = j === 1 ? hi : 0xbf;
          if (b < l || b > h) {
            errEnd = i + j;
            reason = 'invalid continuation byte';
            break;
          }
        }
      }
      if (errEnd < 0) {
        let cp: number;
        if (need === 2) cp = ((b0 & 0x1f) << 6) | (bytes[i + 1] & 0x3f);
        else if (need === 3) cp = ((b0 & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f);
        else
          cp =
            ((b0 & 0x07) << 18) | ((bytes[i + 1] & 0x3f) << 12) | ((bytes[i + 2] & 0x3f) << 6) | (bytes[i + 3] & 0x3f);
        if (cp >= 0x10000) {
          cp -= 0x10000;
          units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
        } else units.push(cp);
        i += need;
      } else {
        if (errors === 'strict') {
          const msg =
            errEnd - i === 1
              ? `'utf-8' codec can't decode byte 0x${b0.toString(16).padStart(2, '0')} in position ${i}: ${reason}`
              : `'utf-8' codec can't decode bytes in position ${i}-${errEnd - 1}: ${reason}`;
          throw new PyError('UnicodeDecodeError', msg);
        }
        if (errors === 'replace') units.push(0xfffd);
        else for (let k = i; k < errEnd; k++) units.push(0xdc00 + bytes[k]);
        i = errEnd;
      }
    }
    if (units.length >= 8192) flush();
  }
  flush();
  return out;
}

/** bytes.decode('utf-8', 'surrogateescape'). */
export function decodeUtf8Surrogateescape(bytes: Uint8Array): string {
  return decodeUtf8(bytes, 'surrogateescape');
}

/** bytes.decode('utf-8') (strict); throws a PyError('UnicodeDecodeError') with Python's message. */
export function decodeUtf8Strict(bytes: Uint8Array): string {
  return decodeUtf8(bytes, 'strict');
}

/**
 * str.encode('utf-8', 'surrogateescape'): U+DC80..U+DCFF become the bytes
 * 0x80..0xFF. Other lone surrogates (which Python refuses) become U+FFFD.
 */
export function encodeUtf8Surrogateescape(text: string): Uint8Array {
  if (!/[\ud800-\udfff]/.test(text)) return new Uint8Array(Buffer.from(text, 'utf8'));
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c >= 0xdc80 && c <= 0xdcff) out.push(c - 0xdc00);
    else if (c >= 0xd800 && c <= 0xdfff) out.push(0xef, 0xbf, 0xbd);
    else if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Uint8Array.from(out);
}

// ---------------------------------------------------------------------------
// Codecs for RFC 2231 charsets (str(bytes, charset, 'replace'))

const CODEC_ALIASES: Record<string, string> = {
  '646': 'ascii', 'ansi_x3.4_1968': 'ascii', 'ansi_x3_4_1968': 'ascii', 'ansi_x3.4_1986': 'ascii', cp367: 'ascii',
  csascii: 'ascii', ibm367: 'ascii', iso646_us: 'ascii', 'iso_646.irv_1991': 'ascii', iso_ir_6: 'ascii', us: 'ascii',
  us_ascii: 'ascii',
  '8859': 'latin_1', cp819: 'latin_1', csisolatin1: 'latin_1', ibm819: 'latin_1', iso8859: 'latin_1',
  iso8859_1: 'latin_1', iso_8859_1: 'latin_1', iso_8859_1_1987: 'latin_1', iso_ir_100: 'latin_1', l1: 'latin_1',
  latin: 'latin_1', latin1: 'latin_1',
  u8: 'utf_8', utf: 'utf_8', utf8: 'utf_8', utf8_ucs2: 'utf_8', utf8_ucs4: 'utf_8', cp65001: 'utf_8',
};
const CODEC_MODULES = new Set(['ascii', 'latin_1', 'utf_8']);

/** encodings.normalize_encoding. */
function normalizeEncoding(name: string): string {
  let out = '';
  let punct = false;
  for (const c of name) {
    if (/[\p{L}\p{N}]/u.test(c) || c === '.') {
      if (punct && out) out += '_';
      if (c.charCodeAt(0) < 0x80) out += c;
      punct = false;
    } else punct = true;
  }
  return out;
}

/** codecs.lookup for the codecs implemented here; null = LookupError. */
function lookupCodec(name: string): 'ascii' | 'latin_1' | 'utf_8' | null {
  if (name.includes('\0')) throw new PyError('ValueError', 'embedded null character');
  const norm = normalizeEncoding(name.replace(/[A-Z]/g, (c) => c.toLowerCase()));
  const alias = CODEC_ALIASES[norm] ?? CODEC_ALIASES[norm.replace(/\./g, '_')];
  for (const mod of alias !== undefined ? [alias, norm] : [norm]) {
    if (!mod || mod.includes('.')) continue;
    if (CODEC_MODULES.has(mod)) return mod as 'ascii' | 'latin_1' | 'utf_8';
    return null; // some other module: not implemented here (see header)
  }
  return null;
}

function decodeWithCodec(bytes: Uint8Array, codec: 'ascii' | 'latin_1' | 'utf_8'): string {
  if (codec === 'utf_8') return decodeUtf8(bytes, 'replace');
  if (codec === 'latin_1') return latin1FromBytes(bytes);
  let out = '';
  for (const b of bytes) out += b < 0x80 ? String.fromCharCode(b) : '\ufffd';
  return out;
}

// ---------------------------------------------------------------------------
// binascii / base64 / quopri / uu

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** email._encoded_words.decode_b: (value, defects). */
export function decodeB(encoded: Uint8Array): { value: Uint8Array; defects: string[] } {
  const padErr = encoded.length % 4;
  const missing = padErr ? bytesFromLatin1('==='.slice(0, 4 - padErr)) : new Uint8Array(0);
  try {
    return { value: a2bBase64(concatBytes(encoded, missing), true), defects: padErr ? ['InvalidBase64PaddingDefect'] : [] };
  } catch {
    try {
      return { value: a2bBase64(encoded, false), defects: ['InvalidBase64CharactersDefect'] };
    } catch {
      try {
        return {
          value: a2bBase64(concatBytes(encoded, bytesFromLatin1('==')), false),
          defects: ['InvalidBase64CharactersDefect', 'InvalidBase64PaddingDefect'],
        };
      } catch {
        return { value: encoded, defects: ['InvalidBase64LengthDefect'] };
      }
    }
  }
}

function splitBytesLines(b: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c === 0x0a || c === 0x0d) {
      lines.push(b.subarray(start, i));
      i += c === 0x0d && b[i + 1] === 0x0a ? 2 : 1;
      start = i;
    } else i++;
  }
  if (start < b.length) lines.push(b.subarray(start));
  return lines;
}

function startsWithBytes(b: Uint8Array, prefix: string): boolean {
  if (b.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (b[i] !== prefix.charCodeAt(i)) return false;
  return true;
}

/** int(b, base=8) succeeds? */
function isPyOctalInt(b: Uint8Array): boolean {
  for (const c of b) if (c > 0x7f || c === 0) return false;
  return /^[ \t\n\v\f\r]*[+-]?(?:0[oO]_?)?[0-7](?:_?[0-7])*[ \t\n\v\f\r]*$/.test(latin1FromBytes(b));
}

/** email.message._decode_uu; throws PyError('ValueError') like Python. */
export function decodeUu(encoded: Uint8Array): Uint8Array {
  const lines = splitBytesLines(encoded);
  let k = 0;
  let found = false;
  for (; k < lines.length; k++) {
    const line = lines[k];
    if (startsWithBytes(line, 'begin ')) {
      const rest = line.subarray(6);
      const sp = rest.indexOf(0x20);
      const mode = sp < 0 ? rest : rest.subarray(0, sp);
      if (isPyOctalInt(mode)) {
        found = true;
        k++;
        break;
      }
    }
  }
  if (!found) throw new PyError('ValueError', '`begin` line not found');
  const chunks: Uint8Array[] = [];
  for (; k < lines.length; k++) {
    const line = lines[k];
    if (line.length === 0) throw new PyError('ValueError', 'Truncated input');
    let a = 0;
    let z = line.length;
    const ws = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a || c === 0x0c;
    while (a < z && ws(line[a])) a++;
    while (z > a && ws(line[z - 1])) z--;
    if (z - a === 3 && line[a] === 0x65 && line[a + 1] === 0x6e && line[a + 2] === 0x64) break;
    let decoded: Uint8Array;
    try {
      decoded = a2bUu(line);
    } catch {
      const nbytes = Math.floor((((line[0] - 32) & 63) * 4 + 5) / 3);
      decoded = a2bUu(line.subarray(0, nbytes)); // a binascii.Error here is a ValueError
    }
    chunks.push(decoded);
  }
  let total = 0;
  for (const c of chunks) total += c.length;
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Header parameters (email.message._parseparam, email.utils)

/** RFC 2231 value: (charset, language, text). */
interface Rfc2231Value {
  charset: string | null;
  language: string | null;
  text: string;
}
type ParamValue = string | Rfc2231Value;

/** email.utils.unquote. */
export function pyUnquote(s: string): string {
  if (s.length > 1) {
    if (s.startsWith('"') && s.endsWith('"')) return s.slice(1, -1).replaceAll('\\\\', '\\').replaceAll('\\"', '"');
    if (s.startsWith('<') && s.endsWith('>')) return s.slice(1, -1);
  }
  return s;
}

/** email._parseaddr.quote. */
function pyQuote(s: string): string {
  return s.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
}

/** email.message._parseparam (linear-time version of the same algorithm). */
function parseParam(value: string): string[] {
  const s0 = ';' + value;
  const n = s0.length;
  // Prefix counts of '"' and of '\"' pairs (a pair counted at its backslash),
  // for s.count('"', 0, end) - s.count('\\"', 0, end); only needed with quotes.
  let dq: Int32Array | null = null;
  let esc: Int32Array | null = null;
  if (value.includes('"')) {
    dq = new Int32Array(n + 1);
    esc = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) {
      dq[i + 1] = dq[i] + (s0.charCodeAt(i) === 0x22 ? 1 : 0);
      esc[i + 1] = esc[i] + (s0.charCodeAt(i) === 0x5c && s0.charCodeAt(i + 1) === 0x22 ? 1 : 0);
    }
  }
  const plist: string[] = [];
  let pos = 0; // Python's `s` is s0.slice(pos)
  while (pos < n && s0.charCodeAt(pos) === 0x3b) {
    pos++;
    const find = (from: number): number => {
      const r = s0.indexOf(';', pos + from);
      return r < 0 ? -1 : r - pos;
    };
    let end = find(0);
    if (dq && esc) {
      const odd = (e: number): boolean => {
        const quotes = dq![pos + e] - dq![pos];
        const pairs = e >= 2 ? esc![pos + e - 1] - esc![pos] : 0;
        return (quotes - pairs) % 2 !== 0;
      };
      while (end > 0 && odd(end)) end = find(end + 1);
    }
    if (end < 0) end = n - pos;
    let f = s0.slice(pos, pos + end);
    const i = f.indexOf('=');
    if (i >= 0) f = pyLower(pyStrip(f.slice(0, i))) + '=' + pyStrip(f.slice(i + 1));
    plist.push(pyStrip(f));
    pos += end;
  }
  return plist;
}

const RFC2231_CONTINUATION = /^([A-Za-z0-9_]+)\*(([0-9]+)\*?)?$/;

/** Numeric comparison of two digit strings. */
function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=.)/, '');
  const y = b.replace(/^0+(?=.)/, '');
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** email.utils.decode_params. */
function decodeParams(params: [string, string][]): [string, ParamValue][] {
  const out: [string, ParamValue][] = [params[0]];
  const rfc: Map<string, { num: string | null; value: string; encoded: boolean }[]> = new Map();
  for (let k = 1; k < params.length; k++) {
    const name = params[k][0];
    const encoded = name.endsWith('*');
    const value = pyUnquote(params[k][1]);
    const mo = RFC2231_CONTINUATION.exec(name);
    if (mo) {
      const base = mo[1];
      let list = rfc.get(base);
      if (!list) rfc.set(base, (list = []));
      list.push({ num: mo[3] ?? null, value, encoded });
    } else {
      out.push([name, '"' + pyQuote(value) + '"']);
    }
  }
  for (const [name, conts] of rfc) {
    const hasNone = conts.some((c) => c.num === null);
    const hasNum = conts.some((c) => c.num !== null);
    if (hasNone && hasNum && conts.length > 1) {
      throw new PyError('TypeError', "'<' not supported between instances of 'int' and 'NoneType'");
    }
    conts.sort((a, b) => {
      if (a.num !== null && b.num !== null) {
        const c = compareDigits(a.num, b.num);
        if (c) return c;
      }
      const c = comparePyStr(a.value, b.value);
      if (c) return c;
      return Number(a.encoded) - Number(b.encoded);
    });
    let extended = false;
    let joined = '';
    for (const c of conts) {
      let s = c.value;
      if (c.encoded) {
        s = s.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
        extended = true;
      }
      joined += s;
    }
    const value = pyQuote(joined);
    if (extended) {
      const parts = pySplitMax(value, "'", 2);
      if (parts.length <= 2) out.push([name, { charset: null, language: null, text: '"' + value + '"' }]);
      else out.push([name, { charset: parts[0], language: parts[1], text: '"' + parts[2] + '"' }]);
    } else out.push([name, '"' + value + '"']);
  }
  return out;
}


/** Message._get_params_preserve for a header value. */
function paramsPreserve(value: string): [string, ParamValue][] {
  const params: [string, string][] = [];
  for (const p of parseParam(value)) {
    const i = p.indexOf('=');
    if (i >= 0) params.push([pyStrip(p.slice(0, i)), pyStrip(p.slice(i + 1))]);
    else params.push([pyStrip(p), '']);
  }
  return decodeParams(params);
}

/** email.utils.collapse_rfc2231_value(value) with errors='replace', fallback 'us-ascii'. */
function collapseRfc2231(value: ParamValue): string {
  if (typeof value === 'string') return pyUnquote(value);
  const codec = lookupCodec(value.charset ?? 'us-ascii');
  if (codec === null) return pyUnquote(value.text);
  return decodeWithCodec(rawUnicodeEscape(value.text), codec);
}

// ---------------------------------------------------------------------------
// The message model

interface PHeader {
  name: string;
  value: string;
  start: number;
  end: number;
  valueStart: number;
}

class PMsg {
  headers: PHeader[] = [];
  payload: string | PMsg[] | null = null;
  /** Offset of `payload` (a string) in the source when it is a literal slice; -1 otherwise. */
  payloadOff = -1;
  preamble: string | null = null;
  epilogue: string | null = null;
  defects: string[] = [];
  defaultType = 'text/plain';
  unixfrom: string | null = null;
  private ctypeCache: string | undefined;

  get(name: string): string | undefined {
    const l = name.toLowerCase();
    for (const h of this.headers) if (h.name.toLowerCase() === l) return h.value;
    return undefined;
  }

  isMultipart(): boolean {
    return Array.isArray(this.payload);
  }

  attach(m: PMsg): void {
    if (this.payload === null) this.payload = [m];
    else if (Array.isArray(this.payload)) this.payload.push(m);
    else throw new PyError('TypeError', 'Attach is not valid on a message with a non-multipart payload');
  }

  getContentType(): string {
    if (this.ctypeCache !== undefined) return this.ctypeCache;
    const value = this.get('content-type');
    if (value === undefined) return this.defaultType;
    const semi = value.indexOf(';');
    const ctype = pyLower(pyStrip(semi < 0 ? value : value.slice(0, semi)));
    // RFC 2045: an invalid value means text/plain
    return ctype.split('/').length - 1 !== 1 ? 'text/plain' : ctype;
  }

  /** Called once the headers are parsed: they and the default type no longer change. */
  freezeContentType(): void {
    this.ctypeCache = this.getContentType();
  }

  getMaintype(): string {
    return this.getContentType().split('/')[0];
  }

  /** Message.get_param(param, missing, header); undefined = missing. */
  getParam(param: string, header: string): ParamValue | undefined {
    const value = this.get(header);
    if (value === undefined) return undefined;
    const lp = pyLower(param);
    for (const [k, v] of paramsPreserve(value)) {
      if (pyLower(k) === lp) return typeof v === 'string' ? pyUnquote(v) : { ...v, text: pyUnquote(v.text) };
    }
    return undefined;
  }

  getBoundary(): string | null {
    const b = this.getParam('boundary', 'content-type');
    if (b === undefined) return null;
    return pyRstrip(collapseRfc2231(b));
  }

  getFilename(): string | null {
    let f = this.getParam('filename', 'content-disposition');
    if (f === undefined) f = this.getParam('name', 'content-type');
    if (f === undefined) return null;
    return pyStrip(collapseRfc2231(f));
  }

  /** get_payload(decode=True); null for multipart payloads. */
  getDecodedPayload(): Uint8Array | null {
    const payload = this.payload;
    if (Array.isArray(payload)) return null;
    if (payload === null) return null;
    const cte = pyLower(this.get('content-transfer-encoding') ?? '');
    const bpayload = isAscii(payload) ? bytesFromLatin1(payload) : rawUnicodeEscape(payload);
    if (cte === 'quoted-printable') return a2bQp(bpayload);
    if (cte === 'base64') {
      const joined = bpayload.filter((c) => c !== 0x0a && c !== 0x0d);
      const r = decodeB(joined);
      pushAll(this.defects, r.defects);
      return r.value;
    }
    if (cte === 'x-uuencode' || cte === 'uuencode' || cte === 'uue' || cte === 'x-uue') {
      try {
        return decodeUu(bpayload);
      } catch {
        return bpayload;
      }
    }
    return bpayload;
  }
}

// ---------------------------------------------------------------------------
// Feed parser

interface Line {
  s: string;
  /** Offset in the source, -1 for the synthetic empty line. */
  off: number;
}

const EOF_LINE: Line = { s: '', off: -1 };

type EofMatcher = { kind: 'boundary'; sep: string } | { kind: 'nl' };

/** boundaryre.match(line): null, or whether it is the close delimiter and ends in a line break. */
function matchBoundary(s: string, sep: string): { end: boolean; linesep: boolean } | null {
  if (!s.startsWith(sep)) return null;
  let i = sep.length;
  let end = false;
  if (s.charCodeAt(i) === 0x2d && s.charCodeAt(i + 1) === 0x2d) {
    end = true;
    i += 2;
  }
  while (i < s.length && (s.charCodeAt(i) === 0x20 || s.charCodeAt(i) === 0x09)) i++;
  const rest = s.length - i;
  if (rest === 0) return { end, linesep: false };
  const c = s.charCodeAt(i);
  if (rest === 1 && (c === 0x0a || c === 0x0d)) return { end, linesep: true };
  if (rest === 2 && c === 0x0d && s.charCodeAt(i + 1) === 0x0a) return { end, linesep: true };
  return null;
}

/**
 * The separators a line could be a delimiter for: with the line break and
 * trailing blanks removed, the line itself, or the line without a final
 * "--" (the close delimiter). Boundaries never end in whitespace
 * (get_boundary() rstrips them), so this is exact for `boundaryre`.
 */
function delimiterCandidates(s: string): [string, string | null] {
  let end = s.length - eolLength(s);
  while (end > 0 && (s.charCodeAt(end - 1) === 0x20 || s.charCodeAt(end - 1) === 0x09)) end--;
  const bare = s.slice(0, end);
  return [bare, bare.endsWith('--') ? bare.slice(0, -2) : null];
}

class LineInput {
  private idx = 0;
  private back: Line[] = [];
  private eofStack: EofMatcher[] = [];
  private nlMatchers = 0;
  /** Active boundary separators (a multiset): lets readline test a line in O(1) whatever the nesting depth. */
  private seps = new Map<string, number>();

  constructor(private readonly lines: Line[]) {}

  pushEof(m: EofMatcher): void {
    this.eofStack.push(m);
    if (m.kind === 'nl') this.nlMatchers++;
    else this.seps.set(m.sep, (this.seps.get(m.sep) ?? 0) + 1);
  }

  popEof(): void {
    const m = this.eofStack.pop();
    if (!m) return;
    if (m.kind === 'nl') this.nlMatchers--;
    else {
      const n = this.seps.get(m.sep)! - 1;
      if (n) this.seps.set(m.sep, n);
      else this.seps.delete(m.sep);
    }
  }

  /** Whether one of the false-EOF predicates on the stack matches the line. */
  private atFalseEof(s: string): boolean {
    if (this.nlMatchers > 0 && bolLength(s) > 0) return true;
    if (this.seps.size === 0 || s.charCodeAt(0) !== 0x2d || s.charCodeAt(1) !== 0x2d) return false;
    const [bare, open] = delimiterCandidates(s);
    return this.seps.has(bare) || (open !== null && this.seps.has(open));
  }

  readline(): Line {
    let line: Line | undefined = this.back.pop();
    if (line === undefined) {
      if (this.idx >= this.lines.length) return EOF_LINE;
      line = this.lines[this.idx++];
    }
    if (this.atFalseEof(line.s)) {
      this.back.push(line);
      return EOF_LINE;
    }
    return line;
  }

  unreadline(line: Line): void {
    this.back.push(line);
  }
}

/** Split into lines the way io.StringIO(newline='').readlines() does (\r\n, \r, \n kept). */
function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const n = text.length;
  let start = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      i++;
      lines.push({ s: text.slice(start, i), off: start });
      start = i;
    } else if (c === 0x0d) {
      i += text.charCodeAt(i + 1) === 0x0a ? 2 : 1;
      lines.push({ s: text.slice(start, i), off: start });
      start = i;
    } else i++;
  }
  if (start < n) lines.push({ s: text.slice(start), off: start });
  return lines;
}

/** headerRE = ^(From |[\041-\071\073-\176]*:|[\t ]) */
function isHeaderLine(s: string): boolean {
  if (s.startsWith('From ')) return true;
  const c0 = s.charCodeAt(0);
  if (c0 === 0x09 || c0 === 0x20) return true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x3a) return true;
    if (c < 0x21 || c > 0x7e) return false;
  }
  return false;
}

class FeedParser {
  private readonly input: LineInput;
  private stack: PMsg[] = [];
  private cur: PMsg | null = null;
  private last: PMsg | null = null;

  constructor(
    private readonly source: string,
    private readonly maxDepth: number,
  ) {
    this.input = new LineInput(splitLines(source));
  }

  parse(): PMsg {
    this.parsegen(1);
    const root = this.popMessage();
    if (root.getMaintype() === 'multipart' && !root.isMultipart()) root.defects.push('MultipartInvariantViolationDefect');
    return root;
  }

  private joinLines(lines: Line[]): { s: string; off: number } {
    if (lines.length === 0) return { s: '', off: -1 };
    let expected = lines[0].off;
    let contiguous = expected >= 0;
    for (const l of lines) {
      if (l.off !== expected) {
        contiguous = false;
        break;
      }
      expected = l.off + l.s.length;
    }
    if (contiguous) return { s: this.source.slice(lines[0].off, expected), off: lines[0].off };
    return { s: lines.map((l) => l.s).join(''), off: -1 };
  }

  private setPayloadLines(msg: PMsg, lines: Line[]): void {
    const j = this.joinLines(lines);
    msg.payload = j.s;
    msg.payloadOff = j.off;
  }

  private newMessage(): PMsg {
    const msg = new PMsg();
    // `if self._cur and ...`: a Message with no headers is falsy
    if (this.cur && this.cur.headers.length > 0 && this.cur.getContentType() === 'multipart/digest') {
      msg.defaultType = 'message/rfc822';
    }
    if (this.stack.length) this.stack[this.stack.length - 1].attach(msg);
    this.stack.push(msg);
    this.cur = msg;
    this.last = msg;
    return msg;
  }

  private popMessage(): PMsg {
    const m = this.stack.pop()!;
    this.cur = this.stack.length ? this.stack[this.stack.length - 1] : null;
    return m;
  }

  private readRest(): Line[] {
    const lines: Line[] = [];
    for (;;) {
      const l = this.input.readline();
      if (l.s === '') return lines;
      lines.push(l);
    }
  }

  private parsegen(depth: number): void {
    if (depth > this.maxDepth) throw new PyError('RecursionError', 'maximum recursion depth exceeded');
    const cur = this.newMessage();
    const headers: Line[] = [];
    for (;;) {
      const line = this.input.readline();
      if (line.s === '') break;
      if (!isHeaderLine(line.s)) {
        if (bolLength(line.s) === 0) {
          cur.defects.push('MissingHeaderBodySeparatorDefect');
          this.input.unreadline(line);
        }
        break;
      }
      headers.push(line);
    }
    this.parseHeaders(cur, headers);
    cur.freezeContentType();
    const ctype = cur.getContentType();
    const maintype = ctype.split('/')[0];

    if (ctype === 'message/delivery-status') {
      for (;;) {
        this.input.pushEof({ kind: 'nl' });
        this.parsegen(depth + 1);
        this.popMessage();
        this.input.popEof();
        this.input.readline();
        const line = this.input.readline();
        if (line.s === '') break;
        this.input.unreadline(line);
      }
      return;
    }
    if (maintype === 'message') {
      this.parsegen(depth + 1);
      this.popMessage();
      return;
    }
    if (maintype === 'multipart') {
      this.parseMultipart(cur, depth);
      return;
    }
    this.setPayloadLines(cur, this.readRest());
  }

  private parseMultipart(cur: PMsg, depth: number): void {
    const boundary = cur.getBoundary();
    if (boundary === null) {
      cur.defects.push('NoBoundaryInMultipartDefect');
      this.setPayloadLines(cur, this.readRest());
      return;
    }
    const cte = pyLower(cur.get('content-transfer-encoding') ?? '8bit');
    if (cte !== '7bit' && cte !== '8bit' && cte !== 'binary') cur.defects.push('InvalidMultipartContentTransferEncodingDefect');
    const sep = '--' + boundary;
    let capturingPreamble = true;
    const preamble: Line[] = [];
    let linesep = false;
    let closeSeen = false;
    for (;;) {
      const line = this.input.readline();
      if (line.s === '') break;
      const mo = matchBoundary(line.s, sep);
      if (mo) {
        if (mo.end) {
          closeSeen = true;
          linesep = mo.linesep;
          break;
        }
        if (capturingPreamble) {
          if (preamble.length) {
            const j = this.joinLines(preamble);
            cur.preamble = j.s.slice(0, j.s.length - eolLength(j.s));
          }
          capturingPreamble = false;
          this.input.unreadline(line);
          continue;
        }
        for (;;) {
          const l = this.input.readline();
          if (!matchBoundary(l.s, sep)) {
            this.input.unreadline(l);
            break;
          }
        }
        this.input.pushEof({ kind: 'boundary', sep });
        this.parsegen(depth + 1);
        const last = this.last!;
        if (last.getMaintype() === 'multipart') {
          const ep = last.epilogue;
          if (ep === '') last.epilogue = null;
          else if (ep !== null) last.epilogue = ep.slice(0, ep.length - eolLength(ep));
        } else if (typeof last.payload === 'string') {
          const p = last.payload;
          const k = eolLength(p);
          if (k) last.payload = p.slice(0, p.length - k);
        }
        this.input.popEof();
        this.popMessage();
        this.last = this.cur;
      } else {
        if (!capturingPreamble) throw new PyError('AssertionError', '');
        preamble.push(line);
      }
    }
    if (capturingPreamble) {
      cur.defects.push('StartBoundaryNotFoundDefect');
      this.setPayloadLines(cur, preamble);
      this.readRest();
      cur.epilogue = '';
      return;
    }
    if (!closeSeen) {
      cur.defects.push('CloseBoundaryNotFoundDefect');
      return;
    }
    const epilogue: string[] = linesep ? [''] : [];
    for (const l of this.readRest()) epilogue.push(l.s);
    if (epilogue.length) epilogue[0] = epilogue[0].slice(bolLength(epilogue[0]));
    cur.epilogue = epilogue.join('');
  }

  private parseHeaders(cur: PMsg, lines: Line[]): void {
    let last: Line[] = [];
    const flush = (): void => {
      if (!last.length) return;
      cur.headers.push(sourceParse(last));
      last = [];
    };
    for (let lineno = 0; lineno < lines.length; lineno++) {
      const line = lines[lineno];
      const s = line.s;
      const c0 = s.charCodeAt(0);
      if (c0 === 0x20 || c0 === 0x09) {
        if (!last.length) {
          cur.defects.push('FirstHeaderLineIsContinuationDefect');
          continue;
        }
        last.push(line);
        continue;
      }
      flush();
      if (s.startsWith('From ')) {
        if (lineno === 0) {
          cur.unixfrom = s.slice(0, s.length - eolLength(s));
          continue;
        } else if (lineno === lines.length - 1) {
          this.input.unreadline(line);
          return;
        } else {
          cur.defects.push('MisplacedEnvelopeHeaderDefect');
          continue;
        }
      }
      const i = s.indexOf(':');
      if (i === 0) {
        cur.defects.push('InvalidHeaderDefect');
        continue;
      }
      if (i < 0) throw new PyError('AssertionError', '_parse_headers fed line with no : and no leading WS');
      last = [line];
    }
    flush();
  }
}

/** Compat32.header_source_parse plus source positions. */
function sourceParse(lines: Line[]): PHeader {
  const first = lines[0].s;
  const i = first.indexOf(':');
  const name = first.slice(0, i);
  const afterColon = first.slice(i + 1);
  const lead = afterColon.length - stripCharsLeft(afterColon, ' \t').length;
  let raw = afterColon.slice(lead);
  for (let k = 1; k < lines.length; k++) raw += lines[k].s;
  const value = stripCharsRight(raw, '\r\n');
  let contiguous = lines[0].off >= 0;
  for (let k = 1; k < lines.length && contiguous; k++) {
    if (lines[k].off !== lines[k - 1].off + lines[k - 1].s.length) contiguous = false;
  }
  const start = contiguous ? lines[0].off : -1;
  const valueStart = contiguous ? start + i + 1 + lead : -1;
  return { name, value, start, end: contiguous ? valueStart + value.length : -1, valueStart };
}

// ---------------------------------------------------------------------------
// gzip (Python's gzip.GzipFile read, as util.decomp_gzip uses it)

export type GunzipResult =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; error: string; errorType: string; capExceeded: boolean };

/**
 * Decompress like `gzip.GzipFile(fileobj=BytesIO(data)).read()`. On failure,
 * `error` is `str(e)` of the Python exception (what cloud-init puts in
 * DecompressionError), `errorType` its class. Empty input decompresses to
 * empty output, as in Python.
 */
export function pyGunzip(data: Uint8Array, opts: { maxOutputBytes?: number } = {}): GunzipResult {
  const cap = opts.maxOutputBytes ?? DEFAULT_MAX_GUNZIP_BYTES;
  const fail = (errorType: string, error: string, capExceeded = false): GunzipResult => ({
    ok: false,
    error,
    errorType,
    capExceeded,
  });
  const EOF_MSG = 'Compressed file ended before the end-of-stream marker was reached';
  const n = data.length;
  const chunks: Uint8Array[] = [];
  let total = 0;
  let pos = 0;
  for (;;) {
    if (pos >= n) break;
    if (n - pos < 2 || data[pos] !== 0x1f || data[pos + 1] !== 0x8b) {
      return fail('BadGzipFile', `Not a gzipped file (${pyBytesRepr(data.subarray(pos, pos + 2))})`);
    }
    pos += 2;
    if (n - pos < 8) return fail('EOFError', EOF_MSG);
    const method = data[pos];
    const flag = data[pos + 1];
    pos += 8;
    if (method !== 8) return fail('BadGzipFile', 'Unknown compression method');
    if (flag & 4) {
      if (n - pos < 2) return fail('EOFError', EOF_MSG);
      const xlen = data[pos] | (data[pos + 1] << 8);
      pos += 2;
      if (n - pos < xlen) return fail('EOFError', EOF_MSG);
      pos += xlen;
    }
    if (flag & 8) while (pos < n && data[pos++] !== 0) {}
    if (flag & 16) while (pos < n && data[pos++] !== 0) {}
    if (flag & 2) {
      if (n - pos < 2) return fail('EOFError', EOF_MSG);
      pos += 2;
    }
    let out: Uint8Array;
    let consumed: number;
    try {
      const r = zlib().inflateRawSync(data.subarray(pos), {
        info: true,
        maxOutputLength: Math.max(1, cap - total),
      }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
      out = new Uint8Array(r.buffer.buffer, r.buffer.byteOffset, r.buffer.byteLength);
      consumed = r.engine.bytesWritten;
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) {
        return fail('GzipCapExceeded', `gzip output exceeds the ${cap}-byte limit`, true);
      }
      if (err.code === 'Z_BUF_ERROR') return fail('EOFError', EOF_MSG);
      return fail('zlib.error', `Error ${err.errno ?? -3} while decompressing data: ${err.message}`);
    }
    if (total + out.length > cap) return fail('GzipCapExceeded', `gzip output exceeds the ${cap}-byte limit`, true);
    pos += consumed;
    if (n - pos < 8) return fail('EOFError', EOF_MSG);
    const crc = (data[pos] | (data[pos + 1] << 8) | (data[pos + 2] << 16) | (data[pos + 3] << 24)) >>> 0;
    const isize = (data[pos + 4] | (data[pos + 5] << 8) | (data[pos + 6] << 16) | (data[pos + 7] << 24)) >>> 0;
    pos += 8;
    const actual = zlib().crc32(out) >>> 0;
    if (crc !== actual) return fail('BadGzipFile', `CRC check failed 0x${crc.toString(16)} != 0x${actual.toString(16)}`);
    if (isize !== out.length % 0x100000000) return fail('BadGzipFile', 'Incorrect length of data produced');
    chunks.push(out);
    total += out.length;
    while (pos < n && data[pos] === 0) pos++;
  }
  if (chunks.length === 1) return { ok: true, bytes: chunks[0] };
  const all = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    all.set(c, o);
    o += c.length;
  }
  return { ok: true, bytes: all };
}

/**
 * cloud-init's `decomp_gzip(data, quiet=True, decode=False)`: the
 * decompressed bytes, or the input unchanged when it is not valid gzip.
 * `gzipped` is true only when decompression happened (non-empty input).
 * Exceeding the cap is reported in `error` (bytes are then the input).
 */
export function gunzipIfGzip(
  bytes: Uint8Array,
  opts: { maxOutputBytes?: number } = {},
): { bytes: Uint8Array; gzipped: boolean; error?: string } {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return { bytes, gzipped: false };
  const r = pyGunzip(bytes, opts);
  if (r.ok) return { bytes: r.bytes, gzipped: true };
  if (r.capExceeded) return { bytes, gzipped: true, error: r.error };
  return { bytes, gzipped: false };
}

/**
 * cloud-init's `decomp_gzip(payload, quiet=False)` for parts declared as a
 * gzip type: `{ok: false}` is the DecompressionError (message = `str(e)`).
 */
export function decompGzipStrict(bytes: Uint8Array, opts: { maxOutputBytes?: number } = {}): GunzipResult {
  return pyGunzip(bytes, opts);
}

export type GunzipPartResult =
  | { ok: true; text: string; bytes: Uint8Array }
  | { ok: false; message: string; errorType: string; capExceeded: boolean };

/**
 * What `_process_msg` does with a part of a gzip content type:
 * `util.decomp_gzip(payload, quiet=False)` (decode=True), i.e. gunzip and
 * decode the result as strict UTF-8. Any failure, including a UnicodeDecodeError
 * of the decompressed bytes, is a DecompressionError whose text is `message`.
 */
export function gunzipPart(bytes: Uint8Array, opts: { maxOutputBytes?: number; maxBytes?: number } = {}): GunzipPartResult {
  const r = pyGunzip(bytes, { maxOutputBytes: opts.maxOutputBytes ?? opts.maxBytes });
  if (!r.ok) return { ok: false, message: r.error, errorType: r.errorType, capExceeded: r.capExceeded };
  try {
    return { ok: true, text: decodeUtf8Strict(r.bytes), bytes: r.bytes };
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    return { ok: false, message: e.message, errorType: e.pyType, capExceeded: false };
  }
}

// ---------------------------------------------------------------------------
// convert_string + walk

function containsMimeVersion(b: Uint8Array): boolean {
  const needle = 'mime-version:';
  const n = Math.min(b.length, 4096);
  outer: for (let i = 0; i + needle.length <= n; i++) {
    for (let k = 0; k < needle.length; k++) {
      let c = b[i + k];
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      if (c !== needle.charCodeAt(k)) continue outer;
    }
    return true;
  }
  return false;
}

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
      let boundary: string | null = null;
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
      transferEncoding: m.get('content-transfer-encoding') ?? null,
      defects: m.defects.slice(),
      walkIndex: index,
      depth,
    };
    if (filenameError !== undefined) leaf.filenameError = filenameError;
    if (span) leaf.span = span;
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

/** cloud-init's `convert_string(bytes)` followed by `msg.walk()` (multipart containers reported separately). */
export function convertUserDataBlob(bytes: Uint8Array, opts: MimeOptions = {}): ConvertedBlob {
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
  if (!containsMimeVersion(data)) return notMultipart(data, gz.gzipped);
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
