/**
 * The values netplan checks as addresses, measured by scripts/netplan/probe.py (`value` of a key in
 * data/netplan-*.json) and checked here with the C library's own notions: an IPv4 or IPv6 address as
 * `inet_pton` reads one (four decimal parts 0-255 without leading zeros; eight hex groups, `::` once, an
 * IPv4 tail), an address with a prefix length (`ADDR/NN`), a MAC address (6 or 20 octets of two hex digits).
 * Which message netplan gives for each way a value fails was measured; which one a value gets is here.
 */

/** `inet_pton(AF_INET)`: exactly four decimal parts of at most 255, no leading zero, nothing else. */
export function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

/** `inet_pton(AF_INET6)`: hex groups of 1-4 digits, `::` at most once, an IPv4 address as the last 32 bits. */
export function isIPv6(s: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(s)) return false;
  const double = s.indexOf('::');
  if (double !== s.lastIndexOf('::')) return false;
  let groups = 0;
  const count = (part: string, last: boolean): boolean => {
    if (part === '') return true;
    const fields = part.split(':');
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (last && i === fields.length - 1 && f.includes('.')) {
        if (!isIPv4(f)) return false;
        groups += 2;
      } else {
        if (!/^[0-9A-Fa-f]{1,4}$/.test(f)) return false;
        groups += 1;
      }
    }
    return true;
  };
  if (double < 0) return count(s, true) && groups === 8;
  const head = s.slice(0, double);
  const tail = s.slice(double + 2);
  if (!count(head, tail === '') || !count(tail, true)) return false;
  return groups <= 7;
}

export type CidrProblem = 'missing' | 'malformed' | 'prefix';

/** What netplan finds wrong with `ADDR/NN` (null: nothing): no `/`, an address of neither family, a prefix out of range. */
export function cidrProblem(s: string): CidrProblem | null {
  const slash = s.indexOf('/');
  if (slash < 0) return 'missing';
  const addr = s.slice(0, slash);
  const prefix = s.slice(slash + 1);
  const v4 = isIPv4(addr);
  if (!v4 && !isIPv6(addr)) return 'malformed';
  if (!/^\d+$/.test(prefix) || Number(prefix) > (v4 ? 32 : 128)) return 'prefix';
  return null;
}

/** A MAC address netplan takes: 6 (Ethernet) or 20 (InfiniBand) octets of two hex digits, `:`-separated. */
export function isMac(s: string): boolean {
  return /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/.test(s) || /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){19}$/.test(s);
}
