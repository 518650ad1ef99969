/**
 * Differential test of server/src/engine/userdata/mime.ts (and mime/, py/codecs.ts, gzip.ts) against cloud-init
 * 22.4.2 running on CPython 3.11's email package.
 *
 *   node out/test/oracle/mime.diff.js [--cases N] [--seed S] [--python /usr/bin/python3] [--version V] [--verbose]
 *
 * One cloud-init version per run (--version, default 22.4; scripts/test-oracle-modules.mjs runs all five).
 *
 * Generates random user-data blobs from a seeded PRNG (nested multiparts,
 * random / quoted / RFC 2231 / missing / broken boundaries, base64 (also
 * broken), quoted-printable, x-uuencode, 7bit/8bit bodies, CRLF/LF/CR mixes,
 * duplicate and oddly-cased headers, folded headers, filenames through
 * Content-Disposition and name=, non-ASCII text, invalid UTF-8, message/rfc822
 * and delivery-status parts, gzip parts and gzipped blobs with multiple
 * members, padding, garbage, bad CRCs) and sends each to one long-lived
 * Python child that runs cloud-init's own `convert_string`, `walk`,
 * `is_skippable`, `fully_decoded_payload`, `get_filename`, `dict(part)` and
 * `decomp_gzip`. Every leaf is compared (content type, filename, headers,
 * header dict, transfer encoding, decoded payload bytes, decoded text,
 * defects, gunzip result for gzip types), and so are the skipped multipart
 * containers, errors, and the raw-body spans. On the first mismatch the blob
 * is shrunk line by line and a minimal reproducer is printed; exit status 1.
 */

import { join } from 'node:path';
import { CLOUDINIT_TREES } from './cloudinitTrees';
import { CLOUD_INIT_VERSIONS, parseCloudInitVersion } from '../../server/src/engine/version/versions';
import type * as MimeModule from '../../server/src/engine/userdata/mime';
import type * as BinasciiModule from '../../server/src/engine/py/binascii';

// Compiled server module, from out/test/oracle/ to server/out/.
const mime = require(join(__dirname, '..', '..', '..', 'server', 'out', 'engine', 'userdata', 'mime')) as typeof MimeModule;
const binascii = require(join(__dirname, '..', '..', '..', 'server', 'out', 'engine', 'py', 'binascii')) as typeof BinasciiModule;

// ---------------------------------------------------------------------------
// Python side

const PYTHON_ORACLE = String.raw`
import sys, json, base64, io, gzip, contextlib
sys.path.insert(0, sys.argv[1])
from cloudinit import user_data as ud, util

def b64(b):
    return base64.b64encode(b).decode('ascii')

def run(blob):
    res = {}
    try:
        with contextlib.closing(gzip.GzipFile(None, 'rb', 1, io.BytesIO(blob))) as gh:
            gh.read()
        res['gzipped'] = len(blob) > 0
    except Exception:
        res['gzipped'] = False
    data = util.decomp_gzip(blob, decode=False)
    res['kind'] = 'mime' if b'mime-version:' in data[0:4096].lower() else 'not-multipart'
    try:
        msg = ud.convert_string(blob)
    except BaseException as e:
        res['error'] = [type(e).__name__, str(e)]
        return res
    leaves = []
    containers = []
    try:
        for idx, part in enumerate(msg.walk()):
            ctype = part.get_content_type()
            if ud.is_skippable(part):
                containers.append({'ctype': ctype, 'defects': [type(d).__name__ for d in part.defects],
                                   'isMultipart': part.is_multipart(), 'walkIndex': idx})
                continue
            leaf = {'ctype': ctype, 'walkIndex': idx}
            try:
                leaf['filename'] = part.get_filename()
            except Exception as e:
                leaf['filenameError'] = type(e).__name__
            leaf['headers'] = [[k, v] for k, v in part.items()]
            leaf['dict'] = [[k, v] for k, v in dict(part).items()]
            leaf['cte'] = part.get('content-transfer-encoding')
            raw = part._payload
            leaf['raw'] = raw if isinstance(raw, str) else None
            p = util.fully_decoded_payload(part)
            leaf['defects'] = [type(d).__name__ for d in part.defects]
            if p is None:
                leaf['payload'] = None
                leaf['text'] = None
            else:
                leaf['payload'] = b64(part.get_payload(decode=True))
                leaf['text'] = p if isinstance(p, str) else None
                if ctype in ud.DECOMP_TYPES:
                    try:
                        leaf['gunzip'] = {'ok': util.decomp_gzip(p, quiet=False)}
                    except util.DecompressionError as e:
                        leaf['gunzip'] = {'err': str(e)}
            leaves.append(leaf)
    except BaseException as e:
        res['error'] = [type(e).__name__, str(e)]
        return res
    res['leaves'] = leaves
    res['containers'] = containers
    return res

import binascii, quopri, email.message
from email._encoded_words import decode_b

def exc(e):
    return {'err': type(e).__name__, 'msg': str(e)}

def prim(req):
    data = base64.b64decode(req['b64'])
    op = req['op']
    try:
        if op == 'decode_b':
            v, d = decode_b(data)
            return {'ok': b64(v), 'defects': [type(x).__name__ for x in d]}
        if op == 'a2b':
            return {'ok': b64(binascii.a2b_base64(data, strict_mode=req['strict']))}
        if op == 'qp':
            return {'ok': b64(quopri.decodestring(data))}
        if op == 'uu':
            return {'ok': b64(email.message._decode_uu(data))}
        if op == 'gz':
            return {'ok': b64(util.decomp_gzip(data, quiet=False, decode=False))}
        if op == 'utf8':
            r = {'se': data.decode('utf-8', 'surrogateescape'), 'rep': data.decode('utf-8', 'replace')}
            try:
                data.decode('utf-8')
            except UnicodeDecodeError as e:
                r['err'] = str(e)
            return r
        if op == 'hdr':
            m = email.message.Message()
            for k, v in req['headers']:
                m[k] = v
            r = {'ctype': m.get_content_type()}
            try:
                r['filename'] = m.get_filename()
            except Exception as e:
                r['filenameError'] = type(e).__name__
            try:
                r['boundary'] = m.get_boundary()
            except Exception as e:
                r['boundaryError'] = type(e).__name__
            return r
    except Exception as e:
        return exc(e)
    raise ValueError(op)

for line in sys.stdin:
    req = json.loads(line)
    try:
        out = prim(req) if 'op' in req else run(base64.b64decode(req['b64']))
    except BaseException as e:
        out = {'crash': '%s: %s' % (type(e).__name__, e)}
    out['id'] = req['id']
    sys.stdout.write(json.dumps(out) + '\n')
    sys.stdout.flush()
`;
import { Rng } from './generate';
import { LineOracle } from './lineOracle';
import { GZIP_TYPES, Gen, gzipVariant } from './mime.generate';

interface PyLeaf {
  ctype: string;
  walkIndex: number;
  filename?: string | null;
  filenameError?: string;
  headers: [string, string][];
  dict: [string, string][];
  cte: string | null;
  raw: string | null;
  defects: string[];
  payload: string | null;
  text: string | null;
  gunzip?: { ok?: string; err?: string };
}

interface PyResult {
  id: number;
  crash?: string;
  gzipped: boolean;
  kind: 'mime' | 'not-multipart';
  error?: [string, string];
  leaves?: PyLeaf[];
  containers?: { ctype: string; defects: string[]; isMultipart: boolean; walkIndex: number }[];
}

class Oracle {
  private readonly py: LineOracle;
  private nextId = 1;

  constructor(python: string, tree: string) {
    this.py = new LineOracle(python, ['-c', PYTHON_ORACLE, tree]);
  }

  run(blob: Uint8Array): Promise<PyResult> {
    return this.request({ b64: Buffer.from(blob).toString('base64') }) as Promise<PyResult>;
  }

  /** The Python side answers in order and echoes the id. */
  request(req: Record<string, unknown>): Promise<unknown> {
    return this.py.ask({ id: this.nextId++, ...req });
  }

  close(): void {
    this.py.close();
  }
}

// ---------------------------------------------------------------------------
// Comparison

function b64(b: Uint8Array): string {
  return Buffer.from(b).toString('base64');
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** First difference between our result and Python's, or null. */
function compare(blob: Uint8Array, py: PyResult): string | null {
  if (py.crash) return `python oracle crashed: ${py.crash}`;
  let ours: MimeModule.ConvertedBlob;
  try {
    ours = mime.convertUserDataBlob(blob);
  } catch (e) {
    return `convertUserDataBlob threw: ${(e as Error).stack}`;
  }
  if (ours.gzipped !== py.gzipped) return `gzipped: ours ${ours.gzipped}, python ${py.gzipped}`;
  if (ours.kind !== py.kind) return `kind: ours ${ours.kind}, python ${py.kind}`;
  if (py.error || ours.error) {
    if (!py.error) return `ours raised ${ours.error}, python did not`;
    if (!ours.error) return `python raised ${py.error.join(': ')}, ours did not`;
    if (ours.errorType !== py.error[0]) return `error type: ours ${ours.errorType}, python ${py.error[0]}`;
    if (py.error[0] === 'UnicodeDecodeError' && ours.errorMessage !== py.error[1]) return `error: ours ${ours.errorMessage}, python ${py.error[1]}`;
    return null;
  }
  const pyLeaves = py.leaves!;
  if (ours.leaves.length !== pyLeaves.length) {
    return `leaf count: ours ${ours.leaves.length} (${ours.leaves.map((l) => l.contentType).join(',')}), python ${pyLeaves.length} (${pyLeaves.map((l) => l.ctype).join(',')})`;
  }
  const pyCont = py.containers!;
  const ourCont = ours.containers.map((c) => ({ ctype: c.contentType, defects: c.defects, isMultipart: c.isMultipart, walkIndex: c.walkIndex }));
  if (!same(ourCont, pyCont)) return `containers: ours ${JSON.stringify(ourCont)}, python ${JSON.stringify(pyCont)}`;
  for (let i = 0; i < pyLeaves.length; i++) {
    const o = ours.leaves[i];
    const p = pyLeaves[i];
    const at = `leaf ${i}`;
    if (o.walkIndex !== p.walkIndex) return `${at} walk index: ours ${o.walkIndex}, python ${p.walkIndex}`;
    if (o.contentType !== p.ctype) return `${at} content type: ours ${JSON.stringify(o.contentType)}, python ${JSON.stringify(p.ctype)}`;
    if (p.filenameError !== undefined || o.filenameError !== undefined) {
      if (!o.filenameError?.startsWith(String(p.filenameError))) return `${at} filename error: ours ${o.filenameError}, python ${p.filenameError}`;
    } else if (o.filename !== p.filename) return `${at} filename: ours ${JSON.stringify(o.filename)}, python ${JSON.stringify(p.filename)}`;
    const hs = o.headers.map((h) => [h.name, h.value]);
    if (!same(hs, p.headers)) return `${at} headers: ours ${JSON.stringify(hs)}, python ${JSON.stringify(p.headers)}`;
    if (!same(o.headerDictEntries, p.dict)) return `${at} dict: ours ${JSON.stringify(o.headerDictEntries)}, python ${JSON.stringify(p.dict)}`;
    for (const [k, v] of p.dict) if (o.headerDict[k] !== v) return `${at} headerDict[${k}]: ours ${JSON.stringify(o.headerDict[k])}`;
    if (Object.keys(o.headerDict).length !== p.dict.length) return `${at} headerDict size`;
    if (o.transferEncoding !== p.cte) return `${at} cte: ours ${JSON.stringify(o.transferEncoding)}, python ${JSON.stringify(p.cte)}`;
    if (!same(o.defects, p.defects)) return `${at} defects: ours ${JSON.stringify(o.defects)}, python ${JSON.stringify(p.defects)}`;
    if (p.payload === null) {
      if (!o.container) return `${at}: python payload is None, ours is not a container`;
    } else {
      if (o.container) return `${at}: ours is a container, python has a payload`;
      if (b64(o.payload) !== p.payload) return `${at} payload: ours ${b64(o.payload)}, python ${p.payload}`;
    }
    if (o.text !== p.text) return `${at} text: ours ${JSON.stringify(o.text)}, python ${JSON.stringify(p.text)}`;
    // spans: a literal slice of the source holding the raw payload
    if (ours.kind === 'mime') {
      if (o.span) {
        if (ours.source.slice(o.span.start, o.span.end) !== p.raw) return `${at} span ${JSON.stringify(o.span)} does not hold the raw payload`;
      } else if (p.raw !== null && p.raw !== '' && ours.source.includes(p.raw) && o.defects.length === 0 && !/\nFrom |^From /.test(p.raw)) {
        // not a hard requirement, but a literal body should normally get a span
        return `${at} has no span though its raw payload ${JSON.stringify(p.raw.slice(0, 40))} is literal`;
      }
      for (const h of o.headers) {
        if (h.span && h.valueStart !== undefined) {
          if (ours.source.slice(h.valueStart, h.span.end) !== h.value) return `${at} header ${h.name} span does not hold its value`;
          if (!ours.source.startsWith(h.name + ':', h.span.start)) return `${at} header ${h.name} span does not start at its name`;
        }
      }
    }
    if (p.gunzip) {
      const g = mime.gunzipPart(o.payload);
      if (p.gunzip.err !== undefined) {
        if (g.ok) return `${at} gunzip: ours ok, python DecompressionError ${p.gunzip.err}`;
        if (g.message !== p.gunzip.err) return `${at} gunzip error: ours ${JSON.stringify(g.message)}, python ${JSON.stringify(p.gunzip.err)}`;
      } else {
        if (!g.ok) return `${at} gunzip: ours failed (${g.message}), python ok`;
        if (g.text !== p.gunzip.ok) return `${at} gunzip text differs`;
      }
    }
  }
  return null;
}

const coverage = new Map<string, number>();
function count(k: string): void {
  coverage.set(k, (coverage.get(k) ?? 0) + 1);
}

/** What the generated cases exercised (printed with --verbose). */
function tally(r: MimeModule.ConvertedBlob): void {
  if (r.error) count('error ' + r.errorType);
  for (const c of r.containers) {
    count('container ' + (c.isMultipart ? 'split' : 'unsplit'));
    for (const d of c.defects) count('defect ' + d);
  }
  for (const l of r.leaves) {
    for (const d of l.defects) count('defect ' + d);
    if (l.container) count('leaf message/* container');
    if (l.filename !== null) count(/[\u0080-\uffff]/.test(l.filename) ? 'filename non-ascii' : 'filename ascii');
    if (l.filename?.includes('\ufffd')) count('filename with U+FFFD');
    if (l.filenameError) count('filename error');
    if (l.text !== null && /[\udc80-\udcff]/.test(l.text)) count('text with surrogateescape');
    const cte = (l.transferEncoding ?? '').toLowerCase();
    if (cte) count('cte ' + cte);
    if (l.span) count('leaf with span');
    if (l.contentType === 'message/rfc822' && !l.headers.some((h) => h.name.toLowerCase() === 'content-type')) count('digest default type');
    if (GZIP_TYPES.includes(l.contentType)) {
      const g = mime.gunzipPart(l.payload);
      count(g.ok ? 'gunzip ok' : 'gunzip ' + g.errorType);
    }
    if (new Set(l.headers.map((h) => h.name.toLowerCase())).size !== l.headers.length) count('duplicate header names');
  }
}

// ---------------------------------------------------------------------------
// Shrinking

function splitKeep(b: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < b.length; i++) {
    if (b[i] === 0x0a) {
      out.push(b.subarray(start, i + 1));
      start = i + 1;
    }
  }
  if (start < b.length) out.push(b.subarray(start));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}

async function shrink(oracle: Oracle, blob: Uint8Array, wrap: (b: Uint8Array) => Uint8Array): Promise<Uint8Array> {
  const fails = async (b: Uint8Array): Promise<boolean> => {
    const w = wrap(b);
    return compare(w, await oracle.run(w)) !== null;
  };
  let lines = splitKeep(blob);
  let chunk = Math.max(1, lines.length >> 1);
  while (chunk >= 1) {
    let changed = false;
    for (let i = 0; i < lines.length; ) {
      const cand = [...lines.slice(0, i), ...lines.slice(i + chunk)];
      if (cand.length < lines.length && (await fails(concat(cand)))) {
        lines = cand;
        changed = true;
      } else i += chunk;
    }
    if (!changed) chunk >>= 1;
  }
  return concat(lines);
}

// ---------------------------------------------------------------------------

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}

// ---------------------------------------------------------------------------
// Primitive phase: the decoders and header-parameter logic on random inputs

interface PrimResult {
  ok?: string;
  defects?: string[];
  err?: string;
  msg?: string;
  se?: string;
  rep?: string;
  ctype?: string;
  filename?: string | null;
  filenameError?: string;
  boundary?: string | null;
  boundaryError?: string;
}

function randomBytes(r: Rng, alphabet: string, max: number): Uint8Array {
  const n = r.int(max + 1);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    if (r.chance(0.05)) out.push(r.int(256));
    else out.push(alphabet.charCodeAt(r.int(alphabet.length)) & 0xff);
  }
  return Uint8Array.from(out);
}

function randomHeaderValue(r: Rng): string {
  const atoms = ['"', '\\', ';', '=', '*', '%', "'", '<', '>', ' ', '(', ')', 'a', 'b', 'x', '0', '1', '*0', '*1', '*0*', '%41', '%e2%82%ac', '%C3', '\u00e9', '\u20ac', '\ud83d\ude00', 'utf-8', 'us-ascii', 'latin-1', 'filename', 'name', 'boundary', 'FileName', '\t', '\u00a0', '\u001c'];
  let s = r.pick(['text/plain', 'attachment', 'multipart/mixed', '', 'a/b/c', 'TEXT/X-Shellscript ']);
  const n = r.int(12);
  for (let i = 0; i < n; i++) s += r.pick(atoms);
  return s;
}

async function primitivePhase(oracle: Oracle, seed: number, cases: number): Promise<string | null> {
  const r = new Rng(seed ^ 0x5eed);
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/====  \r\n!-_';
  const QP = '=0123456789ABCDEFabcdefgXYZ \t\r\n\u00e9';
  for (let c = 0; c < cases; c++) {
    const op = r.pick(['decode_b', 'a2b', 'qp', 'uu', 'gz', 'utf8', 'hdr'] as const);
    let data: Uint8Array = new Uint8Array(0);
    let strict = false;
    const headers: [string, string][] = [];
    if (op === 'decode_b' || op === 'a2b') {
      data = randomBytes(r, B64, 24);
      strict = r.chance(0.5);
    } else if (op === 'qp') data = randomBytes(r, QP, 24);
    else if (op === 'uu') {
      const body = randomBytes(r, ' !"#$%&()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`\n\r', 60);
      data = Uint8Array.from([...Buffer.from(r.pick(['begin 644 f\n', 'begin 0o7 f\r\n', 'begin x\n', '', 'begin 6_4\n'])), ...body, ...Buffer.from(r.pick(['\nend\n', '', '\n\nend', '\n end \n']))]);
    } else if (op === 'gz') {
      const inner = randomBytes(r, 'abc\n', 50);
      data = r.chance(0.8) ? gzipVariant(r, inner) : inner;
      if (r.chance(0.3) && data.length) {
        data = Uint8Array.from(data);
        data[r.int(data.length)] = r.int(256);
      }
      if (r.chance(0.2)) data = data.subarray(0, r.int(data.length + 1));
    } else if (op === 'utf8') data = randomBytes(r, 'a\x80\xbf\xc0\xc2\xdf\xe0\xa0\xed\x9f\xef\xf0\x90\xf4\x8f\xf5\xff', 12);
    else {
      const names = ['Content-Type', 'Content-Disposition', 'content-type', 'CONTENT-DISPOSITION'];
      const n = r.range(1, 3);
      for (let i = 0; i < n; i++) headers.push([r.pick(names), randomHeaderValue(r)]);
    }
    const req = { op, b64: Buffer.from(data).toString('base64'), strict, headers };
    const py = (await oracle.request(req)) as PrimResult;
    const where = `primitive ${op}(${JSON.stringify(op === 'hdr' ? headers : Buffer.from(data).toString('latin1'))}${op === 'a2b' ? ', strict=' + strict : ''})`;
    const okOrErr = (f: () => Uint8Array): PrimResult => {
      try {
        return { ok: b64(f()) };
      } catch (e) {
        const pe = e as { pyType: string; message: string };
        return { err: pe.pyType === 'binascii.Error' ? 'Error' : pe.pyType, msg: pe.message };
      }
    };
    let ours: PrimResult;
    switch (op) {
      case 'decode_b': {
        const v = mime.decodeB(data);
        ours = { ok: b64(v.value), defects: v.defects };
        break;
      }
      case 'a2b':
        ours = okOrErr(() => binascii.a2bBase64(data, strict));
        break;
      case 'qp':
        ours = okOrErr(() => binascii.a2bQp(data));
        break;
      case 'uu':
        ours = okOrErr(() => mime.decodeUu(data));
        if (ours.err && py.err) ours.msg = py.msg; // messages of the inner binascii errors are not compared
        break;
      case 'gz': {
        const g = mime.decompGzipStrict(data);
        ours = g.ok ? { ok: b64(g.bytes) } : { err: 'DecompressionError', msg: g.error };
        break;
      }
      case 'utf8': {
        ours = { se: mime.decodeUtf8Surrogateescape(data), rep: undefined };
        try {
          mime.decodeUtf8Strict(data);
        } catch (e) {
          ours.err = (e as Error).message;
        }
        // 'replace' is checked through RFC 2231 utf-8 values; compare the escape round trip too
        const back = mime.encodeUtf8Surrogateescape(ours.se!);
        if (b64(back) !== b64(data)) return `${where}: surrogateescape round trip failed`;
        delete ours.rep;
        delete py.rep;
        break;
      }
      default: {
        const d = mime.describeHeaders(headers.map(([name, value]) => ({ name, value })));
        ours = { ctype: d.contentType };
        if (d.filenameError) ours.filenameError = d.filenameError.split(':')[0];
        else ours.filename = d.filename;
        if (d.boundaryError) ours.boundaryError = d.boundaryError.split(':')[0];
        else ours.boundary = d.boundary;
      }
    }
    if (JSON.stringify(sortKeys(ours)) !== JSON.stringify(sortKeys(py))) {
      return `${where}: ours ${JSON.stringify(sortKeys(ours))}, python ${JSON.stringify(sortKeys(py))}`;
    }
  }
  return null;
}

function sortKeys(o: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) {
    const v = (o as Record<string, unknown>)[k];
    if (v !== undefined && k !== 'id') out[k] = v;
  }
  return out;
}

async function main(): Promise<void> {
  const cases = Number(arg('--cases', '4000'));
  const seed = Number(arg('--seed', '20240601'));
  const python = arg('--python', '/usr/bin/python3');
  const verbose = process.argv.includes('--verbose');
  const version = parseCloudInitVersion(arg('--version', '22.4'));
  if (!version) throw new Error(`--version takes ${CLOUD_INIT_VERSIONS.join(', ')}`);
  const oracle = new Oracle(python, CLOUDINIT_TREES[version]);
  const stats = { leaves: 0, containers: 0, errors: 0, gz: 0, notMultipart: 0 };
  const started = Date.now();
  for (let c = 0; c < cases; c++) {
    const rng = new Rng(seed * 1000003 + c);
    const gen = new Gen(rng);
    const plain = gen.blob();
    const gzipWhole = rng.chance(0.08);
    const wrap = (b: Uint8Array): Uint8Array => (gzipWhole ? gzipVariant(new Rng(seed * 7 + c), b) : b);
    const blob = wrap(plain);
    const py = await oracle.run(blob);
    const diff = compare(blob, py);
    if (diff) {
      console.error(`MISMATCH in case ${c} (seed ${seed}${gzipWhole ? ', gzipped blob' : ''}): ${diff}`);
      const small = await shrink(oracle, plain, wrap);
      const w = wrap(small);
      console.error(`minimal reproducer (${small.length} bytes${gzipWhole ? ', before gzip' : ''}):`);
      console.error('  JSON (latin-1 view of the bytes): ' + JSON.stringify(Buffer.from(small).toString('latin1')));
      console.error('  base64 of the blob: ' + b64(w));
      console.error('  difference: ' + compare(w, await oracle.run(w)));
      oracle.close();
      process.exit(1);
    }
    const r = mime.convertUserDataBlob(blob);
    stats.leaves += r.leaves.length;
    stats.containers += r.containers.length;
    if (r.error) stats.errors++;
    if (r.gzipped) stats.gz++;
    if (r.kind === 'not-multipart') stats.notMultipart++;
    tally(r);
    if (verbose && c % 500 === 0) console.log(`case ${c}`);
  }
  const primCases = Number(arg('--primitive-cases', String(cases * 5)));
  const primDiff = await primitivePhase(oracle, seed, primCases);
  if (primDiff) {
    console.error('MISMATCH in ' + primDiff);
    oracle.close();
    process.exit(1);
  }
  oracle.close();
  if (verbose) console.log('coverage: ' + JSON.stringify(Object.fromEntries([...coverage].sort())));
  console.log(
    `mime differential (cloud-init ${version}): ${cases} blobs OK (seed ${seed}; ${stats.leaves} leaves, ${stats.containers} multipart containers, ` +
      `${stats.errors} raising, ${stats.gz} gzipped, ${stats.notMultipart} not-multipart); ${primCases} primitive cases OK; in ${((Date.now() - started) / 1000).toFixed(1)}s`,
  );
}

void main();
