/**
 * SHA-512 crypt (`$6$`), the scheme of glibc's crypt(3) and of `openssl passwd -6`, written from Ulrich
 * Drepper's public specification "Unix crypt using SHA-256 and SHA-512" with node:crypto's SHA-512. It
 * makes the hash a plaintext password is replaced by: computed here, never sent anywhere.
 */
import { createHash, randomBytes } from 'node:crypto';

/** The alphabet of crypt's base64 (`./0-9A-Za-z`, least significant six bits first). */
export const CRYPT_ALPHABET = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Rounds when the salt names none; the spec's bounds on those it names. */
export const DEFAULT_ROUNDS = 5000;
const MIN_ROUNDS = 1000;
const MAX_ROUNDS = 999_999_999;
const SALT_MAX = 16;

function sha512(...parts: Uint8Array[]): Buffer {
  const h = createHash('sha512');
  for (const p of parts) h.update(p);
  return h.digest();
}

/** `source` repeated to `length` bytes. */
function stretch(source: Uint8Array, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += source.length) out.set(source.subarray(0, Math.min(source.length, length - i)), i);
  return out;
}

/**
 * The crypt string of `password` with `salt` (at most 16 characters are used) and `rounds` (clamped to
 * 1,000..999,999,999; written in the result only when given, as crypt writes `rounds=` only when the
 * setting had it).
 */
export function sha512Crypt(password: string, salt: string, rounds?: number): string {
  const key = Buffer.from(password, 'utf8');
  const saltBytes = Buffer.from(salt, 'utf8').subarray(0, SALT_MAX);
  const count = rounds === undefined ? DEFAULT_ROUNDS : Math.min(MAX_ROUNDS, Math.max(MIN_ROUNDS, Math.floor(rounds)));

  const b = sha512(key, saltBytes, key);
  const a = createHash('sha512');
  a.update(key);
  a.update(saltBytes);
  a.update(stretch(b, key.length));
  for (let n = key.length; n > 0; n >>= 1) a.update(n & 1 ? b : key);
  let c = a.digest();

  const dp = createHash('sha512');
  for (let i = 0; i < key.length; i++) dp.update(key);
  const p = stretch(dp.digest(), key.length);
  const ds = createHash('sha512');
  for (let i = 0; i < 16 + c[0]; i++) ds.update(saltBytes);
  const s = stretch(ds.digest(), saltBytes.length);

  for (let i = 0; i < count; i++) {
    const h = createHash('sha512');
    h.update(i & 1 ? p : c);
    if (i % 3) h.update(s);
    if (i % 7) h.update(p);
    h.update(i & 1 ? c : p);
    c = h.digest();
  }

  let encoded = '';
  const put = (b2: number, b1: number, b0: number, chars: number) => {
    let w = (b2 << 16) | (b1 << 8) | b0;
    for (let i = 0; i < chars; i++, w >>= 6) encoded += CRYPT_ALPHABET[w & 0x3f];
  };
  // The spec's byte order: triples (k, k+21, k+42), rotated by k mod 3, then the last byte alone.
  for (let k = 0; k < 21; k++) {
    const t = [c[k], c[k + 21], c[k + 42]];
    const r = k % 3;
    put(t[r], t[(r + 1) % 3], t[(r + 2) % 3], 4);
  }
  put(0, 0, c[63], 2);
  const setting = rounds === undefined ? '' : `rounds=${count}$`;
  return `$6$${setting}${saltBytes.toString('utf8')}$${encoded}`;
}

/** A fresh 16-character salt from the system's random source. */
export function randomSalt(): string {
  const bytes = randomBytes(SALT_MAX);
  let salt = '';
  for (const byte of bytes) salt += CRYPT_ALPHABET[byte & 0x3f];
  return salt;
}

/** crypt(password, setting) for a `$6$` setting (`$6$salt`, `$6$rounds=N$salt`, or a whole hash whose salt is reused). */
export function sha512CryptWithSetting(password: string, setting: string): string | undefined {
  const m = /^\$6\$(?:rounds=(\d+)\$)?([^$]*)/.exec(setting);
  if (!m) return undefined;
  return sha512Crypt(password, m[2], m[1] === undefined ? undefined : Number(m[1]));
}
