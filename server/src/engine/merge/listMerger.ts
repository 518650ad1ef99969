/**
 * The `list` merger (spec §2.3): append > prepend > replace > no_replace,
 * default replace, which is an index-wise overwrite, not a list replacement.
 */
import { Origin, PyDict, PyTuple, PyValue, getListOrigins, setListOrigins } from '../py/values';
import { isListLike, pyContains, pyGetIndex, pyIterItems, pyLen } from './pyops';
import { RootMerger, TypeMerger } from './root';
import { MergeContext } from './trace';

const METHODS = ['append', 'prepend', 'replace', 'no_replace'] as const;
export type ListMethod = (typeof METHODS)[number];

export class ListMerger implements TypeMerger {
  readonly name = 'list';
  readonly handles = new Set(['list', 'tuple']);
  readonly method: ListMethod = 'replace';
  readonly recurseStr: boolean;
  readonly recurseDict: boolean;
  readonly recurseArray: boolean;

  constructor(
    private readonly root: RootMerger,
    options: PyValue,
  ) {
    for (const m of METHODS) {
      if (pyContains(options, m)) {
        this.method = m;
        break;
      }
    }
    this.recurseStr = pyContains(options, 'recurse_str');
    this.recurseDict = pyContains(options, 'recurse_dict');
    this.recurseArray = pyContains(options, 'recurse_array') || pyContains(options, 'recurse_list');
  }

  describe(): string {
    const py = (b: boolean) => (b ? 'True' : 'False');
    return `ListMerger: (method=${this.method},recurse_str=${py(this.recurseStr)},recurse_dict=${py(this.recurseDict)},recurse_array=${py(this.recurseArray)})`;
  }

  settings(): Record<string, string | boolean> {
    return { method: this.method, recurse_dict: this.recurseDict, recurse_list: this.recurseArray, recurse_str: this.recurseStr };
  }

  merge(typeName: string, old: PyValue, value: PyValue, ctx: MergeContext): PyValue {
    if (typeName === 'tuple') {
      const merged = this.mergeList((old as PyTuple).items, value, ctx, false);
      return Array.isArray(merged) ? new PyTuple(merged) : new PyTuple(pyIterItems(merged));
    }
    return this.mergeList(old as PyValue[], value, ctx, true);
  }

  /** @param mayOwn the result may be changed in place by later merges (not a tuple's items). */
  private mergeList(old: PyValue[], value: PyValue, ctx: MergeContext, mayOwn: boolean): PyValue {
    const tracer = this.root.tracer;
    if (this.method === 'replace' && !isListLike(value)) {
      tracer?.event({ kind: 'replaced', path: ctx.path, old, value, oldOrigin: ctx.oldOrigin, origin: ctx.newOrigin, reason: 'list(replace) with a value that is not a list' });
      return value;
    }
    const owned = mayOwn ? this.root.ownedCopies : undefined;
    const inPlace = owned?.has(old) === true;
    const oldOrigins = originsOf(old, ctx.oldOrigin);
    if (this.method === 'prepend' || this.method === 'append') {
      const added = pyIterItems(value);
      const addedOrigins = Array.isArray(value) ? originsOf(value, ctx.newOrigin) : added.map(() => ctx.newOrigin);
      let result: PyValue[];
      if (inPlace && this.method === 'append') {
        // One by one: spreading a list of 100,000 items as arguments overflows the stack.
        for (let i = 0; i < added.length; i++) {
          old.push(added[i]);
          oldOrigins.push(addedOrigins[i]);
        }
        setListOrigins(old, oldOrigins);
        result = old;
      } else if (inPlace && added.length <= MAX_SPREAD) {
        // Prepend: one move of the existing items, no new list.
        old.unshift(...added);
        oldOrigins.unshift(...addedOrigins);
        setListOrigins(old, oldOrigins);
        result = old;
      } else {
        result = this.method === 'append' ? [...old, ...added] : [...added, ...old];
        setListOrigins(result, this.method === 'append' ? [...oldOrigins, ...addedOrigins] : [...addedOrigins, ...oldOrigins]);
      }
      owned?.add(result);
      tracer?.event({ kind: 'extended', path: ctx.path, how: this.method, count: added.length, value, origin: ctx.newOrigin, oldOrigin: ctx.oldOrigin });
      return result;
    }
    const result = inPlace ? old : [...old];
    const origins = inPlace ? oldOrigins : [...oldOrigins];
    owned?.add(result);
    const newLength = pyLen(value);
    const common = Math.min(result.length, newLength);
    const newOrigins = Array.isArray(value) ? getListOrigins(value) : undefined;
    for (let i = 0; i < common; i++) {
      const newItem = pyGetIndex(value, i);
      const child = this.root.child(ctx, i, origins[i], newOrigins?.[i] ?? ctx.newOrigin);
      const merged = this.mergeSameIndex(result[i], newItem, child);
      if (merged !== result[i]) origins[i] = merged === newItem ? child.newOrigin : origins[i];
      result[i] = merged;
    }
    setListOrigins(result, origins);
    if (tracer && isListLike(value) && newLength > result.length) {
      const items = Array.isArray(value) ? value : value.items;
      tracer.event({ kind: 'dropped-items', path: ctx.path, rejected: items.slice(result.length), origin: ctx.newOrigin, reason: `list(${this.method}) is index-wise: items beyond the existing list's length are dropped` });
    }
    return result;
  }

  private mergeSameIndex(oldItem: PyValue, newItem: PyValue, ctx: MergeContext): PyValue {
    const tracer = this.root.tracer;
    if (this.method === 'no_replace') {
      tracer?.event({ kind: 'kept', path: ctx.path, old: oldItem, rejected: newItem, oldOrigin: ctx.oldOrigin, origin: ctx.newOrigin, reason: 'list(no_replace) keeps the existing item' });
      return oldItem;
    }
    if (
      (isListLike(newItem) && this.recurseArray) ||
      (typeof newItem === 'string' && this.recurseStr) ||
      (newItem instanceof PyDict && this.recurseDict)
    ) {
      return this.root.merge(oldItem, newItem, ctx);
    }
    tracer?.event({ kind: 'replaced', path: ctx.path, old: oldItem, value: newItem, oldOrigin: ctx.oldOrigin, origin: ctx.newOrigin, reason: 'list(replace) overwrites the item at the same index' });
    return newItem;
  }
}

/** Items passed as arguments at once (far below V8's limit on arguments). */
const MAX_SPREAD = 10_000;

function originsOf(list: PyValue[], fallback: Origin | undefined): Array<Origin | undefined> {
  return getListOrigins(list) ?? list.map(() => fallback);
}
