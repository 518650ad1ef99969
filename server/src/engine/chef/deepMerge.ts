/**
 * Chef-style deep merge of role, environment and attribute files.
 *
 * Rules (later source merged INTO the earlier result):
 * - mappings merge recursively; for a key on both sides the later value wins, except that a
 *   falsy earlier value (null or false, Ruby's `if dest[key]`) is simply replaced;
 * - arrays are unioned without duplicates, earlier items first (`[1,2] + [3]` → `[1,2,3]`,
 *   `[[1,2]] + [[3]]` → `[[1,2],[3]]`); equality is structural and keeps types apart (1 ≠ 1.0);
 * - a value of a different type replaces the old one;
 * - in arrays, the knockout prefix `!merge:` removes an existing string (`"!merge:2"` removes
 *   `"2"`, never the number 2), and `"!merge:"` alone removes everything before it; mappings
 *   cannot be removed this way (a knockout string there is just a string).
 */
import { Origin, PyDict, PySet, PyTuple, PyValue, getListOrigins, keyIdentity, pyTypeName, setListOrigins } from '../py/values';
import { pyStr } from '../py/repr';
import { TextSpan } from '../py/values';

export const KNOCKOUT_PREFIX = '!merge:';

export interface ChefNotice {
  kind: 'knockout-no-match' | 'knockout-number' | 'knockout-in-mapping';
  message: string;
  origin?: Origin;
  path: Array<string | number>;
}

export interface ChefMergeResult {
  value: PyValue;
  notices: ChefNotice[];
}

/** Structural identity with Ruby's `eql?`: types matter (1 and 1.0 differ). */
function identity(value: PyValue): string {
  if (Array.isArray(value)) return `[${value.map(identity).join(',')}]`;
  if (value instanceof PyDict) return `{${value.entries().map(([k, v]) => `${typeTag(k)}${keyIdentity(k)}:${identity(v)}`).join(',')}}`;
  // A YAML !!set is equal to another with the same items in any order; a tuple (!!omap, !!pairs) item by item.
  if (value instanceof PySet) return `${typeTag(value)}{${value.values().map(identity).sort().join(',')}}`;
  if (value instanceof PyTuple) return `${typeTag(value)}(${value.items.map(identity).join(',')})`;
  return `${typeTag(value)}${value === null ? '' : keyIdentity(value)}`;
}

function typeTag(value: PyValue): string {
  return pyTypeName(value) + ':';
}

export function chefDeepMerge(dest: PyValue, source: PyValue, notices: ChefNotice[] = [], path: Array<string | number> = [], sourceOrigin?: Origin): PyValue {
  if (dest === null || dest === undefined) return source;
  if (source instanceof PyDict) {
    if (!(dest instanceof PyDict)) return source;
    const result = dest.copy();
    for (const { key, value, origin } of source.items()) {
      const existing = result.get(key);
      const childPath = [...path, typeof key === 'string' ? key : pyStr(key)];
      if (typeof value === 'string' && value.startsWith(KNOCKOUT_PREFIX)) {
        notices.push({ kind: 'knockout-in-mapping', message: `'${value}' is a plain string here: ${KNOCKOUT_PREFIX} only removes items from arrays; a mapping key cannot be removed this way.`, origin, path: childPath });
      }
      if (existing !== undefined && existing !== null && existing !== false) {
        const merged = chefDeepMerge(existing, value, notices, childPath, origin);
        result.set(key, merged, merged === value ? origin : result.originOf(key));
      } else {
        result.set(key, value, origin);
      }
    }
    return result;
  }
  if (Array.isArray(source)) {
    if (!Array.isArray(dest)) return source;
    return mergeArrays(dest, source, notices, path, sourceOrigin);
  }
  return source;
}

/**
 * The array union with knockouts, linear in the items (a knockout used to filter the whole array
 * and rebuild the set of identities: 200,000 knockouts against 200,000 items never finished).
 * Items live in `items` in order; a knocked-out item is only marked, and the live strings and
 * numbers are indexed by their text so a knockout finds its targets without a scan.
 */
function mergeArrays(dest: PyValue[], source: PyValue[], notices: ChefNotice[], path: Array<string | number>, sourceOrigin?: Origin): PyValue[] {
  const destOrigins = getListOrigins(dest) ?? dest.map(() => undefined);
  const sourceOrigins = getListOrigins(source) ?? source.map(() => sourceOrigin);
  let items: Array<{ value: PyValue; origin: Origin | undefined; removed: boolean }> = [];
  /** Identities of the live items. */
  let present = new Set<string>();
  /** Live string items by their text: what a knockout removes. */
  let strings = new Map<string, number[]>();
  /** The texts of the live numbers: what a knockout can be mistaken for. */
  let numbers = new Set<string>();
  const add = (value: PyValue, origin: Origin | undefined, id: string) => {
    present.add(id);
    if (typeof value === 'string') {
      const at = strings.get(value);
      if (at) at.push(items.length);
      else strings.set(value, [items.length]);
    } else if (typeof value === 'bigint' || typeof value === 'number') numbers.add(String(value));
    items.push({ value, origin, removed: false });
  };
  dest.forEach((value, i) => add(value, destOrigins[i], identity(value)));
  source.forEach((value, i) => {
    const origin = sourceOrigins[i];
    if (typeof value === 'string' && value.startsWith(KNOCKOUT_PREFIX)) {
      const target = value.slice(KNOCKOUT_PREFIX.length);
      if (target === '') {
        items = [];
        present = new Set();
        strings = new Map();
        numbers = new Set();
        return;
      }
      const targets = strings.get(target);
      if (targets) {
        for (const at of targets) items[at].removed = true;
        strings.delete(target);
        present.delete(identity(target));
        return;
      }
      notices.push(
        numbers.has(target)
          ? { kind: 'knockout-number', message: `'${value}' matches only the string '${target}', not the number ${target}: a number can only be removed by clearing the whole array with '${KNOCKOUT_PREFIX}'.`, origin, path: [...path, i] }
          : { kind: 'knockout-no-match', message: `'${value}' removes nothing: no earlier item is the string '${target}'.`, origin, path: [...path, i] },
      );
      return;
    }
    const id = identity(value);
    if (!present.has(id)) add(value, origin, id);
  });
  const live = items.filter((i) => !i.removed);
  const result = live.map((i) => i.value);
  setListOrigins(result, live.map((i) => i.origin));
  return result;
}

/** What one file contributes: role/environment files split default and override attributes. */
export interface ChefFileAttributes {
  kind: 'role' | 'environment' | 'attributes';
  defaults: PyValue;
  overrides: PyValue;
}

export function chefAttributesOf(value: PyValue): ChefFileAttributes {
  if (value instanceof PyDict && (value.has('default_attributes') || value.has('override_attributes'))) {
    const kind = value.get('chef_type') === 'environment' || value.get('json_class') === 'Chef::Environment' ? 'environment' : 'role';
    return { kind, defaults: value.get('default_attributes') ?? new PyDict(), overrides: value.get('override_attributes') ?? new PyDict() };
  }
  return { kind: 'attributes', defaults: value, overrides: new PyDict() };
}

export interface ChefMergeFilesResult {
  defaults: PyValue;
  overrides: PyValue;
  /** Defaults with overrides merged on top: what the node sees. */
  merged: PyValue;
  kinds: ChefFileAttributes['kind'][];
  notices: ChefNotice[];
}

/** Merges files in order (later wins); override attributes win over default attributes. */
export function chefMergeFiles(values: PyValue[]): ChefMergeFilesResult {
  const notices: ChefNotice[] = [];
  let defaults: PyValue = new PyDict();
  let overrides: PyValue = new PyDict();
  const kinds: ChefFileAttributes['kind'][] = [];
  for (const value of values) {
    const attrs = chefAttributesOf(value);
    kinds.push(attrs.kind);
    defaults = chefDeepMerge(defaults, attrs.defaults, notices, []);
    overrides = chefDeepMerge(overrides, attrs.overrides, notices, []);
  }
  const merged = chefDeepMerge(defaults, overrides, notices, []);
  // The last pass walks the overrides again: report each notice once.
  const unique = new Map(notices.map((n) => [`${n.kind}|${n.path.join('.')}|${n.message}`, n]));
  return { defaults, overrides, merged, kinds, notices: [...unique.values()] };
}

/** For diagnostics on one file: knockouts that can never match, with their spans. */
export function knockoutFindingsIn(value: PyValue): Array<{ span: TextSpan; message: string; kind: ChefNotice['kind'] }> {
  const out: Array<{ span: TextSpan; message: string; kind: ChefNotice['kind'] }> = [];
  const visit = (v: PyValue, depth: number) => {
    if (depth > 200) return;
    if (Array.isArray(v)) {
      const origins = getListOrigins(v);
      v.forEach((item, i) => {
        if (typeof item === 'string' && item.startsWith(KNOCKOUT_PREFIX)) {
          const target = item.slice(KNOCKOUT_PREFIX.length);
          if (/^-?\d+(\.\d+)?$/.test(target) && origins?.[i]) {
            out.push({ span: origins[i].value, kind: 'knockout-number', message: `'${item}' only removes the string '${target}'; if the earlier item is the number ${target}, nothing is removed (a number can only be removed by clearing the array with '${KNOCKOUT_PREFIX}').` });
          }
        }
        visit(item, depth + 1);
      });
    } else if (v instanceof PyDict) {
      for (const e of v.items()) {
        if (typeof e.value === 'string' && e.value.startsWith(KNOCKOUT_PREFIX) && e.origin) {
          out.push({ span: e.origin.value, kind: 'knockout-in-mapping', message: `'${e.value}' is a plain string here: ${KNOCKOUT_PREFIX} only removes items from arrays; a mapping key cannot be removed this way.` });
        }
        visit(e.value, depth + 1);
      }
    }
  };
  visit(value, 0);
  return out;
}
