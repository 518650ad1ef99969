/**
 * Python's `repr()` for the values whose spelling leaks into cloud-init's
 * output and messages: floats (YAML and JSON output) and strings (error
 * messages such as "Matcher identifer 'x' ...").
 */

/** `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa, expText] = Math.abs(x).toExponential().split('e');
  const exponent = Number(expText);
  const digits = mantissa.replace('.', '');
  if (exponent < -4 || exponent >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exponent).toString().padStart(2, '0');
    return `${sign}${m}e${exponent < 0 ? '-' : '+'}${e}`;
  }
  const pointAt = exponent + 1;
  let text: string;
  if (pointAt <= 0) {
    text = '0.' + '0'.repeat(-pointAt) + digits;
  } else if (pointAt >= digits.length) {
    text = digits + '0'.repeat(pointAt - digits.length) + '.0';
  } else {
    text = digits.slice(0, pointAt) + '.' + digits.slice(pointAt);
  }
  return sign + text;
}

/** Characters Python's `str.isprintable()` rejects, approximated by Unicode categories. */
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|[^\S ]/u;

/** `repr(str)`: quote choice and escapes as CPython does. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (NON_PRINTABLE.test(ch)) {
      const cp = ch.codePointAt(0) as number;
      if (cp < 0x100) out += '\\x' + cp.toString(16).padStart(2, '0');
      else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
      else out += '\\U' + cp.toString(16).padStart(8, '0');
    } else out += ch;
  }
  return out + quote;
}
