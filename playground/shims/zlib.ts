/**
 * The few node:zlib functions the engine calls, for the browser (pako, a port of zlib): raw inflate with the
 * count of input bytes it consumed (engine/userdata/gzip.ts reads gzip members itself), gzip, and CRC-32.
 * Errors carry the codes and errno node:zlib gives, which gzip.ts turns into Python's exceptions.
 */
import { Inflate, gzip, constants } from 'pako';

class ZlibError extends Error {
  constructor(message: string, readonly code: string, readonly errno: number) {
    super(message);
  }
}

export function inflateRawSync(data: Uint8Array, options: { info?: boolean; maxOutputLength?: number } = {}): unknown {
  const inflator = new Inflate({ raw: true, chunkSize: 64 * 1024 }) as Inflate & { ended: boolean; strm: { total_in: number } };
  const max = options.maxOutputLength ?? Infinity;
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Kept here rather than in pako's list, to stop at the cap as node:zlib's maxOutputLength does.
  inflator.onData = (chunk: Uint8Array) => {
    total += chunk.length;
    if (total > max) throw new RangeError('Cannot create a Buffer larger than maxOutputLength');
    chunks.push(chunk);
  };
  inflator.push(data, false);
  if (inflator.err) throw new ZlibError(inflator.msg || 'invalid data', inflator.err === constants.Z_BUF_ERROR ? 'Z_BUF_ERROR' : 'Z_DATA_ERROR', inflator.err);
  // No end-of-stream marker before the data ran out: node:zlib's "unexpected end of file".
  if (!inflator.ended) throw new ZlibError('unexpected end of file', 'Z_BUF_ERROR', constants.Z_BUF_ERROR);
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  const buffer = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  return options.info ? { buffer, engine: { bytesWritten: inflator.strm.total_in } } : buffer;
}

export function gzipSync(data: Uint8Array | string): Buffer {
  const out = gzip(typeof data === 'string' ? new TextEncoder().encode(data) : data);
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

let table: Uint32Array | undefined;
export function crc32(data: Uint8Array | string, value = 0): number {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = (value ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
