// Seeded random mutations of user-data: byte flips, slices inserted, deleted, duplicated and
// spliced from other seeds, hostile snippets, deep nesting, encoding and line-end changes,
// wrapping into gzip, base64 and MIME. Everything is a pure function of the Rng's state.
import { gzipSync } from 'node:zlib';

/** xorshift128+ style PRNG on 32-bit state (sfc32): fast, seedable, good enough. */
export class Rng {
  constructor(seed) {
    let h = 1779033703 ^ String(seed).length;
    const s = String(seed);
    for (let i = 0; i < s.length; i++) {
      h = Math.imul(h ^ s.charCodeAt(i), 3432918353);
      h = (h << 13) | (h >>> 19);
    }
    const next = () => {
      h = Math.imul(h ^ (h >>> 16), 2246822507);
      h = Math.imul(h ^ (h >>> 13), 3266489909);
      return (h ^= h >>> 16) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
  }
  /** A uint32. */
  u32() {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    const t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    const r = (t + this.d) | 0;
    this.c = (this.c + r) | 0;
    return r >>> 0;
  }
  /** 0 <= n < max. */
  int(max) {
    return max <= 0 ? 0 : this.u32() % max;
  }
  chance(p) {
    return this.u32() / 4294967296 < p;
  }
  pick(list) {
    return list[this.int(list.length)];
  }
  /** Small numbers more often than big ones: 0..max, log-uniform-ish. */
  skewed(max) {
    const bits = this.int(Math.ceil(Math.log2(max + 1)) + 1);
    return Math.min(max, this.int(2 ** bits));
  }
}

const enc = (s) => Buffer.from(s, 'utf8');

/** Things that break parsers: YAML syntax, MIME syntax, encodings, specs, Jinja. */
export const SNIPPETS = [
  '\t', '"', "'", '[', ']', '{', '}', ':', ': ', '- ', '? ', ',', '#', '&a ', '*a', '&b [*a, *a, *a]', '<<: *a\n', '<<: [*a, *b]\n',
  '!!python/object/apply:os.system ["true"]', '!!binary', '!!set', '!!omap', '!!str', '!!int', '!!float', '!!timestamp', '!', '!<tag:yaml.org,2002:str>', '!!python/unicode ',
  '---\n', '...\n', '%YAML 1.1\n', '%TAG ! tag:x,2000:\n', '|\n', '>-\n', '|2+\n', '\r', '\r\n', '\n\n', '\0', '\x7f', '\u0085', '\u2028', '\ufeff', '\udcff',
  'merge_how: ', 'merge_type: ', "merge_how: 'list(append)+dict(no_replace,recurse_list)+str()'\n", 'merge_how: [{name: list, settings: [append]}]\n',
  'list(append', 'dict()+', '+str(append)', 'm_list()', 'list(a+b)', 'list()dict()', '(()', 'settings: null', 'name: ', 'recurse_list', 'allow_delete', 'no_replace', 'prepend',
  'launch-index: 0\n', 'launch-index: "x"\n', 'runcmd: [a, b]\n', 'runcmd: {a: 1}\n', 'packages: null\n', '1e309', '0o777', '0x', '1_000', '.nan', '~', 'yes', 'no', '2001-13-45',
  '#cloud-config\n', '#cloud-config-archive\n', '#cloud-config-jsonp\n', '#include\n', '#include-once\n', '#cloud-boothook\n', '#part-handler\n', '## template: jinja\n', '#!/bin/sh\n',
  'Content-Type: multipart/mixed; boundary="X"\n', 'MIME-Version: 1.0\n', '--X\n', '--X--\n', 'Content-Type: text/cloud-config\n', 'Content-Type: application/gzip\n',
  'Content-Transfer-Encoding: base64\n', 'Content-Transfer-Encoding: quoted-printable\n', 'Content-Type: text/plain; charset=utf-16\n', 'Merge-Type: list(append)\n', 'X-Merge-Type: \n',
  'Content-Type: message/rfc822\n', 'Content-Disposition: attachment; filename*=utf-8\'\'%E2%82%AC\n', '=?utf-8?b?w6k=?=', '=\n', '=C3=A9', '=XX',
  '{{ ', ' }}', '{% ', ' %}', '{{ v1.x }}', '{{ v1.x.y }}', "{{ 'a' * 99999 }}", '{% for i in range(1000) %}x{% endfor %}', '{% if %}', '{% endif %}', '{# c #}', '{{ 1/0 }}', '{{ range(10)|list|random }}',
  '[{"op": "add", "path": "/a", "value": 1}]', '{"op": "move", "from": "/a", "path": "/a/b"}', '"path": "/~2"', '"path": "-"',
  'http://127.0.0.1:9/x\n', '/dev/null\n', 'file:///nonexistent\n',
];

function randomBytes(rng, n) {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = rng.int(256);
  return b;
}

function slice(rng, buf) {
  if (!buf.length) return buf;
  const start = rng.int(buf.length);
  const len = 1 + rng.skewed(Math.min(4096, buf.length - start));
  return buf.subarray(start, start + len);
}

function insertAt(buf, at, piece) {
  return Buffer.concat([buf.subarray(0, at), piece, buf.subarray(at)]);
}

/** A position, often at a line start or after ': ' so the mutation lands somewhere meaningful. */
function position(rng, buf) {
  if (!buf.length) return 0;
  const p = rng.int(buf.length + 1);
  if (rng.chance(0.5)) {
    const nl = buf.indexOf(10, p);
    return nl < 0 ? buf.length : nl + 1;
  }
  return p;
}

function nest(rng) {
  const depth = 1 + rng.skewed(rng.chance(0.1) ? 20000 : 600);
  const kind = rng.int(4);
  if (kind === 0) return '['.repeat(depth) + ']'.repeat(depth);
  if (kind === 1) return '{a: '.repeat(depth) + '1' + '}'.repeat(depth);
  if (kind === 2) return '\n' + Array.from({ length: Math.min(depth, 1500) }, (_, i) => ' '.repeat(i) + 'k:').join('\n') + ' 1\n';
  return '- '.repeat(depth) + 'x';
}

function aliasBomb(rng) {
  const levels = 2 + rng.int(10);
  let out = 'b0: &b0 [x, x, x, x, x, x, x, x, x]\n';
  for (let i = 1; i <= levels; i++) out += `b${i}: &b${i} [${Array(9).fill(`*b${i - 1}`).join(', ')}]\n`;
  return out;
}

const MUTATORS = [
  ['flip', 3, (rng, buf) => {
    if (!buf.length) return buf;
    const b = Buffer.from(buf);
    const i = rng.int(b.length);
    b[i] ^= 1 << rng.int(8);
    return b;
  }],
  ['byte', 2, (rng, buf) => {
    if (!buf.length) return buf;
    const b = Buffer.from(buf);
    b[rng.int(b.length)] = rng.pick([0, 9, 10, 13, 32, 34, 35, 38, 39, 42, 45, 58, 91, 93, 123, 125, 0x7f, 0x80, 0xc3, 0xff, rng.int(256)]);
    return b;
  }],
  ['insert-random', 1, (rng, buf) => insertAt(buf, position(rng, buf), randomBytes(rng, 1 + rng.skewed(64)))],
  ['delete', 3, (rng, buf) => {
    if (!buf.length) return buf;
    const start = rng.int(buf.length);
    const len = 1 + rng.skewed(Math.min(2048, buf.length - start));
    return Buffer.concat([buf.subarray(0, start), buf.subarray(start + len)]);
  }],
  ['duplicate', 2, (rng, buf) => {
    const piece = slice(rng, buf);
    const times = 1 + rng.skewed(rng.chance(0.05) ? 2000 : 8);
    return insertAt(buf, position(rng, buf), Buffer.concat(Array(times).fill(piece)));
  }],
  ['splice-seed', 2, (rng, buf, seeds) => insertAt(buf, position(rng, buf), slice(rng, rng.pick(seeds).bytes))],
  ['snippet', 6, (rng, buf) => insertAt(buf, position(rng, buf), enc(rng.pick(SNIPPETS)))],
  ['replace-snippet', 2, (rng, buf) => {
    if (!buf.length) return enc(rng.pick(SNIPPETS));
    const start = rng.int(buf.length);
    return Buffer.concat([buf.subarray(0, start), enc(rng.pick(SNIPPETS)), buf.subarray(start + 1 + rng.skewed(16))]);
  }],
  ['nest', 1, (rng, buf) => insertAt(buf, position(rng, buf), enc(nest(rng)))],
  ['alias-bomb', 1, (rng, buf) => insertAt(buf, position(rng, buf), enc(aliasBomb(rng) + (rng.chance(0.5) ? `merge_how: [{name: list, settings: *b${1}}]\n` : '')))],
  ['lines', 2, (rng, buf) => {
    const lines = buf.toString('latin1').split('\n');
    if (lines.length < 2) return buf;
    const i = rng.int(lines.length);
    const j = rng.int(lines.length);
    switch (rng.int(5)) {
      case 0: [lines[i], lines[j]] = [lines[j], lines[i]]; break;
      case 1: lines.splice(i, 0, lines[j]); break;
      case 2: lines[i] = ' '.repeat(1 + rng.int(8)) + lines[i]; break;
      case 3: lines[i] = lines[i].replace(/^\s+/, ''); break;
      default: lines[i] = lines[i].replace(/ /g, '\t'); break;
    }
    return Buffer.from(lines.join('\n'), 'latin1');
  }],
  ['line-ends', 1, (rng, buf) => {
    const s = buf.toString('latin1');
    const to = rng.pick(['\r\n', '\r', '\n', '\u0085']);
    return Buffer.from(s.replace(/\r\n|\r|\n/g, to === '\u0085' ? '\x85' : to), 'latin1');
  }],
  ['encoding', 1, (rng, buf) => {
    const text = buf.toString('utf8');
    switch (rng.int(5)) {
      case 0: return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), buf]);
      case 1: return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
      case 2: return Buffer.from(text, 'latin1');
      case 3: return enc(text.normalize('NFD'));
      default: return Buffer.concat([buf, Buffer.from([0xc3])]);
    }
  }],
  ['gzip', 1, (rng, buf) => {
    const z = gzipSync(buf);
    if (rng.chance(0.3)) return z.subarray(0, rng.int(z.length));
    return rng.chance(0.2) ? Buffer.concat([z, gzipSync(enc('#cloud-config\nx: 1\n'))]) : z;
  }],
  ['mime-wrap', 2, (rng, buf, seeds) => {
    const b = rng.pick(['B', 'xyz', '===============1==', '']);
    const type = rng.pick(['text/cloud-config', 'text/x-not-multipart', 'text/plain', 'application/gzip', 'text/x-include-url', 'text/cloud-config-archive', 'text/jinja2', 'multipart/mixed', 'message/rfc822', 'text/cloud-config; charset=latin-1']);
    const cte = rng.pick(['', 'base64', 'quoted-printable', '7bit', '8bit', 'x-uuencode']);
    const body = cte === 'base64' ? (type === 'application/gzip' ? gzipSync(buf) : buf).toString('base64').replace(/.{76}/g, '$&\n') : buf.toString('latin1');
    const other = rng.pick(seeds).bytes.toString('latin1');
    const header = `Content-Type: multipart/mixed${b ? `; boundary="${b}"` : ''}\nMIME-Version: 1.0\n\n`;
    const part = (t, e, content) => `--${b}\nContent-Type: ${t}\n${e ? `Content-Transfer-Encoding: ${e}\n` : ''}${rng.chance(0.3) ? 'Merge-Type: list(append)+dict(no_replace,recurse_list)+str()\n' : ''}\n${content}\n`;
    return Buffer.from(header + part(type, cte, body) + (rng.chance(0.5) ? part('text/cloud-config', '', other) : '') + (rng.chance(0.8) ? `--${b}--\n` : ''), 'latin1');
  }],
  ['truncate', 1, (rng, buf) => buf.subarray(0, rng.int(buf.length + 1))],
  // Tens of thousands of copies of one line or token: linear code takes a second at most, anything
  // quadratic (per-item rescans, spread arguments, backward regexes) takes minutes or overflows.
  ['amplify', 1, (rng, buf) => {
    const lines = buf.toString('latin1').split('\n');
    const piece = rng.chance(0.6) ? enc(rng.pick(lines) + '\n') : slice(rng, buf);
    if (!piece.length) return buf;
    const times = Math.min(10_000 + rng.int(90_000), Math.floor(AMPLIFY_MAX_BYTES / piece.length));
    return insertAt(buf, position(rng, buf), Buffer.concat(Array(times).fill(piece)));
  }],
];

/** The largest input the amplifying mutation makes. */
export const AMPLIFY_MAX_BYTES = 1024 * 1024;

const TOTAL_WEIGHT = MUTATORS.reduce((n, [, w]) => n + w, 0);

function pickMutator(rng) {
  let r = rng.int(TOTAL_WEIGHT);
  for (const m of MUTATORS) {
    if ((r -= m[1]) < 0) return m;
  }
  return MUTATORS[0];
}

/** 1..6 mutations of a random seed; returns the bytes and the names of the mutations. */
export function mutate(rng, seeds, maxBytes = 512 * 1024) {
  // A fifth of the time: a freshly generated document (specs, anchors, MIME), lightly mutated.
  const generated = rng.chance(0.2);
  const seed = generated ? { name: 'generated.yaml', bytes: generateDocument(rng) } : rng.pick(seeds);
  let buf = seed.bytes;
  const applied = [];
  const count = generated ? rng.int(2) : 1 + rng.skewed(5);
  for (let i = 0; i < count; i++) {
    const [name, , f] = pickMutator(rng);
    const next = f(rng, buf, seeds);
    if (next.length <= (name === 'amplify' ? AMPLIFY_MAX_BYTES + maxBytes : maxBytes)) {
      buf = next;
      applied.push(name);
    }
  }
  return { bytes: buf, seed: seed.name, mutations: applied };
}

/* ------------------------------------------------------------------ generated documents */

const KEYS = ['runcmd', 'packages', 'users', 'write_files', 'bootcmd', 'ntp', 'apt', 'a', 'b', 'c', 'merge_how', 'merge_type', 'launch-index', 'vendor_data', 'system_info', '1', 'true', '~', 'k k', "'q'", '"d"', '<<'];
const OPTIONS = ['append', 'prepend', 'replace', 'no_replace', 'recurse_list', 'recurse_array', 'recurse_dict', 'recurse_str', 'allow_delete', 'x'];

function scalar(rng) {
  return rng.pick(['1', '-0', '0o17', '0x1F', '1_000', '3.5', '1e3', '.inf', '.NaN', 'null', '~', 'true', 'no', 'On', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '"str"', "'s''q'", 'plain text', '"\\u00e9\\x41\\t"', '!!binary aGk=', '!!str 1', '!!int "7"', '!!float 1', '!!bool yes', '""', "''", '"#not a comment"', '12:30:00', '+.5']);
}

function spec(rng) {
  const merger = () => `${rng.pick(['list', 'dict', 'str', 'm_list', 'LIST', 'dIct', 'foo'])}(${Array.from({ length: rng.int(3) }, () => rng.pick(OPTIONS)).join(',')})`;
  if (rng.chance(0.7)) return `'${Array.from({ length: 1 + rng.int(3) }, merger).join('+')}'`;
  return `[${Array.from({ length: 1 + rng.int(3), }, () => `{name: ${rng.pick(['list', 'dict', 'str', 'nope'])}, settings: [${Array.from({ length: rng.int(3) }, () => rng.pick(OPTIONS)).join(', ')}]}`).join(', ')}]`;
}

/** A random YAML value in flow style, `depth` levels at most, with anchors and aliases. */
function value(rng, depth, anchors) {
  const r = rng.int(10);
  if (depth <= 0 || r < 4) return scalar(rng);
  if (r < 5 && anchors.length) return `*${rng.pick(anchors)}`;
  const name = rng.chance(0.15) ? `a${rng.u32() % 100000}` : null;
  const anchor = name ? `&${name} ` : '';
  const n = rng.int(4);
  const items = Array.from({ length: n }, () => (r < 8 ? value(rng, depth - 1, anchors) : `${rng.pick(KEYS)}: ${value(rng, depth - 1, anchors)}`));
  const out = r < 8 ? `${anchor}[${items.join(', ')}]` : `${anchor}{${items.join(', ')}}`;
  if (name) anchors.push(name);
  return out;
}

/** A random #cloud-config part; sometimes deep along one path (to reach the recursion boundaries). */
export function generatePart(rng) {
  const anchors = [];
  const lines = ['#cloud-config'];
  if (rng.chance(0.6)) lines.push(`${rng.pick(['merge_how', 'merge_type'])}: ${spec(rng)}`);
  const keys = 1 + rng.int(6);
  for (let i = 0; i < keys; i++) lines.push(`${rng.pick(KEYS)}: ${value(rng, 1 + rng.int(4), anchors)}`);
  if (rng.chance(0.1)) {
    const d = 150 + rng.int(400);
    lines.push(`deep: ${'{a: '.repeat(d)}${rng.int(2) ? '[1]' : '1'}${'}'.repeat(d)}`);
  }
  return lines.join('\n') + '\n';
}

export function generateDocument(rng) {
  if (rng.chance(0.5)) return Buffer.from(generatePart(rng));
  const b = `b${rng.int(1000)}`;
  const parts = Array.from({ length: 2 + rng.int(4) }, () => {
    const headers = [`Content-Type: ${rng.pick(['text/cloud-config', 'text/cloud-config', 'text/plain', 'text/x-shellscript', 'text/cloud-config-jsonp', 'text/jinja2'])}`];
    if (rng.chance(0.4)) headers.push(`${rng.pick(['Merge-Type', 'X-Merge-Type', 'merge-type'])}: ${spec(rng).replace(/^'|'$/g, '')}`);
    if (rng.chance(0.2)) headers.push(`Launch-Index: ${rng.int(3)}`);
    return `--${b}\n${headers.join('\n')}\n\n${generatePart(rng)}`;
  });
  return Buffer.from(`Content-Type: multipart/mixed; boundary="${b}"\nMIME-Version: 1.0\n\n${parts.join('\n')}\n--${b}--\n`);
}
