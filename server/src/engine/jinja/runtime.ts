/**
 * What Jinja's generated Python does at render time (jinja2/compiler.py's
 * output plus jinja2/runtime.py: Context, LoopContext, the output buffer) as a
 * tree-walking renderer: output, if/elif/else, for (else, loop filter, tuple
 * targets, loop.*), set (also block set and namespace attributes), do, with,
 * filter blocks, whitespace control; attribute and item lookup as
 * Environment.getattr/getitem (SandboxedEnvironment's checks in current
 * cloud-init); calls, filters and tests.
 *
 * Residual differences: macros, call blocks, blocks, recursive loops and
 * autoescape are refused as unsupported; include/import/extends raise the
 * TypeError cloud-init's loader-less environment raises.
 */
import { FOLDED_KINDS, IMPOSSIBLE, asConst, hasSafeRepr } from './optimizer';
import { pushAll } from '../arrays';
import { BinOp, binop, unaryop } from './arith';
import { callBuiltin } from './callargs';

import { KNOWN_FILTERS, KNOWN_TESTS, makeGlobals } from './defaults';
import { JinjaUnsupportedError, LIMITS, typeError, unsupported } from './errors';
import { FILTERS } from './filters';
import { pyGetattr } from './getattr';
import { Load, Node } from './nodes';
import { hasPrivateAttr } from './pyattrs';
import { FAIL, sliceValue, trySubscript } from './slicing';
import { TESTS } from './tests';
import { CallArgs, CmpOp, JBytes, JDict, JDictView, JFunc, JGen, JJoiner, JLoop, JMarkup, JNamespace, JRange, JTuple, JUndef, JValue, MISSING, Slot, ciUndef, hashKey, isIterable, isNumber, pyEq, pyOrder, pyStr, toBig, truthy, typeName, unsafeUndef } from './values';
import { PyError } from '../py/errors';
import { pyStrRepr } from '../py/repr';
import { codePoints } from '../py/str';


export class Scope {
  constructor(
    readonly locals: Map<string, Slot>,
    readonly localNames: Set<string> | null = null,
    readonly outer: Scope | null = null,
  ) {}
  get(ref: string): Slot {
    if (!this.outer || (this.localNames as Set<string>).has(ref)) return this.locals.has(ref) ? (this.locals.get(ref) as Slot) : MISSING;
    return this.outer.get(ref);
  }
  set(ref: string, v: Slot): void {
    if (!this.outer || (this.localNames as Set<string>).has(ref)) this.locals.set(ref, v);
    else this.outer.set(ref, v);
  }
}

export class Renderer {
  steps = 0;
  /** Things the rendered text cannot show faithfully (e.g. random choices). */
  readonly notes: string[] = [];
  outLen = 0;
  private bufs: string[][] = [[]];
  /** A non-str item yielded at top level: "".join fails only once the whole template has run. */
  private deferred: PyError | null = null;
  private ctxVars = new Map<string, JValue>();
  private readonly globals: Map<string, JValue>;

  constructor(
    readonly params: JDict,
    private readonly lineOf: (pos: number) => number,
    /** Current cloud-init renders in Jinja2's SandboxedEnvironment; 22.4 in a plain Environment. */
    readonly sandbox = false,
  ) {
    this.globals = makeGlobals(sandbox);
  }

  step(n = 1): void {
    this.steps += n;
    if (this.steps > LIMITS.maxSteps) throw unsupported(`more than ${LIMITS.maxSteps} loop iterations / produced items (limit)`);
  }

  /**
   * Where each piece of the top-level output came from (template data or an expression), when
   * asked for: lets an editor point a problem in the rendered text back to the template line.
   */
  origins: Array<{ out: number; src: number; data: boolean }> | null = null;
  private topLen = 0;

  private origin(n: Node, ahead: number): void {
    if (this.origins && this.bufs.length === 1) this.origins.push({ out: this.topLen + ahead, src: n.pos, data: n.kind === 'TemplateData' });
  }

  private write(s: string): void {
    if (this.bufs.length === 1) this.topLen += s.length;
    this.outLen += s.length;
    if (this.outLen > LIMITS.maxOutput) throw unsupported(`output larger than ${LIMITS.maxOutput} characters (limit)`);
    this.bufs[this.bufs.length - 1].push(s);
  }

  private writeYielded(v: JValue): void {
    if (typeof v === 'string') this.write(v);
    else if (v instanceof JMarkup) this.write(v.s);
    else {
      const buf = this.bufs[this.bufs.length - 1];
      const err = typeError(`sequence item ${buf.length}: expected str instance, ${typeName(v)} found`);
      if (this.bufs.length > 1) throw err;
      this.deferred ??= err;
      buf.push('');
    }
  }

  render(body: Node[], rootLoads: Array<[string, Load]>): string {
    const sc = new Scope(new Map());
    this.enterLoads(rootLoads, sc);
    this.execBlock(body, sc);
    if (this.deferred) throw this.deferred;
    return this.bufs[0].join('');
  }

  private resolve(name: string): Slot {
    if (this.ctxVars.has(name)) return this.ctxVars.get(name) as JValue;
    const p = this.params.map.get('s' + name);
    if (p) return p.v;
    if (this.globals.has(name)) return this.globals.get(name) as JValue;
    return MISSING;
  }

  private enterLoads(loads: Array<[string, Load]> | undefined, sc: Scope): void {
    for (const [ref, load] of loads ?? []) {
      if (load[0] === 'resolve') sc.set(ref, this.resolve(load[1]));
      else if (load[0] === 'alias') sc.set(ref, sc.get(load[1]));
      else if (load[0] === 'undefined') sc.set(ref, MISSING);
    }
  }

  private leaveLoads(loads: Array<[string, Load]> | undefined, sc: Scope): void {
    for (const [ref] of loads ?? []) sc.set(ref, MISSING);
  }

  private execBlock(nodes: Node[], sc: Scope): void {
    for (const n of nodes) this.exec(n, sc);
  }

  private exec(n: Node, sc: Scope): void {
    try {
      this.execInner(n, sc);
    } catch (e) {
      if ((e instanceof PyError && e.pos === undefined) || (e instanceof JinjaUnsupportedError && e.offset === undefined)) {
        if (e instanceof PyError) e.pos = n.pos;
        else e.offset = n.pos;
      }
      throw e;
    }
  }

  private execInner(n: Node, sc: Scope): void {
    switch (n.kind) {
      case 'Output': {
        let group: string[] | null = null;
        let groupLen = 0;
        for (const c of n.nodes as Node[]) {
          let folded: string | null = null;
          if (c.kind === 'TemplateData') folded = c.value as string;
          else if (c.kind !== 'Name' && c.kind !== 'Call' && c.outputKonst !== false) {
            // as_const only sees constants, so whether it succeeds never changes: remember failures
            try {
              const v = this.constEval(c);
              if (v !== IMPOSSIBLE) folded = pyStr(v);
            } catch (e) {
              if (!(e instanceof PyError)) throw e;
            }
            if (folded === null) c.outputKonst = false;
          }
          if (folded !== null) {
            this.origin(c, groupLen);
            groupLen += folded.length;
            (group ??= []).push(folded);
            continue;
          }
          if (group) {
            this.write(group.join(''));
            group = null;
            groupLen = 0;
          }
          this.origin(c, 0);
          this.write(pyStr(this.eval(c, sc)));
        }
        if (group) this.write(group.join(''));
        return;
      }
      case 'If': {
        if (truthy(this.eval(n.test as Node, sc))) return this.execBlock(n.body as Node[], sc);
        for (const e of n.elifs as Node[]) {
          if (truthy(this.eval(e.test as Node, sc))) return this.execBlock(e.body as Node[], sc);
        }
        return this.execBlock(n.else_ as Node[], sc);
      }
      case 'For':
        return this.execFor(n, sc);
      case 'Assign': {
        const target = n.target as Node;
        if (target.kind === 'NSRef') {
          const ns = sc.get(target.ref as string);
          if (!(ns instanceof JNamespace)) throw new PyError('TemplateRuntimeError', 'cannot assign attribute on non-namespace object');
          ns.attrs.set(target.attr as string, this.eval(n.node as Node, sc));
          return;
        }
        const v = this.eval(n.node as Node, sc);
        this.assign(target, v, sc);
        if (n.toplevel) this.exportTarget(target, sc);
        return;
      }
      case 'AssignBlock': {
        this.enterLoads(n.loads, sc);
        this.bufs.push([]);
        let text: string;
        try {
          this.execBlock(n.body as Node[], sc);
        } finally {
          text = (this.bufs.pop() as string[]).join('');
        }
        const target = n.target as Node;
        let ns: Slot = null;
        if (target.kind === 'NSRef') {
          ns = sc.get(target.ref as string);
          if (!(ns instanceof JNamespace)) throw new PyError('TemplateRuntimeError', 'cannot assign attribute on non-namespace object');
        }
        const v = n.filter ? this.applyFilter(n.filter, text, sc) : text;
        if (ns instanceof JNamespace) ns.attrs.set(target.attr as string, v);
        else {
          this.assign(target, v, sc);
          if (n.toplevel) this.exportTarget(target, sc);
        }
        this.leaveLoads(n.loads, sc);
        return;
      }
      case 'With': {
        this.enterLoads(n.loads, sc);
        const targets = n.targets as Node[];
        const values = n.values as Node[];
        for (let i = 0; i < targets.length; i++) this.assign(targets[i], this.eval(values[i], sc), sc);
        this.execBlock(n.body as Node[], sc);
        this.leaveLoads(n.loads, sc);
        return;
      }
      case 'FilterBlock': {
        this.enterLoads(n.loads, sc);
        this.bufs.push([]);
        let text: string;
        try {
          this.execBlock(n.body as Node[], sc);
        } finally {
          text = (this.bufs.pop() as string[]).join('');
        }
        this.origin(n, 0);
        this.writeYielded(this.applyFilter(n.filter as Node, text, sc));
        this.leaveLoads(n.loads, sc);
        return;
      }
      case 'ExprStmt':
        this.eval(n.node as Node, sc);
        return;
      case 'LoadTemplate':
        // include/import/from/extends: cloud-init's environment has no loader.
        this.eval(n.node as Node, sc);
        throw typeError('no loader for this environment specified');
      default:
        throw unsupported(`statement ${n.kind}`, n.pos);
    }
  }

  private exportTarget(target: Node, sc: Scope): void {
    if (target.kind === 'Name') {
      const v = sc.get(target.ref as string);
      if (v !== MISSING) this.ctxVars.set(target.name as string, v);
    } else if (target.kind === 'Tuple') for (const t of target.items as Node[]) this.exportTarget(t, sc);
  }

  private execFor(n: Node, sc: Scope): void {
    const iterable = this.eval(n.iter as Node, sc);
    let source: JValue = iterable;
    if (n.test) source = this.loopFilter(n, iterable, sc);
    let untouched = true;
    const body = n.body as Node[];
    if (n.extended) {
      const loop = new JLoop(source, this);
      for (;;) {
        const x = loop.next();
        if (x.done) break;
        this.step();
        this.assign(n.target as Node, x.value, sc);
        sc.set(n.loopRef as string, loop);
        this.enterLoads(n.loads, sc);
        this.execBlock(body, sc);
        untouched = false;
      }
    } else {
      const it = this.iter(source);
      for (let x = it.next(); !x.done; x = it.next()) {
        this.assign(n.target as Node, x.value, sc);
        this.enterLoads(n.loads, sc);
        this.execBlock(body, sc);
        untouched = false;
      }
    }
    this.leaveLoads(n.loads, sc);
    if ((n.else_ as Node[]).length && untouched) {
      this.enterLoads(n.elseLoads, sc);
      this.execBlock(n.else_ as Node[], sc);
      this.leaveLoads(n.elseLoads, sc);
    }
  }

  private loopFilter(n: Node, iterable: JValue, sc: Scope): JGen {
    const self = this;
    function* gen(): Generator<JValue> {
      const fsc = new Scope(new Map(), n.testLocals, sc);
      self.enterLoads(n.testLoads, fsc);
      const it = self.iter(iterable);
      for (let x = it.next(); !x.done; x = it.next()) {
        self.assign(n.target as Node, x.value, fsc);
        if (truthy(self.eval(n.test as Node, fsc))) yield self.targetValue(n.target as Node, fsc);
      }
    }
    return new JGen(gen());
  }

  private targetValue(t: Node, sc: Scope): JValue {
    if (t.kind === 'Name') {
      const v = sc.get(t.ref as string);
      return v === MISSING ? ciUndef(t.name as string) : v;
    }
    return new JTuple((t.items as Node[]).map((x) => this.targetValue(x, sc)));
  }

  private assign(t: Node, v: JValue, sc: Scope): void {
    if (t.kind === 'Name') {
      sc.set(t.ref as string, v);
      return;
    }
    const targets = t.items as Node[];
    const values = this.unpack(v, targets.length);
    for (let i = 0; i < targets.length; i++) this.assign(targets[i], values[i], sc);
  }

  unpack(v: JValue, count: number): JValue[] {
    if (Array.isArray(v) || v instanceof JTuple) {
      const items = Array.isArray(v) ? v : v.items;
      if (items.length > count) throw new PyError('ValueError', `too many values to unpack (expected ${count})`);
      if (items.length < count) throw new PyError('ValueError', `not enough values to unpack (expected ${count}, got ${items.length})`);
      return [...items];
    }
    if (!isIterable(v)) throw typeError(`cannot unpack non-iterable ${typeName(v)} object`);
    const it = this.iter(v);
    const out: JValue[] = [];
    for (let i = 0; i <= count; i++) {
      const x = it.next();
      if (x.done) break;
      if (i === count) throw new PyError('ValueError', `too many values to unpack (expected ${count})`);
      out.push(x.value);
    }
    if (out.length < count) throw new PyError('ValueError', `not enough values to unpack (expected ${count}, got ${out.length})`);
    return out;
  }

  /** Python iter(v), counting produced items against the step limit. */
  iter(v: JValue): Iterator<JValue> {
    const self = this;
    if (v instanceof JGen) return v.it;
    if (v instanceof JLoop) throw unsupported('iterating a loop object');
    if (v instanceof JMarkup) v = v.s;
    if (typeof v === 'string') return countIt(codePoints(v)[Symbol.iterator]());
    if (Array.isArray(v)) {
      const list = v;
      return (function* () {
        for (let i = 0; i < list.length; i++) {
          self.step();
          yield list[i];
        }
      })();
    }
    if (v instanceof JTuple) return countIt(v.items[Symbol.iterator]());
    if (v instanceof JDict || v instanceof JDictView) {
      const d = v instanceof JDict ? v : v.dict;
      const kind = v instanceof JDict ? 'keys' : v.kind;
      return (function* () {
        const size = d.size;
        const entries = [...d.map.values()];
        for (const e of entries) {
          if (d.size !== size) throw new PyError('RuntimeError', 'dictionary changed size during iteration');
          self.step();
          yield kind === 'keys' ? e.k : kind === 'values' ? e.v : new JTuple([e.k, e.v]);
        }
        if (d.size !== size) throw new PyError('RuntimeError', 'dictionary changed size during iteration');
      })();
    }
    if (v instanceof JRange) {
      const r = v;
      return (function* () {
        const n = r.length;
        for (let i = 0n; i < n; i++) {
          self.step();
          yield r.at(i);
        }
      })();
    }
    if (v instanceof JUndef) return [][Symbol.iterator]();
    if (v instanceof JBytes) return countIt([...v.bytes].map((b) => BigInt(b))[Symbol.iterator]());
    throw typeError(`'${typeName(v)}' object is not iterable`);
    function countIt(it: Iterator<JValue>): Iterator<JValue> {
      return (function* () {
        for (let x = it.next(); !x.done; x = it.next()) {
          self.step();
          yield x.value;
        }
      })();
    }
  }

  /** list(iter(v)) */
  list(v: JValue): JValue[] {
    const out: JValue[] = [];
    const it = this.iter(v);
    for (let x = it.next(); !x.done; x = it.next()) out.push(x.value);
    return out;
  }

  eval(n: Node, sc: Scope): JValue {
    if (n.konst !== false && FOLDED_KINDS.has(n.kind)) {
      let v: JValue | typeof IMPOSSIBLE = IMPOSSIBLE;
      try {
        v = this.constEval(n);
      } catch (e) {
        if (!(e instanceof PyError)) throw e;
      }
      if (v !== IMPOSSIBLE && hasSafeRepr(v)) return v;
      n.konst = false;
    }
    try {
      return this.evalInner(n, sc);
    } catch (e) {
      if (e instanceof PyError && e.pos === undefined) e.pos = n.pos;
      else if (e instanceof JinjaUnsupportedError && e.offset === undefined) e.offset = n.pos;
      throw e;
    }
  }

  private evalInner(n: Node, sc: Scope): JValue {
    switch (n.kind) {
      case 'Const':
      case 'TemplateData':
        return n.value as JValue;
      case 'Name': {
        const v = sc.get(n.ref as string);
        return v === MISSING ? ciUndef(n.name as string) : v;
      }
      case 'Tuple':
        return new JTuple((n.items as Node[]).map((x) => this.eval(x, sc)));
      case 'List':
        return (n.items as Node[]).map((x) => this.eval(x, sc));
      case 'Dict': {
        const d = new JDict();
        for (const [k, v] of n.pairs as Array<[Node, Node]>) {
          const kv = this.eval(k, sc);
          const vv = this.eval(v, sc);
          d.set(kv, vv);
        }
        return d;
      }
      case 'CondExpr':
        if (truthy(this.eval(n.test as Node, sc))) return this.eval(n.expr1 as Node, sc);
        if (n.expr2) return this.eval(n.expr2, sc);
        return new JUndef(
          'plain',
          null,
          MISSING,
          `the inline if-expression on line ${this.lineOf(n.pos)} evaluated to false and no else section was defined.`,
        );
      case 'And': {
        const a = this.eval(n.left as Node, sc);
        return truthy(a) ? this.eval(n.right as Node, sc) : a;
      }
      case 'Or': {
        const a = this.eval(n.left as Node, sc);
        return truthy(a) ? a : this.eval(n.right as Node, sc);
      }
      case 'Not':
        return !truthy(this.eval(n.node as Node, sc));
      case 'Neg':
      case 'Pos':
        return unaryop(n.kind === 'Neg' ? 'neg' : 'pos', this.eval(n.node as Node, sc));
      case 'BinOp': {
        const a = this.eval(n.left as Node, sc);
        const b = this.eval(n.right as Node, sc);
        return binop(n.op as BinOp, a, b, this);
      }
      case 'Concat': {
        const vals = (n.nodes as Node[]).map((x) => this.eval(x, sc));
        const s = vals.map((v) => pyStr(v)).join('');
        if (s.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
        return s;
      }
      case 'Compare': {
        let a = this.eval(n.node as Node, sc);
        for (const { op, expr } of n.ops as Array<{ op: string; expr: Node }>) {
          const b = this.eval(expr, sc);
          if (!this.compare(op, a, b)) return false;
          a = b;
        }
        return true;
      }
      case 'Getattr':
        return this.getattr(this.eval(n.node as Node, sc), n.attr as string);
      case 'Getitem': {
        const obj = this.eval(n.node as Node, sc);
        const arg = n.arg as Node;
        if (arg.kind === 'Slice') {
          const ev = (x: Node | null | undefined) => (x ? this.eval(x, sc) : undefined);
          const start = ev(arg.start);
          const stop = ev(arg.stop);
          const step = ev(arg.step);
          return sliceValue(obj, start, stop, step);
        }
        return this.getitem(obj, this.eval(arg, sc));
      }
      case 'Call': {
        const callee = this.eval(n.node as Node, sc);
        return this.call(callee, this.evalArgs(n, sc));
      }
      case 'Filter':
        return this.applyFilter(n, this.eval(n.node as Node, sc), sc);
      case 'Test':
        return this.applyTest(n, sc);
      case 'Slice':
        throw typeError('slice outside subscript');
      default:
        throw unsupported(`expression ${n.kind}`, n.pos);
    }
  }

  /** nodes.Node.as_const (./optimizer.ts). */
  constEval(n: Node): JValue | typeof IMPOSSIBLE {
    return asConst(this, n);
  }

  compare(op: string, a: JValue, b: JValue): boolean {
    switch (op) {
      case 'eq':
        return pyEq(a, b);
      case 'ne':
        return !pyEq(a, b);
      case 'in':
        return this.contains(b, a);
      case 'notin':
        return !this.contains(b, a);
      default:
        return pyOrder(op as CmpOp, a, b);
    }
  }

  /** Python `item in container`. */
  contains(container: JValue, item: JValue): boolean {
    if (container instanceof JUndef) return false;
    if (typeof container === 'string' || container instanceof JMarkup) {
      const s = typeof container === 'string' ? container : container.s;
      const sub = typeof item === 'string' ? item : item instanceof JMarkup ? item.s : null;
      if (sub === null) throw typeError(`'in <string>' requires string as left operand, not ${typeName(item)}`);
      return s.includes(sub);
    }
    if (Array.isArray(container) || container instanceof JTuple) {
      const items = Array.isArray(container) ? container : container.items;
      return items.some((x) => x === item || pyEq(x, item));
    }
    if (container instanceof JDict) return container.map.has(hashKey(item));
    if (container instanceof JDictView) {
      if (container.kind === 'keys') return container.dict.map.has(hashKey(item));
      if (container.kind === 'values') return container.dict.values().some((x) => x === item || pyEq(x, item));
      if (!(item instanceof JTuple) || item.items.length !== 2) return false;
      const e = container.dict.map.get(hashKey(item.items[0]));
      return !!e && (e.v === item.items[1] || pyEq(e.v, item.items[1]));
    }
    if (container instanceof JRange) {
      if (!isNumber(item)) return false;
      let x: bigint;
      if (typeof item === 'number') {
        if (!Number.isInteger(item)) return false;
        x = BigInt(item);
      } else x = toBig(item);
      const r = container;
      if (r.step > 0n ? x < r.start || x >= r.stop : x > r.start || x <= r.stop) return false;
      return (x - r.start) % r.step === 0n;
    }
    if (container instanceof JGen) {
      for (let x = container.it.next(); !x.done; x = container.it.next()) {
        this.step();
        if (x.value === item || pyEq(x.value, item)) return true;
      }
      return false;
    }
    if (container instanceof JLoop || container instanceof JBytes) throw unsupported(`'in' on a ${typeName(container)}`);
    throw typeError(`argument of type '${typeName(container)}' is not iterable`);
  }

  /**
   * environment.getattr (sandboxed in current cloud-init): Python's getattr
   * first, then the item; an underscore name is an ordinary name, except
   * that a real Python attribute of that name is an object this tool cannot
   * show (22.4) or an unsafe undefined (the sandbox).
   */
  getattr(obj: JValue, attr: string): JValue {
    const priv = this.privateAttr(obj, attr);
    if (priv !== MISSING) return priv;
    if (obj instanceof JUndef) throw obj.fail();
    const a = attr.startsWith('_') ? (obj instanceof JNamespace ? pyGetattr(obj, attr, this) : MISSING) : this.safe(obj, attr, pyGetattr(obj, attr, this));
    if (a !== MISSING) return a;
    const r = trySubscript(obj, attr);
    if (r !== FAIL) return r;
    return ciUndef(attr, obj);
  }

  /** environment.getitem (sandboxed in current cloud-init) */
  getitem(obj: JValue, key: JValue): JValue {
    // obj[key] comes first, and an undefined's __getitem__ raises.
    if (obj instanceof JUndef) throw obj.fail();
    const r = trySubscript(obj, key);
    if (r !== FAIL) return r;
    if (typeof key === 'string') {
      const priv = this.privateAttr(obj, key);
      if (priv !== MISSING) return priv;
      const a = key.startsWith('_') ? (obj instanceof JNamespace ? pyGetattr(obj, key, this) : MISSING) : this.safe(obj, key, pyGetattr(obj, key, this));
      if (a !== MISSING) return a;
    }
    return ciUndef(key, obj);
  }

  /**
   * An underscore attribute the Python value really has: the sandbox's unsafe
   * undefined, or (plain Environment, 22.4) a Python object this tool cannot
   * reproduce. MISSING when the value has no such attribute.
   */
  privateAttr(obj: JValue, attr: string): JValue | typeof MISSING {
    if (!attr.startsWith('_')) return MISSING;
    if (obj instanceof JNamespace) {
      if (attr !== '__class__') return MISSING;
    } else if (!hasPrivateAttr(typeName(obj), attr)) return MISSING;
    if (this.sandbox) return unsafeUndef(obj, attr);
    throw unsupported(`the Python attribute ${pyStrRepr(attr)} of a ${typeName(obj)} value (Python object internals)`);
  }

  /** Python's getattr alone (the attr filter), with the sandbox's check. */
  getattrOnly(obj: JValue, attr: string): JValue | typeof MISSING {
    return this.safe(obj, attr, pyGetattr(obj, attr, this));
  }

  /** SandboxedEnvironment.is_safe_attribute for the non-underscore names it refuses. */
  private safe(obj: JValue, attr: string, v: JValue | typeof MISSING): JValue | typeof MISSING {
    if (!this.sandbox || v === MISSING) return v;
    if ((obj instanceof JGen && (attr === 'gi_frame' || attr === 'gi_code')) || (obj instanceof JFunc && obj.typeName === 'type' && attr === 'mro')) {
      return unsafeUndef(obj, attr);
    }
    return v;
  }

  /** context.call */
  call(callee: JValue, a: CallArgs): JValue {
    if (callee instanceof JUndef) throw callee.fail();
    if (callee instanceof JFunc) {
      if (!callee.call) throw unsupported(`calling ${callee.name}`);
      return callee.call(a, this);
    }
    if (callee instanceof JJoiner) {
      if (a.args.length || a.kwargs.length) throw unsupported('joiner called with arguments');
      if (!callee.used) {
        callee.used = true;
        return '';
      }
      return callee.sep;
    }
    if (callee instanceof JLoop) throw typeError("The loop must have the 'recursive' marker to be called recursively.");
    throw typeError(`'${typeName(callee)}' object is not callable`);
  }

  /** A call's arguments, with `*args` and `**kwargs` spread as Python spreads them. */
  evalArgs(n: Node, sc: Scope): CallArgs {
    const args = (n.args as Node[]).map((x) => this.eval(x, sc));
    const kwargs = (n.kwargs as Array<[string, Node]>).map(([k, x]) => [k, this.eval(x, sc)] as [string, JValue]);
    if (n.dynArgs) {
      const v = this.eval(n.dynArgs, sc);
      if (!isIterable(v) || v instanceof JUndef) throw unsupported('*args of a value that is not a sequence (Python words the TypeError after the callee)', n.dynArgs.pos);
      pushAll(args, this.list(v));
    }
    if (n.dynKwargs) {
      const v = this.eval(n.dynKwargs, sc);
      if (!(v instanceof JDict)) throw unsupported('**kwargs of a value that is not a dict (Python words the TypeError after the callee)', n.dynKwargs.pos);
      for (const [k, x] of v.entries()) {
        if (typeof k !== 'string') throw unsupported('**kwargs with a key that is not a string', n.dynKwargs.pos);
        if (kwargs.some(([k2]) => k2 === k)) throw unsupported('**kwargs repeating a keyword argument', n.dynKwargs.pos);
        kwargs.push([k, x]);
      }
    }
    return { args, kwargs };
  }

  applyFilter(n: Node, value: JValue, sc: Scope): JValue {
    const { args, kwargs } = this.evalArgs(n, sc);
    const name = n.name as string;
    if (!KNOWN_FILTERS.has(name)) throw new PyError('TemplateRuntimeError', `No filter named ${pyStrRepr(name)} found.`);
    return this.callFilter(name, value, { args, kwargs });
  }

  callFilter(name: string, value: JValue, a: CallArgs): JValue {
    const f = FILTERS[name];
    if (!f) {
      if (KNOWN_FILTERS.has(name)) throw unsupported(`the ${pyStrRepr(name)} filter`);
      throw new PyError('TemplateRuntimeError', `No filter named ${pyStrRepr(name)}.`);
    }
    return callBuiltin(f, [value, ...a.args], a.kwargs, this);
  }

  private applyTest(n: Node, sc: Scope): JValue {
    const value = this.eval(n.node as Node, sc);
    const { args, kwargs } = this.evalArgs(n, sc);
    const name = n.name as string;
    if (!KNOWN_TESTS.has(name)) throw new PyError('TemplateRuntimeError', `No test named ${pyStrRepr(name)} found.`);
    return this.callTest(name, value, { args, kwargs });
  }

  callTest(name: string, value: JValue, a: CallArgs): JValue {
    const t = TESTS[name];
    if (!t) {
      if (KNOWN_TESTS.has(name)) throw unsupported(`the ${pyStrRepr(name)} test`);
      throw new PyError('TemplateRuntimeError', `No test named ${pyStrRepr(name)}.`);
    }
    return callBuiltin(t, [value, ...a.args], a.kwargs, this);
  }
}
