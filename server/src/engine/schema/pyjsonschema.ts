/**
 * python-jsonschema's Draft 4 validation, as cloud-init configures it (`cloudinit/config/schema.py`,
 * `get_jsonschema_validator`), on the values PyYAML loads.
 *
 * This is the part of cloud-init's validator that decides what it *prints*: which errors, in which order,
 * at which path, in which words. It keeps the seams of the original (jsonschema 4.10.3: `validators.py`
 * `iter_errors`/`descend`, `_validators.py`, `_legacy_validators.py`, `exceptions.py` `best_match`) so the
 * two can be read side by side:
 * - errors are generated lazily, keyword by keyword in the schema's own key order, and each error object
 *   is mutated on its way up (`path.appendleft`), shared between a context list and the output exactly as
 *   in Python, because upstream's error selection looks at path lengths of shared objects;
 * - `$ref` siblings are validated too (cloud-init builds its validator with `create()`, whose default walks
 *   every keyword; plain Draft4Validator would ignore them);
 * - type `string` also accepts bytes (`!!binary`); `integer` is a Python int, never a float or a bool;
 * - what cloud-init adds per version: `deprecated` (and, upstream, `changed`) yield deprecation errors,
 *   which `anyOf`/`oneOf` and `is_valid` do not count as failures; 22.4's `anyOf`/`oneOf` report one
 *   "is not valid under any of the given schemas" error, upstream's `anyOf` adds jsonschema's `best_match`
 *   and upstream's `oneOf` reports only the deepest errors of its alternatives.
 * Where Python would raise (comparing keys of different types while sorting, a regex on a non-string key),
 * a PyError TypeError is thrown: cloud-init's `schema` command fails there too.
 */
import { PyError } from '../py/errors';
import { pyRepr } from '../py/repr';
import { comparePyStr } from '../py/str';
import { PyBytes, PyDict, type PyValue } from '../py/values';
import { pyEq } from '../py/compare';
import { conformsToFormat } from './formats';
import { pushAll } from '../arrays';
import { atLeast, type CloudInitVersion } from '../version/versions';
import { memoizedDescend, type TopLevelMemoUse } from './topLevelMemo';

/** A node of the schema data (JSON as extracted). */
export type SchemaNode = { [key: string]: unknown };


const UNSET = Symbol('unset');

/** What a keyword that found nothing returns (the one-error keywords return arrays, not generators: no allocation). */
const NONE: readonly ValidationError[] = Object.freeze([]);

/** JSON-pointer references already resolved, per schema root. */
const RESOLVED = new WeakMap<object, Map<string, SchemaNode>>();

export class ValidationError {
  readonly path: PyValue[] = [];
  readonly schemaPath: Array<string | number> = [];
  context: ValidationError[] = [];
  parent: ValidationError | null = null;
  validator: string | null | typeof UNSET = UNSET;
  validatorValue: unknown = UNSET;
  instance: PyValue | typeof UNSET = UNSET;
  schema: SchemaNode | typeof UNSET = UNSET;

  private text: string | (() => string);

  constructor(
    /** The message, or how to make it: most errors of failed alternatives are never printed. */
    message: string | (() => string),
    context: ValidationError[] = [],
    /** cloud-init's SchemaDeprecationError. */
    readonly deprecation = false,
    readonly version = 'devel',
  ) {
    this.text = message;
    this.context = context;
    for (const e of context) e.parent = this;
  }

  get message(): string {
    if (typeof this.text !== 'string') this.text = this.text();
    return this.text;
  }

  /**
   * A copy of this error as it is now (paths, fields, context and parent), through `copies`: what the
   * original shares with other errors copied through the same map, the copy shares with their copies.
   */
  copy(copies: Map<ValidationError, ValidationError>): ValidationError {
    const done = copies.get(this);
    if (done) return done;
    const c = new ValidationError(this.text, [], this.deprecation, this.version);
    copies.set(this, c);
    pushAll(c.path, this.path);
    pushAll(c.schemaPath, this.schemaPath);
    c.validator = this.validator;
    c.validatorValue = this.validatorValue;
    c.instance = this.instance;
    c.schema = this.schema;
    c.context = this.context.map((e) => e.copy(copies));
    c.parent = this.parent && this.parent.copy(copies);
    return c;
  }

  set(validator: string, validatorValue: unknown, instance: PyValue, schema: SchemaNode): void {
    if (this.validator === UNSET) this.validator = validator;
    if (this.validatorValue === UNSET) this.validatorValue = validatorValue;
    if (this.instance === UNSET) this.instance = instance;
    if (this.schema === UNSET) this.schema = schema;
  }

  get absolutePath(): PyValue[] {
    if (!this.parent) return this.path;
    return [...this.parent.absolutePath, ...this.path];
  }

  /** jsonschema's `json_path` (string concatenation: a non-str key raises TypeError, as in Python). */
  get jsonPath(): string {
    let p = '$';
    for (const elem of this.absolutePath) {
      if (typeof elem === 'bigint' || typeof elem === 'boolean' || typeof elem === 'number') {
        if (typeof elem === 'number') throw new PyError('TypeError', 'can only concatenate str (not "float") to str');
        p += '[' + (typeof elem === 'boolean' ? (elem ? 'True' : 'False') : elem.toString()) + ']';
      } else if (typeof elem === 'string') p += '.' + elem;
      else throw new PyError('TypeError', 'can only concatenate str to str');
    }
    return p;
  }

  matchesType(): boolean {
    const schema = this.schema;
    if (schema === UNSET || typeof schema !== 'object' || schema === null) return false;
    if (!('type' in schema)) return false;
    const expected = schema.type;
    const instance = this.instance === UNSET ? null : this.instance;
    if (typeof expected === 'string') return isType(instance, expected);
    return (expected as string[]).some((t) => isType(instance, t));
  }
}

// ---------------------------------------------------------------------------
// Types (draft4 type checker, with cloud-init's bytes-as-string)

export function isType(instance: PyValue, type: string): boolean {
  switch (type) {
    case 'array':
      return Array.isArray(instance);
    case 'boolean':
      return typeof instance === 'boolean';
    case 'integer':
      return typeof instance === 'bigint';
    case 'null':
      return instance === null;
    case 'number':
      return typeof instance === 'bigint' || typeof instance === 'number';
    case 'object':
      return instance instanceof PyDict;
    case 'string':
      return typeof instance === 'string' || instance instanceof PyBytes;
    default:
      throw new PyError('Exception', `Unknown type ${JSON.stringify(type)}`);
  }
}

/** JSON from the schema as the Python value json.load makes of it (integral numbers as int). */
export function jsonToPy(v: unknown): PyValue {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(jsonToPy);
  const d = new PyDict();
  for (const [k, x] of Object.entries(v as object)) d.set(k, jsonToPy(x));
  return d;
}

function numeric(v: PyValue): number {
  return typeof v === 'bigint' ? Number(v) : (v as number);
}

function lessThan(a: PyValue, b: PyValue): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b;
  return numeric(a) < numeric(b);
}

function pyLen(v: PyValue): number {
  if (typeof v === 'string') return [...v].length;
  if (v instanceof PyBytes) return v.bytes.length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof PyDict) return v.size;
  return 0;
}

// ---------------------------------------------------------------------------
// Python's `re.search` for the schema's patterns

const regexCache = new Map<string, RegExp>();

/** A Python regex as a JS one: `$` also matches before a final newline, as Python's does. */
export function pyRegex(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (re) return re;
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (c === '$') out += '(?=\\n?$)';
    else out += c;
  }
  try {
    re = new RegExp(out, 'u');
  } catch {
    re = new RegExp(out);
  }
  regexCache.set(pattern, re);
  return re;
}

function reSearch(pattern: string, s: PyValue): boolean {
  if (typeof s !== 'string') {
    if (s instanceof PyBytes) throw new PyError('TypeError', 'cannot use a string pattern on a bytes-like object');
    throw new PyError('TypeError', 'expected string or bytes-like object');
  }
  return pyRegex(pattern).test(s);
}

// ---------------------------------------------------------------------------
// Python ordering of dict keys and paths

/** Python's `a < b` for the keys and indices that appear in paths (TypeError across types). */
export function pyLess(a: PyValue, b: PyValue): boolean {
  const num = (x: PyValue) => typeof x === 'bigint' || typeof x === 'number' || typeof x === 'boolean';
  if (typeof a === 'string' && typeof b === 'string') return comparePyStr(a, b) < 0;
  if (num(a) && num(b)) {
    const n = (x: PyValue) => (typeof x === 'boolean' ? (x ? 1n : 0n) : x);
    return lessThan(n(a), n(b));
  }
  throw new PyError('TypeError', `'<' not supported between instances`);
}

/** `sorted(...)` of paths (deques compare element by element). Stable, like Python's sort. */
export function comparePaths(a: PyValue[], b: PyValue[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (pyEq(a[i], b[i])) continue;
    return pyLess(a[i], b[i]) ? -1 : 1;
  }
  return a.length - b.length;
}

function sortedKeys(keys: PyValue[]): PyValue[] {
  return [...keys].sort((a, b) => (pyLess(a, b) ? -1 : pyLess(b, a) ? 1 : 0));
}

function extrasMsg(extras: PyValue[]): [string, string] {
  const verb = extras.length === 1 ? 'was' : 'were';
  return [sortedKeys(extras).map((e) => pyRepr(e)).join(', '), verb];
}

// ---------------------------------------------------------------------------
// The validator

const keyCache = new WeakMap<object, string[]>();

/** A `properties` object's entries in order, and each name's position: built once per schema object. */
interface PropertyTable {
  entries: Array<[string, SchemaNode]>;
  position: Map<string, number>;
}
const propertyTables = new WeakMap<object, PropertyTable>();

function propertyTable(properties: object): PropertyTable {
  let table = propertyTables.get(properties);
  if (!table) {
    const entries = Object.entries(properties) as Array<[string, SchemaNode]>;
    table = { entries, position: new Map(entries.map(([name], i) => [name, i])) };
    propertyTables.set(properties, table);
  }
  return table;
}

function keysOf(schema: SchemaNode): string[] {
  let keys = keyCache.get(schema);
  if (!keys) keyCache.set(schema, (keys = Object.keys(schema)));
  return keys;
}

type Keyword = (v: Validator, value: unknown, instance: PyValue, schema: SchemaNode) => Iterable<ValidationError>;

export class Validator {
  private readonly keywords: Record<string, Keyword>;
  /** The memo of the validation under way (validateWith sets it for one synchronous walk). */
  topLevel: TopLevelMemoUse | undefined;

  constructor(
    readonly root: SchemaNode,
    /** Whose anyOf/oneOf: 22.4's report one "not valid under any" error, 23.4 and later the deepest matches. */
    readonly version: CloudInitVersion,
    /** Whether `changed: true` yields a deprecation (upstream) or is ignored (22.4). */
    readonly validatesChanged: boolean,
  ) {
    this.keywords = { ...DRAFT4 };
    this.keywords.deprecated = deprecatedKeyword('deprecated');
    if (validatesChanged) this.keywords.changed = deprecatedKeyword('changed');
    this.keywords.anyOf = atLeast(version, '23.4') ? anyOfUpstream : anyOf224;
    this.keywords.oneOf = atLeast(version, '23.4') ? oneOfUpstream : oneOf224;
  }

  *iterErrors(instance: PyValue, schema: SchemaNode | boolean): Generator<ValidationError> {
    if (schema === true) return;
    if (schema === false) {
      yield new ValidationError(() => `False schema does not allow ${pyRepr(instance)}`);
      return;
    }
    for (const k of keysOf(schema)) {
      const fn = this.keywords[k];
      if (!fn) continue;
      const v = schema[k];
      const errors = fn(this, v, instance, schema);
      if (errors === NONE) continue;
      for (const error of errors) {
        error.set(k, v, instance, schema);
        if (k !== 'if' && k !== '$ref') error.schemaPath.unshift(k);
        yield error;
      }
    }
  }

  *descend(instance: PyValue, schema: SchemaNode, path?: PyValue, schemaPath?: string | number): Generator<ValidationError> {
    for (const error of this.iterErrors(instance, schema)) {
      // Python: `if path is not None` (a None dict key is not prepended either).
      if (path !== undefined && path !== null) error.path.unshift(path);
      if (schemaPath !== undefined) error.schemaPath.unshift(schemaPath);
      yield error;
    }
  }

  /**
   * `list(descend(instance, schema, schema_path=i))` where it has no error but deprecations (the
   * alternative holds: its deprecations are reported); null at its first error, without generating the
   * rest. anyOf/oneOf look at an alternative's errors only when no alternative holds: they generate them
   * again then (the same errors: validation is a function of the instance and the schema).
   */
  deprecationsIfValid(instance: PyValue, schema: SchemaNode, index: number): ValidationError[] | null {
    const deprecations: ValidationError[] = [];
    for (const e of this.descend(instance, schema, undefined, index)) {
      if (!e.deprecation) return null;
      deprecations.push(e);
    }
    return deprecations;
  }

  /** An alternative's errors, deprecations left out (`[e for e in descend(…) if not deprecation]`). */
  alternativeErrors(instance: PyValue, schema: SchemaNode, index: number): ValidationError[] {
    const errors: ValidationError[] = [];
    for (const e of this.descend(instance, schema, undefined, index)) if (!e.deprecation) errors.push(e);
    return errors;
  }

  /** `descend(instance[property], subschema, path=property, schema_path=property)`, from the memo at the top level. */
  descendProperty(instance: PyDict, property: string, subschema: SchemaNode): Iterable<ValidationError> {
    const use = this.topLevel;
    if (use && instance === use.root) return memoizedDescend(this, use, instance, property, subschema);
    return this.descend(instance.get(property) as PyValue, subschema, property, property);
  }

  /** cloud-init's `is_valid` override: deprecations do not count. */
  isValid(instance: PyValue, schema: SchemaNode): boolean {
    for (const e of this.iterErrors(instance, schema)) if (!e.deprecation) return false;
    return true;
  }

  resolve(ref: string): SchemaNode {
    // The schema never changes: each reference is looked up once per schema (a multipart validates thousands of bodies).
    let resolved = RESOLVED.get(this.root);
    if (!resolved) RESOLVED.set(this.root, (resolved = new Map<string, SchemaNode>()));
    let node = resolved.get(ref);
    if (!node) resolved.set(ref, (node = this.resolveUncached(ref)));
    return node;
  }

  private resolveUncached(ref: string): SchemaNode {
    if (!ref.startsWith('#')) throw new PyError('Exception', `Unresolvable JSON pointer: ${ref}`);
    let node: unknown = this.root;
    const pointer = decodeURIComponent(ref.slice(1));
    if (pointer === '') return node as SchemaNode;
    for (const raw of pointer.replace(/^\//, '').split('/')) {
      const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (Array.isArray(node)) node = node[Number(part)];
      else node = (node as SchemaNode)[part];
      if (node === undefined) throw new PyError('Exception', `Unresolvable JSON pointer: ${JSON.stringify(pointer)}`);
    }
    return node as SchemaNode;
  }
}

// ---------------------------------------------------------------------------
// Draft 4 keywords (jsonschema 4.10.3 _validators.py / _legacy_validators.py)

const DRAFT4: Record<string, Keyword> = {
  *$ref(v, ref, instance) {
    yield* v.descend(instance, v.resolve(ref as string));
  },
  *additionalItems(v, aI, instance, schema) {
    const items = schema.items ?? {};
    if (!Array.isArray(instance) || (typeof items === 'object' && !Array.isArray(items))) return;
    const len = (items as unknown[]).length;
    if (typeof aI === 'object' && aI !== null && !Array.isArray(aI)) {
      for (let i = len; i < instance.length; i++) yield* v.descend(instance[i], aI as SchemaNode, BigInt(i));
    } else if (!aI && instance.length > len) {
      const [joined, verb] = extrasMsg(instance.slice(len));
      yield new ValidationError(() => `Additional items are not allowed (${joined} ${verb} unexpected)`);
    }
  },
  *additionalProperties(v, aP, instance, schema) {
    if (!(instance instanceof PyDict)) return;
    const extras = findAdditionalProperties(instance, schema);
    if (typeof aP === 'object' && aP !== null && !Array.isArray(aP)) {
      for (const extra of extras) yield* v.descend(instance.get(extra) as PyValue, aP as SchemaNode, extra);
    } else if (!aP && extras.length) {
      if ('patternProperties' in schema) {
        const verb = extras.length === 1 ? 'does' : 'do';
        const joined = sortedKeys(extras).map((e) => pyRepr(e)).join(', ');
        const patterns = Object.keys(schema.patternProperties as object)
          .sort(comparePyStr)
          .map((p) => pyRepr(p))
          .join(', ');
        yield new ValidationError(() => `${joined} ${verb} not match any of the regexes: ${patterns}`);
      } else {
        const [joined, verb] = extrasMsg(extras);
        yield new ValidationError(() => `Additional properties are not allowed (${joined} ${verb} unexpected)`);
      }
    }
  },
  *allOf(v, allOf, instance) {
    const list = allOf as SchemaNode[];
    for (let i = 0; i < list.length; i++) yield* v.descend(instance, list[i], undefined, i);
  },
  *dependencies(v, deps, instance) {
    if (!(instance instanceof PyDict)) return;
    for (const [property, dependency] of Object.entries(deps as object)) {
      if (!instance.has(property)) continue;
      if (Array.isArray(dependency)) {
        for (const each of dependency as string[]) {
          if (!instance.has(each)) yield new ValidationError(() => `${pyRepr(each)} is a dependency of ${pyRepr(property)}`);
        }
      } else yield* v.descend(instance, dependency as SchemaNode, undefined, property);
    }
  },
  enum(_v, enums, instance) {
    const list = enumValues(enums as unknown[]);
    const isZeroOrOne = (x: PyValue) =>
      (typeof x === 'boolean') || ((typeof x === 'bigint' || typeof x === 'number') && (numeric(x) === 0 || numeric(x) === 1));
    let found: boolean;
    if (isZeroOrOne(instance)) {
      found = list.some((each) =>
        typeof instance === 'boolean' ? each === instance : typeof each !== 'boolean' && pyEq(instance, each),
      );
    } else found = list.some((each) => pyEq(instance, each));
    if (!found) return [new ValidationError(() => `${pyRepr(instance)} is not one of ${enumRepr(list)}`)];
    return NONE;
  },
  format(_v, format, instance) {
    if (!conformsToFormat(instance, format as string)) return [new ValidationError(() => `${pyRepr(instance)} is not a ${pyRepr(format as string)}`)];
    return NONE;
  },
  *items(v, items, instance) {
    if (!Array.isArray(instance)) return;
    if (typeof items === 'object' && items !== null && !Array.isArray(items)) {
      for (let i = 0; i < instance.length; i++) yield* v.descend(instance[i], items as SchemaNode, BigInt(i));
    } else if (Array.isArray(items)) {
      const n = Math.min(items.length, instance.length);
      for (let i = 0; i < n; i++) yield* v.descend(instance[i], items[i] as SchemaNode, BigInt(i), i);
    }
  },
  maxItems(_v, m, instance) {
    if (Array.isArray(instance) && instance.length > (m as number)) return [new ValidationError(() => `${pyRepr(instance)} is too long`)];
    return NONE;
  },
  maxLength(_v, m, instance) {
    if (isType(instance, 'string') && pyLen(instance) > (m as number)) return [new ValidationError(() => `${pyRepr(instance)} is too long`)];
    return NONE;
  },
  maxProperties(_v, m, instance) {
    if (instance instanceof PyDict && instance.size > (m as number)) return [new ValidationError(() => `${pyRepr(instance)} has too many properties`)];
    return NONE;
  },
  maximum(_v, maximum, instance, schema) {
    if (!isType(instance, 'number')) return NONE;
    const max = jsonToPy(maximum);
    const exclusive = !!schema.exclusiveMaximum;
    const failed = exclusive ? !lessThan(instance, max) : lessThan(max, instance);
    const cmp = exclusive ? 'greater than or equal to' : 'greater than';
    if (failed) return [new ValidationError(() => `${pyRepr(instance)} is ${cmp} the maximum of ${pyRepr(max)}`)];
    return NONE;
  },
  minItems(_v, m, instance) {
    if (Array.isArray(instance) && instance.length < (m as number)) return [new ValidationError(() => `${pyRepr(instance)} is too short`)];
    return NONE;
  },
  minLength(_v, m, instance) {
    if (isType(instance, 'string') && pyLen(instance) < (m as number)) return [new ValidationError(() => `${pyRepr(instance)} is too short`)];
    return NONE;
  },
  minProperties(_v, m, instance) {
    if (instance instanceof PyDict && instance.size < (m as number)) return [new ValidationError(() => `${pyRepr(instance)} does not have enough properties`)];
    return NONE;
  },
  minimum(_v, minimum, instance, schema) {
    if (!isType(instance, 'number')) return NONE;
    const min = jsonToPy(minimum);
    const exclusive = !!schema.exclusiveMinimum;
    const failed = exclusive ? !lessThan(min, instance) : lessThan(instance, min);
    const cmp = exclusive ? 'less than or equal to' : 'less than';
    if (failed) return [new ValidationError(() => `${pyRepr(instance)} is ${cmp} the minimum of ${pyRepr(min)}`)];
    return NONE;
  },
  multipleOf(_v, dB, instance) {
    if (!isType(instance, 'number')) return NONE;
    const d = dB as number;
    const failed = Number.isInteger(d) && typeof instance === 'bigint' ? instance % BigInt(d) !== 0n : !Number.isInteger(numeric(instance) / d);
    if (failed) return [new ValidationError(() => `${pyRepr(instance)} is not a multiple of ${d}`)];
    return NONE;
  },
  not(v, notSchema, instance) {
    if (v.isValid(instance, notSchema as SchemaNode)) {
      return [new ValidationError(() => `${pyRepr(instance)} should not be valid under ${pyRepr(jsonToPy(notSchema))}`)];
    }
    return NONE;
  },
  pattern(_v, patrn, instance) {
    if (isType(instance, 'string') && !reSearch(patrn as string, instance)) {
      return [new ValidationError(() => `${pyRepr(instance)} does not match ${pyRepr(patrn as string)}`)];
    }
    return NONE;
  },
  *patternProperties(v, pp, instance) {
    if (!(instance instanceof PyDict)) return;
    for (const [pattern, subschema] of Object.entries(pp as object)) {
      for (const [k, value] of instance.entries()) {
        if (reSearch(pattern, k)) yield* v.descend(value, subschema as SchemaNode, k, pattern);
      }
    }
  },
  *properties(v, properties, instance) {
    if (!(instance instanceof PyDict)) return;
    const table = propertyTable(properties as object);
    if (instance.size >= table.entries.length) {
      for (const [property, subschema] of table.entries) {
        if (instance.has(property)) yield* v.descendProperty(instance, property, subschema);
      }
      return;
    }
    // Fewer keys than the schema names (the usual case: cloud-config's top level names hundreds): the
    // keys looked up in the schema instead, then taken in the schema's order, the order errors come in.
    const positions: number[] = [];
    for (const key of instance.keys()) {
      const at = typeof key === 'string' ? table.position.get(key) : undefined;
      if (at !== undefined) positions.push(at);
    }
    positions.sort((a, b) => a - b);
    for (const at of positions) {
      const [property, subschema] = table.entries[at];
      yield* v.descendProperty(instance, property, subschema);
    }
  },
  *required(_v, required, instance) {
    if (!(instance instanceof PyDict)) return;
    for (const property of required as string[]) {
      if (!instance.has(property)) yield new ValidationError(() => `${pyRepr(property)} is a required property`);
    }
  },
  type(_v, types, instance) {
    if (typeof types === 'string' ? isType(instance, types) : (types as string[]).some((t) => isType(instance, t))) return NONE;
    const list = typeof types === 'string' ? [types] : (types as string[]);
    return [new ValidationError(() => `${pyRepr(instance)} is not of type ${list.map((t) => pyRepr(t)).join(', ')}`)];
  },
  uniqueItems(_v, uI, instance) {
    if (uI && Array.isArray(instance) && !uniq(instance)) return [new ValidationError(() => `${pyRepr(instance)} has non-unique elements`)];
    return NONE;
  },
};

/** An enum's values as Python values, converted once per schema node. */
const ENUM_VALUES = new WeakMap<unknown[], PyValue[]>();
/** repr() of each schema enum, made once: 100,000 unknown module names each quote the list of 150 modules. */
const ENUM_REPR = new WeakMap<PyValue[], string>();
function enumRepr(list: PyValue[]): string {
  let text = ENUM_REPR.get(list);
  if (text === undefined) ENUM_REPR.set(list, (text = pyRepr(list)));
  return text;
}

function enumValues(enums: unknown[]): PyValue[] {
  let list = ENUM_VALUES.get(enums);
  if (!list) ENUM_VALUES.set(enums, (list = enums.map(jsonToPy)));
  return list;
}

function findAdditionalProperties(instance: PyDict, schema: SchemaNode): PyValue[] {
  const properties = schema.properties ?? {};
  const patterns = Object.keys(schema.patternProperties ?? {}).join('|');
  const out: PyValue[] = [];
  for (const property of instance.keys()) {
    if (typeof property === 'string' && Object.prototype.hasOwnProperty.call(properties, property)) continue;
    if (patterns && reSearch(patterns, property)) continue;
    out.push(property);
  }
  return out;
}

/** jsonschema's `equal` with its bool/int distinction (True is not 1), for uniqueItems. */
function jsEqual(a: PyValue, b: PyValue): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsEqual(x, b[i]));
  if (a instanceof PyDict && b instanceof PyDict) {
    if (a.size !== b.size) return false;
    for (const [k, x] of a.entries()) if (!b.has(k) || !jsEqual(x, b.get(k) as PyValue)) return false;
    return true;
  }
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  return pyEq(a, b);
}

function uniq(items: PyValue[]): boolean {
  const seen: PyValue[] = [];
  for (const e of items) {
    for (const s of seen) if (jsEqual(s, e)) return false;
    seen.push(e);
  }
  return true;
}

// ---------------------------------------------------------------------------
// What cloud-init adds

function deprecatedKeyword(key: 'deprecated' | 'changed'): Keyword {
  return function* (_v, flag, _instance, schema) {
    if (!flag) return;
    const message = (key === 'deprecated' ? schema['x-deprecatedMessage'] : schema['x-changedMessage']) as string | undefined;
    yield new ValidationError(message ?? 'DEPRECATED.', [], true, (schema.deprecated_version as string | undefined) ?? 'devel');
  };
}

function* anyOf224(v: Validator, anyOf: unknown, instance: PyValue): Generator<ValidationError> {
  const allErrors: ValidationError[] = [];
  const allDeprecations: ValidationError[] = [];
  const list = anyOf as SchemaNode[];
  let matched = false;
  for (let i = 0; i < list.length; i++) {
    const deprecations = v.deprecationsIfValid(instance, list[i], i);
    if (deprecations) {
      pushAll(allDeprecations, deprecations);
      matched = true;
      break;
    }
  }
  if (!matched) {
    for (let i = 0; i < list.length; i++) pushAll(allErrors, v.alternativeErrors(instance, list[i], i));
    yield new ValidationError(() => `${pyRepr(instance)} is not valid under any of the given schemas`, allErrors);
  }
  yield* allDeprecations;
}

function* oneOf224(v: Validator, oneOf: unknown, instance: PyValue): Generator<ValidationError> {
  yield* oneOfCommon(v, oneOf as SchemaNode[], instance, (allErrors) => [
    new ValidationError(() => `${pyRepr(instance)} is not valid under any of the given schemas`, allErrors),
  ]);
}

function* oneOfUpstream(v: Validator, oneOf: unknown, instance: PyValue): Generator<ValidationError> {
  yield* oneOfCommon(v, oneOf as SchemaNode[], instance, (allErrors) => deepestMatches(allErrors, instance));
}

function* oneOfCommon(
  v: Validator,
  list: SchemaNode[],
  instance: PyValue,
  none: (allErrors: ValidationError[]) => ValidationError[],
): Generator<ValidationError> {
  let allDeprecations: ValidationError[] = [];
  let firstValid: SchemaNode | undefined;
  let i = 0;
  for (; i < list.length; i++) {
    const deprecations = v.deprecationsIfValid(instance, list[i], i);
    if (deprecations) {
      firstValid = list[i];
      allDeprecations = deprecations;
      i++;
      break;
    }
  }
  if (firstValid === undefined) {
    const allErrors: ValidationError[] = [];
    for (let j = 0; j < list.length; j++) pushAll(allErrors, v.alternativeErrors(instance, list[j], j));
    yield* none(allErrors);
  }
  const moreValid = list.slice(i).filter((s) => v.isValid(instance, s));
  if (moreValid.length) {
    moreValid.push(firstValid as SchemaNode);
    const reprs = moreValid.map((s) => pyRepr(jsonToPy(s))).join(', ');
    yield new ValidationError(() => `${pyRepr(instance)} is valid under each of ${reprs}`);
  } else yield* allDeprecations;
}

function* anyOfUpstream(v: Validator, anyOf: unknown, instance: PyValue): Generator<ValidationError> {
  const allErrors: ValidationError[] = [];
  const allDeprecations: ValidationError[] = [];
  const list = anyOf as SchemaNode[];
  let skipBestMatch = false;
  let matched = false;
  // The errors of the failed alternatives already generated (yielded as they fail), by index.
  const failed: Array<ValidationError[] | undefined> = [];
  for (let i = 0; i < list.length; i++) {
    const sub = list[i];
    const deprecations = v.deprecationsIfValid(instance, sub, i);
    if (deprecations) {
      pushAll(allDeprecations, deprecations);
      matched = true;
      break;
    }
    const ref = typeof sub.$ref === 'string' ? sub.$ref : '';
    if (instance instanceof PyDict && instance.has('type') && ref.includes('anyOf_type')) {
      const t = instance.get('type');
      if (typeof t === 'string' && ref.includes(`anyOf_type_${t}`)) {
        skipBestMatch = true;
        const errs = (failed[i] = v.alternativeErrors(instance, sub, i));
        yield* errs;
      }
    }
  }
  if (!matched) {
    for (let i = 0; i < list.length; i++) pushAll(allErrors, failed[i] ?? v.alternativeErrors(instance, list[i], i));
    if (!skipBestMatch) {
      const best = bestMatch(allErrors);
      if (best) yield best;
    }
    yield new ValidationError(() => `${pyRepr(instance)} is not valid under any of the given schemas`, allErrors);
  }
  yield* allDeprecations;
}

/** upstream's `cloud_init_deepest_matches`. */
function deepestMatches(errors: ValidationError[], instance: PyValue): ValidationError[] {
  let best: ValidationError[] = [];
  let depth = 0;
  const isTypeKeyed = instance instanceof PyDict && instance.has('type');
  for (const err of errors) {
    if (isTypeKeyed) {
      const schema = err.schema as SchemaNode;
      const props = schema && typeof schema === 'object' ? ((schema.properties ?? {}) as SchemaNode) : {};
      const typeSchema = (props.type ?? {}) as SchemaNode;
      const enumValues = ((typeSchema && typeof typeSchema === 'object' ? typeSchema.enum : undefined) ?? []) as unknown[];
      const t = instance.get('type') as PyValue;
      if (enumValues.map(jsonToPy).some((e) => pyEq(t, e))) return [err];
      if (err.jsonPath.slice(-4) === 'type') best.push(err);
    } else if (err.path.length === depth) best.push(err);
    else if (err.path.length > depth) {
      depth = err.path.length;
      best = [err];
    }
  }
  return best;
}

const WEAK = new Set(['anyOf', 'oneOf']);

function relevance(e: ValidationError): [number, boolean, boolean, boolean] {
  const validator = e.validator === UNSET ? null : e.validator;
  return [-e.path.length, !WEAK.has(validator as string), false, !e.matchesType()];
}

function compareKeys(a: [number, boolean, boolean, boolean], b: [number, boolean, boolean, boolean]): number {
  for (let i = 0; i < 4; i++) {
    const x = Number(a[i]);
    const y = Number(b[i]);
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** jsonschema 4.10.3's `exceptions.best_match` with the default relevance. */
export function bestMatch(errors: ValidationError[]): ValidationError | undefined {
  if (!errors.length) return undefined;
  let best = errors[0];
  let bestKey = relevance(best);
  for (const e of errors.slice(1)) {
    const k = relevance(e);
    if (compareKeys(k, bestKey) > 0) {
      best = e;
      bestKey = k;
    }
  }
  while (best.context.length) {
    const sorted = [...best.context].sort((a, b) => compareKeys(relevance(a), relevance(b)));
    const smallest = sorted.slice(0, 2);
    if (smallest.length === 2 && compareKeys(relevance(smallest[0]), relevance(smallest[1])) === 0) return best;
    best = smallest[0];
  }
  return best;
}
