/**
 * Where a template's tags are and which instance-data variables they read, for the editor: a
 * tolerant scan of half-typed text (the Jinja lexer in ../jinja/lexer.ts refuses what is not
 * finished). It finds `{{ … }}`, `{% … %}` and `{# … #}` with Jinja's default delimiters, and in
 * them the variable paths (`v1.region`, `ds.meta_data['local-hostname']`); names a template
 * assigns itself (`set`, `for`, `with`, macro arguments) are not instance data and are left out.
 */
import type { PathStep } from './instanceData';

export interface TemplateTag {
  kind: 'variable' | 'block' | 'comment';
  /** The tag with its delimiters. */
  start: number;
  end: number;
  /** The text between the delimiters (whitespace-control signs excluded). */
  innerStart: number;
  innerEnd: number;
  closed: boolean;
}

const CLOSERS = { '{{': '}}', '{%': '%}', '{#': '#}' } as const;
const KINDS = { '{{': 'variable', '{%': 'block', '{#': 'comment' } as const;

/** The tags of a template, in order; an unclosed one runs to the end of the text. */
export function scanTags(text: string, from = 0): TemplateTag[] {
  const tags: TemplateTag[] = [];
  let at = text.indexOf('{', from);
  while (at >= 0 && at < text.length - 1) {
    const open = text.slice(at, at + 2) as keyof typeof CLOSERS;
    const closer = CLOSERS[open];
    if (!closer) {
      at = text.indexOf('{', at + 1);
      continue;
    }
    const close = text.indexOf(closer, at + 2);
    const closed = close >= 0;
    const end = closed ? close + 2 : text.length;
    let innerStart = at + 2;
    if (text[innerStart] === '-' || text[innerStart] === '+') innerStart++;
    let innerEnd = closed ? close : text.length;
    if (closed && innerEnd > innerStart && (text[innerEnd - 1] === '-' || text[innerEnd - 1] === '+')) innerEnd--;
    tags.push({ kind: KINDS[open], start: at, end, innerStart, innerEnd, closed });
    if (!closed) break;
    at = text.indexOf('{', end);
  }
  return tags;
}

/** A variable path as written: the root name and the steps after it. */
export interface VariableReference {
  root: string;
  steps: PathStep[];
  /** The whole path (`ds.meta_data['x']`) and the span of each step, for hovers on a part of it. */
  start: number;
  end: number;
  stepEnds: number[];
  text: string;
}

const KEYWORDS = new Set([
  'and', 'or', 'not', 'in', 'is', 'if', 'else', 'elif', 'endif', 'for', 'endfor', 'set', 'endset', 'with', 'endwith', 'do',
  'filter', 'endfilter', 'macro', 'endmacro', 'call', 'endcall', 'block', 'endblock', 'raw', 'endraw', 'include', 'import',
  'from', 'as', 'extends', 'print', 'recursive', 'true', 'false', 'none', 'True', 'False', 'None', 'autoescape', 'endautoescape',
  'ignore', 'missing', 'context', 'without', 'scoped', 'required',
]);

/** Names every template has without instance data (Jinja's globals and the loop variable). */
export const TEMPLATE_GLOBALS: ReadonlySet<string> = new Set(['range', 'dict', 'lipsum', 'cycler', 'joiner', 'namespace', 'loop', 'self', 'varargs', 'kwargs', 'caller']);

type Token = { type: 'name' | 'string' | 'number' | 'op'; value: string; start: number; end: number };

const TOKEN = /\s+|([A-Za-z_][A-Za-z0-9_]*)|('(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?)|(\d[\d_]*(?:\.\d+)?)|(==|!=|>=|<=|\*\*|\/\/|[^\s])/gy;

function tokenize(text: string, start: number, end: number): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = start;
  while (TOKEN.lastIndex < end) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) break;
    if (m.index + m[0].length > end) break;
    if (m[1] !== undefined) tokens.push({ type: 'name', value: m[1], start: at, end: at + m[0].length });
    else if (m[2] !== undefined) tokens.push({ type: 'string', value: m[2], start: at, end: at + m[0].length });
    else if (m[3] !== undefined) tokens.push({ type: 'number', value: m[3], start: at, end: at + m[0].length });
    else if (m[4] !== undefined) tokens.push({ type: 'op', value: m[4], start: at, end: at + m[0].length });
  }
  return tokens;
}

/** The value of a simple Python string literal (no escapes beyond `\\` and quotes), or null. */
function stringValue(literal: string): string | null {
  const q = literal[0];
  if (literal.length < 2 || literal[literal.length - 1] !== q) return null;
  const body = literal.slice(1, -1);
  if (/\\[^\\'"]/.test(body)) return null;
  return body.replace(/\\(.)/g, '$1');
}

/** Names the template binds itself: `set x`, `for a, b in`, `with x =`, macro names and arguments. */
export function assignedNames(text: string, tags: readonly TemplateTag[]): Set<string> {
  const names = new Set<string>();
  for (const tag of tags) {
    if (tag.kind !== 'block') continue;
    const inner = text.slice(tag.innerStart, tag.innerEnd);
    const m = /^\s*(for|set|with|macro|call)\b([\s\S]*)$/.exec(inner);
    if (!m) continue;
    let targets = m[2];
    if (m[1] === 'for') targets = targets.split(/\bin\b/)[0];
    else if (m[1] === 'set') targets = targets.split('=')[0];
    else if (m[1] === 'with') targets = targets.replace(/=[^,]*/g, '');
    for (const n of targets.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) if (!KEYWORDS.has(n)) names.add(n);
  }
  return names;
}

/** The variable paths read in the expression tags (`{{ }}` and `{% %}`), in order. */
export function variableReferences(text: string, tags: readonly TemplateTag[]): VariableReference[] {
  const refs: VariableReference[] = [];
  for (const tag of tags) {
    if (tag.kind === 'comment') continue;
    const tokens = tokenize(text, tag.innerStart, tag.innerEnd);
    // The statement word and its targets (`for x in`, `set x =`) are not reads.
    let i = 0;
    if (tag.kind === 'block' && tokens[0]?.type === 'name') {
      const word = tokens[0].value;
      if (word === 'for') {
        i = tokens.findIndex((t) => t.type === 'name' && t.value === 'in');
        if (i < 0) continue;
      } else if (word === 'set') {
        i = tokens.findIndex((t) => t.type === 'op' && t.value === '=');
        if (i < 0) continue;
      } else if (word === 'macro' || word === 'call' || word === 'block' || word === 'extends' || word === 'include' || word === 'import' || word === 'from') continue;
      else i = 1;
    }
    for (; i < tokens.length; i++) {
      const t = tokens[i];
      if (t.type !== 'name' || KEYWORDS.has(t.value)) continue;
      const prev = tokens[i - 1];
      // filter and test names, attribute names, keyword arguments
      if (prev && prev.type === 'op' && (prev.value === '|' || prev.value === '.')) continue;
      if (prev && prev.type === 'name' && (prev.value === 'is' || (prev.value === 'not' && tokens[i - 2]?.value === 'is'))) continue;
      const next = tokens[i + 1];
      if (next && next.type === 'op' && next.value === '=' ) continue;
      const ref: VariableReference = { root: t.value, steps: [], start: t.start, end: t.end, stepEnds: [t.end], text: '' };
      let j = i + 1;
      for (;;) {
        const a = tokens[j];
        const b = tokens[j + 1];
        if (a?.type === 'op' && a.value === '.' && b?.type === 'name') {
          ref.steps.push({ kind: 'attr', name: b.value });
          ref.end = b.end;
          ref.stepEnds.push(b.end);
          j += 2;
          continue;
        }
        const c = tokens[j + 2];
        if (a?.type === 'op' && a.value === '[' && c?.type === 'op' && c.value === ']' && (b?.type === 'string' || b?.type === 'number')) {
          const key = b.type === 'string' ? stringValue(b.value) : /^\d+$/.test(b.value) ? Number(b.value) : null;
          if (key === null) break;
          ref.steps.push({ kind: 'item', key });
          ref.end = c.end;
          ref.stepEnds.push(c.end);
          j += 3;
          continue;
        }
        break;
      }
      // a call: `x.startswith(...)`, `range(3)`: the last name is a method or function, not data
      if (tokens[j]?.type === 'op' && tokens[j].value === '(') {
        if (!ref.steps.length) {
          i = j - 1;
          continue;
        }
        ref.steps.pop();
        ref.stepEnds.pop();
        ref.end = ref.stepEnds[ref.stepEnds.length - 1];
      }
      ref.text = text.slice(ref.start, ref.end);
      refs.push(ref);
      i = j - 1;
    }
  }
  return refs;
}

/** The tag holding an offset (between its delimiters), if any. */
export function tagAt(tags: readonly TemplateTag[], offset: number): TemplateTag | undefined {
  return tags.find((t) => offset >= t.innerStart && offset <= t.innerEnd);
}
