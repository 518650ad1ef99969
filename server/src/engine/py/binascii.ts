/**
 * CPython 3.11's `binascii` (and `base64.encodebytes` on top of it): base64 both ways, quoted-printable
 * and uuencode decoding, with Python's errors (`binascii.Error`). Shared by the YAML loader (`!!binary`),
 * the dumper (bytes are written as `!!binary`) and the `email` port (transfer encodings, encoded words).
 *
 * Residual differences: none known (the MIME and YAML differentials exercise them).
 */
import { PyError } from './errors';

/** `base64.encodebytes`: lines of at most 76 characters, each ending in a newline. */
export function b2aBase64Lines(bytes: Uint8Array): string {
  const b64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  const parts: string[] = [];
  for (let i = 0; i < b64.length; i += 76) parts.push(b64.slice(i, i + 76), '\n');
  return parts.join('');
}

/** binascii.a2b_base64(data, strict_mode=strict) as in CPython 3.11. */
export function a2bBase64(data: Uint8Array, strict: boolean): Uint8Array {
  const err = (m: string): PyError => new PyError('binascii.Error', m);
  if (strict && data.length > 0 && data[0] === 0x3d) throw err('Leading padding not allowed');
  const out = new Uint8Array(Math.floor((data.length + 3) / 4) * 3);
  let o = 0;
  let quadPos = 0;
  let leftchar = 0;
  let pads = 0;
  let paddingStarted = false;
  for (let i = 0; i < data.length; i++) {
    const ch = data[i];
    if (ch === 0x3d) {
      paddingStarted = true;
      if (quadPos >= 2 && quadPos + ++pads >= 4) {
        if (strict && i + 1 < data.length) throw err('Excess data after padding');
        return out.slice(0, o);
      }
      continue;
    }
    const v = B64_REV[ch];
    if (v < 0) {
      if (strict) throw err('Only base64 data is allowed');
      continue;
    }
    if (strict && paddingStarted) throw err('Discontinuous padding not allowed');
    pads = 0;
    switch (quadPos) {
      case 0:
        quadPos = 1;
        leftchar = v;
        break;
      case 1:
        quadPos = 2;
        out[o++] = ((leftchar << 2) | (v >> 4)) & 0xff;
        leftchar = v & 0x0f;
        break;
      case 2:
        quadPos = 3;
        out[o++] = ((leftchar << 4) | (v >> 2)) & 0xff;
        leftchar = v & 0x03;
        break;
      default:
        quadPos = 0;
        out[o++] = ((leftchar << 6) | v) & 0xff;
        leftchar = 0;
    }
  }
  if (quadPos !== 0) {
    if (quadPos === 1)
      throw err(
        `Invalid base64-encoded string: number of data characters (${Math.floor(o / 3) * 4 + 1}) cannot be 1 more than a multiple of 4`,
      );
    throw err('Incorrect padding');
  }
  return out.slice(0, o);
}

const B64_REV: Int8Array = (() => {
  const t = new Int8Array(256).fill(-1);
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < abc.length; i++) t[abc.charCodeAt(i)] = i;
  return t;
})();

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function hexVal(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10;
}

/** binascii.a2b_qp(data) (header=False), i.e. quopri.decodestring. */
export function a2bQp(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  let o = 0;
  let i = 0;
  const n = data.length;
  while (i < n) {
    if (data[i] === 0x3d) {
      i++;
      if (i >= n) break;
      if (data[i] === 0x0a || data[i] === 0x0d) {
        if (data[i] !== 0x0a) while (i < n && data[i] !== 0x0a) i++;
        if (i < n) i++;
      } else if (data[i] === 0x3d) {
        out[o++] = 0x3d;
        i++;
      } else if (i + 1 < n && isHexDigit(data[i]) && isHexDigit(data[i + 1])) {
        out[o++] = (hexVal(data[i]) << 4) | hexVal(data[i + 1]);
        i += 2;
      } else {
        out[o++] = 0x3d;
      }
    } else {
      out[o++] = data[i++];
    }
  }
  return out.slice(0, o);
}

/** binascii.a2b_uu for one line. */
export function a2bUu(line: Uint8Array): Uint8Array {
  const err = (m: string): PyError => new PyError('binascii.Error', m);
  let p = 0;
  let len = line.length;
  let binLen = ((len > 0 ? line[0] : 0) - 0x20) & 0x3f;
  p++;
  len--;
  const out = new Uint8Array(binLen);
  let o = 0;
  let leftchar = 0;
  let leftbits = 0;
  for (; binLen > 0; len--, p++) {
    let ch = len > 0 ? line[p] : 0;
    if (ch === 0x0a || ch === 0x0d || len <= 0) ch = 0;
    else {
      if (ch < 0x20 || ch > 0x20 + 64) throw err('Illegal char');
      ch = (ch - 0x20) & 0x3f;
    }
    leftchar = ((leftchar << 6) | ch) >>> 0;
    leftbits += 6;
    if (leftbits >= 8) {
      leftbits -= 8;
      out[o++] = (leftchar >>> leftbits) & 0xff;
      leftchar &= (1 << leftbits) - 1;
      binLen--;
    }
  }
  while (len-- > 0) {
    const ch = line[p++];
    if (ch !== 0x20 && ch !== 0x20 + 64 && ch !== 0x0a && ch !== 0x0d) throw err('Trailing garbage');
  }
  return out;
}

