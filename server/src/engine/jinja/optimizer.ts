/**
 * Jinja's compile-time constant folding: nodes.Node.as_const as jinja2/optimizer.py and the
 * compiler apply it (an expression whose parts are all constants is evaluated once, while
 * compiling), with has_safe_repr deciding whether a folded value may be inlined. Observable:
 * `{{ {}[:] }}` prints `CI_MISSING_JINJA_VAR/slice(None, None, None)` instead of raising.
 *
 * Residual differences: none known inside the supported expressions.
 */
import { KNOWN_FILTERS, KNOWN_TESTS } from './defaults';
import { sliceValue } from './slicing';
import { Node, NodeKind } from './nodes';
import { JDict, JMarkup, JRange, JSlice, JTuple, JUndef, JValue, ciUndef, isIterable, pyStr, truthy } from './values';
import { BinOp, binop, unaryop } from './arith';
import type { Renderer } from './runtime';
import { PyError } from '../py/errors';
import { pushAll } from '../arrays';

export const IMPOSSIBLE: unique symbol = Symbol('impossible');
/** Thrown (not an Error: no stack to capture) when a constant fold meets what only rendering can decide. */
interface ImpossibleSignal {
  impossible: true;
}
export const IMPOSSIBLE_SIGNAL: ImpossibleSignal = { impossible: true };

/** Node types whose compilation goes through Jinja's optimizer (constant folding). */
export const FOLDED_KINDS = new Set<NodeKind>(['BinOp', 'Neg', 'Pos', 'Not', 'And', 'Or', 'Concat', 'Compare', 'Getattr', 'Getitem', 'Filter', 'Test', 'CondExpr']);
/** Filters taking the context (as_const refuses them). */
export const CONTEXT_FILTERS = new Set(['map', 'select', 'reject', 'selectattr', 'rejectattr', 'random']);

/** compiler.has_safe_repr */
export function hasSafeRepr(v: JValue): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (v instanceof JMarkup || v instanceof JRange) return true;
  if (Array.isArray(v)) return v.every(hasSafeRepr);
  if (v instanceof JTuple) return v.items.every(hasSafeRepr);
  if (v instanceof JDict) return v.entries().every(([k, x]) => hasSafeRepr(k) && hasSafeRepr(x));
  return false;
}

/** nodes.Node.as_const: Jinja's compile-time evaluation of constant expressions (IMPOSSIBLE when it refuses). */
export function asConst(r: Renderer, n: Node): JValue | typeof IMPOSSIBLE {
  const sub = (x: Node): JValue => {
    const v = asConst(r, x);
    if (v === IMPOSSIBLE) throw IMPOSSIBLE_SIGNAL;
    return v;
  };
  const guarded = (f: () => JValue): JValue | typeof IMPOSSIBLE => {
    try {
      return f();
    } catch (e) {
      if (e === IMPOSSIBLE_SIGNAL || e instanceof PyError) return IMPOSSIBLE;
      throw e;
    }
  };
  try {
    switch (n.kind) {
      case 'Const':
      case 'TemplateData':
        return n.value as JValue;
      case 'Tuple':
        return new JTuple((n.items as Node[]).map(sub));
      case 'List':
        return (n.items as Node[]).map(sub);
      case 'Dict': {
        const d = new JDict();
        for (const [k, v] of n.pairs as Array<[Node, Node]>) {
          const kv = sub(k);
          d.set(kv, sub(v));
        }
        return d;
      }
      case 'CondExpr':
        if (truthy(sub(n.test as Node))) return sub(n.expr1 as Node);
        if (!n.expr2) return IMPOSSIBLE;
        return sub(n.expr2);
      case 'And': {
        const a = sub(n.left as Node);
        return truthy(a) ? sub(n.right as Node) : a;
      }
      case 'Or': {
        const a = sub(n.left as Node);
        return truthy(a) ? a : sub(n.right as Node);
      }
      case 'Not':
        return guarded(() => !truthy(sub(n.node as Node)));
      case 'Neg':
      case 'Pos':
        return guarded(() => unaryop(n.kind === 'Neg' ? 'neg' : 'pos', sub(n.node as Node)));
      case 'BinOp':
        return guarded(() => binop(n.op as BinOp, sub(n.left as Node), sub(n.right as Node), r));
      case 'Concat':
        return (n.nodes as Node[]).map((x) => pyStr(sub(x))).join('');
      case 'Compare':
        return guarded(() => {
          let a = sub(n.node as Node);
          for (const { op, expr } of n.ops as Array<{ op: string; expr: Node }>) {
            const b = sub(expr);
            if (!r.compare(op, a, b)) return false;
            a = b;
          }
          return true;
        });
      case 'Getattr':
        return guarded(() => r.getattr(sub(n.node as Node), n.attr as string));
      case 'Getitem':
        return guarded(() => {
          const obj = sub(n.node as Node);
          const arg = n.arg as Node;
          if (arg.kind !== 'Slice') return r.getitem(obj, sub(arg));
          const part = (x: Node | null | undefined): JValue => (x ? sub(x) : null);
          const start = part(arg.start);
          const stop = part(arg.stop);
          const step = part(arg.step);
          if (obj instanceof JUndef) throw obj.fail();
          try {
            return sliceValue(obj, start ?? undefined, stop ?? undefined, step ?? undefined);
          } catch (e) {
            if (e instanceof PyError && e.pyType === 'TypeError') return ciUndef(new JSlice(start, stop, step), obj);
            throw e;
          }
        });
      case 'Filter':
      case 'Test':
        if (!n.node) return IMPOSSIBLE;
        if (n.kind === 'Filter' ? !KNOWN_FILTERS.has(n.name as string) || CONTEXT_FILTERS.has(n.name as string) : !KNOWN_TESTS.has(n.name as string)) {
          return IMPOSSIBLE;
        }
        return guarded(() => {
          const value = sub(n.node as Node);
          const args = (n.args as Node[]).map(sub);
          const kwargs = (n.kwargs as Array<[string, Node]>).map(([k, x]) => [k, sub(x)] as [string, JValue]);
          // args_as_const: *args and **kwargs fold too, or the node is not constant.
          if (n.dynArgs) {
            const v = sub(n.dynArgs);
            if (!isIterable(v) || v instanceof JUndef) throw IMPOSSIBLE_SIGNAL;
            pushAll(args, r.list(v));
          }
          if (n.dynKwargs) {
            const v = sub(n.dynKwargs);
            if (!(v instanceof JDict)) throw IMPOSSIBLE_SIGNAL;
            for (const [k, x] of v.entries()) {
              if (typeof k !== 'string' || kwargs.some(([k2]) => k2 === k)) throw IMPOSSIBLE_SIGNAL;
              kwargs.push([k, x]);
            }
          }
          const a = { args, kwargs };
          return n.kind === 'Filter' ? r.callFilter(n.name as string, value, a) : r.callTest(n.name as string, value, a);
        });
      default:
        return IMPOSSIBLE;
    }
  } catch (e) {
    if (e === IMPOSSIBLE_SIGNAL) return IMPOSSIBLE;
    throw e;
  }
}
