/**
 * Source spans of a part's `merge_how` / `merge_type` value, captured before
 * the spec is popped from the mapping, so spec errors point into the file.
 */
import { PyDict, PyValue, TextSpan, getListOrigins } from '../py/values';
import { ValueSpans } from '../spec/parse';
import type { YamlLoadResult } from '../yaml/load';

export function specSpansFor(loaded: YamlLoadResult, text?: string): (key: 'merge_how' | 'merge_type') => { key?: TextSpan; value: ValueSpans } | undefined {
  if (!loaded.ok || !(loaded.value instanceof PyDict)) return () => undefined;
  const config = loaded.value;
  const captured = new Map<string, { key?: TextSpan; value: ValueSpans }>();
  for (const key of ['merge_how', 'merge_type'] as const) {
    const origin = config.originOf(key);
    if (!origin) continue;
    captured.set(key, { key: origin.key, value: spansOfValue(config.get(key) as PyValue, origin.value, text) });
  }
  return (key) => captured.get(key);
}

/**
 * A spec is a few levels deep; spans below these bounds are never needed. The bounds keep
 * a hostile value (deeply nested, or an alias bomb whose expansion is astronomically large)
 * from overflowing the stack or walking forever: deeper or further children get no spans.
 */
const MAX_SPAN_DEPTH = 32;
const MAX_SPAN_NODES = 10_000;

/** Spans of a value and its children, from the origins the YAML loader recorded. */
export function spansOfValue(value: PyValue, span: TextSpan, text?: string): ValueSpans {
  let budget = MAX_SPAN_NODES;
  const walk = (v: PyValue, at: TextSpan, depth: number): ValueSpans => {
    if (typeof v === 'string') return { span: stringContentSpan(at, text), outer: at };
    if (depth >= MAX_SPAN_DEPTH || budget <= 0) return { span: at };
    if (Array.isArray(v)) {
      budget -= v.length;
      const origins = getListOrigins(v);
      return { span: at, items: v.map((item, i) => (origins?.[i] && budget > 0 ? walk(item, origins[i].value, depth + 1) : {})) };
    }
    if (v instanceof PyDict) {
      budget -= v.size;
      const entries = new Map<PyValue, { key?: TextSpan; value: ValueSpans }>();
      for (const { key, value: x, origin } of v.items()) {
        if (origin) entries.set(key, { key: origin.key, value: budget > 0 ? walk(x, origin.value, depth + 1) : { span: origin.value } });
      }
      return { span: at, entries };
    }
    return { span: at };
  };
  return walk(value, span, 0);
}

/** For a quoted scalar, the span of its content (inside the quotes). */
function stringContentSpan(span: TextSpan, text?: string): TextSpan {
  if (!text) return span;
  const first = text[span.start];
  if ((first === '"' || first === "'") && text[span.end - 1] === first && span.end - span.start >= 2) {
    return { start: span.start + 1, end: span.end - 1 };
  }
  return span;
}
