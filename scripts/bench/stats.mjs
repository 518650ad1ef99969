/** Small statistics and formatting helpers for the benchmarks. */

export function quantile(values, q) {
  const a = values.filter((v) => Number.isFinite(v)).sort((x, y) => x - y);
  if (!a.length) return NaN;
  if (a.length === 1) return a[0];
  // nearest-rank on the sorted sample (p95 of 200 = the 190th value)
  const rank = Math.ceil(q * a.length);
  return a[Math.min(a.length - 1, Math.max(0, rank - 1))];
}
export const median = (values) => {
  const a = values.filter((v) => Number.isFinite(v)).sort((x, y) => x - y);
  if (!a.length) return NaN;
  const m = a.length >> 1;
  return a.length % 2 ? a[m] : (a[m - 1] + a[m]) / 2;
};
export const p95 = (values) => quantile(values, 0.95);
export const min = (values) => Math.min(...values.filter((v) => Number.isFinite(v)));
export const max = (values) => Math.max(...values.filter((v) => Number.isFinite(v)));

/**
 * Least-squares slope of log(y) against log(x): the growth exponent
 * (1 = linear, 2 = quadratic). Null with fewer than two usable points.
 */
export function fitExponent(points) {
  const pts = points.filter(([x, y]) => x > 0 && y > 0 && Number.isFinite(x) && Number.isFinite(y));
  const xs = new Set(pts.map(([x]) => x));
  if (pts.length < 2 || xs.size < 2) return null;
  const lx = pts.map(([x]) => Math.log(x));
  const ly = pts.map(([, y]) => Math.log(y));
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
  const my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < lx.length; i++) {
    num += (lx[i] - mx) * (ly[i] - my);
    den += (lx[i] - mx) ** 2;
  }
  return den === 0 ? null : num / den;
}

export function fmtMs(ms) {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms >= 10000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}
export function fmtMB(bytes) {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '–';
  return `${(bytes / 1048576).toFixed(bytes >= 100 * 1048576 ? 0 : 1)} MB`;
}
export function fmtBytes(bytes) {
  if (!Number.isFinite(bytes)) return '–';
  if (bytes >= 1048576) return `${(bytes / 1048576).toFixed(2)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}
export function fmtRatio(r, digits = 2) {
  if (r === null || r === undefined || !Number.isFinite(r)) return '–';
  if (r >= 100) return `${r.toFixed(0)}×`;
  if (r >= 10) return `${r.toFixed(1)}×`;
  return `${r.toFixed(digits)}×`;
}
export function fmtExp(e) {
  return e === null || e === undefined || !Number.isFinite(e) ? '–' : e.toFixed(2);
}
export function fmtInt(n) {
  return Number.isFinite(n) ? n.toLocaleString('en-US') : '–';
}

/** A Markdown table. */
export function table(header, rows, align) {
  const al = align ?? header.map((_, i) => (i === 0 ? 'l' : 'r'));
  const sep = al.map((a) => (a === 'l' ? ':--' : '--:'));
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(sep), ...rows.map(line)].join('\n');
}

/** A plain-text table for the terminal. */
export function textTable(header, rows) {
  const all = [header, ...rows].map((r) => r.map((c) => String(c)));
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const fmt = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [fmt(all[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(fmt)].join('\n');
}
