/**
 * jinja2/nodes.py as one record type (`kind` names the Jinja node class),
 * with the context setting of assignment targets (set_ctx/can_assign) and the
 * child order Jinja's NodeVisitor walks, plus the scoping annotations the
 * compile pass adds (./idtracking.ts, ./compiler.ts).
 *
 * Residual differences: no node classes, fields or Node.as_const here; the
 * constant folding lives in ./optimizer.ts.
 */
import { JValue } from './values';


export type NodeKind =
  | 'Output' | 'If' | 'For' | 'Assign' | 'AssignBlock' | 'With' | 'FilterBlock' | 'ExprStmt' | 'Unsupported' | 'LoadTemplate'
  | 'Name' | 'NSRef' | 'Const' | 'TemplateData' | 'Tuple' | 'List' | 'Dict' | 'CondExpr' | 'And' | 'Or' | 'Not'
  | 'Neg' | 'Pos' | 'BinOp' | 'Concat' | 'Compare' | 'Getattr' | 'Getitem' | 'Slice' | 'Call' | 'Filter' | 'Test';

export interface Node {
  kind: NodeKind;
  pos: number;
  name?: string;
  ctx?: 'load' | 'store' | 'param';
  value?: JValue;
  items?: Node[];
  pairs?: Array<[Node, Node]>;
  node?: Node | null;
  left?: Node;
  right?: Node;
  op?: string;
  ops?: Array<{ op: string; expr: Node }>;
  attr?: string;
  arg?: Node;
  start?: Node | null;
  stop?: Node | null;
  step?: Node | null;
  args?: Node[];
  kwargs?: Array<[string, Node]>;
  dynArgs?: Node | null;
  dynKwargs?: Node | null;
  test?: Node | null;
  expr1?: Node;
  expr2?: Node | null;
  body?: Node[];
  elifs?: Node[];
  else_?: Node[];
  target?: Node;
  iter?: Node;
  recursive?: boolean;
  filter?: Node | null;
  targets?: Node[];
  values?: Node[];
  nodes?: Node[];
  // annotations from the compile pass
  ref?: string;
  loads?: Array<[string, Load]>;
  elseLoads?: Array<[string, Load]>;
  testLoads?: Array<[string, Load]>;
  testLocals?: Set<string>;
  extended?: boolean;
  loopRef?: string;
  soft?: boolean;
  toplevel?: boolean;
  konst?: boolean;
  outputKonst?: boolean;
}

export const STATEMENT_KEYWORDS = new Set([
  'for', 'if', 'block', 'extends', 'print', 'macro', 'include', 'from', 'import', 'set', 'with', 'autoescape',
]);
export const COMPARE_OPS = new Set(['eq', 'ne', 'lt', 'lteq', 'gt', 'gteq']);
export const CONST_NAMES = new Set(['true', 'false', 'True', 'False', 'none', 'None']);

export function setCtx(n: Node, ctx: 'load' | 'store' | 'param'): void {
  if (n.kind === 'Name') n.ctx = ctx;
  else if (n.kind === 'Tuple') {
    n.ctx = ctx;
    for (const i of n.items as Node[]) setCtx(i, ctx);
  }
}

export function canAssign(n: Node): boolean {
  if (n.kind === 'Name') return !CONST_NAMES.has(n.name as string);
  if (n.kind === 'NSRef') return true;
  if (n.kind === 'Tuple') return (n.items as Node[]).every(canAssign);
  return false;
}

export type Load = ['param', null] | ['resolve', string] | ['alias', string] | ['undefined', null];

export function exprChildren(n: Node): Node[] {
  switch (n.kind) {
    case 'Tuple':
    case 'List':
      return n.items as Node[];
    case 'Dict':
      return (n.pairs as Array<[Node, Node]>).flat();
    case 'CondExpr':
      return [n.test as Node, n.expr1 as Node, ...(n.expr2 ? [n.expr2] : [])];
    case 'And':
    case 'Or':
    case 'BinOp':
      return [n.left as Node, n.right as Node];
    case 'Not':
    case 'Neg':
    case 'Pos':
    case 'Getattr':
      return [n.node as Node];
    case 'Concat':
      return n.nodes as Node[];
    case 'Compare':
      return [n.node as Node, ...(n.ops as Array<{ expr: Node }>).map((o) => o.expr)];
    case 'Getitem':
      return [n.node as Node, n.arg as Node];
    case 'Slice':
      return [n.start, n.stop, n.step].filter((x): x is Node => !!x);
    case 'Call':
    case 'Filter':
    case 'Test':
      return [
        ...(n.node ? [n.node] : []),
        ...(n.args as Node[]),
        ...(n.kwargs as Array<[string, Node]>).map((k) => k[1]),
        ...(n.dynArgs ? [n.dynArgs] : []),
        ...(n.dynKwargs ? [n.dynKwargs] : []),
      ];
    default:
      return [];
  }
}

/** All child nodes in Jinja's field order (generic NodeVisitor traversal). */
export function stmtOrExprChildren(n: Node): Node[] {
  switch (n.kind) {
    case 'Output':
      return n.nodes as Node[];
    case 'If':
      return [n.test as Node, ...(n.body as Node[]), ...(n.elifs as Node[]), ...(n.else_ as Node[])];
    case 'For':
      return [n.target as Node, n.iter as Node, ...(n.body as Node[]), ...(n.else_ as Node[]), ...(n.test ? [n.test] : [])];
    case 'Assign':
      return [n.target as Node, n.node as Node];
    case 'AssignBlock':
      return [n.target as Node, ...(n.filter ? [n.filter] : []), ...(n.body as Node[])];
    case 'With':
      return [...(n.targets as Node[]), ...(n.values as Node[]), ...(n.body as Node[])];
    case 'FilterBlock':
      return [...(n.body as Node[]), n.filter as Node];
    case 'ExprStmt':
    case 'LoadTemplate':
      return [n.node as Node];
    default:
      return exprChildren(n);
  }
}
