/**
 * What loading the dump of a value gives back, built from the value without writing or parsing text.
 *
 * `cloud-init schema --system` reads cloud-config.txt back from disk before validating it; the merged
 * value it reads is the merge result with every mapping's keys in the order the dump writes them
 * (sorted). For the common value, the one the emitter walks directly (./emitter `emitValue`: nothing
 * reached twice, str keys only, scalars that are str, int, float, bool or None, no deeper than
 * MAX_READ_BACK_DEPTH), the dump is built so that the loader reads each scalar back as the same Python
 * value, so the read-back is a copy with sorted keys. Anything else (anchors, tuples, sets, bytes,
 * timestamps, other keys) gives undefined: the caller parses the text, as cloud-init does.
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
  const copy = (value: PyValue, depth: number): PyValue | undefined => {
    if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint' || typeof value === 'number') return value;
    if (depth >= MAX_READ_BACK_DEPTH) return undefined;
    if (Array.isArray(value)) {
      if (seen.has(value)) return undefined;
      seen.add(value);
      const out = new Array<PyValue>(value.length);
      for (let i = 0; i < value.length; i++) {
        const item = copy(value[i], depth + 1);
        if (item === undefined) return undefined;
        out[i] = item;
      }
      return out;
    }
    if (value instanceof PyDict) {
      if (seen.has(value)) return undefined;
      seen.add(value);
      const entries = sortedStrEntries(value);
      if (entries === null) return undefined;
      const out = new PyDict();
      for (const e of entries) {
        const item = copy(e.value, depth + 1);
        if (item === undefined) return undefined;
        out.set(e.key, item);
      }
      return out;
    }
    return undefined;
  };
  return copy(root, 0);
}
