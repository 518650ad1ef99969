/** Test helpers: Python values from JSON text (Python's json rules), and back. */
import { PyValue } from '../../server/src/engine/py/values';
import { parsePythonJson, toCanonicalJson } from '../../server/src/engine/py/json';

/** A Python value from JSON text: `py('{"a": [1, 2.0]}')`. */
export function py(json: string): PyValue {
  return parsePythonJson(json);
}

/** The oracle's canonical JSON of a value, for comparisons. */
export function canon(value: PyValue): string {
  return toCanonicalJson(value).text;
}
