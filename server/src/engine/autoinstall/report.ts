/**
 * Subiquity's verdict on one file as `--check --format json` gives it (each file entry's `autoinstall`):
 * valid, the errors in Subiquity's order (the first stops the install) with their section, exception,
 * message, path and place, its warnings and the keys version 1 drops.
 */
import { pyStr } from '../py/repr';
import type { PyValue, TextSpan } from '../py/values';
import { spanAt } from '../schema/validate';
import { LineIndex } from '../text/lineIndex';
import type { AutoinstallVerdict } from './subiquity';

export interface AutoinstallPlaceJson {
  section: string | null;
  message: string;
  cause: string;
  path: string;
  line: number | null;
  column: number | null;
  detail?: string;
}

export interface AutoinstallJson {
  valid: boolean;
  verdict: AutoinstallVerdict['verdict'];
  subiquity: string;
  commit: string;
  delivery: AutoinstallVerdict['delivery'];
  foundAt: string | null;
  errors: AutoinstallPlaceJson[];
  applyTime: Array<{ section: string; message: string; path: string }>;
  warnings: Array<{ section: string; message: string }>;
  unrecognizedKeys: string[];
}

function dotted(path: PyValue[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'bigint' ? `[${p}]` : out ? `.${pyStr(p)}` : pyStr(p);
  return out;
}

export function autoinstallJson(v: AutoinstallVerdict, doc: { text: string; value: PyValue; rootSpan: TextSpan | null }): AutoinstallJson {
  const lines = new LineIndex(doc.text);
  const at = (path: PyValue[]) => {
    const s = spanAt(doc.value, path, doc.rootSpan);
    const span = s ? (s.key ?? s.value) : null;
    if (!span) return { line: null, column: null };
    const p = lines.position(span.start);
    return { line: p.line + 1, column: p.character + 1 };
  };
  return {
    valid: v.valid,
    verdict: v.verdict,
    subiquity: v.profile,
    commit: v.commit,
    delivery: v.delivery,
    foundAt: v.foundAt ?? null,
    errors: v.errors.map((e) => ({ section: e.section, message: e.message, cause: e.cause, path: dotted(e.path), ...at(e.path), ...(e.detail ? { detail: e.detail } : {}) })),
    applyTime: v.applyTime.map((a) => ({ section: a.section, message: a.message, path: dotted(a.path) })),
    warnings: v.warnings.map((w) => ({ section: w.section, message: w.message })),
    unrecognizedKeys: v.unrecognized,
  };
}

/** An autoinstall file Subiquity cannot load (`yaml.safe_load` raises in `_read_config`): the install stops there. */
export function unreadableAutoinstallJson(profile: string, commit: string, message: string, at: { line: number; column: number }): AutoinstallJson {
  return {
    valid: false,
    verdict: 'invalid',
    subiquity: profile,
    commit,
    delivery: 'autoinstall.yaml',
    foundAt: null,
    errors: [{ section: null, message, cause: 'YAMLError', path: '', line: at.line, column: at.column }],
    applyTime: [],
    warnings: [],
    unrecognizedKeys: [],
  };
}
