/**
 * What an editor offers inside a template's tags: instance-data paths after `name.` (keys a dot
 * cannot reach, or that a dict method shadows, as `['key']`), variable names where an expression
 * starts, Jinja's filters after `|` and tests after `is`; and the variable path under the cursor
 * for hovers. Read from the text around the cursor, since the template is often half-typed.
 */
import { KNOWN_FILTERS, KNOWN_TESTS } from '../jinja/defaults';

import { DICT_METHOD_NAMES, valueAtPath, type PathStep } from './instanceData';
import { TEMPLATE_GLOBALS, scanTags, tagAt, variableReferences, type VariableReference } from './tags';

export type TemplateCursor =
  | { kind: 'path'; root: string; steps: PathStep[]; partial: string; replaceStart: number; dotAt: number }
  | { kind: 'name' | 'filter' | 'test'; partial: string; replaceStart: number };

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Longest path expression completed after its dot (a longer one is completed from its last characters). */
const MAX_PATH = 1000;
// The root starts where no identifier character precedes it: otherwise, on a long identifier without a
// dot, each of its characters started a scan to its end (37 KB took 2 s; found by the fuzzer).
const PATH_BEFORE_DOT = /(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)((?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*|\s*\[\s*(?:'[^'\\]*'|"[^"\\]*"|\d+)\s*\])*)\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)?$/;

/** The completion context at `offset`, when it is inside `{{ … }}` or `{% … %}`. */
export function templateCursorAt(text: string, offset: number): TemplateCursor | null {
  const tag = tagAt(scanTags(text, Math.max(0, text.lastIndexOf('\n', offset - 1) - 4000)), offset);
  if (!tag || tag.kind === 'comment') return null;
  const before = text.slice(tag.innerStart, offset);
  // inside a string literal: nothing to offer
  if (((before.match(/'/g)?.length ?? 0) % 2) || ((before.match(/"/g)?.length ?? 0) % 2)) return null;
  const filter = /\|\s*([A-Za-z_][A-Za-z0-9_]*)?$/.exec(before);
  if (filter) return { kind: 'filter', partial: filter[1] ?? '', replaceStart: offset - (filter[1]?.length ?? 0) };
  const test = /\bis\s+(?:not\s+)?([A-Za-z_][A-Za-z0-9_]*)?$/.exec(before);
  if (test && !/\bis\s+not$/.test(before)) return { kind: 'test', partial: test[1] ?? '', replaceStart: offset - (test[1]?.length ?? 0) };
  // Only the tag's last MAX_PATH characters: where no path ends the text, the pattern is tried from each
  // dot of a long chain to its end (`a.a.a…a x`, 30 KB, took 1.8 s).
  const path = PATH_BEFORE_DOT.exec(before.length > MAX_PATH ? before.slice(-MAX_PATH) : before);
  if (path) {
    const steps = parseSteps(path[2]);
    if (steps) {
      const partial = path[3] ?? '';
      const dotAt = tag.innerStart + before.lastIndexOf('.', before.length - partial.length);
      return { kind: 'path', root: path[1], steps, partial, replaceStart: offset - partial.length, dotAt };
    }
  }
  const name = /(?:^|[^A-Za-z0-9_.'"])([A-Za-z_][A-Za-z0-9_]*)?$/.exec(before);
  if (name) return { kind: 'name', partial: name[1] ?? '', replaceStart: offset - (name[1]?.length ?? 0) };
  return null;
}

function parseSteps(text: string): PathStep[] | null {
  const steps: PathStep[] = [];
  const re = /\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)|\s*\[\s*(?:'([^'\\]*)'|"([^"\\]*)"|(\d+))\s*\]/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text))) {
    if (m[1] !== undefined) steps.push({ kind: 'attr', name: m[1] });
    else if (m[4] !== undefined) steps.push({ kind: 'item', key: Number(m[4]) });
    else steps.push({ kind: 'item', key: m[2] ?? m[3] });
  }
  return re.lastIndex === text.length || text.length === 0 ? steps : null;
}

export interface PathCompletion {
  key: string;
  /** `name` after the dot, or `['key']` replacing the dot. */
  form: 'attr' | 'item';
  value: unknown;
}

/** The keys reachable after `root.steps.`, in the variables' order. */
export function pathCompletions(variables: Record<string, unknown>, root: string, steps: readonly PathStep[]): PathCompletion[] {
  const value = valueAtPath(variables, root, steps);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).map(([key, v]) => ({ key, form: IDENT.test(key) && !DICT_METHOD_NAMES.has(key) ? 'attr' : 'item', value: v }));
}

/** Names an expression can start with: the instance data's top-level names that are identifiers, and Jinja's globals. */
export function nameCompletions(variables: Record<string, unknown> | null): Array<{ name: string; global: boolean; value?: unknown }> {
  const names: Array<{ name: string; global: boolean; value?: unknown }> = [];
  for (const [name, value] of Object.entries(variables ?? {})) if (IDENT.test(name)) names.push({ name, global: false, value });
  for (const name of ['range', 'dict', 'namespace', 'cycler', 'joiner', 'lipsum']) names.push({ name, global: true });
  return names;
}

export const FILTER_NAMES: readonly string[] = [...KNOWN_FILTERS].sort();
/** Tests that can follow `is` (the operator spellings `==`, `<` … are left to be typed). */
export const TEST_NAMES: readonly string[] = [...KNOWN_TESTS].filter((n) => IDENT.test(n)).sort();

/** The variable path under the cursor, cut after the step the cursor is on (`ds.meta_data` on `meta_data`). */
export function referenceAt(text: string, offset: number): VariableReference | null {
  const tags = scanTags(text, Math.max(0, text.lastIndexOf('\n', offset - 1) - 4000));
  const tag = tagAt(tags, offset);
  if (!tag || tag.kind === 'comment') return null;
  const ref = variableReferences(text, [tag]).find((r) => offset >= r.start && offset <= r.end);
  if (!ref || TEMPLATE_GLOBALS.has(ref.root)) return null;
  const step = ref.stepEnds.findIndex((end) => offset <= end);
  const kept = step < 0 ? ref.steps.length : step;
  const end = ref.stepEnds[kept];
  return { ...ref, steps: ref.steps.slice(0, kept), stepEnds: ref.stepEnds.slice(0, kept + 1), end, text: text.slice(ref.start, end) };
}
