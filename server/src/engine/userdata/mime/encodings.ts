/**
 * The content transfer encodings `Message.get_payload(decode=True)` undoes, as CPython 3.11 does:
 * base64 through `email._encoded_words.decode_b` (Lib/email/_encoded_words.py: a strict pass, then
 * the lenient passes, each with its defects; undecodable input returned as is) and x-uuencode through
 * `email.message._decode_uu` (Lib/email/message.py). binascii itself is engine/py/binascii.ts.
 *
 * Residual difference: the text of a ValueError raised by `_decode_uu` may differ from Python's (the
 * type is exact).
 */
import { PyError } from '../../py/errors';
import { a2bBase64, a2bUu } from '../../py/binascii';
import { bytesFromLatin1, latin1FromBytes } from '../../py/codecs';
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
