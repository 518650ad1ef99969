/**
 * CPython's printf-style formatting, `str % args`
 * (Objects/unicodeobject.c, PyUnicode_Format), and ascii().
 *
 * Residual differences: `*` widths and precisions are refused as
 * unsupported.
 */
import { typeError, unsupported } from './errors';
import { formatFixed, pyIntOf, toFloat } from './numbers';
import { floatFormatBody } from './pyformat';
import { Renderer } from './runtime';
import { JBytes, JDict, JMarkup, JRange, JTuple, JUndef, JValue, hashKey, isInt, isNumber, pyRepr, pyStr, toBig, typeName } from './values';
import { PyError } from '../py/errors';
import { pyIntStr } from '../py/int';
import { pyStrRepr } from '../py/repr';
import { codePoints, pyLen } from '../py/str';


export function pyAscii(s: string): string {
  let out = '';
  for (const ch of pyStrRepr(s)) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) out += ch;
    else if (cp < 0x100) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return out;
}

export function pyPercentFormat(fmt: string, v: JValue, r: Renderer): string {
  void r;
  let args: JValue[];
  let mapping: JDict | null = null;
  let isMapping = false;
  if (v instanceof JTuple) args = v.items;
  else {
    args = [v];
    if (v instanceof JDict) mapping = v;
    isMapping = v instanceof JDict || Array.isArray(v) || v instanceof JRange || v instanceof JUndef || v instanceof JBytes;
  }
  let argi = 0;
  let usedMapping = false;
  const nextArg = (): JValue => {
    if (argi >= args.length) throw typeError('not enough arguments for format string');
    return args[argi++];
  };
  let out = '';
  let i = 0;
  while (i < fmt.length) {
    const c = fmt[i];
    if (c !== '%') {
      out += c;
      i++;
      continue;
    }
    const start = i;
    i++;
    if (i >= fmt.length) throw new PyError('ValueError', 'incomplete format');
    let key: string | null = null;
    if (fmt[i] === '(') {
      let depth = 1;
      let j = i + 1;
      while (j < fmt.length && depth) {
        if (fmt[j] === '(') depth++;
        else if (fmt[j] === ')') depth--;
        j++;
      }
      if (depth) throw new PyError('ValueError', 'incomplete format key');
      key = fmt.slice(i + 1, j - 1);
      i = j;
    }
    let flags = '';
    while (i < fmt.length && '-+ #0'.includes(fmt[i])) flags += fmt[i++];
    let width = -1;
    if (fmt[i] === '*') throw unsupported('* width in % formatting');
    let w = '';
    while (i < fmt.length && fmt[i] >= '0' && fmt[i] <= '9') w += fmt[i++];
    if (w) width = Number(w);
    let prec = -1;
    if (fmt[i] === '.') {
      i++;
      if (fmt[i] === '*') throw unsupported('* precision in % formatting');
      let p = '';
      while (i < fmt.length && fmt[i] >= '0' && fmt[i] <= '9') p += fmt[i++];
      prec = p ? Number(p) : 0;
    }
    while (i < fmt.length && 'hlL'.includes(fmt[i])) i++;
    if (i >= fmt.length) throw new PyError('ValueError', 'incomplete format');
    const conv = fmt[i++];
    if (conv === '%') {
      out += '%';
      continue;
    }
    let arg: JValue;
    if (key !== null) {
      if (!mapping) {
        if (isMapping) throw unsupported('%(key) formatting with a non-dict argument');
        throw typeError('format requires a mapping');
      }
      usedMapping = true;
      const e = mapping.map.get(hashKey(key));
      if (!e) throw new PyError('KeyError', pyStrRepr(key));
      arg = e.v;
    } else arg = nextArg();
    let body: string;
    let sign = '';
    let numeric = false;
    switch (conv) {
      case 's':
      case 'r':
      case 'a':
        body = conv === 's' ? pyStr(arg) : conv === 'r' ? pyRepr(arg) : typeof arg === 'string' ? pyAscii(arg) : pyRepr(arg);
        if (prec >= 0) body = codePoints(body).slice(0, prec).join('');
        break;
      case 'd':
      case 'i':
      case 'u':
      case 'x':
      case 'X':
      case 'o': {
        if (arg instanceof JUndef) throw arg.fail();
        if (!isNumber(arg)) {
          throw typeError(
            conv === 'x' || conv === 'X' || conv === 'o'
              ? `%${conv} format: an integer is required, not ${typeName(arg)}`
              : `%${conv} format: a real number is required, not ${typeName(arg)}`,
          );
        }
        if (typeof arg === 'number' && (conv === 'x' || conv === 'X' || conv === 'o')) {
          throw typeError(`%${conv} format: an integer is required, not float`);
        }
        numeric = true;
        let n = pyIntOf(arg);
        if (n < 0n) {
          sign = '-';
          n = -n;
        } else if (flags.includes('+')) sign = '+';
        else if (flags.includes(' ')) sign = ' ';
        body = conv === 'x' || conv === 'X' ? n.toString(16) : conv === 'o' ? n.toString(8) : pyIntStr(n);
        if (conv === 'X') body = body.toUpperCase();
        if (prec >= 0 && body.length < prec) body = body.padStart(prec, '0');
        if (flags.includes('#') && conv !== 'd' && conv !== 'i' && conv !== 'u') {
          sign += conv === 'x' ? '0x' : conv === 'X' ? '0X' : '0o';
        }
        break;
      }
      case 'f':
      case 'F': {
        if (arg instanceof JUndef) throw arg.fail();
        if (!isNumber(arg)) throw typeError(`must be real number, not ${typeName(arg)}`);
        numeric = true;
        const x = toFloat(arg);
        let s = formatFixed(x, prec < 0 ? 6 : prec);
        if (flags.includes('#') && prec === 0 && Number.isFinite(x)) s += '.';
        if (conv === 'F') s = s.toUpperCase();
        if (s.startsWith('-')) {
          sign = '-';
          s = s.slice(1);
        } else if (flags.includes('+')) sign = '+';
        else if (flags.includes(' ')) sign = ' ';
        body = s;
        break;
      }
      case 'e':
      case 'E':
      case 'g':
      case 'G': {
        if (arg instanceof JUndef) throw arg.fail();
        if (!isNumber(arg)) throw typeError(`must be real number, not ${typeName(arg)}`);
        const x = toFloat(arg);
        numeric = true;
        if (x < 0 || Object.is(x, -0)) sign = '-';
        else if (flags.includes('+')) sign = '+';
        else if (flags.includes(' ')) sign = ' ';
        if (Number.isNaN(x)) sign = flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
        body = floatFormatBody(x, conv, prec < 0 ? 6 : prec, flags.includes('#'));
        break;
      }
      case 'c': {
        // Neither an int nor a str (an undefined included): no conversion method is tried.
        if (typeof arg === 'string' || arg instanceof JMarkup) {
          const t = typeof arg === 'string' ? arg : arg.s;
          if (pyLen(t) !== 1) throw typeError('%c requires int or char');
          body = t;
        } else if (isInt(arg)) {
          const n = toBig(arg);
          if (n < 0n || n > 0x10ffffn) throw new PyError('OverflowError', '%c arg not in range(0x110000)');
          body = String.fromCodePoint(Number(n));
        } else throw typeError('%c requires int or char');
        break;
      }
      default:
        throw new PyError(
          'ValueError',
          `unsupported format character ${pyStrRepr(conv)} (0x${(conv.codePointAt(0) as number).toString(16)}) at index ${i - 1}`,
        );
    }
    void start;
    const total = pyLen(sign + body);
    if (width > total) {
      if (flags.includes('-')) body = sign + body + ' '.repeat(width - total);
      else if (flags.includes('0') && numeric) body = sign + '0'.repeat(width - total) + body;
      else body = ' '.repeat(width - total) + sign + body;
    } else body = sign + body;
    out += body;
  }
  if (argi < args.length && !isMapping) throw typeError('not all arguments converted during string formatting');
  void usedMapping;
  return out;
}
