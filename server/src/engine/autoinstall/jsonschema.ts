/**
 * `jsonschema.validate(instance, schema)` as Subiquity calls it (jsonschema 4.10.3, the core24 snap's and
 * Debian's: Draft 2020-12, no format checking) on values PyYAML loads. Subiquity words every failure the
 * same ("Malformed autoinstall in 'X' section", the detail goes only to its log), so what decides its
 * verdict is whether the section is valid; the failure found first here places the diagnostic and says
 * what is wrong in our words.
 *
 * Draft 2020-12 in Python, where it differs from JSON: `integer` is an int or an integral float, never a
 * bool; `number` is never a bool; `enum`/`const` tell bools from numbers at the top (jsonschema's
 * `unbool`) and compare with Python's `==` inside; lengths count code points; `pattern` is `re.search`.
 * Only the keywords Subiquity's schemas use are read (the extracted data lists them all): `type`, `enum`,
 * `const`, `properties`, `required`, `additionalProperties`, `items`, `anyOf`, `oneOf`, `allOf`,
 * `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`.
 */
import { pyEq } from '../py/compare';
import { PyDict, type PyValue } from '../py/values';
import { pyRegex } from '../schema/pyjsonschema';
import { pyRepr } from '../py/repr';
import type { JsonSchema } from './facts';

/** Where a value first fails its schema, and why (in our words). */
export interface SchemaFailure {
  /** Keys and indices from the validated value down to the failing one. */
  path: PyValue[];
  keyword: string;
  detail: string;
}

function jsonTypeOf(v: PyValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'bigint') return 'integer';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return 'array';
  if (v instanceof PyDict) return 'object';
  return 'other';
}

export function isJsonType(v: PyValue, type: string): boolean {
  switch (type) {
    case 'integer':
      return typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
    case 'number':
      return typeof v === 'bigint' || typeof v === 'number';
    default:
      return jsonTypeOf(v) === type;
  }
}

/** jsonschema's `equal`: strings by value, bools never equal to numbers at the top, else Python's ==. */
function jsonEqual(a: PyValue, b: PyValue): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  return pyEq(a, b);
}

/** A JSON value (extracted data) as PyYAML would have loaded it. */
export function asPy(v: unknown): PyValue {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (Array.isArray(v)) return v.map(asPy);
  if (v !== null && typeof v === 'object') return PyDict.from(Object.entries(v).map(([k, x]) => [k, asPy(x)]));
  return v as PyValue;
}

function num(v: PyValue): number {
  return typeof v === 'bigint' ? Number(v) : (v as number);
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** The first failure of `value` against `schema`, or null when it is valid. */
export function firstFailure(value: PyValue, schema: JsonSchema, path: PyValue[] = []): SchemaFailure | null {
  const fail = (keyword: string, detail: string, at: PyValue[] = path): SchemaFailure => ({ path: at, keyword, detail });
  for (const [keyword, want] of Object.entries(schema)) {
    switch (keyword) {
      case 'type': {
        const types = Array.isArray(want) ? (want as string[]) : [want as string];
        if (!types.some((t) => isJsonType(value, t))) return fail('type', `expected ${types.join(' or ')}, found ${jsonTypeOf(value)}`);
        break;
      }
      case 'enum':
        if (!(want as unknown[]).some((w) => jsonEqual(value, asPy(w)))) return fail('enum', `expected one of ${(want as unknown[]).map((w) => JSON.stringify(w)).join(', ')}`);
        break;
      case 'const':
        if (!jsonEqual(value, asPy(want))) return fail('const', `expected ${JSON.stringify(want)}`);
        break;
      case 'required':
        if (value instanceof PyDict) {
          const missing = (want as string[]).find((k) => !value.has(k));
          if (missing !== undefined) return fail('required', `'${missing}' is required`);
        }
        break;
      case 'properties':
        if (value instanceof PyDict) {
          for (const [k, sub] of Object.entries(want as Record<string, JsonSchema>)) {
            if (!value.has(k)) continue;
            const f = firstFailure(value.get(k) as PyValue, sub, [...path, k]);
            if (f) return f;
          }
        }
        break;
      case 'additionalProperties':
        if (value instanceof PyDict) {
          const named = (schema.properties ?? {}) as Record<string, unknown>;
          for (const k of value.keys()) {
            if (typeof k === 'string' && Object.prototype.hasOwnProperty.call(named, k)) continue;
            if (want === false) return fail('additionalProperties', `${pyRepr(k)} is not allowed here`, [...path, k]);
            if (want !== true && typeof want === 'object' && want !== null) {
              const f = firstFailure(value.get(k) as PyValue, want as JsonSchema, [...path, k]);
              if (f) return f;
            }
          }
        }
        break;
      case 'items':
        if (Array.isArray(value) && typeof want === 'object' && want !== null) {
          for (let i = 0; i < value.length; i++) {
            const f = firstFailure(value[i], want as JsonSchema, [...path, BigInt(i)]);
            if (f) return f;
          }
        }
        break;
      case 'allOf':
        for (const sub of want as JsonSchema[]) {
          const f = firstFailure(value, sub, path);
          if (f) return f;
        }
        break;
      case 'anyOf': {
        const fails = (want as JsonSchema[]).map((sub) => firstFailure(value, sub, path));
        if (fails.every((f) => f !== null)) return deepest(fails, 'anyOf', path);
        break;
      }
      case 'oneOf': {
        const fails = (want as JsonSchema[]).map((sub) => firstFailure(value, sub, path));
        const passing = fails.filter((f) => f === null).length;
        if (passing === 0) return deepest(fails as SchemaFailure[], 'oneOf', path);
        if (passing > 1) return fail('oneOf', 'valid under more than one of the given schemas');
        break;
      }
      case 'minimum':
        if (isJsonType(value, 'number') && num(value) < (want as number)) return fail('minimum', `less than the minimum ${String(want)}`);
        break;
      case 'maximum':
        if (isJsonType(value, 'number') && num(value) > (want as number)) return fail('maximum', `more than the maximum ${String(want)}`);
        break;
      case 'minLength':
        if (typeof value === 'string' && codePoints(value) < (want as number)) return fail('minLength', `shorter than ${String(want)} characters`);
        break;
      case 'maxLength':
        if (typeof value === 'string' && codePoints(value) > (want as number)) return fail('maxLength', `longer than ${String(want)} characters`);
        break;
      case 'pattern':
        if (typeof value === 'string' && !pyRegex(want as string).test(value)) return fail('pattern', `does not match ${JSON.stringify(want)}`);
        break;
      default:
        break;
    }
  }
  return null;
}

/** Of failed alternatives, the one that went deepest (the most precise place), else the combinator's own. */
function deepest(fails: SchemaFailure[], keyword: string, path: PyValue[]): SchemaFailure {
  const best = fails.reduce((a, b) => (b.path.length > a.path.length ? b : a));
  if (best.path.length > path.length) return best;
  return { path, keyword, detail: `not valid under any of the given schemas (${fails.map((f) => f.detail).join('; ')})` };
}

export function isValid(value: PyValue, schema: JsonSchema): boolean {
  return firstFailure(value, schema) === null;
}
