/**
 * The URL fragment that reproduces a question: `#parts=<base64url of JSON [{"name","text"}]>&image=ID`.
 * The JSON is UTF-8; base64url without padding (padding is accepted when read).
 */
import type { Part } from './answer';

export interface Question {
  parts: Part[];
  image?: string;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function encodeQuestion(q: Question): string {
  const parts = toBase64Url(new TextEncoder().encode(JSON.stringify(q.parts.map((p) => ({ name: p.name, text: p.text })))));
  return `#parts=${parts}${q.image ? `&image=${encodeURIComponent(q.image)}` : ''}`;
}

/** The question a fragment asks, or a sentence saying why it cannot be read; undefined when it asks none. */
export function decodeQuestion(fragment: string): Question | string | undefined {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const encoded = params.get('parts');
  const image = params.get('image') ?? undefined;
  if (encoded === null) return image ? { parts: [], image } : undefined;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(encoded)));
  } catch (e) {
    return `The link's parts cannot be read: ${(e as Error).message}`;
  }
  if (!Array.isArray(value) || !value.every((p): p is Part => typeof p === 'object' && p !== null && typeof (p as Part).name === 'string' && typeof (p as Part).text === 'string')) {
    return 'The link\'s parts are not a list of {"name", "text"}';
  }
  return { parts: value.map((p) => ({ name: p.name, text: p.text })), ...(image ? { image } : {}) };
}
