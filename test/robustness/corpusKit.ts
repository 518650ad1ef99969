/**
 * The vocabulary of the hostile-input corpus (corpus.ts): what a case is, what it must answer, the
 * generators of big inputs (also used by the regression tests), and writing a case's files to disk.
 */
import { closeSync, ftruncateSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';

export type Bytes = Uint8Array | string;

export interface HostileCase {
  name: string;
  /** Why it is hostile / what it exercises. */
  about: string;
  /**
   * The files, by relative name; `{dir}` in a text is replaced by the directory
   * they are written to. The first file is the input unless `args` says otherwise.
   */
  files: () => Record<string, Bytes>;
  /** CLI arguments before the input paths (paths are relative to the directory). */
  args?: string[];
  /** The inputs given to the CLI (default: the first file). */
  inputs?: string[];
  /** Expected CLI result (default output format). */
  cli: { code: 0 | 2 | 3 | 4; stderr?: RegExp[]; stdout?: RegExp[] };
  /** Other formats to check in-process (same exit code unless given). */
  formats?: Partial<Record<'json' | 'report' | 'preview', { code: 0 | 2 | 3 | 4; stderr?: RegExp[]; stdout?: RegExp[] }>>;
  /**
   * What analyzeDocument finds in the first input, with its defaults (no schema check): each finding
   * code with its count, and a finding whose `code: message` matches (false: not an editor document).
   */
  analyze: false | { codes: Record<string, number>; finding?: RegExp; maxBytes?: number };
  /**
   * What buildPreview's text (wrapped header lines joined again) says beyond cloud-init's own record (corpus-cloud-init.json,
   * checked for every case the oracle answers): our notes and limits (false: skip).
   */
  preview?: false | { text?: RegExp[]; failure?: RegExp; dropped?: boolean };
  /** What the user sees with the first input open in the editor (false: an editor would not open it). */
  editor: false | EditorView;
  /** Needs more time than the others (big inputs): CPU budget for the child, ms. */
  cpuBudgetMs?: number;
}

/** The first input open in the editor (the language server, with its default settings: the schema is checked). */
export interface EditorView {
  /** documentInfo's kind (the language status item): null for a document that is not cloud-init's. */
  kind: string | null;
  /** Each diagnostic code with its count (at most 1,000 diagnostics and `too-many-problems` are shown). */
  codes: Record<string, number>;
  /** The first diagnostic by position: words of its message, its range [line, character, end line, end character]. */
  first?: { message: RegExp; range: [number, number, number, number] };
  /**
   * The preview, where the editor's text is not the file's bytes (the editor decodes them: a byte order mark
   * goes, bad bytes become U+FFFD) or the editor reads includes differently from the CLI; otherwise the preview
   * must tell cloud-init's recorded story and write its cloud-config.txt, plus `preview.text` above.
   */
  preview?: { text?: RegExp[]; failure?: RegExp };
}


export const CC = '#cloud-config\n';
export const enc = (s: string) => Buffer.from(s, 'utf8');

/** `a: &a [lol x9]`, then `levels` more lists of nine aliases of the previous one. */
export function billionLaughs(levels: number, key = 'l'): string {
  let out = `${key}0: &${key}0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n`;
  for (let i = 1; i <= levels; i++) out += `${key}${i}: &${key}${i} [${Array(9).fill(`*${key}${i - 1}`).join(',')}]\n`;
  return out;
}

/** `levels` mappings, each merging the one before twice: 2^levels pairs once PyYAML flattens the merges. */
export function mergeKeyBomb(levels: number): string {
  let out = 'l0: &l0 {a: 1, b: 2}\n';
  for (let i = 1; i <= levels; i++) out += `l${i}: &l${i} {<<: [*l${i - 1}, *l${i - 1}]}\n`;
  return out;
}

export function flowNest(depth: number, open = '[', close = ']', leaf = ''): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

/** `n` block mappings nested under `a:` with 1-space indentation (the root counts). */
export function blockMapNest(n: number, leaf = '1'): string {
  let out = '';
  for (let i = 0; i < n - 1; i++) out += ' '.repeat(i) + 'a:\n';
  return out + ' '.repeat(n - 1) + 'a: ' + leaf + '\n';
}

/** A value nested `dicts` mappings deep (root included) with `lists` lists inside, as gen3 in README.md. */
export function mixedNest(dicts: number, lists: number, leaf: string): string {
  const inner = '['.repeat(lists) + leaf + ']'.repeat(lists);
  return 'a: ' + '{a: '.repeat(dicts - 1) + inner + '}'.repeat(dicts - 1) + '\n';
}

export function mime(parts: Array<{ headers?: string; body: string }>, boundary = 'BOUNDARY'): string {
  let out = `Content-Type: multipart/mixed; boundary="${boundary}"\nMIME-Version: 1.0\n\n`;
  for (const p of parts) out += `--${boundary}\n${p.headers ?? 'Content-Type: text/cloud-config'}\n\n${p.body}\n`;
  return out + `--${boundary}--\n`;
}

/** A gzip stream that inflates to `size` bytes of `fill` (about size/1000 bytes compressed). */
export function gzipBomb(size: number, prefix = '', fill = 0x20): Uint8Array {
  // Deflate of a long run is ~1/1000; build it from chunks so memory stays small.
  const chunk = Buffer.alloc(16 * 1024 * 1024, fill);
  const pieces: Buffer[] = [Buffer.from(prefix)];
  let left = size - prefix.length;
  while (left > 0) {
    pieces.push(chunk.subarray(0, Math.min(left, chunk.length)));
    left -= chunk.length;
  }
  return gzipSync(Buffer.concat(pieces), { level: 9 });
}
export interface Materialised {
  dir: string;
  /** The inputs, as paths (what the CLI is given). */
  inputs: string[];
  files: Array<{ name: string; bytes: Uint8Array }>;
}

/** Writes a case's files to `root/<name>/` (`{dir}` replaced by that directory). */
export function materialise(c: HostileCase, root: string): Materialised {
  const dir = path.join(root, c.name);
  mkdirSync(dir, { recursive: true });
  const files: Materialised['files'] = [];
  for (const [name, content] of Object.entries(c.files())) {
    const bytes = typeof content === 'string' ? Buffer.from(content.split('{dir}').join(dir), 'utf8') : content;
    writeFileSync(path.join(dir, name), bytes);
    files.push({ name, bytes });
  }
  if (c.name === 'file-100MB-sparse') {
    // A hole, not 100 MB of data: the CLI must refuse it from its size alone.
    const fd = openSync(path.join(dir, 'big.yaml'), 'w');
    ftruncateSync(fd, 100 * 1024 * 1024);
    closeSync(fd);
  }
  const names = c.inputs ?? [files[0].name];
  return { dir, inputs: names.map((n) => path.join(dir, n)), files };
}
