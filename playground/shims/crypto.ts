/** The node:crypto the engine calls (engine/secrets/sha512Crypt.ts), for the browser: SHA-512 and random bytes. */
import { sha512 } from '@noble/hashes/sha2.js';

export function createHash(algorithm: string): { update(data: Uint8Array | string): unknown; digest(): Buffer } {
  if (algorithm !== 'sha512') throw new Error(`${algorithm} is not available in the browser`);
  const h = sha512.create();
  const self = {
    update(data: Uint8Array | string) {
      h.update(typeof data === 'string' ? new TextEncoder().encode(data) : data);
      return self;
    },
    digest() {
      const d = h.digest();
      return Buffer.from(d.buffer, d.byteOffset, d.byteLength);
    },
  };
  return self;
}

export function randomBytes(size: number): Buffer {
  const out = Buffer.alloc(size);
  crypto.getRandomValues(out);
  return out;
}
