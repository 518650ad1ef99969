/**
 * gzip as cloud-init reads it: `util.decomp_gzip` over Python's `gzip.GzipFile(fileobj=BytesIO(data))
 * .read()` (Lib/gzip.py): several members, zero padding between and after members, anything else
 * after a member is an error (so the whole blob stays compressed), CRC and length checked, header
 * CRC skipped, reserved flag bits ignored; and what `_process_msg` does with a gzip part.
 *
 * Residual difference: output is capped (`maxGunzipBytes`, default 64 MiB) where Python has none;
 * exceeding it is an explicit 'GzipCapExceeded' error.
 */
/** node:zlib (and node:stream under it) loaded when a gzip part is met: most inputs have none, and every start-up would pay for it. */
const zlib = (): typeof import('node:zlib') => require('node:zlib') as typeof import('node:zlib');
import { PyError } from '../py/errors';
import { pyBytesRepr } from '../py/repr';
import { decodeUtf8Strict } from '../py/codecs';

/** What is decompressed at most (Python has no cap). */
export const DEFAULT_MAX_GUNZIP_BYTES = 64 * 1024 * 1024;

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
    if (flag & 8) while (pos < n && data[pos++] !== 0) { /* the zero-terminated file name */ }
    if (flag & 16) while (pos < n && data[pos++] !== 0) { /* the zero-terminated comment */ }
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
