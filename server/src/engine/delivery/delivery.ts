/**
 * What the user delivers to a cloud as user-data, held to that cloud's limit (limits.ts): its size as
 * the cloud counts it, what gzip would save (cloud-init gunzips user-data itself), and a file that is
 * base64 text, which cloud-init does not decode: delivered as text (the API or the tool base64-encodes it
 * once more), cloud-init sees text it has no handler for ("Unhandled non-multipart
 * (text/x-not-multipart) userdata") and nothing of it is used.
 */
import { typeFromStartsWith, hasMimeVersion } from '../../../../common/detect';
import { unwrapRendered } from '../userdata/terraform';
import { MakeMimeError, attachmentText, inferSubtype, makeMime, pythonStyleBoundary } from '../userdata/makeMime';
import { base64Length, cloudLimit, type CloudLimit, type CloudName } from './limits';

/** Loaded when a size is measured (start-up need not pay for node:zlib). */
const gzipSync = (): typeof import('node:zlib').gzipSync => (require('node:zlib') as typeof import('node:zlib')).gzipSync;

/** What a base64 file holds once decoded: user-data, gzip, or base64 again. */
export type DoubleEncoding = 'base64-of-user-data' | 'base64-of-gzip' | 'base64-of-base64';

export interface DeliverySize {
  /** The bytes cloud-init receives. */
  raw: number;
  /** As the cloud counts them (raw, or the length of their base64 text). */
  counted: number;
}

export interface DeliveryReport {
  limit: CloudLimit;
  /** What is delivered, in words (a file name, or a MIME multipart of the files). */
  what: string;
  size: DeliverySize;
  over: boolean;
  /** The same gzip-compressed (level 9), or null when it already is gzip. */
  gzip: (DeliverySize & { fits: boolean }) | null;
  /** The file is base64 text: what it decodes to. */
  doubleEncoded?: DoubleEncoding;
}

const isGzip = (b: Uint8Array) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

function sizeOf(raw: number, limit: CloudLimit): DeliverySize {
  return { raw, counted: limit.counted === 'base64' ? base64Length(raw) : raw };
}

/** Whether the bytes are base64 text, and of what (user-data cloud-init reads, gzip, or base64 again). */
export function doubleEncodingOf(bytes: Uint8Array): DoubleEncoding | undefined {
  const once = unwrapRendered(bytes);
  if (!once.base64) return undefined;
  const inner = once.bytes;
  if (isGzip(inner)) return 'base64-of-gzip';
  if (unwrapRendered(inner).base64) return 'base64-of-base64';
  const text = new TextDecoder('utf-8', { fatal: false }).decode(inner.subarray(0, 4096));
  if (hasMimeVersion(inner) || typeFromStartsWith(text) !== null) return 'base64-of-user-data';
  return undefined;
}

/** `bytes` (what the user gives the cloud as user-data, `what` in words) against `cloud`'s limit. */
export function deliveryReport(bytes: Uint8Array, what: string, cloud: CloudName): DeliveryReport {
  const limit = cloudLimit(cloud);
  const size = sizeOf(bytes.length, limit);
  let gzip: DeliveryReport['gzip'] = null;
  if (!isGzip(bytes) && bytes.length) {
    const packed = sizeOf(gzipSync()(bytes, { level: 9 }).length, limit);
    gzip = { ...packed, fits: packed.counted <= limit.bytes };
  }
  const doubleEncoded = doubleEncodingOf(bytes);
  return { limit, what, size, over: size.counted > limit.bytes, gzip, ...(doubleEncoded ? { doubleEncoded } : {}) };
}

/**
 * What the user gives the cloud for these user-data files: one file as it is; several as the one MIME
 * multipart `cloud-init devel make-mime` (or Build MIME User-Data) makes of them, each part's type from its
 * first line (the boundary's digits fixed, so the size is always the same).
 */
export function deliveredBlob(files: ReadonlyArray<{ name: string; bytes: Uint8Array }>): { bytes: Uint8Array; what: string } | { error: string } {
  if (files.length === 1) return { bytes: files[0].bytes, what: files[0].name };
  try {
    const attachments = files.map((f) => {
      const text = attachmentText(f.name, f.bytes);
      return { filename: f.name, subtype: inferSubtype(f.name, text), text };
    });
    return { bytes: new TextEncoder().encode(makeMime(attachments, pythonStyleBoundary(() => '0'.repeat(19)))), what: `the MIME multipart of these ${files.length} files (make-mime)` };
  } catch (e) {
    if (e instanceof MakeMimeError) return { error: `these ${files.length} files cannot be made into one MIME multipart: ${e.message}` };
    throw e;
  }
}

/** Why user-data files could not be measured for a cloud. */
export interface DeliveryNotMeasured {
  limit: CloudLimit;
  error: string;
}

/** The user-data files as delivered to `cloud` (deliveredBlob), held to its limit. */
export function deliveryOfFiles(files: ReadonlyArray<{ name: string; bytes: Uint8Array }>, cloud: CloudName): DeliveryReport | DeliveryNotMeasured {
  const blob = deliveredBlob(files);
  return 'error' in blob ? { limit: cloudLimit(cloud), error: blob.error } : deliveryReport(blob.bytes, blob.what, cloud);
}
