/**
 * The compile-time side of jinja2/compiler.py: the checks Jinja makes while
 * generating Python (unknown filters and tests raise TemplateAssertionError,
 * assignment to special names, nesting), the scoping pass (./idtracking.ts)
 * and where the optimizer folds constants (./optimizer.ts).
 *
 * Residual differences: a dict literal with an unhashable key fails Jinja's
 * optimizer at compile time even in a branch never taken; here it fails only
 * when evaluated.
 */
import { FOLDED_KINDS, IMPOSSIBLE, hasSafeRepr } from './optimizer';
import { KNOWN_FILTERS, KNOWN_TESTS } from './defaults';
import { LIMITS, TemplateSyntaxError, unsupported } from './errors';
import { Frame, analyze, findUndeclared } from './idtracking';
import { Load, Node, exprChildren, stmtOrExprChildren } from './nodes';
import { Renderer } from './runtime';
import { JValue } from './values';
import { pyStrRepr } from '../py/repr';

/** The compile pass: scoping annotations and Jinja's compile-time checks. */
export class Compiler {
  /** Jinja's optimizer folds constant subtrees before code generation: what folds away is never checked. */
  constructor(private readonly folder: Renderer | null = null) {}
  /** CodeGenerator.has_known_extends */
  private knownExtends = false;

  compileTemplate(body: Node[]): Array<[string, Load]> {
    for (const n of body) this.checkSupported(n, 0);
    const frame = new Frame(null);
    analyze(frame.symbols, body);
    frame.toplevel = frame.rootlevel = true;
    const loads = [...frame.symbols.loads];
    this.block(body, frame);
    return loads;
  }

  private checkSupported(n: Node, depth: number): void {
    if (depth > LIMITS.maxExprDepth + LIMITS.maxBlockDepth) {
      throw unsupported(`nesting deeper than ${LIMITS.maxExprDepth + LIMITS.maxBlockDepth} (limit)`, n.pos);
    }
    if (n.kind === 'Unsupported') throw unsupported(n.name as string, n.pos);
    if (n.kind === 'For' && n.recursive) throw unsupported('recursive for loop', n.pos);
    for (const c of stmtOrExprChildren(n)) this.checkSupported(c, depth + 1);
  }

  private exprDepth(n: Node): number {
    let d = 0;
    for (const c of exprChildren(n)) d = Math.max(d, this.exprDepth(c));
    return d + 1;
  }

  private block(nodes: Node[], frame: Frame): void {
    for (const n of nodes) this.stmt(n, frame);
  }

  private stmt(n: Node, frame: Frame): void {
    switch (n.kind) {
      case 'Output':
        // After an unconditional top-level extends, Jinja generates no code for output at all.
        if (this.knownExtends) return;
        for (const c of n.nodes as Node[]) this.expr(c, frame);
        return;
      case 'If': {
        const f = frame.soft();
        this.expr(n.test as Node, f);
        this.block(n.body as Node[], f);
        for (const e of n.elifs as Node[]) {
          this.expr(e.test as Node, f);
          this.block(e.body as Node[], f);
        }
        this.block(n.else_ as Node[], f);
        return;
      }
      case 'For': {
        const loopFrame = frame.inner();
        loopFrame.loopFrame = true;
        const testFrame = frame.inner();
        const elseFrame = frame.inner();
        n.extended = findUndeclared(n.body as Node[], 'loop');
        if (n.extended) n.loopRef = loopFrame.symbols.declareParameter('loop');
        analyze(loopFrame.symbols, n, 'body');
        if ((n.else_ as Node[]).length) analyze(elseFrame.symbols, n, 'else');
        if (n.test) {
          analyze(testFrame.symbols, n, 'test');
          n.testLoads = [...testFrame.symbols.loads];
          n.testLocals = new Set([...testFrame.symbols.loads.keys()]);
          this.target(n.target as Node, loopFrame);
          this.expr(n.test, testFrame);
        }
        const checkLoop = (x: Node): void => {
          if (x.kind === 'Name' && x.ctx === 'store' && x.name === 'loop') {
            throw new TemplateSyntaxError(
              "Can't assign to special loop variable in for-loop target",
              x.pos,
              'TemplateAssertionError',
            );
          }
          for (const c of stmtOrExprChildren(x)) checkLoop(c);
        };
        checkLoop(n);
        this.target(n.target as Node, loopFrame);
        this.expr(n.iter as Node, frame);
        n.loads = [...loopFrame.symbols.loads];
        this.block(n.body as Node[], loopFrame);
        if ((n.else_ as Node[]).length) {
          n.elseLoads = [...elseFrame.symbols.loads];
          this.block(n.else_ as Node[], elseFrame);
        }
        return;
      }
      case 'Assign':
        n.toplevel = frame.toplevel && !frame.loopFrame && !frame.blockFrame;
        this.target(n.target as Node, frame);
        this.expr(n.node as Node, frame);
        return;
      case 'AssignBlock': {
        const blockFrame = frame.inner();
        analyze(blockFrame.symbols, n);
        n.loads = [...blockFrame.symbols.loads];
        this.block(n.body as Node[], blockFrame);
        n.toplevel = frame.toplevel && !frame.loopFrame && !frame.blockFrame;
        this.target(n.target as Node, frame);
        if (n.filter) this.expr(n.filter, blockFrame);
        return;
      }
      case 'With': {
        const withFrame = frame.inner();
        analyze(withFrame.symbols, n);
        n.loads = [...withFrame.symbols.loads];
        const targets = n.targets as Node[];
        const values = n.values as Node[];
        for (let i = 0; i < targets.length; i++) {
          this.target(targets[i], withFrame);
          this.expr(values[i], frame);
        }
        this.block(n.body as Node[], withFrame);
        return;
      }
      case 'FilterBlock': {
        const filterFrame = frame.inner();
        analyze(filterFrame.symbols, n);
        n.loads = [...filterFrame.symbols.loads];
        this.block(n.body as Node[], filterFrame);
        this.expr(n.filter as Node, filterFrame);
        return;
      }
      case 'LoadTemplate':
        if (n.name === 'extends' && !frame.toplevel) throw new TemplateSyntaxError('cannot use extend from a non top-level scope', n.pos, 'TemplateAssertionError');
        this.expr(n.node as Node, frame);
        if (n.name === 'extends' && frame.rootlevel) this.knownExtends = true;
        return;
      case 'ExprStmt':
        this.expr(n.node as Node, frame);
        return;
      default:
        throw unsupported(`statement ${n.kind}`, n.pos);
    }
  }

  private target(n: Node, frame: Frame): void {
    if (n.kind === 'Name') n.ref = frame.symbols.ref(n.name as string);
    else if (n.kind === 'NSRef') n.ref = frame.symbols.ref(n.name as string);
    else for (const c of n.items as Node[]) this.target(c, frame);
  }

  private expr(n: Node, frame: Frame, depth = 0): void {
    if (depth === 0 && this.exprDepth(n) > LIMITS.maxExprDepth) {
      throw unsupported(`expression nesting deeper than ${LIMITS.maxExprDepth} (limit)`, n.pos);
    }
    if (this.folder && FOLDED_KINDS.has(n.kind) && n.kind !== 'Filter' && n.kind !== 'Test') {
      let v: JValue | typeof IMPOSSIBLE;
      try {
        v = this.folder.constEval(n);
      } catch {
        v = IMPOSSIBLE;
      }
      if (v !== IMPOSSIBLE && hasSafeRepr(v)) return;
    }
    switch (n.kind) {
      case 'Name':
        n.ref = frame.symbols.ref(n.name as string);
        return;
      case 'Filter':
      case 'Test': {
        const known = n.kind === 'Filter' ? KNOWN_FILTERS : KNOWN_TESTS;
        n.soft = frame.softFrame;
        if (!known.has(n.name as string) && !frame.softFrame) {
          throw new TemplateSyntaxError(
            `No ${n.kind === 'Filter' ? 'filter' : 'test'} named ${pyStrRepr(n.name as string)}.`,
            n.pos,
            'TemplateAssertionError',
          );
        }
        break;
      }
      case 'CondExpr':
        frame = frame.soft();
        break;
    }
    for (const c of exprChildren(n)) this.expr(c, frame, depth + 1);
  }
}

