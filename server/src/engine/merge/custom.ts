/**
 * Custom mergers, with the contract of cloud-init's `cloudinit/mergers/m_<name>.py`:
 * a module exports a `Merger` class, built with the root merger (for recursion) and the
 * options from the spec; each `_on_<type>(value, mergeWith)` method merges one type,
 * `<type>` being the lowercased Python class name of the EXISTING value
 * (`dict`, `list`, `str`, `int`, ...). An optional `description` string is shown in hovers.
 *
 *   // m_uniq_list.js
 *   exports.description = 'Appends list items that are not there yet.';
 *   exports.Merger = class {
 *     constructor(root, options, py) { this.root = root; }
 *     _on_list(value, mergeWith) { ... return a new list; }
 *   };
 *
 * Values are the engine's Python model: lists are arrays, mappings `PyDict` (get, set, has,
 * keys, items, copy), ints `bigint`, floats `number`; `py` offers `PyDict`, `typeName(v)` and
 * `equals(a, b)`. Modules are code: they are loaded only when the user asks (the CLI's
 * `--custom-merger`, or the editor setting in a trusted workspace).
 */
import { PyDict, PySet, PyTuple, PyBytes, PyTimestamp, PyValue, pyTypeName } from '../py/values';
import { pyEq } from '../py/compare';
import { pyStr } from '../py/repr';
import { PyError } from '../py/errors';
import { MergerFactory } from './construct';
import { RootMerger, TypeMerger } from './root';
import { MergeContext } from './trace';

export interface CustomMergerModule {
  name: string;
  /** Absolute path of the module. */
  path: string;
  description?: string;
  factory: MergerFactory;
  /** Types it has `_on_<type>` methods for. */
  handles: string[];
}

/** Thrown when a module cannot be used at all (missing, throws on load, wrong shape). */
export class CustomMergerLoadError extends Error {}

const PY_HELPERS = Object.freeze({ PyDict, typeName: pyTypeName, equals: pyEq });

/** Loads `m_<name>` from `path` (already resolved and permitted by the caller). */
export function loadCustomMerger(name: string, path: string, requireModule: (p: string) => unknown = require): CustomMergerModule {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new CustomMergerLoadError(`custom merger name '${name}' must be lowercase letters, digits and '_'`);
  let exported: unknown;
  try {
    exported = requireModule(path);
  } catch (e) {
    throw new CustomMergerLoadError(`custom merger '${name}': cannot load ${path}: ${(e as Error).message}`);
  }
  const MergerClass = (exported as { Merger?: unknown })?.Merger;
  if (typeof MergerClass !== 'function') throw new CustomMergerLoadError(`custom merger '${name}': ${path} does not export a Merger class`);
  const handles = methodTypes(MergerClass as new (...args: unknown[]) => object);
  if (!handles.length) throw new CustomMergerLoadError(`custom merger '${name}': its Merger class has no _on_<type> method`);
  const description = typeof (exported as { description?: unknown }).description === 'string' ? ((exported as { description: string }).description) : undefined;
  const factory: MergerFactory = (root, options) => new CustomTypeMerger(name, MergerClass as new (...args: unknown[]) => Record<string, unknown>, root, options, handles);
  return { name, path, description, factory, handles };
}

function methodTypes(cls: new (...args: unknown[]) => object): string[] {
  const types = new Set<string>();
  for (let proto: unknown = cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const m = /^_on_([a-z_]+)$/.exec(key);
      if (m && typeof (proto as Record<string, unknown>)[key] === 'function') types.add(m[1]);
    }
  }
  return [...types];
}

class CustomTypeMerger implements TypeMerger {
  readonly handles: ReadonlySet<string>;
  private readonly instance: Record<string, unknown>;

  constructor(
    readonly name: string,
    cls: new (...args: unknown[]) => Record<string, unknown>,
    private readonly root: RootMerger,
    private readonly options: PyValue,
    handles: string[],
  ) {
    this.handles = new Set(handles);
    const rootFacade = Object.freeze({ merge: (a: PyValue, b: PyValue) => root.merge(a, b) });
    try {
      this.instance = new cls(rootFacade, options, PY_HELPERS);
    } catch (e) {
      throw new PyError('Exception', `custom merger m_${name} failed to start: ${(e as Error).message}`);
    }
  }

  describe(): string {
    return `CustomMerger m_${this.name}`;
  }

  settings(): Record<string, string | boolean> {
    return { custom: this.name, options: JSON.stringify(Array.isArray(this.options) ? this.options : pyStr(this.options)) };
  }

  merge(typeName: string, old: PyValue, value: PyValue, ctx: MergeContext): PyValue {
    const method = this.instance[`_on_${typeName}`] as (a: PyValue, b: PyValue) => unknown;
    let result: unknown;
    try {
      result = method.call(this.instance, old, value);
    } catch (e) {
      if (e instanceof PyError) throw e;
      throw new PyError('Exception', `custom merger m_${this.name}._on_${typeName} threw: ${(e as Error)?.message ?? String(e)}`);
    }
    const problem = invalidValue(result);
    if (problem) throw new PyError('TypeError', `custom merger m_${this.name}._on_${typeName} returned ${problem}`);
    this.root.tracer?.event({ kind: 'replaced', path: ctx.path, old, value: result as PyValue, oldOrigin: ctx.oldOrigin, origin: ctx.newOrigin, reason: `custom merger ${this.name}()` });
    return result as PyValue;
  }
}

/** Why a returned value is not a value of the model (null when it is one). */
function invalidValue(v: unknown, depth = 0): string | null {
  if (depth > 1000) return 'a value nested too deeply';
  if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'bigint') return null;
  if (typeof v === 'number') return null;
  if (v === undefined) return 'undefined (no return value?)';
  if (Array.isArray(v)) {
    for (const item of v) {
      const p = invalidValue(item, depth + 1);
      if (p) return p;
    }
    return null;
  }
  if (v instanceof PyDict) {
    for (const item of v.values()) {
      const p = invalidValue(item, depth + 1);
      if (p) return p;
    }
    return null;
  }
  if (v instanceof PyTuple || v instanceof PySet || v instanceof PyBytes || v instanceof PyTimestamp) return null;
  return `a ${typeof v === 'object' ? v.constructor?.name ?? 'object' : typeof v} (plain JavaScript objects are not mappings: use py.PyDict)`;
}

/** The modules, keyed the way `constructMergers` looks them up (`m_<name>`). */
export function customMergerModules(modules: CustomMergerModule[]): Map<string, MergerFactory> {
  return new Map(modules.map((m) => [`m_${m.name}`, m.factory]));
}
