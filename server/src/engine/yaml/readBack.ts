/**
 * What loading the dump of a value gives back, built from the value without writing or parsing text.
 *
 * `cloud-init schema --system` reads cloud-config.txt back from disk before validating it; the merged
 * value it reads is the merge result with every mapping's keys in the order the dump writes them
 * (sorted). For the common value, the one the emitter walks directly (./emitter `emitValue`: nothing
 * reached twice, str keys only, scalars that are str, int, float, bool or None, no deeper than
 * MAX_READ_BACK_DEPTH), the dump is built so that the loader reads each scalar back as the same Python
 * value, so the read-back is the value with every mapping's keys sorted: the mappings not yet in that
 * order are copied (and what holds them), the rest is the value itself (nothing here changes values).
 * Anything else (anchors, tuples, sets, bytes, timestamps, other keys) gives undefined: the caller parses
 * the text, as cloud-init does.
 * test/unit/read-back.test.ts holds this to loadYaml(dumpPyYaml(value)) on generated values.
 */
import { PyDict, type PyValue } from '../py/values';
import { sortedStrEntries } from './representer';

/**
 * Deepest nesting read back without parsing. The loader's own depth limits (Python's recursion while
 * composing) are far below the dump's but far above any real config: deeper values are parsed.
 */
export const MAX_READ_BACK_DEPTH = 64;

export function readBack(root: PyValue): PyValue | undefined {
  const seen = new Set<object>();
  // The value itself where it already reads back as itself (a list of strings, a mapping whose keys are in
  // the dump's order): only the mappings the dump reorders, and what holds them, are copied.
  const copy = (value: PyValue, depth: number): PyValue | undefined => {
    if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint' || typeof value === 'number') return value;
    if (depth >= MAX_READ_BACK_DEPTH) return undefined;
    if (Array.isArray(value)) {
      if (seen.has(value)) return undefined;
      seen.add(value);
      let out: PyValue[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item = copy(value[i], depth + 1);
        if (item === undefined) return undefined;
        if (item !== value[i] && !out) out = value.slice(0, i);
        if (out) out.push(item);
      }
      return out ?? value;
    }
    if (value instanceof PyDict) {
      if (seen.has(value)) return undefined;
      seen.add(value);
      const entries = sortedStrEntries(value);
      if (entries === null) return undefined;
      const items: PyValue[] = new Array<PyValue>(entries.length);
      let same = true;
      let i = 0;
      for (const e of value.items()) {
        if (e.key !== entries[i].key) same = false;
        i++;
      }
      for (let j = 0; j < entries.length; j++) {
        const item = copy(entries[j].value, depth + 1);
        if (item === undefined) return undefined;
        if (item !== entries[j].value) same = false;
        items[j] = item;
      }
      if (same) return value;
      const out = new PyDict();
      for (let j = 0; j < entries.length; j++) out.set(entries[j].key, items[j]);
      return out;
    }
    return undefined;
  };
  return copy(root, 0);
}
