/**
 * jinja2/idtracking.py (symbol tracking per frame) plus the frame handling
 * of jinja2/compiler.py, run as a pass that annotates the tree with the Python
 * local each name compiles to and the loads done when a frame is entered, so
 * that scoping matches Jinja (e.g. sets inside loops do not leak).
 *
 * Residual differences: none known inside the supported statements.
 */
import { Load, Node, exprChildren, stmtOrExprChildren } from './nodes';


export class Symbols {
  readonly level: number;
  refs = new Map<string, string>();
  loads = new Map<string, Load>();
  stores = new Set<string>();
  constructor(
    readonly parent: Symbols | null = null,
    level?: number,
  ) {
    this.level = level ?? (parent ? parent.level + 1 : 0);
  }
  private defineRef(name: string, load?: Load): string {
    const ident = `l_${this.level}_${name}`;
    this.refs.set(name, ident);
    if (load) this.loads.set(ident, load);
    return ident;
  }
  findRef(name: string): string | null {
    return this.refs.get(name) ?? (this.parent ? this.parent.findRef(name) : null);
  }
  ref(name: string): string {
    const r = this.findRef(name);
    if (r === null) throw new Error(`Tried to resolve a name to a reference that was unknown to the frame (${name})`);
    return r;
  }
  copy(): Symbols {
    const rv = new Symbols(this.parent, this.level);
    rv.refs = new Map(this.refs);
    rv.loads = new Map(this.loads);
    rv.stores = new Set(this.stores);
    return rv;
  }
  store(name: string): void {
    this.stores.add(name);
    if (!this.refs.has(name)) {
      if (this.parent) {
        const outer = this.parent.findRef(name);
        if (outer !== null) {
          this.defineRef(name, ['alias', outer]);
          return;
        }
      }
      this.defineRef(name, ['undefined', null]);
    }
  }
  declareParameter(name: string): string {
    this.stores.add(name);
    return this.defineRef(name, ['param', null]);
  }
  load(name: string): void {
    if (this.findRef(name) === null) this.defineRef(name, ['resolve', name]);
  }
  branchUpdate(branches: Symbols[]): void {
    const stores = new Map<string, number>();
    for (const b of branches) {
      for (const t of b.stores) {
        if (this.stores.has(t)) continue;
        stores.set(t, (stores.get(t) ?? 0) + 1);
      }
    }
    for (const b of branches) {
      for (const [k, v] of b.refs) this.refs.set(k, v);
      for (const [k, v] of b.loads) this.loads.set(k, v);
      for (const s of b.stores) this.stores.add(s);
    }
    for (const [name, count] of stores) {
      if (count === branches.length) continue;
      const target = this.findRef(name) as string;
      if (this.parent) {
        const outer = this.parent.findRef(name);
        if (outer !== null) {
          this.loads.set(target, ['alias', outer]);
          continue;
        }
      }
      this.loads.set(target, ['resolve', name]);
    }
  }
}

/** FrameSymbolVisitor */
export function symVisit(sym: { s: Symbols }, n: Node, storeAsParam = false): void {
  switch (n.kind) {
    case 'Name':
      if (storeAsParam || n.ctx === 'param') sym.s.declareParameter(n.name as string);
      else if (n.ctx === 'store') sym.s.store(n.name as string);
      else sym.s.load(n.name as string);
      return;
    case 'NSRef':
      sym.s.load(n.name as string);
      return;
    case 'If': {
      symVisit(sym, n.test as Node);
      const original = sym.s;
      const inner = (nodes: Node[]): Symbols => {
        const rv = original.copy();
        sym.s = rv;
        for (const x of nodes) symVisit(sym, x);
        sym.s = original;
        return rv;
      };
      const b = inner(n.body as Node[]);
      const e = inner(n.elifs as Node[]);
      const el = inner(n.else_ as Node[]);
      sym.s.branchUpdate([b, e, el]);
      return;
    }
    case 'Assign':
      symVisit(sym, n.node as Node);
      symVisit(sym, n.target as Node);
      return;
    case 'For':
      symVisit(sym, n.iter as Node);
      return;
    case 'AssignBlock':
      symVisit(sym, n.target as Node);
      return;
    case 'With':
      for (const v of n.values as Node[]) symVisit(sym, v);
      return;
    case 'FilterBlock':
      symVisit(sym, n.filter as Node);
      return;
    case 'Output':
      for (const x of n.nodes as Node[]) symVisit(sym, x);
      return;
    case 'ExprStmt':
    case 'LoadTemplate':
      symVisit(sym, n.node as Node);
      return;
    case 'Unsupported':
    case 'TemplateData':
    case 'Const':
      return;
    default:
      for (const c of exprChildren(n)) symVisit(sym, c, storeAsParam);
  }
}

/** RootVisitor */
export function analyze(symbols: Symbols, n: Node | Node[], forBranch?: 'body' | 'else' | 'test'): void {
  const sym = { s: symbols };
  if (Array.isArray(n)) {
    for (const c of n) symVisit(sym, c);
    return;
  }
  switch (n.kind) {
    case 'For':
      if (forBranch === 'test') {
        symVisit(sym, n.target as Node, true);
        if (n.test) symVisit(sym, n.test);
        return;
      }
      if (forBranch === 'else') {
        for (const c of n.else_ as Node[]) symVisit(sym, c);
        return;
      }
      symVisit(sym, n.target as Node, true);
      for (const c of n.body as Node[]) symVisit(sym, c);
      return;
    case 'AssignBlock':
      for (const c of n.body as Node[]) symVisit(sym, c);
      return;
    case 'With':
      for (const t of n.targets as Node[]) symVisit(sym, t);
      for (const c of n.body as Node[]) symVisit(sym, c);
      return;
    case 'FilterBlock':
      for (const c of n.body as Node[]) symVisit(sym, c);
      symVisit(sym, n.filter as Node);
      return;
    default:
      throw new Error(`Cannot find symbols for ${n.kind}`);
  }
}

export class Frame {
  symbols: Symbols;
  toplevel = false;
  rootlevel = false;
  loopFrame = false;
  blockFrame = false;
  softFrame = false;
  constructor(parent: Frame | null) {
    this.symbols = new Symbols(parent ? parent.symbols : null);
  }
  inner(): Frame {
    return new Frame(this);
  }
  soft(): Frame {
    const rv = Object.create(Frame.prototype) as Frame;
    Object.assign(rv, this);
    rv.symbols = this.symbols.copy();
    rv.rootlevel = false;
    rv.softFrame = true;
    return rv;
  }
}

/** UndeclaredNameVisitor for a single name. */
export function findUndeclared(nodes: Node[], name: string): boolean {
  let names = new Set([name]);
  let found = false;
  const visit = (n: Node): boolean => {
    if (n.kind === 'Name') {
      if (n.ctx === 'load' && names.has(n.name as string)) {
        found = true;
        return true;
      }
      names.delete(n.name as string);
      if (!names.size) names = new Set();
      return false;
    }
    for (const c of stmtOrExprChildren(n)) if (visit(c)) return true;
    return false;
  };
  for (const n of nodes) if (visit(n)) break;
  return found;
}
