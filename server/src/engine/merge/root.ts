/**
 * The root merger: cloud-init's `LookupMerger`. It dispatches on the Python
 * class of the OLD value and lets the first merger of the spec that has a
 * method for that class do the work; with none, the old value stays.
 */
import { PyValue, pyTypeName } from '../values';
import { MergeContext, MergeTracer } from './trace';

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

  constructor(readonly tracer?: MergeTracer) {}

  /** The merger that will handle values whose old side has this class, if any. */
  handlerFor(typeName: string): TypeMerger | undefined {
    return this.mergers.find((m) => m.handles.has(typeName));
  }

  merge(old: PyValue, value: PyValue, ctx: MergeContext = { path: [] }): PyValue {
    const typeName = pyTypeName(old);
    const handler = this.handlerFor(typeName);
    if (handler) return handler.merge(typeName, old, value, ctx);
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
