/**
 * Building MIME user-data from files, as `cloud-init devel make-mime` builds it
 * (`cloudinit/cmd/devel/make_mime.py`: one `MIMEText(contents, subtype, 'utf-8')`
 * per file with an `attachment; filename="..."` disposition, in a
 * `MIMEMultipart()`, printed with `print(message)`), so that the blob this
 * writes is the blob cloud-init's tool writes, boundary aside.
 *
 * What is reproduced (test/oracle/pipeline.diff.ts compares the text with
 * cloud-init's own `create_mime_message`, boundary replaced):
 * - the file is read as Python's `open(name, "r")` reads it: strict UTF-8 and
 *   universal newlines (CRLF and lone CR become LF);
 * - each part: `Content-Type: text/<subtype>; charset="utf-8"`,
 *   `MIME-Version: 1.0`, `Content-Transfer-Encoding: base64`,
 *   `Content-Disposition: attachment; filename="<name as given>"`, the body in
 *   base64 lines of 76 characters (`email.base64mime.body_encode`); an empty
 *   file has an empty body;
 * - a file name that is not ASCII makes the whole disposition an RFC 2047
 *   encoded word (compat32 folding through `email.header.Header`, the shorter
 *   of the `b` and `q` encodings), which cloud-init then reads as a header
 *   without a file name;
 * - the generator's layout: outer headers, `--B` before each part, a blank
 *   line before every later boundary, `--B--`, and `print`'s final newline;
 * - the boundary format of `email.generator._make_boundary` (15 `=`, 19
 *   digits, `==`), with its `.N` suffix if the text already holds that line;
 * - cloud-init's content-type check: a type that no handler of cloud-init
 *   announces is an error unless forced.
 *
 * Ours on top: an optional merge type per part, written as the
 * `X-Merge-Type` header Terraform's cloudinit provider writes (cloud-init
 * reads it; its make-mime has no way to set one), and gzip + base64 of the
 * whole blob as that provider does. Subtypes are limited to token characters
 * and file names and merge types to one line: Python would rewrite or fold
 * those headers in ways no user-data author wants.
 */
import { CONTENT_TYPES_BY_PREFIX, sniffContentType } from './sniff';
import { pyStrip } from '../py/str';

/** The types cloud-init's handlers announce (`INCLUSION_TYPES_MAP.values()`), sorted. */
export const MAKE_MIME_TYPES: readonly string[] = [...new Set(CONTENT_TYPES_BY_PREFIX.map(([, type]) => type))].sort();

export interface MimeAttachment {
  /** The name as given on the command line (cloud-init writes it as is). */
  filename: string;
  /** The subtype after `text/` (`cloud-config`), as the user spelt it. */
  subtype: string;
  /** The file's text after universal-newline translation. */
  text: string;
  /** Written as an `X-Merge-Type` header when set. */
  mergeType?: string;
}

export class MakeMimeError extends Error {}

/**
 * The file's text as Python's text-mode `open()` gives it: strict UTF-8, then
 * universal newlines. A file that is not UTF-8 is an error (Python raises).
 */
export function attachmentText(name: string, bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new MakeMimeError(`${name}: not UTF-8 text (cloud-init's make-mime reads files as UTF-8 text and fails on this one)`);
  }
  return text.replace(/\r\n?/g, '\n');
}

const TOKEN = /^[A-Za-z0-9!#$&^_.+-]+$/;

/**
 * The subtype for a CONTENT-TYPE argument: `cloud-config` or `text/cloud-config`
 * (cloud-init's make-mime takes only the former and would write `text/text/...`).
 */
export function subtypeOf(contentType: string): string {
  let t = pyStrip(contentType);
  if (t.toLowerCase().startsWith('text/')) t = t.slice(5);
  if (!TOKEN.test(t)) {
    throw new MakeMimeError(`'${contentType}' is not a text/* content type make-mime can write (a subtype such as cloud-config or x-shellscript)`);
  }
  return t;
}

/**
 * The content type to use for a file given without one: what its first line
 * announces to cloud-init (`#cloud-config`, `#!`, `## template: jinja`, ...).
 */
export function inferSubtype(name: string, text: string): string {
  const type = sniffContentType(text);
  if (!type) {
    throw new MakeMimeError(`${name}: its first line announces no content type cloud-init knows: give one, as ${name}:cloud-config or ${name}:x-shellscript`);
  }
  return type.slice('text/'.length);
}

/** Attachments whose type no cloud-init handler announces: cloud-init's make-mime refuses them unless forced. */
export function unknownTypes(attachments: readonly MimeAttachment[]): string[] {
  const problems: string[] = [];
  attachments.forEach((a, i) => {
    const type = `text/${a.subtype}`.toLowerCase();
    if (!MAKE_MIME_TYPES.includes(type)) problems.push(`attachment ${i + 1} (${a.filename}): content type '${type}' is not one cloud-init handles`);
  });
  return problems;
}

/** `email.generator._make_boundary`'s shape, from a source of random digits. */
export function pythonStyleBoundary(randomDigits: () => string = defaultDigits): string {
  return '='.repeat(15) + randomDigits() + '==';
}

function defaultDigits(): string {
  let s = '';
  for (let i = 0; i < 19; i++) s += String(Math.floor(Math.random() * 10));
  return s;
}

/** base64 body lines of 76 characters, each ending in a newline; nothing for no bytes. */
function base64Body(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 57) out += Buffer.from(bytes.subarray(i, i + 57)).toString('base64') + '\n';
  return out;
}

/** Bytes that `quoprimime`'s header map leaves as they are. */
const Q_SAFE = /^[A-Za-z0-9!*+/-]$/;

/** One RFC 2047 encoded word for a whole non-ASCII value, the shorter of `b` and `q` (Python's SHORTEST). */
function encodedWord(value: string): string {
  const bytes = Buffer.from(value, 'utf8');
  const bLength = Math.ceil(bytes.length / 3) * 4;
  let q = '';
  for (const byte of bytes) {
    const ch = String.fromCharCode(byte);
    q += byte === 0x20 ? '_' : byte < 0x80 && Q_SAFE.test(ch) ? ch : '=' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return bLength < q.length ? `=?utf-8?b?${bytes.toString('base64')}?=` : `=?utf-8?q?${q}?=`;
}

function oneLine(what: string, value: string): void {
  if (/[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]/.test(value)) throw new MakeMimeError(`${what} '${value}' spans several lines: not written`);
}

/** A header value as compat32's generator writes it (unfolded; non-ASCII as one encoded word). */
function headerValue(value: string): string {
  return /^[\x00-\x7f]*$/.test(value) ? value : encodedWord(value);
}

/**
 * The text `cloud-init devel make-mime` prints for these attachments (with
 * `print`'s final newline), with the given boundary.
 */
export function makeMime(attachments: readonly MimeAttachment[], boundary: string = pythonStyleBoundary()): string {
  if (!attachments.length) throw new MakeMimeError('make-mime needs at least one file');
  const parts = attachments.map((a) => {
    oneLine('the file name', a.filename);
    if (!TOKEN.test(a.subtype)) throw new MakeMimeError(`'${a.subtype}' is not a content subtype make-mime can write`);
    const lines = [
      `Content-Type: text/${a.subtype}; charset="utf-8"`,
      'MIME-Version: 1.0',
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: ${headerValue(`attachment; filename="${a.filename}"`)}`,
    ];
    if (a.mergeType !== undefined) {
      oneLine('the merge type', a.mergeType);
      if (!/^[\x20-\x7e]*$/.test(a.mergeType)) throw new MakeMimeError(`the merge type '${a.mergeType}' is not printable ASCII: not written`);
      lines.push(`X-Merge-Type: ${a.mergeType}`);
    }
    return lines.join('\n') + '\n\n' + base64Body(Buffer.from(a.text, 'utf8'));
  });
  // The generator adds `.0`, `.1`, ... while a part's text already has the boundary line.
  const all = parts.join('\n');
  let chosen = boundary;
  for (let n = 0; new RegExp(`^--${escapeRegExp(chosen)}(--)?$`, 'm').test(all); n++) chosen = `${boundary}.${n}`;
  return (
    `Content-Type: multipart/mixed; boundary="${chosen}"\nMIME-Version: 1.0\n\n` +
    `--${chosen}\n` +
    parts.join(`\n--${chosen}\n`) +
    `\n--${chosen}--\n` +
    '\n'
  );
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
