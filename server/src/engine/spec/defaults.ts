/** The two default specs (spec §1.1, §4.4): they differ, and the docs only mention one. */
import { ParsedSpec, parseStringSpec } from './parse';

/** User-data and vendor-data cloud-config parts, when neither body nor header gives a spec. */
export const DEFAULT_PART_SPEC_TEXT = 'dict(replace)+list()+str()';
/** `mergemanydict` (system config, drop-ins, the final combination). */
export const DEFAULT_SYSTEM_SPEC_TEXT = 'list()+dict()+str()';

/** A spec parsed once and frozen (every part without a spec uses the default: thousands of parses in a large multipart). */
function once(text: string): () => ParsedSpec {
  let parsed: ParsedSpec | undefined;
  return () => (parsed ??= deepFreeze(parseStringSpec(text)));
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export const DEFAULT_PART_SPEC = once(DEFAULT_PART_SPEC_TEXT);
export const DEFAULT_SYSTEM_SPEC = once(DEFAULT_SYSTEM_SPEC_TEXT);
