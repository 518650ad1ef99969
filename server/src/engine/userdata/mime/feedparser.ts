/**
 * `email.feedparser.FeedParser` (Lib/email/feedparser.py, CPython 3.11, compat32): line splitting
 * on CRLF / CR / LF, header collection (`From ` envelope lines, continuation lines, a first line that
 * is a continuation, a line without a colon ending the headers with MissingHeaderBodySeparatorDefect,
 * a header with an empty name), multipart boundary search with the stack of "false EOF" matchers
 * (outer boundaries end inner parts), runs of repeated boundary lines, the line break before a
 * boundary belonging to the boundary, missing start / close boundary, multipart without boundary,
 * message/* parts parsed as nested messages, message/delivery-status header blocks.
 * `sourceParse` is `Compat32.header_source_parse` plus source positions.
 *
 * Residual differences:
 * - Python feeds the parser in 8192-character chunks; its result does not depend on chunking (a CRLF
 *   split across chunks is covered by a test), so the whole text is parsed at once here.
 * - RecursionError: Python's limit depends on the caller's stack (3.11 at top level fails at 984
 *   nested multiparts / 988 nested message/* parts; cloud-init's call chain is about 10 frames
 *   deeper). RecursionError is raised beyond `maxDepth` (default 970) nested parts, and also if the
 *   JavaScript stack runs out first (small `--stack-size`); its text may differ from Python's.
 */
import { PyError } from '../../py/errors';
import { PHeader, PMsg } from './message';
import { pyLower, stripCharsLeft, stripCharsRight } from './strings';
/** Length of the line break at the end of `s` (NLCRE_eol: \r\n|\r|\n at the end). */
function eolLength(s: string): number {
  const n = s.length;
  if (n === 0) return 0;
  const c = s.charCodeAt(n - 1);
  if (c === 10) return n >= 2 && s.charCodeAt(n - 2) === 13 ? 2 : 1;
  if (c === 13) return 1;
  return 0;
}

/** Length of the line break at the start of `s` (NLCRE_bol / NLCRE.match). */
function bolLength(s: string): number {
  const c = s.charCodeAt(0);
  if (c === 13) return s.charCodeAt(1) === 10 ? 2 : 1;
  if (c === 10) return 1;
  return 0;
}

interface Line {
  s: string;
  /** Offset in the source, -1 for the synthetic empty line. */
  off: number;
}

const EOF_LINE: Line = { s: '', off: -1 };

type EofMatcher = { kind: 'boundary'; sep: string } | { kind: 'nl' };

/** boundaryre.match(line): null, or whether it is the close delimiter and ends in a line break. */
function matchBoundary(s: string, sep: string): { end: boolean; linesep: boolean } | null {
  if (!s.startsWith(sep)) return null;
  let i = sep.length;
  let end = false;
  if (s.charCodeAt(i) === 0x2d && s.charCodeAt(i + 1) === 0x2d) {
    end = true;
    i += 2;
  }
  while (i < s.length && (s.charCodeAt(i) === 0x20 || s.charCodeAt(i) === 0x09)) i++;
  const rest = s.length - i;
  if (rest === 0) return { end, linesep: false };
  const c = s.charCodeAt(i);
  if (rest === 1 && (c === 0x0a || c === 0x0d)) return { end, linesep: true };
  if (rest === 2 && c === 0x0d && s.charCodeAt(i + 1) === 0x0a) return { end, linesep: true };
  return null;
}

/**
 * The separators a line could be a delimiter for: with the line break and
 * trailing blanks removed, the line itself, or the line without a final
 * "--" (the close delimiter). Boundaries never end in whitespace
 * (get_boundary() rstrips them), so this is exact for `boundaryre`.
 */
function delimiterCandidates(s: string): [string, string | null] {
  let end = s.length - eolLength(s);
  while (end > 0 && (s.charCodeAt(end - 1) === 0x20 || s.charCodeAt(end - 1) === 0x09)) end--;
  const bare = s.slice(0, end);
  return [bare, bare.endsWith('--') ? bare.slice(0, -2) : null];
}

class LineInput {
  private idx = 0;
  private back: Line[] = [];
  private eofStack: EofMatcher[] = [];
  private nlMatchers = 0;
  /** Active boundary separators (a multiset): lets readline test a line in O(1) whatever the nesting depth. */
  private seps = new Map<string, number>();

  constructor(private readonly lines: Line[]) {}

  pushEof(m: EofMatcher): void {
    this.eofStack.push(m);
    if (m.kind === 'nl') this.nlMatchers++;
    else this.seps.set(m.sep, (this.seps.get(m.sep) ?? 0) + 1);
  }

  popEof(): void {
    const m = this.eofStack.pop();
    if (!m) return;
    if (m.kind === 'nl') this.nlMatchers--;
    else {
      const n = this.seps.get(m.sep)! - 1;
      if (n) this.seps.set(m.sep, n);
      else this.seps.delete(m.sep);
    }
  }

  /** Whether one of the false-EOF predicates on the stack matches the line. */
  private atFalseEof(s: string): boolean {
    if (this.nlMatchers > 0 && bolLength(s) > 0) return true;
    if (this.seps.size === 0 || s.charCodeAt(0) !== 0x2d || s.charCodeAt(1) !== 0x2d) return false;
    const [bare, open] = delimiterCandidates(s);
    return this.seps.has(bare) || (open !== null && this.seps.has(open));
  }

  readline(): Line {
    let line: Line | undefined = this.back.pop();
    if (line === undefined) {
      if (this.idx >= this.lines.length) return EOF_LINE;
      line = this.lines[this.idx++];
    }
    if (this.atFalseEof(line.s)) {
      this.back.push(line);
      return EOF_LINE;
    }
    return line;
  }

  unreadline(line: Line): void {
    this.back.push(line);
  }
}

/** Split into lines the way io.StringIO(newline='').readlines() does (\r\n, \r, \n kept). */
function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const n = text.length;
  let start = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      i++;
      lines.push({ s: text.slice(start, i), off: start });
      start = i;
    } else if (c === 0x0d) {
      i += text.charCodeAt(i + 1) === 0x0a ? 2 : 1;
      lines.push({ s: text.slice(start, i), off: start });
      start = i;
    } else i++;
  }
  if (start < n) lines.push({ s: text.slice(start), off: start });
  return lines;
}

/** headerRE = ^(From |[\041-\071\073-\176]*:|[\t ]) */
function isHeaderLine(s: string): boolean {
  if (s.startsWith('From ')) return true;
  const c0 = s.charCodeAt(0);
  if (c0 === 0x09 || c0 === 0x20) return true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x3a) return true;
    if (c < 0x21 || c > 0x7e) return false;
  }
  return false;
}

export class FeedParser {
  private readonly input: LineInput;
  private stack: PMsg[] = [];
  private cur: PMsg | null = null;
  private last: PMsg | null = null;

  constructor(
    private readonly source: string,
    private readonly maxDepth: number,
  ) {
    this.input = new LineInput(splitLines(source));
  }

  parse(): PMsg {
    this.parsegen(1);
    const root = this.popMessage();
    if (root.getMaintype() === 'multipart' && !root.isMultipart()) root.defects.push('MultipartInvariantViolationDefect');
    return root;
  }

  private joinLines(lines: Line[]): { s: string; off: number } {
    if (lines.length === 0) return { s: '', off: -1 };
    let expected = lines[0].off;
    let contiguous = expected >= 0;
    for (const l of lines) {
      if (l.off !== expected) {
        contiguous = false;
        break;
      }
      expected = l.off + l.s.length;
    }
    if (contiguous) return { s: this.source.slice(lines[0].off, expected), off: lines[0].off };
    return { s: lines.map((l) => l.s).join(''), off: -1 };
  }

  private setPayloadLines(msg: PMsg, lines: Line[]): void {
    const j = this.joinLines(lines);
    msg.payload = j.s;
    msg.payloadOff = j.off;
  }

  private newMessage(): PMsg {
    const msg = new PMsg();
    // `if self._cur and ...`: a Message with no headers is falsy
    if (this.cur && this.cur.headers.length > 0 && this.cur.getContentType() === 'multipart/digest') {
      msg.defaultType = 'message/rfc822';
    }
    if (this.stack.length) this.stack[this.stack.length - 1].attach(msg);
    this.stack.push(msg);
    this.cur = msg;
    this.last = msg;
    return msg;
  }

  private popMessage(): PMsg {
    const m = this.stack.pop()!;
    this.cur = this.stack.length ? this.stack[this.stack.length - 1] : null;
    return m;
  }

  private readRest(): Line[] {
    const lines: Line[] = [];
    for (;;) {
      const l = this.input.readline();
      if (l.s === '') return lines;
      lines.push(l);
    }
  }

  private parsegen(depth: number): void {
    if (depth > this.maxDepth) throw new PyError('RecursionError', 'maximum recursion depth exceeded');
    const cur = this.newMessage();
    const headers: Line[] = [];
    for (;;) {
      const line = this.input.readline();
      if (line.s === '') break;
      if (!isHeaderLine(line.s)) {
        if (bolLength(line.s) === 0) {
          cur.defects.push('MissingHeaderBodySeparatorDefect');
          this.input.unreadline(line);
        }
        break;
      }
      headers.push(line);
    }
    this.parseHeaders(cur, headers);
    cur.freezeContentType();
    const ctype = cur.getContentType();
    const maintype = ctype.split('/')[0];

    if (ctype === 'message/delivery-status') {
      for (;;) {
        this.input.pushEof({ kind: 'nl' });
        this.parsegen(depth + 1);
        this.popMessage();
        this.input.popEof();
        this.input.readline();
        const line = this.input.readline();
        if (line.s === '') break;
        this.input.unreadline(line);
      }
      return;
    }
    if (maintype === 'message') {
      this.parsegen(depth + 1);
      this.popMessage();
      return;
    }
    if (maintype === 'multipart') {
      this.parseMultipart(cur, depth);
      return;
    }
    this.setPayloadLines(cur, this.readRest());
  }

  private parseMultipart(cur: PMsg, depth: number): void {
    const boundary = cur.getBoundary();
    if (boundary === null) {
      cur.defects.push('NoBoundaryInMultipartDefect');
      this.setPayloadLines(cur, this.readRest());
      return;
    }
    const cte = pyLower(cur.get('content-transfer-encoding') ?? '8bit');
    if (cte !== '7bit' && cte !== '8bit' && cte !== 'binary') cur.defects.push('InvalidMultipartContentTransferEncodingDefect');
    const sep = '--' + boundary;
    let capturingPreamble = true;
    const preamble: Line[] = [];
    let linesep = false;
    let closeSeen = false;
    for (;;) {
      const line = this.input.readline();
      if (line.s === '') break;
      const mo = matchBoundary(line.s, sep);
      if (mo) {
        if (mo.end) {
          closeSeen = true;
          linesep = mo.linesep;
          break;
        }
        if (capturingPreamble) {
          if (preamble.length) {
            const j = this.joinLines(preamble);
            cur.preamble = j.s.slice(0, j.s.length - eolLength(j.s));
          }
          capturingPreamble = false;
          this.input.unreadline(line);
          continue;
        }
        for (;;) {
          const l = this.input.readline();
          if (!matchBoundary(l.s, sep)) {
            this.input.unreadline(l);
            break;
          }
        }
        this.input.pushEof({ kind: 'boundary', sep });
        this.parsegen(depth + 1);
        const last = this.last!;
        if (last.getMaintype() === 'multipart') {
          const ep = last.epilogue;
          if (ep === '') last.epilogue = null;
          else if (ep !== null) last.epilogue = ep.slice(0, ep.length - eolLength(ep));
        } else if (typeof last.payload === 'string') {
          const p = last.payload;
          const k = eolLength(p);
          if (k) last.payload = p.slice(0, p.length - k);
        }
        this.input.popEof();
        this.popMessage();
        this.last = this.cur;
      } else {
        if (!capturingPreamble) throw new PyError('AssertionError', '');
        preamble.push(line);
      }
    }
    if (capturingPreamble) {
      cur.defects.push('StartBoundaryNotFoundDefect');
      this.setPayloadLines(cur, preamble);
      this.readRest();
      cur.epilogue = '';
      return;
    }
    if (!closeSeen) {
      cur.defects.push('CloseBoundaryNotFoundDefect');
      return;
    }
    const epilogue: string[] = linesep ? [''] : [];
    for (const l of this.readRest()) epilogue.push(l.s);
    if (epilogue.length) epilogue[0] = epilogue[0].slice(bolLength(epilogue[0]));
    cur.epilogue = epilogue.join('');
  }

  private parseHeaders(cur: PMsg, lines: Line[]): void {
    let last: Line[] = [];
    const flush = (): void => {
      if (!last.length) return;
      cur.headers.push(sourceParse(last));
      last = [];
    };
    for (let lineno = 0; lineno < lines.length; lineno++) {
      const line = lines[lineno];
      const s = line.s;
      const c0 = s.charCodeAt(0);
      if (c0 === 0x20 || c0 === 0x09) {
        if (!last.length) {
          cur.defects.push('FirstHeaderLineIsContinuationDefect');
          continue;
        }
        last.push(line);
        continue;
      }
      flush();
      if (s.startsWith('From ')) {
        if (lineno === 0) {
          cur.unixfrom = s.slice(0, s.length - eolLength(s));
          continue;
        } else if (lineno === lines.length - 1) {
          this.input.unreadline(line);
          return;
        } else {
          cur.defects.push('MisplacedEnvelopeHeaderDefect');
          continue;
        }
      }
      const i = s.indexOf(':');
      if (i === 0) {
        cur.defects.push('InvalidHeaderDefect');
        continue;
      }
      if (i < 0) throw new PyError('AssertionError', '_parse_headers fed line with no : and no leading WS');
      last = [line];
    }
    flush();
  }
}

/** Compat32.header_source_parse plus source positions. */
function sourceParse(lines: Line[]): PHeader {
  const first = lines[0].s;
  const i = first.indexOf(':');
  const name = first.slice(0, i);
  const afterColon = first.slice(i + 1);
  const lead = afterColon.length - stripCharsLeft(afterColon, ' \t').length;
  let raw = afterColon.slice(lead);
  for (let k = 1; k < lines.length; k++) raw += lines[k].s;
  const value = stripCharsRight(raw, '\r\n');
  let contiguous = lines[0].off >= 0;
  for (let k = 1; k < lines.length && contiguous; k++) {
    if (lines[k].off !== lines[k - 1].off + lines[k - 1].s.length) contiguous = false;
  }
  const start = contiguous ? lines[0].off : -1;
  const valueStart = contiguous ? start + i + 1 + lead : -1;
  return { name, value, start, end: contiguous ? valueStart + value.length : -1, valueStart };
}
