/**
 * jinja2/lexer.py with cloud-init's settings (trim_blocks=True,
 * lstrip_blocks=False, default delimiters): the token stream, string-literal
 * decoding (backslashreplace then unicode-escape) and token descriptions used
 * in syntax-error messages.
 *
 * Residual differences: the whole template is lexed before parsing (Jinja
 * lexes lazily), so when a template has several errors the one reported may
 * differ; `\N{...}` escapes and non-ASCII identifiers or digits inside tags
 * are refused as unsupported.
 */
import { TemplateSyntaxError, unsupported } from './errors';
import { JValue } from './values';
import { pyStrRepr } from '../py/repr';
import { PY_WS_CLASS, pyStripChars } from '../py/str';


export interface Token {
  type: string;
  value: JValue;
  /** Offset in the normalized template source. */
  pos: number;
}

export const OPERATORS: Array<[string, string]> = [
  ['//', 'floordiv'],
  ['**', 'pow'],
  ['==', 'eq'],
  ['!=', 'ne'],
  ['>=', 'gteq'],
  ['<=', 'lteq'],
  ['+', 'add'],
  ['-', 'sub'],
  ['/', 'div'],
  ['*', 'mul'],
  ['%', 'mod'],
  ['~', 'tilde'],
  ['[', 'lbracket'],
  [']', 'rbracket'],
  ['(', 'lparen'],
  [')', 'rparen'],
  ['{', 'lbrace'],
  ['}', 'rbrace'],
  ['>', 'gt'],
  ['<', 'lt'],
  ['=', 'assign'],
  ['.', 'dot'],
  [':', 'colon'],
  ['|', 'pipe'],
  [',', 'comma'],
  [';', 'semicolon'],
];
export const OPERATOR_SYMBOL: Record<string, string> = Object.fromEntries(OPERATORS.map(([s, t]) => [t, s]));

export const RE = {
  tagStart: /\{[%{#]/g,
  rawBegin: new RegExp(`\\{%(-|\\+|)${PY_WS_CLASS}*raw${PY_WS_CLASS}*(?:-%\\}${PY_WS_CLASS}*|%\\})`, 'y'),
  rawEnd: new RegExp(
    `\\{%(-|\\+|)${PY_WS_CLASS}*endraw${PY_WS_CLASS}*(?:\\+%\\}|-%\\}${PY_WS_CLASS}*|%\\}\\n?)`,
    'g',
  ),
  commentEnd: new RegExp(`\\+#\\}|-#\\}${PY_WS_CLASS}*|#\\}\\n?`, 'g'),
  blockEnd: new RegExp(`\\+%\\}|-%\\}${PY_WS_CLASS}*|%\\}\\n?`, 'y'),
  variableEnd: new RegExp(`-\\}\\}${PY_WS_CLASS}*|\\}\\}`, 'y'),
  whitespace: new RegExp(`${PY_WS_CLASS}+`, 'y'),
  float: /(?<!\.)(?:\d+_)*\d+(?:(?:\.(?:\d+_)*\d+)?e[+-]?(?:\d+_)*\d+|\.(?:\d+_)*\d+)/iy,
  integer: /0b(?:_?[01])+|0o(?:_?[0-7])+|0x(?:_?[\da-f])+|[1-9](?:_?\d)*|0(?:_?0)*/iy,
  name: /[A-Za-z0-9_]+/y,
  nonAsciiWord: /[^\x00-\x7f]/y,
  string: /'([^'\\]*(?:\\.[^'\\]*)*)'|"([^"\\]*(?:\\.[^"\\]*)*)"/sy,
};

/** The string-literal decoding Jinja does: backslashreplace to ASCII, then Python's unicode-escape codec. */
export function decodeStringLiteral(raw: string, pos: number): string {
  let ascii = '';
  for (const ch of raw) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) ascii += ch;
    else if (cp < 0x100) ascii += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp < 0x10000) ascii += '\\u' + cp.toString(16).padStart(4, '0');
    else ascii += '\\U' + cp.toString(16).padStart(8, '0');
  }
  let out = '';
  const simple: Record<string, string> = {
    '\n': '',
    '\\': '\\',
    "'": "'",
    '"': '"',
    a: '\x07',
    b: '\x08',
    f: '\x0c',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\x0b',
  };
  for (let i = 0; i < ascii.length; i++) {
    const c = ascii[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    if (i + 1 >= ascii.length) throw new TemplateSyntaxError('\\ at end of string', pos);
    const d = ascii[++i];
    if (d in simple) {
      out += simple[d];
    } else if (d >= '0' && d <= '7') {
      let v = d;
      while (v.length < 3 && i + 1 < ascii.length && ascii[i + 1] >= '0' && ascii[i + 1] <= '7') v += ascii[++i];
      out += String.fromCodePoint(parseInt(v, 8));
    } else if (d === 'x' || d === 'u' || d === 'U') {
      const n = d === 'x' ? 2 : d === 'u' ? 4 : 8;
      const hex = ascii.slice(i + 1, i + 1 + n);
      if (hex.length < n || !/^[0-9a-fA-F]+$/.test(hex)) {
        const what = d === 'x' ? '\\xXX' : d === 'u' ? '\\uXXXX' : '\\UXXXXXXXX';
        throw new TemplateSyntaxError(`truncated ${what} escape`, pos);
      }
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) throw new TemplateSyntaxError('illegal Unicode character', pos);
      out += String.fromCodePoint(cp);
      i += n;
    } else if (d === 'N') {
      throw unsupported('\\N{...} escape in a string literal', pos);
    } else {
      out += '\\' + d;
    }
  }
  return out;
}

export function parseIntLiteral(text: string): bigint {
  const t = text.replace(/_/g, '').toLowerCase();
  if (t.startsWith('0b') || t.startsWith('0o') || t.startsWith('0x')) return BigInt(t);
  return BigInt(t);
}

export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  const n = src.length;
  let pos = 0;
  const fail = (msg: string, at: number): never => {
    throw new TemplateSyntaxError(msg, at);
  };
  while (pos < n) {
    RE.tagStart.lastIndex = pos;
    const m = RE.tagStart.exec(src);
    if (!m) {
      tokens.push({ type: 'data', value: src.slice(pos), pos });
      break;
    }
    const at = m.index;
    let text = src.slice(pos, at);
    let kind: 'raw' | 'block' | 'variable' | 'comment';
    let sign: string;
    let after: number;
    if (src[at + 1] === '%') {
      RE.rawBegin.lastIndex = at;
      const rm = RE.rawBegin.exec(src);
      if (rm) {
        kind = 'raw';
        sign = rm[1];
        after = at + rm[0].length;
      } else {
        kind = 'block';
        sign = src[at + 2] === '-' || src[at + 2] === '+' ? src[at + 2] : '';
        after = at + 2 + sign.length;
      }
    } else {
      kind = src[at + 1] === '{' ? 'variable' : 'comment';
      sign = src[at + 2] === '-' || src[at + 2] === '+' ? src[at + 2] : '';
      after = at + 2 + sign.length;
    }
    if (sign === '-') text = pyStripChars(text, null, false, true);
    if (text) tokens.push({ type: 'data', value: text, pos });
    pos = after;
    if (kind === 'comment') {
      RE.commentEnd.lastIndex = pos;
      const cm = RE.commentEnd.exec(src);
      if (!cm && pos >= n) break;
      if (!cm) fail('Missing end of comment tag', at);
      pos = (cm as RegExpExecArray).index + (cm as RegExpExecArray)[0].length;
      continue;
    }
    if (kind === 'raw') {
      RE.rawEnd.lastIndex = pos;
      const em = RE.rawEnd.exec(src);
      if (!em && pos >= n) break;
      if (!em) fail('Missing end of raw directive', at);
      const e = em as RegExpExecArray;
      let body = src.slice(pos, e.index);
      if (e[1] === '-') body = pyStripChars(body, null, false, true);
      if (body) tokens.push({ type: 'data', value: body, pos });
      pos = e.index + e[0].length;
      continue;
    }
    tokens.push({ type: kind === 'block' ? 'block_begin' : 'variable_begin', value: null, pos: at });
    const endRe = kind === 'block' ? RE.blockEnd : RE.variableEnd;
    const balancing: string[] = [];
    let closed = false;
    while (pos < n) {
      if (!balancing.length) {
        endRe.lastIndex = pos;
        const em = endRe.exec(src);
        if (em) {
          tokens.push({ type: kind === 'block' ? 'block_end' : 'variable_end', value: null, pos });
          pos += em[0].length;
          closed = true;
          break;
        }
      }
      const tryRe = (re: RegExp): string | null => {
        re.lastIndex = pos;
        const x = re.exec(src);
        return x ? x[0] : null;
      };
      let t = tryRe(RE.whitespace);
      if (t !== null) {
        pos += t.length;
        continue;
      }
      t = tryRe(RE.float);
      if (t !== null) {
        tokens.push({ type: 'float', value: Number(t.replace(/_/g, '')), pos });
        pos += t.length;
        continue;
      }
      t = tryRe(RE.integer);
      if (t !== null) {
        tokens.push({ type: 'integer', value: parseIntLiteral(t), pos });
        pos += t.length;
        continue;
      }
      t = tryRe(RE.name);
      if (t !== null) {
        RE.nonAsciiWord.lastIndex = pos + t.length;
        if (RE.nonAsciiWord.test(src)) throw unsupported('non-ASCII identifier', pos);
        tokens.push({ type: 'name', value: t, pos });
        pos += t.length;
        continue;
      }
      RE.string.lastIndex = pos;
      const sm = RE.string.exec(src);
      if (sm) {
        const raw = sm[1] ?? sm[2];
        tokens.push({ type: 'string', value: decodeStringLiteral(raw, pos), pos });
        pos += sm[0].length;
        continue;
      }
      let op: [string, string] | undefined;
      for (const o of OPERATORS) {
        if (src.startsWith(o[0], pos)) {
          op = o;
          break;
        }
      }
      if (op) {
        const s = op[0];
        if (s === '{') balancing.push('}');
        else if (s === '(') balancing.push(')');
        else if (s === '[') balancing.push(']');
        else if (s === '}' || s === ')' || s === ']') {
          if (!balancing.length) fail(`unexpected '${s}'`, pos);
          const expected = balancing.pop();
          if (expected !== s) fail(`unexpected '${s}', expected '${expected}'`, pos);
        }
        tokens.push({ type: op[1], value: s, pos });
        pos += s.length;
        continue;
      }
      if (src.charCodeAt(pos) > 0x7f && /[\p{L}\p{N}]/u.test(String.fromCodePoint(src.codePointAt(pos) as number))) {
        throw unsupported('non-ASCII identifier or digit', pos);
      }
      fail(`unexpected char ${pyStrRepr(String.fromCodePoint(src.codePointAt(pos) as number))} at ${pos}`, pos);
    }
    if (!closed) break;
  }
  tokens.push({ type: 'eof', value: null, pos: n });
  return tokens;
}

export function describeTokenType(type: string): string {
  if (type in OPERATOR_SYMBOL) return OPERATOR_SYMBOL[type];
  const names: Record<string, string> = {
    block_begin: 'begin of statement block',
    block_end: 'end of statement block',
    variable_begin: 'begin of print statement',
    variable_end: 'end of print statement',
    data: 'template data / text',
    eof: 'end of template',
  };
  return names[type] ?? type;
}

export function describeToken(t: Token): string {
  return t.type === 'name' ? (t.value as string) : describeTokenType(t.type);
}

export function describeTokenExpr(expr: string): string {
  const i = expr.indexOf(':');
  if (i >= 0 && expr.slice(0, i) === 'name') return expr.slice(i + 1);
  return describeTokenType(i >= 0 ? expr.slice(0, i) : expr);
}
