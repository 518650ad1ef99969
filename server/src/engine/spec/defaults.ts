/** The two default specs (spec §1.1, §4.4): they differ, and the docs only mention one. */
import { ParsedSpec, parseStringSpec } from './parse';

/** User-data and vendor-data cloud-config parts, when neither body nor header gives a spec. */
export const DEFAULT_PART_SPEC_TEXT = 'dict(replace)+list()+str()';
/** `mergemanydict` (system config, drop-ins, the final combination). */
export const DEFAULT_SYSTEM_SPEC_TEXT = 'list()+dict()+str()';

export const DEFAULT_PART_SPEC = (): ParsedSpec => parseStringSpec(DEFAULT_PART_SPEC_TEXT);
export const DEFAULT_SYSTEM_SPEC = (): ParsedSpec => parseStringSpec(DEFAULT_SYSTEM_SPEC_TEXT);
