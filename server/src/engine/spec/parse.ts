/**
 * Merge specifications, parsed the way cloud-init parses them (spec §1.2,
 * §1.3), including the quirks that make a spec silently mean something else.
 * Positions are kept so that the language server can point at the exact
 * merger name, option or character that is wrong.
 */
import { PyBytes, PyDict, PySet, PyTuple, PyValue, TextSpan, pyTypeName, pyTruthy } from '../py/values';
import { PyError } from '../py/errors';
import { pyStrRepr } from '../py/repr';
import { pyStrip, pyStripSpan } from '../py/str';
import { atLeast, type CloudInitVersion } from '../version/versions';

/** One `(name, options)` pair of a parsed spec. */
export interface ParsedMerger {
  /** The name as cloud-init will look it up (already normalised for the form used). */
  name: PyValue;
  /**
   * The options container exactly as cloud-init keeps it: a string list for
   * the string form; for the list form whatever `settings` / `m[1:]` was.
   */
  options: PyValue;
  /** Where the entry came from, when known. */
  span?: TextSpan;
  nameSpan?: TextSpan;
  /** For the string form: one span per option word, aligned with `options`. */
  optionSpans?: TextSpan[];
}

export type SpecForm = 'string' | 'list';

export interface ParsedSpec {
  form: SpecForm;
  mergers: ParsedMerger[];
}

/** A spec failure, classified like the Python exception cloud-init raises. */
export class SpecError extends PyError {
  constructor(
    pyType: PyError['pyType'],
    message: string,
    readonly stage: 'parse' | 'construct',
    readonly span?: TextSpan,
  ) {
    super(pyType, message);
  }
}

/** cloud-init's pattern for one normalised piece; `.` never matches a newline. */
const PIECE_PATTERN = /^([a-zA-Z_][A-Za-z0-9_]*)\(([^\n]*?)\)$/;

/**
 * The string form (`list(append)+dict(no_replace)`), as `string_extract_mergers`.
 * `base` is the offset of `text` in its document, for spans.
 */
export function parseStringSpec(text: string, base = 0, version: CloudInitVersion = 'current'): ParsedSpec {
  const mergers: ParsedMerger[] = [];
  let pieceStart = 0;
  for (const rawPiece of text.split('+')) {
    const offset = pieceStart;
    pieceStart += rawPiece.length + 1;
    const piece = pyStrip(rawPiece.toLowerCase()).replace(/-/g, '_');
    if (!piece) continue;
    const [trimStart, trimEnd] = pyStripSpan(rawPiece);
    const span = { start: base + offset + trimStart, end: base + offset + trimEnd };
    const match = PIECE_PATTERN.exec(piece);
    if (!match) {
      const spelling = atLeast(version, '24.4') ? 'identifier' : 'identifer';
      throw new SpecError('ValueError', `Matcher ${spelling} ${pyStrRepr(piece)} is not in the right format`, 'parse', span);
    }
    const [, name, optionText] = match;
    const original = rawPiece.slice(trimStart, trimEnd);
    const open = original.indexOf('(');
    const nameSpan = { start: span.start, end: span.start + (open >= 0 ? open : name.length) };
    const options: string[] = [];
    const optionSpans: TextSpan[] = [];
    // Options are split on the normalised text; spans come from the original
    // text, which has the same length except for rare case-mapping changes.
    let optionStart = open + 1;
    for (const word of optionText.split(',')) {
      const [ws, we] = pyStripSpan(word);
      const option = pyStrip(word).toLowerCase();
      if (option) {
        options.push(option);
        optionSpans.push({ start: span.start + optionStart + ws, end: span.start + optionStart + we });
      }
      optionStart += word.length + 1;
    }
    mergers.push({ name, options, span, nameSpan, optionSpans });
  }
  return { form: 'string', mergers };
}

export type { CloudInitVersion };

/** Spans of a list-form spec's nodes, supplied by the YAML layer when known. */
export interface ValueSpans {
  /** Span of the value node itself (for a quoted string: its content, inside the quotes). */
  span?: TextSpan;
  /** For a quoted string: the whole node, quotes included. */
  outer?: TextSpan;
  /** For sequences: spans of the items; for mappings: spans of keys/values by key. */
  items?: ValueSpans[];
  entries?: Map<PyValue, { key?: TextSpan; value: ValueSpans }>;
}

/**
 * The list/dict form, as `dict_extract_mergers` does it after it found a
 * non-string value: Python iteration (a mapping yields its keys), `m["name"]`
 * / `m["settings"]` for mappings, `m[0]` / `m[1:]` otherwise.
 */
export function parseListSpec(value: PyValue, spans?: ValueSpans): ParsedSpec {
  const mergers: ParsedMerger[] = [];
  const elements = pyIterate(value, spans);
  for (const { item, spans: itemSpans } of elements) {
    const span = itemSpans?.span;
    if (item instanceof PyDict) {
      if (!item.has('name')) throw new SpecError('KeyError', "'name'", 'parse', span);
      const rawName = item.get('name') as PyValue;
      if (typeof rawName !== 'string') {
        const message = `${pyStrRepr(pyTypeName(rawName))} object has no attribute 'replace'`;
        throw new SpecError(rawName instanceof PyBytes ? 'TypeError' : 'AttributeError', rawName instanceof PyBytes ? 'a bytes-like object is required, not \'str\'' : message, 'parse', itemSpans?.entries?.get('name')?.value.span ?? span);
      }
      const name = pyStrip(rawName.replace(/-/g, '_'));
      if (!item.has('settings')) throw new SpecError('KeyError', "'settings'", 'parse', span);
      const options = item.get('settings') as PyValue;
      if (name) {
        mergers.push({
          name,
          options,
          span,
          nameSpan: itemSpans?.entries?.get('name')?.value.span,
        });
      }
      continue;
    }
    const first = pyIndex(item, 0, span);
    const length = pyLen(item, span);
    const options = length >= 2 ? pySliceFrom(item, 1) : [];
    if (pyTruthy(first)) {
      mergers.push({ name: first, options, span, nameSpan: itemSpans?.items?.[0]?.span ?? span });
    }
  }
  return { form: 'list', mergers };
}

/** Python `for x in value` over a spec value. */
function pyIterate(value: PyValue, spans?: ValueSpans): Array<{ item: PyValue; spans?: ValueSpans }> {
  if (Array.isArray(value)) return value.map((item, i) => ({ item, spans: spans?.items?.[i] }));
  if (value instanceof PyTuple) return value.items.map((item) => ({ item }));
  if (value instanceof PyDict) {
    return value.keys().map((item) => ({ item, spans: { span: spans?.entries?.get(item)?.key } }));
  }
  if (typeof value === 'string') return [...value].map((item) => ({ item }));
  if (value instanceof PySet) return value.values().map((item) => ({ item }));
  if (value instanceof PyBytes) return [...value.bytes].map((b) => ({ item: BigInt(b) }));
  throw new SpecError('TypeError', `${pyStrRepr(pyTypeName(value))} object is not iterable`, 'parse', spans?.span);
}

function pyLen(value: PyValue, span?: TextSpan): number {
  if (typeof value === 'string') return [...value].length;
  if (Array.isArray(value)) return value.length;
  if (value instanceof PyTuple) return value.items.length;
  if (value instanceof PyBytes) return value.bytes.length;
  throw new SpecError('TypeError', `object of type ${pyStrRepr(pyTypeName(value))} has no len()`, 'parse', span);
}

/** Python `value[i]` for the sequence types a spec element can be. */
function pyIndex(value: PyValue, index: number, span?: TextSpan): PyValue {
  if (typeof value === 'string' || Array.isArray(value) || value instanceof PyTuple) {
    const items = typeof value === 'string' ? [...value] : Array.isArray(value) ? value : value.items;
    if (index >= items.length) {
      const what = typeof value === 'string' ? 'string' : Array.isArray(value) ? 'list' : 'tuple';
      throw new SpecError('IndexError', `${what} index out of range`, 'parse', span);
    }
    return items[index];
  }
  if (value instanceof PyBytes) {
    if (index >= value.bytes.length) throw new SpecError('IndexError', 'index out of range', 'parse', span);
    return BigInt(value.bytes[index]);
  }
  throw new SpecError('TypeError', `${pyStrRepr(pyTypeName(value))} object is not subscriptable`, 'parse', span);
}

function pySliceFrom(value: PyValue, from: number): PyValue {
  if (typeof value === 'string') return [...value].slice(from).join('');
  if (Array.isArray(value)) return value.slice(from);
  if (value instanceof PyTuple) return new PyTuple(value.items.slice(from));
  if (value instanceof PyBytes) return new PyBytes(value.bytes.slice(from));
  return [];
}

/** Where a part's body spec came from, and whether `merge_type` was left behind (§1.1, §4.5). */
export interface BodySpecExtraction {
  key: 'merge_how' | 'merge_type' | null;
  raw: PyValue;
  /** `merge_type` stays in the data because `merge_how` was present and not null. */
  leftoverMergeType: boolean;
}

/**
 * `dict_extract_mergers`: pops `merge_how` (always) and `merge_type` (only
 * when it is the key consulted) from the mapping, then parses. Mutates
 * `config` exactly as cloud-init does.
 */
export function extractBodySpec(
  config: PyDict,
  spansOf?: (key: 'merge_how' | 'merge_type') => { key?: TextSpan; value: ValueSpans } | undefined,
  version: CloudInitVersion = 'current',
): { extraction: BodySpecExtraction; parse: () => ParsedSpec } {
  let key: BodySpecExtraction['key'] = null;
  let raw: PyValue = null;
  const hadMergeType = config.has('merge_type');
  if (config.has('merge_how')) {
    raw = config.get('merge_how') as PyValue;
    config.delete('merge_how');
    if (raw !== null) key = 'merge_how';
  }
  if (raw === null && config.has('merge_type')) {
    raw = config.get('merge_type') as PyValue;
    config.delete('merge_type');
    if (raw !== null) key = 'merge_type';
  }
  const extraction = { key, raw, leftoverMergeType: key === 'merge_how' && hadMergeType };
  return { extraction, parse: bodySpecParser(extraction, spansOf, version) };
}

/**
 * How `extractBodySpec`'s spec is parsed on `version` (only parsing depends on the version: the same
 * extraction serves every version).
 */
export function bodySpecParser(
  extraction: BodySpecExtraction,
  spansOf: ((key: 'merge_how' | 'merge_type') => { key?: TextSpan; value: ValueSpans } | undefined) | undefined,
  version: CloudInitVersion,
): () => ParsedSpec {
  const { key, raw } = extraction;
  return (): ParsedSpec => {
    if (key === null) return { form: 'string', mergers: [] };
    const spans = spansOf?.(key);
    if (typeof raw === 'string') return parseStringSpec(raw, stringContentStart(spans), version);
    return parseListSpec(raw, spans?.value);
  };
}

/** Offset of a string value's first character (past an opening quote). */
function stringContentStart(spans?: { value: ValueSpans }): number {
  return spans?.value.span?.start ?? 0;
}
