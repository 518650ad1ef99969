/** Seeded random inputs for the differential tests: specs, values and multi-part user-data. */
import { gzipSync } from 'node:zlib';

export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 1;
  }
  /** mulberry32 */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  /** a <= n <= b. */
  range(a: number, b: number): number {
    return a + this.int(b - a + 1);
  }
  some<T>(items: readonly T[], max: number): T[] {
    const n = this.int(max + 1);
    return Array.from({ length: n }, () => this.pick(items));
  }
}

const NAMES = ['list', 'dict', 'str', 'list', 'dict', 'str', 'm_list', 'm_dict', 'LIST', 'Dict', 'STR', 'foo', 'li-st'];
const OPTIONS = ['append', 'prepend', 'replace', 'no_replace', 'no-replace', 'allow_delete', 'recurse_dict', 'recurse_list', 'recurse_array', 'recurse_str', 'APPEND', 'bogus', ''];

/** A string-form spec, usually valid, sometimes with the quirks cloud-init accepts or rejects. */
export function stringSpec(r: Rng): string {
  const pieces = Array.from({ length: 1 + r.int(3) }, () => {
    const name = r.pick(NAMES);
    const opts = r.some(OPTIONS, 3).join(r.pick([',', ', ', ' , ']));
    const roll = r.next();
    if (roll < 0.03) return name;
    if (roll < 0.05) return `${name} (${opts})`;
    if (roll < 0.07) return `${name}(${opts})x`;
    if (roll < 0.09) return `${name}(${opts}`;
    if (roll < 0.11) return `${name}()${r.pick(NAMES)}()`;
    if (roll < 0.13) return `${name}(${opts}+${r.pick(OPTIONS)})`;
    return `${r.chance(0.1) ? ' ' : ''}${name}(${opts})${r.chance(0.1) ? ' ' : ''}`;
  });
  if (r.chance(0.05)) pieces.push('');
  return pieces.join('+');
}

/** A list/dict-form spec value, with the shapes users write (right and wrong). */
export function listSpec(r: Rng): unknown {
  const entries = Array.from({ length: 1 + r.int(3) }, () => {
    const name = r.pick(NAMES);
    const settings = r.some(OPTIONS.filter(Boolean), 3);
    const roll = r.next();
    if (roll < 0.05) return name;
    if (roll < 0.1) return [name, ...settings];
    if (roll < 0.13) return { name, settings: settings.join(',') };
    if (roll < 0.15) return { name };
    if (roll < 0.17) return { name, settings: null };
    if (roll < 0.19) return { name, settings: Object.fromEntries(settings.map((s) => [s, 1])) };
    return { name, settings };
  });
  if (r.chance(0.03)) return { name: 'list', settings: ['append'] };
  if (r.chance(0.02)) return 5;
  return entries;
}

const KEYS = ['a', 'b', 'c', 'runcmd', 'packages', 'users', 'merge_how', 'x-y'];

/** A random JSON value with overlapping keys, so merges collide often. */
export function value(r: Rng, depth = 0): unknown {
  const roll = r.next();
  if (depth >= 3 || roll < 0.3) {
    // (JSON.stringify writes 2.0 as 2, so floats here are non-integral.)
    return r.pick<unknown>([0, 1, 2, -7, 1.5, -0.25, true, false, null, 'x', 'yes', '', 'ab c', 'é', '1', 100000000000000000000]);
  }
  if (roll < 0.6) return Array.from({ length: r.int(4) }, () => value(r, depth + 1));
  const out: Record<string, unknown> = {};
  for (let i = r.int(4); i >= 0; i--) out[r.pick(KEYS)] = value(r, depth + 1);
  return out;
}

/** A top-level mapping, as a part or a config file is. */
export function mapping(r: Rng): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 1 + r.int(4); i > 0; i--) out[r.pick(KEYS.filter((k) => k !== 'merge_how'))] = value(r, 1);
  return out;
}

export interface SpecCase {
  kind: 'spec';
  spec: unknown;
  values: unknown[];
}

export function specCase(r: Rng): SpecCase {
  const spec = r.chance(0.75) ? stringSpec(r) : listSpec(r);
  const values = Array.from({ length: 2 + r.int(2) }, () => (r.chance(0.85) ? mapping(r) : value(r)));
  return { kind: 'spec', spec, values };
}

/** YAML text for a JSON value: JSON is YAML, and flow style keeps it simple to vary. */
function yamlOf(v: unknown): string {
  return JSON.stringify(v);
}

function cloudConfigBody(r: Rng): string {
  const body = mapping(r);
  const lines = ['#cloud-config'];
  const specRoll = r.next();
  if (specRoll < 0.35) lines.push(`merge_how: ${JSON.stringify(stringSpec(r))}`);
  else if (specRoll < 0.45) lines.push(`merge_how: ${yamlOf(listSpec(r))}`);
  else if (specRoll < 0.55) lines.push(`merge_type: ${JSON.stringify(stringSpec(r))}`);
  else if (specRoll < 0.6) lines.push(`merge_how: ${JSON.stringify(stringSpec(r))}`, `merge_type: ${JSON.stringify(stringSpec(r))}`);
  for (const [k, v] of Object.entries(body)) lines.push(`${k}: ${yamlOf(v)}`);
  if (r.chance(0.05)) lines.push('bad: [unclosed');
  return lines.join('\n') + '\n';
}

const HEADER_NAMES = ['Merge-Type', 'X-Merge-Type', 'merge-type', 'MERGE-TYPE', 'x-merge-type'];

function mimePart(r: Rng, index: number): string {
  const body = r.chance(0.1) ? '#!/bin/sh\necho hi\n' : cloudConfigBody(r);
  const headers = [`Content-Type: ${r.pick(['text/cloud-config', 'text/plain', 'text/x-shellscript', 'text/cloud-config; charset="us-ascii"'])}`, 'MIME-Version: 1.0'];
  if (r.chance(0.3)) headers.push(`Content-Disposition: attachment; filename="part${index}.yaml"`);
  for (const name of r.some(HEADER_NAMES, 2)) headers.push(`${name}: ${stringSpec(r)}`);
  if (r.chance(0.2)) {
    headers.push('Content-Transfer-Encoding: base64');
    return headers.join('\n') + '\n\n' + Buffer.from(body).toString('base64').replace(/.{76}/g, '$&\n') + '\n';
  }
  return headers.join('\n') + '\n\n' + body;
}

function mimeBlob(r: Rng): string {
  const boundary = `==BOUNDARY${r.int(1e6)}==`;
  const parts = Array.from({ length: 1 + r.int(4) }, (_, i) => mimePart(r, i));
  return `Content-Type: multipart/mixed; boundary="${boundary}"\nMIME-Version: 1.0\n\n` + parts.map((p) => `--${boundary}\n${p}`).join('\n') + `\n--${boundary}--\n`;
}

function archiveBlob(r: Rng): string {
  const entries = Array.from({ length: 1 + r.int(3) }, () => {
    const entry: Record<string, unknown> = { content: cloudConfigBody(r) };
    if (r.chance(0.5)) entry.type = 'text/cloud-config';
    if (r.chance(0.4)) entry[r.pick(HEADER_NAMES)] = stringSpec(r);
    if (r.chance(0.2)) entry.filename = `entry${r.int(9)}.cfg`;
    return entry;
  });
  return '#cloud-config-archive\n' + JSON.stringify(entries) + '\n';
}

function jsonpBlob(r: Rng): string {
  const ops = Array.from({ length: 1 + r.int(2) }, () => r.pick([{ op: 'add', path: `/${r.pick(KEYS)}`, value: value(r, 2) }, { op: 'remove', path: `/${r.pick(KEYS)}` }, { op: 'replace', path: `/${r.pick(KEYS)}`, value: 1 }]));
  return '#cloud-config-jsonp\n' + JSON.stringify(ops) + '\n';
}

export interface UserDataCase {
  kind: 'userdata';
  blobs: string[];
  include_missing: 'error' | 'skip';
}

export function userDataCase(r: Rng): UserDataCase {
  const blobs = Array.from({ length: 1 + r.int(3) }, () => {
    const roll = r.next();
    let text: Buffer;
    if (roll < 0.45) text = Buffer.from(cloudConfigBody(r));
    else if (roll < 0.8) text = Buffer.from(mimeBlob(r));
    else if (roll < 0.9) text = Buffer.from(archiveBlob(r));
    else text = Buffer.from(jsonpBlob(r));
    if (r.chance(0.05)) text = gzipSync(text);
    return text.toString('base64');
  });
  return { kind: 'userdata', blobs, include_missing: r.chance(0.5) ? 'error' : 'skip' };
}
