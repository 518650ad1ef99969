/** Random inputs for test/oracle/mime.diff.ts: MIME blobs and their parts, headers, encodings and damage. */
import * as zlib from 'node:zlib';
import { Rng } from './generate';

// ---------------------------------------------------------------------------
// Random generation


export const utf8 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));

export const SNIPPETS = [
  '#cloud-config\nruncmd:\n - echo hi\n',
  '#cloud-config\nmerge_how: dict(recurse_array)+list(append)\npackages: [vim]\n',
  '#!/bin/sh\necho "h\u00e9llo"\n',
  '#include\nhttp://example.com/x\n',
  '\u00e9\u20ac\ud83d\ude00 \u00fcn\u00efc\u00f6d\u00e9\n',
  'From me to you\n',
  'key: value\n',
  ' leading space\n',
  '\ttabbed: 1\n',
  '--notaboundary\n',
  '--\n',
  'line without eol',
  '=3D=\n',
  'a=b;c="d"\n',
  'Content-Type: text/plain\n',
  'MIME-Version: 1.0\n',
  '\n',
  '\n\n',
  '   \n',
  'x'.repeat(100) + '\n',
  '\u00a0nbsp\u2028ls\n',
  '\\ backslash "quote"\n',
];

export const TYPES = [
  'text/cloud-config', 'text/x-shellscript', 'text/plain', 'text/x-include-url', 'text/cloud-boothook',
  'text/part-handler', 'text/jinja2', 'text/x-not-multipart', 'application/octet-stream', 'TEXT/Cloud-Config',
  'Text/X-Shellscript', 'text', 'text/plain/extra', '', ' text/plain ', 'text/plain (comment)', 'text/\u00e9',
  'image/png', 'text/cloud-config-archive',
];
export const GZIP_TYPES = ['application/x-gzip', 'application/gzip', 'application/x-gzip-compressed', 'application/gzipped', 'application/x-compress'];
export const MERGE_NAMES = ['Merge-Type', 'merge-type', 'X-Merge-Type', 'MERGE-TYPE', 'x-merge-type', 'Merge-type'];
export const MERGE_VALUES = ['list(append)+dict(recurse_array)+str()', 'dict(no_replace,recurse_list)', 'list()+dict()', '', 'x'];
export const CTES = ['base64', 'Base64', 'BASE64', 'base64 ', 'quoted-printable', 'Quoted-Printable', '7bit', '8bit', 'binary', 'x-uuencode', 'uue', 'bogus'];
export const BCHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ";
export const FILENAMES = ['part.txt', 'my file.sh', '\u00e9t\u00e9.txt', '"quoted".txt', '<angle>', ' spaced ', 'a\\b', 'a;b', 'x=y', '', '\u20ac', 'cloud.cfg'];

export class Gen {
  private eolMode: 'lf' | 'crlf' | 'cr' | 'mixed' = 'lf';
  constructor(private readonly rng: Rng) {}

  eol(): string {
    switch (this.eolMode) {
      case 'lf':
        return '\n';
      case 'crlf':
        return '\r\n';
      case 'cr':
        return '\r';
      default:
        return this.rng.pick(['\n', '\n', '\r\n', '\r\n', '\r']);
    }
  }

  /** Convert '\n' in a snippet to the document's line endings. */
  eols(s: string): string {
    return s.replace(/\n/g, () => this.eol());
  }

  text(): string {
    const r = this.rng;
    let s = '';
    const n = r.int(5);
    for (let i = 0; i < n; i++) s += r.pick(SNIPPETS);
    if (r.chance(0.02)) s += 'y'.repeat(r.range(8000, 9000)) + '\n';
    return s;
  }

  token(len: number): string {
    let s = '';
    for (let i = 0; i < len; i++) s += BCHARS[this.rng.int(BCHARS.length)];
    return s;
  }

  /** A parameter `name=value` in one of the forms compat32 understands (or not). */
  param(name: string, value: string): string {
    const r = this.rng;
    const quoted = '"' + value.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
    const pct = (bytes: Uint8Array): string => Array.from(bytes, (b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('');
    const nm = r.chance(0.15) ? name.toUpperCase() : name;
    switch (r.int(9)) {
      case 0:
        return `${nm}=${value}`;
      case 1:
      case 2:
        return `${nm}=${quoted}`;
      case 3: {
        let bytes = utf8(value);
        if (r.chance(0.3)) bytes = Uint8Array.from([...bytes, ...r.pick([[0xe9], [0xe2, 0x82], [0xff, 0x41], [0xf0, 0x90], [0xed, 0xa0, 0x80]])]);
        const raw = r.chance(0.1) ? '\u00e9\u20ac' : '';
        return `${nm}*=${r.pick(['utf-8', 'UTF8', 'us-ascii', 'latin-1', 'iso-8859-1', 'bogus', '', 'u8', 'ISO_8859-1:1987'])}'${r.pick(['', 'en'])}'${pct(bytes)}${raw}`;
      }
      case 4: {
        const mid = r.int(value.length + 1);
        const a = `${nm}*0=${quoted.length > 2 ? '"' + value.slice(0, mid) + '"' : '""'}`;
        const b = `${nm}*1=${JSON.stringify(value.slice(mid))}`;
        return r.chance(0.3) ? `${b}; ${a}` : `${a}; ${b}`;
      }
      case 5: {
        const bytes = utf8(value);
        const mid = r.int(bytes.length + 1);
        return `${nm}*0*=utf-8''${pct(bytes.subarray(0, mid))}; ${nm}*1*=${pct(bytes.subarray(mid))}`;
      }
      case 6:
        return r.chance(0.2) ? `${nm}*=''${value}; ${nm}*0=${quoted}` : `${nm}*=x'${value}`;
      case 7:
        return ` ${nm} = ${quoted} (comment)`;
      default:
        return `${nm}=${quoted}`;
    }
  }

  contentType(ctype: string, boundary?: string): string {
    const r = this.rng;
    const params: string[] = [];
    if (boundary !== undefined) {
      params.push(r.chance(0.7) ? (r.chance(0.5) ? `boundary="${boundary}"` : `boundary=${boundary}`) : this.param('boundary', boundary));
    }
    if (r.chance(0.3)) params.push(this.param('charset', r.pick(['utf-8', 'us-ascii', 'latin-1', 'UTF-8'])));
    if (r.chance(0.25)) params.push(this.param('name', r.pick(FILENAMES)));
    if (r.chance(0.05)) params.push(r.pick(['', 'junk', '=x', 'a="b;c"', 'q="unterminated']));
    if (r.chance(0.3)) params.reverse();
    const sep = r.pick(['; ', ';', ' ; ', ';' + this.eol() + '\t', ';' + this.eol() + ' ']);
    return [ctype, ...params].join(sep);
  }

  header(name: string, value: string): string {
    const r = this.rng;
    const sep = r.pick([': ', ':', ':  ', ':\t']);
    let v = value;
    if (r.chance(0.05)) v = value + ' '; // trailing space
    return name + sep + v + this.eol();
  }

  /** Headers for an entity; returns the header block text. */
  headers(ctype: string | null, extra: { cte?: string; boundary?: string }): string {
    const r = this.rng;
    const lines: string[] = [];
    if (ctype !== null) {
      const name = r.pick(['Content-Type', 'Content-Type', 'content-type', 'CONTENT-TYPE']);
      lines.push(this.header(name, this.contentType(ctype, extra.boundary)));
      if (r.chance(0.04)) lines.push(this.header('Content-Type', this.contentType(r.pick(TYPES))));
    }
    if (extra.cte !== undefined) lines.push(this.header(r.pick(['Content-Transfer-Encoding', 'content-transfer-encoding']), extra.cte));
    if (r.chance(0.3)) {
      const disp = r.pick(['attachment', 'inline', '', 'form-data']);
      const ps = r.chance(0.8) ? [this.param('filename', r.pick(FILENAMES))] : [];
      lines.push(this.header(r.pick(['Content-Disposition', 'content-disposition']), [disp, ...ps].filter((x) => x !== '').join('; ')));
    }
    if (r.chance(0.3)) lines.push(this.header(r.pick(MERGE_NAMES), r.pick(MERGE_VALUES)));
    if (r.chance(0.15)) lines.push(this.header(r.pick(MERGE_NAMES), r.pick(MERGE_VALUES)));
    if (r.chance(0.1)) lines.push(this.header('Launch-Index', String(r.int(3))));
    if (r.chance(0.1)) lines.push(this.header(r.pick(['X-Weird!#$', '123', '__proto__', 'constructor', 'X-\u00e9']), 'v'));
    if (r.chance(0.1)) lines.push('X-Folded: first' + this.eol() + r.pick([' ', '\t', '  ']) + 'second' + this.eol());
    if (r.chance(0.05)) lines.push(this.header('MIME-Version', '1.0'));
    for (let i = lines.length - 1; i > 0; i--) {
      if (r.chance(0.3)) {
        const j = r.int(i + 1);
        [lines[i], lines[j]] = [lines[j], lines[i]];
      }
    }
    if (r.chance(0.03)) lines.splice(r.int(lines.length + 1), 0, r.pick(['From someone' + this.eol(), ' cont' + this.eol(), ':novalue' + this.eol(), 'no colon here' + this.eol()]));
    return lines.join('');
  }

  base64Body(bytes: Uint8Array): string {
    const r = this.rng;
    let b = Buffer.from(bytes).toString('base64');
    switch (r.int(10)) {
      case 0:
        b = b.replace(/=+$/, '');
        break;
      case 1: {
        const p = r.int(b.length + 1);
        b = b.slice(0, p) + r.pick(['!', ' ', '*', '\u00e9', '-', '_', '\t', '==', '=']) + b.slice(p);
        break;
      }
      case 2:
        b = b.slice(0, Math.max(0, b.length - r.range(1, 3)));
        break;
      case 3:
        b = b + r.pick(['QUJD', '=', 'Q', '====', 'A=']);
        break;
      default:
        break;
    }
    const width = r.pick([76, 76, 60, 4, 1000, 3]);
    const lines: string[] = [];
    for (let i = 0; i < b.length; i += width) lines.push(b.slice(i, i + width));
    return lines.map((l) => l + this.eol()).join('') + (r.chance(0.2) ? this.eol() : '');
  }

  qpBody(text: string): string {
    const r = this.rng;
    const bytes = utf8(text);
    let out = '';
    let col = 0;
    for (const c of bytes) {
      let piece: string;
      if (c === 0x0a) {
        out += this.eol();
        col = 0;
        continue;
      }
      if (c >= 0x20 && c < 0x7f && c !== 0x3d && !r.chance(0.1)) piece = String.fromCharCode(c);
      else if (c >= 0x80 && r.chance(0.1)) piece = String.fromCharCode(c); // latin-1 char, not ASCII
      else piece = '=' + (r.chance(0.1) ? c.toString(16).padStart(2, '0') : c.toString(16).toUpperCase().padStart(2, '0'));
      if (col + piece.length > 70 && r.chance(0.7)) {
        out += '=' + r.pick(['\n', '\r\n', '\r', this.eol()]);
        col = 0;
      }
      out += piece;
      col += piece.length;
    }
    if (r.chance(0.2)) out += r.pick(['=', '=G1', '==', '=4', '= ', '=\rX']);
    return out;
  }

  uuBody(bytes: Uint8Array): string {
    const r = this.rng;
    let out = r.pick(['begin 644 file.txt', 'begin 0o755 x', 'begin x y', 'begin 644']) + this.eol();
    for (let i = 0; i < bytes.length; i += 45) {
      const chunk = bytes.subarray(i, i + 45);
      let line = String.fromCharCode(32 + chunk.length);
      for (let k = 0; k < chunk.length; k += 3) {
        const a = chunk[k];
        const b = chunk[k + 1] ?? 0;
        const c = chunk[k + 2] ?? 0;
        for (const v of [a >> 2, ((a & 3) << 4) | (b >> 4), ((b & 15) << 2) | (c >> 6), c & 63]) line += String.fromCharCode(v === 0 ? 96 : 32 + v);
      }
      if (r.chance(0.05)) line += '~~';
      out += line + this.eol();
    }
    if (r.chance(0.1)) out += this.eol();
    out += '`' + this.eol() + (r.chance(0.8) ? 'end' + this.eol() : '');
    return out;
  }

  gzipBytes(data: Uint8Array): Uint8Array {
    return gzipVariant(this.rng, data);
  }

  leafBody(ctype: string): { cte?: string; body: string } {
    const r = this.rng;
    const text = this.text();
    if (GZIP_TYPES.includes(ctype)) {
      const inner = r.chance(0.1) ? Uint8Array.from([0xff, 0xfe, 0x41]) : utf8(text);
      const gz = r.chance(0.9) ? this.gzipBytes(inner) : utf8(text);
      return { cte: r.chance(0.9) ? 'base64' : undefined, body: this.base64Body(gz) };
    }
    if (!r.chance(0.6)) return { body: this.eols(text) };
    const cte = r.pick(CTES);
    const lc = cte.toLowerCase();
    if (lc === 'base64') {
      const bytes = r.chance(0.1) ? Uint8Array.from({ length: r.int(20) }, () => r.int(256)) : utf8(text);
      return { cte, body: this.base64Body(bytes) };
    }
    if (lc === 'quoted-printable') return { cte, body: this.qpBody(text) };
    if (lc === 'x-uuencode' || lc === 'uue') return { cte, body: this.uuBody(utf8(text)) };
    return { cte, body: this.eols(text) };
  }

  boundary(): string {
    const r = this.rng;
    switch (r.int(6)) {
      case 0:
        return '===============' + r.int(1e9) + '==';
      case 1:
        return 'MIMEBOUNDARY';
      case 2:
        return this.token(r.range(1, 3));
      default:
        return this.token(r.range(1, 20)).replace(/ +$/, '') || 'b';
    }
  }

  multipartBody(boundary: string, depth: number): string {
    const r = this.rng;
    const b = r.chance(0.08) ? boundary + 'X' : boundary; // sometimes the wrong boundary throughout
    let out = '';
    if (r.chance(0.3)) out += this.eols(this.text());
    if (r.chance(0.05)) out += this.eol();
    const n = r.int(5);
    for (let i = 0; i < n; i++) {
      const ws = r.chance(0.1) ? r.pick([' ', '\t', ' \t ']) : '';
      out += '--' + b + ws + this.eol();
      if (r.chance(0.05)) out += '--' + b + this.eol();
      if (r.chance(0.03)) out += '--' + b + 'junk' + this.eol();
      out += this.entity(depth + 1);
      if (r.chance(0.7)) out += this.eol(); // the line break that belongs to the boundary
    }
    const end = r.int(10);
    if (end < 7) out += '--' + b + '--' + (r.chance(0.1) ? ' ' : '') + this.eol();
    else if (end < 8) out += '--' + b + '--';
    if (r.chance(0.2)) out += this.eols(this.text());
    return out;
  }

  /** One MIME entity: headers, blank line, body. */
  entity(depth: number, top = false): string {
    const r = this.rng;
    let head = top ? (r.chance(0.9) ? this.header(r.pick(['MIME-Version', 'Mime-Version', 'mime-version']), '1.0') : '') : '';
    let body: string;
    const kind = depth >= 4 ? 0 : r.int(top ? 10 : 12);
    if (kind >= 5 && kind <= 8) {
      const boundary = this.boundary();
      const ctype = r.pick(['multipart/mixed', 'multipart/mixed', 'Multipart/Alternative', 'multipart/digest', 'multipart/related']);
      const noBoundary = r.chance(0.05);
      head += this.headers(ctype, { boundary: noBoundary ? undefined : boundary, cte: r.chance(0.05) ? 'base64' : undefined });
      body = this.multipartBody(boundary, depth);
    } else if (kind === 9) {
      head += this.headers(r.pick(['message/rfc822', 'message/RFC822', 'message/partial']), {});
      body = this.entity(depth + 1);
    } else if (kind === 10) {
      head += this.headers('message/delivery-status', {});
      body = '';
      for (let i = r.int(3); i >= 0; i--) body += this.header('Action', 'failed') + this.header('Status', '5.0.0') + (i ? this.eol() : '');
    } else {
      const ctype = r.chance(0.15) ? r.pick(GZIP_TYPES) : r.pick(TYPES);
      const noType = r.chance(0.1);
      const lb = this.leafBody(ctype);
      head += this.headers(noType ? null : ctype, { cte: lb.cte });
      body = lb.body;
    }
    if (top && r.chance(0.03)) head = 'From nobody Mon Jan 1 00:00:00 2024' + this.eol() + head;
    const sep = r.chance(0.95) ? this.eol() : ''; // missing blank line sometimes
    return head + sep + body;
  }

  /** A whole user-data blob before optional gzip. */
  blob(): Uint8Array {
    const r = this.rng;
    this.eolMode = r.pick(['lf', 'lf', 'lf', 'crlf', 'crlf', 'mixed', 'cr'] as const);
    const k = r.int(20);
    let s: string;
    if (k < 15) s = this.entity(0, true);
    else if (k < 17) s = this.eols(this.text());
    else if (k < 18) s = this.eols('#cloud-config\n' + 'a: b\n'.repeat(r.range(800, 900)) + 'MIME-Version: 1.0\n');
    else if (k < 19) return Uint8Array.from({ length: r.int(40) }, () => r.int(256));
    else s = 'Content-Type: text/plain' + this.eol() + 'mime-VERSION: 1.0' + this.eol() + this.eol() + this.eols(this.text());
    let bytes = utf8(s);
    if (r.chance(0.03)) {
      const p = r.int(bytes.length + 1);
      const bad = r.pick([[0xe9], [0xff], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0xf4, 0x90, 0x80, 0x80]]);
      bytes = Uint8Array.from([...bytes.subarray(0, p), ...bad, ...bytes.subarray(p)]);
    }
    return bytes;
  }
}

export function crc32(b: Uint8Array): number {
  return zlib.crc32(b) >>> 0;
}

export function le32(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
}

export function gzipMember(rng: Rng, data: Uint8Array): number[] {
  let flags = 0;
  if (rng.chance(0.1)) flags |= 1;
  if (rng.chance(0.1)) flags |= 2;
  if (rng.chance(0.1)) flags |= 4;
  if (rng.chance(0.2)) flags |= 8;
  if (rng.chance(0.1)) flags |= 16;
  if (rng.chance(0.03)) flags |= 0x20;
  const out: number[] = [0x1f, 0x8b, 8, flags, 0, 0, 0, 0, 0, 3];
  if (flags & 4) {
    const n = rng.int(6);
    out.push(n, 0, ...Array.from({ length: n }, () => rng.int(256)));
  }
  if (flags & 8) out.push(...Buffer.from('name.txt'), 0);
  if (flags & 16) out.push(...Buffer.from('comment'), 0);
  if (flags & 2) out.push(rng.int(256), rng.int(256));
  out.push(...zlib.deflateRawSync(data, { level: rng.pick([0, 1, 6, 9]) }));
  out.push(...le32(crc32(data)), ...le32(data.length));
  return out;
}

export function gzipVariant(rng: Rng, data: Uint8Array): Uint8Array {
  let out: number[];
  const k = rng.int(12);
  if (k === 0 && data.length > 1) {
    const mid = rng.int(data.length);
    out = [...gzipMember(rng, data.subarray(0, mid)), ...gzipMember(rng, data.subarray(mid))];
  } else out = gzipMember(rng, data);
  switch (k) {
    case 1:
      out.push(...new Array(rng.range(1, 5)).fill(0));
      break;
    case 2:
      out.push(...rng.pick([[0x41], [0x1f], [0x1f, 0x8b], [0, 0, 0x42], [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]]));
      break;
    case 3:
      out = out.slice(0, Math.max(0, out.length - rng.range(1, 12)));
      break;
    case 4:
      out[out.length - 8] ^= 0xff;
      break;
    case 5:
      out[out.length - 1] ^= 0x01;
      break;
    case 6:
      if (out.length > 12) out[rng.range(10, out.length - 9)] ^= 0x55;
      break;
    case 7:
      out.push(...gzipMember(rng, utf8('second member\n')));
      break;
    default:
      break;
  }
  return Uint8Array.from(out);
}
