/**
 * The `format` checks cloud-init's validator applies, as python-jsonschema's `FormatChecker()` does on
 * the interpreter the oracle runs (Debian 12: jsonschema 4.10.3 with `rfc3987`, without `fqdn`).
 *
 * Of the formats cloud-init's schema names, `uri` is checked with rfc3987's `URI` rule (RFC 3986's
 * grammar, anchored with Python's `$`, which also matches before a final newline) and `date` with
 * CPython 3.11's `date.fromisoformat` (the C parser: 7, 8 or 10 ASCII characters, calendar or ISO-week
 * dates, trailing characters after a complete date ignored). `hostname` needs the `fqdn` package, which is
 * not installed there, so it is not checked: any string passes. Non-strings always pass.
 */
import type { PyValue } from '../py/values';

// RFC 3986 appendix A, written out as a regular expression.
const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCT = '%[0-9A-Fa-f]{2}';
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const SEGMENT = `${PCHAR}*`;
const SEGMENT_NZ = `${PCHAR}+`;
const DEC_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])';
const IPV4 = `${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].map((a) => `(?:${a})`).join('|');
const IPVFUTURE = `v[0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+`;
const IP_LITERAL = `\\[(?:${IPV6}|${IPVFUTURE})\\]`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*`;
const HOST = `(?:${IP_LITERAL}|${IPV4}|${REG_NAME})`;
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*`;
const AUTHORITY = `(?:${USERINFO}@)?${HOST}(?::[0-9]*)?`;
const HIER_PART = `(?://${AUTHORITY}(?:/${SEGMENT})*|/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?|${SEGMENT_NZ}(?:/${SEGMENT})*|)`;
const QUERY = `(?:${PCHAR}|[/?])*`;
const URI = new RegExp(`^[A-Za-z][A-Za-z0-9+\\-.]*:${HIER_PART}(?:\\?${QUERY})?(?:#${QUERY})?\\n?$`);

export function isUri(s: string): boolean {
  return URI.test(s);
}

function digits(s: string, at: number, n: number): number | null {
  if (at + n > s.length) return null;
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return null;
    v = v * 10 + (c - 48);
  }
  return v;
}

function isLeap(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validYmd(y: number, m: number, d: number): boolean {
  if (y < 1 || y > 9999 || m < 1 || m > 12) return false;
  const dim = m === 2 && isLeap(y) ? 29 : DAYS[m - 1];
  return d >= 1 && d <= dim;
}

/** Days since 0001-01-01 (proleptic Gregorian), 1-based like Python's toordinal. */
function ordinal(y: number, m: number, d: number): number {
  const py = y - 1;
  let days = py * 365 + Math.floor(py / 4) - Math.floor(py / 100) + Math.floor(py / 400);
  for (let i = 0; i < m - 1; i++) days += DAYS[i] + (i === 1 && isLeap(y) ? 1 : 0);
  return days + d;
}

function fromOrdinal(n: number): [number, number, number] {
  // Small loop is fine: only reached for ISO week dates.
  let y = Math.max(1, Math.floor(n / 365.2425) - 1);
  while (ordinal(y + 1, 1, 1) <= n) y++;
  while (ordinal(y, 1, 1) > n) y--;
  let rest = n - ordinal(y, 1, 1);
  let m = 1;
  for (;;) {
    const dim = m === 2 && isLeap(y) ? 29 : DAYS[m - 1];
    if (rest < dim) break;
    rest -= dim;
    m++;
  }
  return [y, m, rest + 1];
}

/** CPython 3.11 `datetime.date.fromisoformat(s)` succeeds (for an ASCII `s`). */
export function isIsoDate(s: string): boolean {
  if (!/^[\x00-\x7f]*$/.test(s)) return false;
  const len = s.length;
  if (len !== 7 && len !== 8 && len !== 10) return false;
  const year = digits(s, 0, 4);
  if (year === null) return false;
  let p = 4;
  const sep = s[p] === '-';
  if (sep) p++;
  if (s[p] === 'W') {
    p++;
    const week = digits(s, p, 2);
    if (week === null) return false;
    p += 2;
    let day = 1;
    if (p < len) {
      if (sep && s[p++] !== '-') return false;
      const d = digits(s, p, 1);
      if (d === null) return false;
      day = d;
    }
    if (week <= 0 || week >= 53) {
      let out = true;
      if (week === 53) {
        const firstWeekday = (ordinal(year, 1, 1) + 6) % 7;
        if (firstWeekday === 3 || (firstWeekday === 2 && isLeap(year))) out = false;
      }
      if (out) return false;
    }
    if (day <= 0 || day >= 8) return false;
    const firstWeekday = (ordinal(year, 1, 1) + 6) % 7;
    let weekOneMonday = ordinal(year, 1, 1) - firstWeekday;
    if (firstWeekday > 3) weekOneMonday += 7;
    const [y] = fromOrdinal(weekOneMonday + (week - 1) * 7 + (day - 1));
    return y >= 1 && y <= 9999;
  }
  const month = digits(s, p, 2);
  if (month === null) return false;
  p += 2;
  if (sep && s[p++] !== '-') return false;
  const day = digits(s, p, 2);
  if (day === null) return false;
  return validYmd(year, month, day);
}

/** python-jsonschema's FormatChecker().conforms(instance, format) as the oracle's environment has it. */
export function conformsToFormat(instance: PyValue, format: string): boolean {
  if (typeof instance !== 'string') return true;
  switch (format) {
    case 'uri':
      return isUri(instance);
    case 'date':
      return isIsoDate(instance);
    default:
      return true;
  }
}
