/**
 * What the engine needs of CPython's `datetime`: the instant of an aware datetime (for `==`, ordering
 * and dict keys) and the repr of a `timedelta` (in PyYAML's error for a bad UTC offset).
 *
 * Residual differences: none known; dates are proleptic Gregorian for every year 1-9999, as in
 * Python (JavaScript's `Date.UTC` maps years 0-99 to 1900-1999, so it is not used).
 */
import type { PyTimestamp } from './values';

/** Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (Howard Hinnant's algorithm). */
export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe;
}

/** [minutes since the epoch (UTC for an aware datetime), second, microsecond]: compares as Python does. */
export function timestampKey(t: PyTimestamp): [number, number, number] {
  const minutes = daysFromCivil(t.year, t.month, t.day) * 1440 + t.hour * 60 + t.minute - (t.offsetMinutes ?? 0);
  return [minutes, t.second, t.microsecond];
}

/** `repr(datetime.timedelta(minutes=minutes))`. */
export function pyTimedeltaRepr(minutes: number): string {
  if (minutes < 0) {
    const total = 86400 * Math.ceil(-minutes / 1440) + minutes * 60;
    return `datetime.timedelta(days=-${Math.ceil(-minutes / 1440)}${total ? `, seconds=${total}` : ''})`;
  }
  const days = Math.floor(minutes / 1440);
  const seconds = (minutes % 1440) * 60;
  const parts = [];
  if (days) parts.push(`days=${days}`);
  if (seconds) parts.push(`seconds=${seconds}`);
  return `datetime.timedelta(${parts.join(', ')})`;
}
