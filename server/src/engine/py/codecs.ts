/**
 * CPython's codecs as user-data needs them: UTF-8 decoding with the 'strict', 'replace' and
 * 'surrogateescape' error handlers (CPython's error ranges and UnicodeDecodeError text), UTF-8
 * encoding with surrogateescape, `raw-unicode-escape` encoding, latin-1, and `codecs.lookup` with
 * `encodings.normalize_encoding` and the alias table for the three codecs implemented here.
 * Python originals: Objects/unicodeobject.c (utf-8, raw-unicode-escape), Python/codecs.c (the error
 * handlers), Lib/encodings/__init__.py and aliases.py.
 *
 * Residual differences:
 * - Only the ascii, latin-1 and utf-8 codecs exist: a name Python maps to another codec (cp1252,
 *   utf-16, koi8-r ...) looks up as unknown (null), where Python would decode with that codec.
 * - Lone surrogates other than U+DC80..U+DCFF cannot be encoded with surrogateescape (Python raises);
 *   `encodeUtf8Surrogateescape` writes U+FFFD for them.
 */
import { PyError } from './errors';
export function bytesFromLatin1(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

export function latin1FromBytes(b: Uint8Array): string {
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
export function lookupCodec(name: string): 'ascii' | 'latin_1' | 'utf_8' | null {
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

export function decodeWithCodec(bytes: Uint8Array, codec: 'ascii' | 'latin_1' | 'utf_8'): string {
  if (codec === 'utf_8') return decodeUtf8(bytes, 'replace');
  if (codec === 'latin_1') return latin1FromBytes(bytes);
  let out = '';
  for (const b of bytes) out += b < 0x80 ? String.fromCharCode(b) : '\ufffd';
  return out;
}
