/**
 * Source spans of a part's `merge_how` / `merge_type` value, captured before
 * the spec is popped from the mapping, so spec errors point into the file.
 */
import { PyDict, PyValue, TextSpan, getListOrigins } from '../values';
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

/** Spans of a value and its children, from the origins the YAML loader recorded. */
export function spansOfValue(value: PyValue, span: TextSpan, text?: string): ValueSpans {
  if (typeof value === 'string') return { span: stringContentSpan(span, text), outer: span };
  if (Array.isArray(value)) {
    const origins = getListOrigins(value);
    return { span, items: value.map((item, i) => (origins?.[i] ? spansOfValue(item, origins[i]!.value, text) : {})) };
  }
  if (value instanceof PyDict) {
    const entries = new Map<PyValue, { key?: TextSpan; value: ValueSpans }>();
    for (const { key, value: v, origin } of value.items()) {
      if (origin) entries.set(key, { key: origin.key, value: spansOfValue(v, origin.value, text) });
    }
    return { span, entries };
  }
  return { span };
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
