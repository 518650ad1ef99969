/** The `dict` merger (spec §2.2): `replace` beats `no_replace`; new mappings are always recursed into. */
import { PyDict, PyValue } from '../py/values';
import { isListLike, pyContains } from './pyops';
import { RootMerger, TypeMerger } from './root';
import { MergeContext } from './trace';

export class DictMerger implements TypeMerger {
  readonly name = 'dict';
  readonly handles = new Set(['dict']);
  readonly method: 'replace' | 'no_replace';
  readonly recurseStr: boolean;
  readonly recurseArray: boolean;
  readonly allowDelete: boolean;

  constructor(
    private readonly root: RootMerger,
    options: PyValue,
  ) {
    // `replace` wins over `no_replace` by precedence, not by order.
    this.method = pyContains(options, 'replace') ? 'replace' : 'no_replace';
    this.recurseStr = pyContains(options, 'recurse_str');
    this.recurseArray = pyContains(options, 'recurse_array') || pyContains(options, 'recurse_list');
    this.allowDelete = pyContains(options, 'allow_delete');
  }

  describe(): string {
    const py = (b: boolean) => (b ? 'True' : 'False');
    return `DictMerger: (method=${this.method},recurse_str=${py(this.recurseStr)},recurse_dict=True,recurse_array=${py(this.recurseArray)},allow_delete=${py(this.allowDelete)})`;
  }

  settings(): Record<string, string | boolean> {
    return { method: this.method, recurse_dict: true, recurse_list: this.recurseArray, recurse_str: this.recurseStr, allow_delete: this.allowDelete };
  }

  merge(_typeName: string, old: PyValue, value: PyValue, ctx: MergeContext): PyValue {
    const tracer = this.root.tracer;
    if (!(value instanceof PyDict)) {
      tracer?.event({ kind: 'kept', path: ctx.path, old, rejected: value, oldOrigin: ctx.oldOrigin, origin: ctx.newOrigin, reason: 'a mapping only merges with a mapping' });
      return old;
    }
    const owned = this.root.ownedCopies;
    const result = owned?.has(old as PyDict) ? (old as PyDict) : (old as PyDict).copy();
    owned?.add(result);
    for (const { key, value: newValue, origin } of value.items()) {
      if (!result.has(key)) {
        result.set(key, newValue, origin);
        tracer?.event({ kind: 'added', path: tracer ? [...ctx.path, key] : ctx.path, value: newValue, origin });
        continue;
      }
      const oldValue = result.get(key) as PyValue;
      const oldOrigin = result.originOf(key);
      const child = this.root.child(ctx, key, oldOrigin, origin);
      if (newValue === null && this.allowDelete) {
        result.delete(key);
        tracer?.event({ kind: 'deleted', path: child.path, old: oldValue, oldOrigin, origin, reason: 'dict(allow_delete): a null value deletes the key' });
        continue;
      }
      const merged = this.mergeSameKey(oldValue, newValue, child);
      result.set(key, merged, merged === newValue && merged !== oldValue ? origin : oldOrigin);
    }
    return result;
  }

  private mergeSameKey(oldValue: PyValue, newValue: PyValue, ctx: MergeContext): PyValue {
    if (this.method === 'replace') {
      this.root.tracer?.event({ kind: 'replaced', path: ctx.path, old: oldValue, value: newValue, oldOrigin: ctx.oldOrigin, origin: ctx.newOrigin, reason: 'dict(replace)' });
      return newValue;
    }
    if ((isListLike(newValue) && this.recurseArray) || (typeof newValue === 'string' && this.recurseStr) || newValue instanceof PyDict) {
      return this.root.merge(oldValue, newValue, ctx);
    }
    this.root.tracer?.event({ kind: 'kept', path: ctx.path, old: oldValue, rejected: newValue, oldOrigin: ctx.oldOrigin, origin: ctx.newOrigin, reason: keptReason(newValue) });
    return oldValue;
  }
}

function keptReason(newValue: PyValue): string {
  if (isListLike(newValue)) return 'dict(no_replace) keeps the existing value; a list is only merged with recurse_list';
  if (typeof newValue === 'string') return 'dict(no_replace) keeps the existing value; a string is only merged with recurse_str';
  return 'dict(no_replace) keeps the existing value';
}
