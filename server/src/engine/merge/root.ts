/**
 * The root merger: cloud-init's `LookupMerger`. It dispatches on the Python
 * class of the OLD value and lets the first merger of the spec that has a
 * method for that class do the work; with none, the old value stays.
 */
import { PyValue, pyTypeName } from '../py/values';
import { PyError } from '../py/errors';
import { PYTHON_RECURSION } from '../limits';
import { MergeContext, MergeTracer } from './trace';

/**
 * Python frames one merge step takes in cloud-init: `LookupMerger.merge` ->
 * `_handle_unknown` -> `_on_dict` -> `_do_dict_replace` -> `merge_same_key`
 * (5); `_on_list` -> `merge_same_index` (4); `_on_tuple` adds `_on_list` (5);
 * `_on_str` returns (3); no handler: `UnknownMerger._handle_unknown` (3).
 */
function pythonFrames(handler: TypeMerger | undefined, typeName: string): number {
  if (!handler) return 3;
  switch (handler.name) {
    case 'dict':
      return 5;
    case 'list':
      return typeName === 'tuple' ? 5 : 4;
    case 'str':
      return 3;
    default:
      return 5;
  }
}

export interface TypeMerger {
  /** Merger name as written in specs (`dict`, `list`, `str`, or a custom one). */
  readonly name: string;
  /** Lowercased Python class names it has an `_on_<type>` method for. */
  readonly handles: ReadonlySet<string>;
  merge(typeName: string, old: PyValue, value: PyValue, ctx: MergeContext): PyValue;
  /** The merger's own one-line description (what Python's `str()` prints). */
  describe(): string;
  /** Effective settings, for explanations; keys are stable. */
  settings(): Record<string, string | boolean>;
}

export class RootMerger {
  readonly mergers: TypeMerger[] = [];
  /**
   * Mappings and lists this merge sequence copied itself and nothing else holds: merging into one
   * again may change it in place instead of copying it again (cloud-init copies at every step,
   * which costs parts × accumulated size). Unset: every step copies, as cloud-init does.
   */
  ownedCopies?: WeakSet<object>;
  /** Python frames in use by the merges under way (cloud-init recurses; so does this). */
  private frames = 0;

  /**
   * @param frameBudget Python frames the merge may use before cloud-init raises
   *   RecursionError (PYTHON_RECURSION); deeper merges throw that PyError here,
   *   so no merge ever recurses deep enough to overflow the JavaScript stack.
   */
  constructor(
    readonly tracer?: MergeTracer,
    readonly frameBudget: number = PYTHON_RECURSION.mergeFramesPart,
  ) {}

  /** The merger that will handle values whose old side has this class, if any. */
  handlerFor(typeName: string): TypeMerger | undefined {
    return this.mergers.find((m) => m.handles.has(typeName));
  }

  merge(old: PyValue, value: PyValue, ctx: MergeContext = { path: [] }): PyValue {
    const typeName = pyTypeName(old);
    const handler = this.handlerFor(typeName);
    const cost = pythonFrames(handler, typeName);
    if (this.frames + cost > this.frameBudget) throw new PyError('RecursionError', 'maximum recursion depth exceeded');
    if (handler) {
      this.frames += cost;
      try {
        return handler.merge(typeName, old, value, ctx);
      } finally {
        this.frames -= cost;
      }
    }
    this.tracer?.event({
      kind: 'kept',
      path: ctx.path,
      old,
      rejected: value,
      oldOrigin: ctx.oldOrigin,
      origin: ctx.newOrigin,
      reason: `no merger in the spec handles an existing ${typeName} value`,
    });
    return old;
  }

  /** Context for a child merge step; the path is only built when tracing. */
  child(ctx: MergeContext, segment: PyValue, oldOrigin: MergeContext['oldOrigin'], newOrigin: MergeContext['newOrigin']): MergeContext {
    return { path: this.tracer ? [...ctx.path, segment] : ctx.path, oldOrigin, newOrigin };
  }
}
