/**
 * jinja2/parser.py: statements (for, if, set, with, filter, do, raw,
 * print, include/import/extends parsed for their errors), expressions with
 * Jinja's precedence, tuples, subscripts, calls, filters and tests, and its
 * syntax-error messages.
 *
 * Residual differences: syntax-error messages are close to but not always
 * identical to Jinja's (the error class always matches); macros, call blocks,
 * blocks, autoescape and recursive loops parse but are refused as unsupported
 * when rendered.
 */
import { LIMITS, TemplateSyntaxError, unsupported } from './errors';
import { Token, describeToken, describeTokenExpr } from './lexer';
import { COMPARE_OPS, Node, canAssign, setCtx } from './nodes';
import { pyStrRepr } from '../py/repr';

export class Parser {
  private i = 0;
  private tagStack: string[] = [];
  private endTokenStack: string[][] = [];
  private depth = 0;
  private blockDepth = 0;
  constructor(private readonly toks: Token[]) {}

  private get cur(): Token {
    return this.toks[this.i];
  }
  private curType(): string {
    return this.toks[this.i].type;
  }
  private look(): Token {
    return this.toks[Math.min(this.i + 1, this.toks.length - 1)];
  }
  private next(): Token {
    const t = this.toks[this.i];
    if (t.type !== 'eof') this.i++;
    return t;
  }
  private test(t: Token, expr: string): boolean {
    if (t.type === expr) return true;
    const k = expr.indexOf(':');
    return k >= 0 && t.type === expr.slice(0, k) && t.value === expr.slice(k + 1);
  }
  private testAny(t: Token, exprs: string[]): boolean {
    return exprs.some((e) => this.test(t, e));
  }
  private skipIf(expr: string): boolean {
    if (this.test(this.cur, expr)) {
      this.next();
      return true;
    }
    return false;
  }
  private fail(msg: string, pos?: number, pyType = 'TemplateSyntaxError'): never {
    throw new TemplateSyntaxError(msg, pos ?? this.cur.pos, pyType);
  }
  private expect(expr: string): Token {
    if (!this.test(this.cur, expr)) {
      const d = describeTokenExpr(expr);
      if (this.cur.type === 'eof') this.fail(`unexpected end of template, expected ${pyStrRepr(d)}.`);
      this.fail(`expected token ${pyStrRepr(d)}, got ${pyStrRepr(describeToken(this.cur))}`);
    }
    return this.next();
  }

  private failUtEof(name: string | null, stack: string[][]): never {
    const expected = new Set<string>();
    for (const exprs of stack) for (const e of exprs) expected.add(describeTokenExpr(e));
    const looking = stack.length ? stack[stack.length - 1].map((e) => pyStrRepr(describeTokenExpr(e))).join(' or ') : null;
    const message = [name === null ? 'Unexpected end of template.' : `Encountered unknown tag ${pyStrRepr(name)}.`];
    if (looking) {
      if (name !== null && expected.has(name)) {
        message.push(`You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for ${looking}.`);
      } else {
        message.push(`Jinja was looking for the following tags: ${looking}.`);
      }
    }
    if (this.tagStack.length) message.push(`The innermost block that needs to be closed is ${pyStrRepr(this.tagStack[this.tagStack.length - 1])}.`);
    this.fail(message.join(' '));
  }

  parse(): Node[] {
    return this.subparse(null);
  }

  private subparse(endTokens: string[] | null): Node[] {
    const body: Node[] = [];
    let data: Node[] = [];
    if (endTokens) this.endTokenStack.push(endTokens);
    const flush = () => {
      if (data.length) {
        body.push({ kind: 'Output', pos: data[0].pos, nodes: data });
        data = [];
      }
    };
    try {
      while (this.cur.type !== 'eof') {
        const t = this.cur;
        if (t.type === 'data') {
          if (t.value) data.push({ kind: 'TemplateData', pos: t.pos, value: t.value });
          this.next();
        } else if (t.type === 'variable_begin') {
          this.next();
          data.push(this.parseTuple({ withCondexpr: true }));
          this.expect('variable_end');
        } else if (t.type === 'block_begin') {
          flush();
          this.next();
          if (endTokens && this.testAny(this.cur, endTokens)) return body;
          body.push(this.parseStatement());
          this.expect('block_end');
        } else {
          throw new Error('internal parsing error');
        }
      }
      flush();
    } finally {
      if (endTokens) this.endTokenStack.pop();
    }
    return body;
  }

  private parseStatement(): Node {
    const t = this.cur;
    if (t.type !== 'name') this.fail('tag name expected', t.pos);
    const name = t.value as string;
    this.tagStack.push(name);
    let pop = true;
    if (++this.blockDepth > LIMITS.maxBlockDepth) throw unsupported(`block nesting deeper than ${LIMITS.maxBlockDepth} (limit)`, t.pos);
    try {
      switch (name) {
        case 'for':
          return this.parseFor();
        case 'if':
          return this.parseIf();
        case 'set':
          return this.parseSet();
        case 'with':
          return this.parseWith();
        case 'print': {
          const pos = this.next().pos;
          const nodes: Node[] = [];
          while (this.cur.type !== 'block_end') {
            if (nodes.length) this.expect('comma');
            nodes.push(this.parseExpression());
          }
          return { kind: 'Output', pos, nodes };
        }
        case 'filter': {
          const pos = this.next().pos;
          const filter = this.parseFilter(null, true) as Node;
          const body = this.parseStatements(['name:endfilter'], true);
          return { kind: 'FilterBlock', pos, filter, body };
        }
        case 'do': {
          const pos = this.next().pos;
          return { kind: 'ExprStmt', pos, node: this.parseTuple({}) };
        }
        case 'block':
          return this.parseBlock();
        case 'extends': {
          const pos = this.next().pos;
          return { kind: 'LoadTemplate', pos, name: 'extends', node: this.parseExpression() };
        }
        case 'macro':
          return this.parseMacro();
        case 'call':
          return this.parseCallBlock();
        case 'include':
          return this.parseInclude();
        case 'import':
          return this.parseImport();
        case 'from':
          return this.parseFrom();
        case 'autoescape': {
          const pos = this.next().pos;
          this.parseExpression();
          this.parseStatements(['name:endautoescape'], true);
          return { kind: 'Unsupported', pos, name: '{% autoescape %}' };
        }
      }
      this.tagStack.pop();
      pop = false;
      return this.failUtEof(name, this.endTokenStack);
    } finally {
      if (pop) this.tagStack.pop();
      this.blockDepth--;
    }
  }

  private parseStatements(endTokens: string[], dropNeedle = false): Node[] {
    this.skipIf('colon');
    this.expect('block_end');
    const result = this.subparse(endTokens);
    if (this.cur.type === 'eof') this.failUtEof(null, [...this.endTokenStack, endTokens]);
    if (dropNeedle) this.next();
    return result;
  }

  private parseSet(): Node {
    const pos = this.next().pos;
    const target = this.parseAssignTarget({ withNamespace: true });
    if (this.skipIf('assign')) {
      return { kind: 'Assign', pos, target, node: this.parseTuple({}) };
    }
    const filter = this.parseFilter(null);
    const body = this.parseStatements(['name:endset'], true);
    return { kind: 'AssignBlock', pos, target, filter, body };
  }

  private parseFor(): Node {
    const pos = this.expect('name:for').pos;
    const target = this.parseAssignTarget({ extraEndRules: ['name:in'] });
    this.expect('name:in');
    const iter = this.parseTuple({ withCondexpr: false, extraEndRules: ['name:recursive'] });
    let test: Node | null = null;
    if (this.skipIf('name:if')) test = this.parseExpression();
    const recursive = this.skipIf('name:recursive');
    const body = this.parseStatements(['name:endfor', 'name:else']);
    let else_: Node[] = [];
    if (this.next().value !== 'endfor') else_ = this.parseStatements(['name:endfor'], true);
    return { kind: 'For', pos, target, iter, body, else_, test, recursive };
  }

  private parseIf(): Node {
    const result: Node = { kind: 'If', pos: this.expect('name:if').pos, elifs: [], else_: [] };
    let node = result;
    for (;;) {
      node.test = this.parseTuple({ withCondexpr: false });
      node.body = this.parseStatements(['name:elif', 'name:else', 'name:endif']);
      node.elifs = node === result ? result.elifs : [];
      node.else_ = node === result ? result.else_ : [];
      const t = this.next();
      if (this.test(t, 'name:elif')) {
        node = { kind: 'If', pos: this.cur.pos, elifs: [], else_: [] };
        (result.elifs as Node[]).push(node);
        continue;
      } else if (this.test(t, 'name:else')) {
        result.else_ = this.parseStatements(['name:endif'], true);
      }
      break;
    }
    return result;
  }

  private parseWith(): Node {
    const pos = this.next().pos;
    const targets: Node[] = [];
    const values: Node[] = [];
    while (this.cur.type !== 'block_end') {
      if (targets.length) this.expect('comma');
      const target = this.parseAssignTarget({});
      setCtx(target, 'param');
      targets.push(target);
      this.expect('assign');
      values.push(this.parseExpression());
    }
    const body = this.parseStatements(['name:endwith'], true);
    return { kind: 'With', pos, targets, values, body };
  }

  private parseBlock(): Node {
    const pos = this.next().pos;
    const name = this.expect('name').value as string;
    this.skipIf('name:scoped');
    this.skipIf('name:required');
    if (this.cur.type === 'sub') {
      this.fail(
        'Block names in Jinja have to be valid Python identifiers and may not contain hyphens, use an underscore instead.',
      );
    }
    this.parseStatements(['name:endblock'], true);
    this.skipIf('name:' + name);
    return { kind: 'Unsupported', pos, name: '{% block %}' };
  }

  private parseSignature(): void {
    const args: Node[] = [];
    let defaults = 0;
    this.expect('lparen');
    while (this.cur.type !== 'rparen') {
      if (args.length) this.expect('comma');
      const arg = this.parseAssignTarget({ nameOnly: true });
      if (this.skipIf('assign')) {
        this.parseExpression();
        defaults++;
      } else if (defaults) {
        this.fail('non-default argument follows default argument');
      }
      args.push(arg);
    }
    this.expect('rparen');
  }

  private parseMacro(): Node {
    const pos = this.next().pos;
    this.parseAssignTarget({ nameOnly: true });
    this.parseSignature();
    this.parseStatements(['name:endmacro'], true);
    return { kind: 'Unsupported', pos, name: '{% macro %}' };
  }

  private parseCallBlock(): Node {
    const pos = this.next().pos;
    if (this.cur.type === 'lparen') this.parseSignature();
    const call = this.parseExpression();
    if (call.kind !== 'Call') this.fail('expected call', pos);
    this.parseStatements(['name:endcall'], true);
    return { kind: 'Unsupported', pos, name: '{% call %}' };
  }

  private parseImportContext(): void {
    if (this.testAny(this.cur, ['name:with', 'name:without']) && this.test(this.look(), 'name:context')) {
      this.next();
      this.next();
    }
  }

  private parseInclude(): Node {
    const pos = this.next().pos;
    const node = this.parseExpression();
    if (this.test(this.cur, 'name:ignore') && this.test(this.look(), 'name:missing')) {
      this.next();
      this.next();
    }
    this.parseImportContext();
    return { kind: 'LoadTemplate', pos, node };
  }

  private parseImport(): Node {
    const pos = this.next().pos;
    const node = this.parseExpression();
    this.expect('name:as');
    this.parseAssignTarget({ nameOnly: true });
    this.parseImportContext();
    return { kind: 'LoadTemplate', pos, node };
  }

  private parseFrom(): Node {
    const pos = this.next().pos;
    const node = this.parseExpression();
    this.expect('name:import');
    let count = 0;
    const parseContext = (): boolean => {
      if ((this.cur.value === 'with' || this.cur.value === 'without') && this.test(this.look(), 'name:context')) {
        this.next();
        this.next();
        return true;
      }
      return false;
    };
    for (;;) {
      if (count) this.expect('comma');
      if (this.cur.type === 'name') {
        if (parseContext()) break;
        const target = this.parseAssignTarget({ nameOnly: true });
        if ((target.name as string).startsWith('_')) {
          this.fail('names starting with an underline can not be imported', target.pos, 'TemplateAssertionError');
        }
        if (this.skipIf('name:as')) this.parseAssignTarget({ nameOnly: true });
        count++;
        if (parseContext() || this.curType() !== 'comma') break;
      } else {
        this.expect('name');
      }
    }
    return { kind: 'LoadTemplate', pos, node };
  }

  private parseAssignTarget(o: {
    withTuple?: boolean;
    nameOnly?: boolean;
    extraEndRules?: string[];
    withNamespace?: boolean;
  }): Node {
    let target: Node;
    if (o.withNamespace && this.look().type === 'dot') {
      const t = this.expect('name');
      this.next();
      const attr = this.expect('name');
      target = { kind: 'NSRef', pos: t.pos, name: t.value as string, attr: attr.value as string };
    } else if (o.nameOnly) {
      const t = this.expect('name');
      target = { kind: 'Name', pos: t.pos, name: t.value as string, ctx: 'store' };
    } else {
      target =
        o.withTuple === false
          ? this.parsePrimary()
          : this.parseTuple({ simplified: true, extraEndRules: o.extraEndRules });
      setCtx(target, 'store');
    }
    if (!canAssign(target)) {
      this.fail(`can't assign to ${pyStrRepr(target.kind.toLowerCase())}`, target.pos);
    }
    return target;
  }

  parseExpression(withCondexpr = true): Node {
    if (++this.depth > LIMITS.maxExprDepth) {
      throw unsupported(`expression nesting deeper than ${LIMITS.maxExprDepth} (limit)`, this.cur.pos);
    }
    try {
      return withCondexpr ? this.parseCondexpr() : this.parseOr();
    } finally {
      this.depth--;
    }
  }

  private parseCondexpr(): Node {
    const pos = this.cur.pos;
    let expr1 = this.parseOr();
    while (this.skipIf('name:if')) {
      const expr2 = this.parseOr();
      const expr3 = this.skipIf('name:else') ? this.parseCondexpr() : null;
      expr1 = { kind: 'CondExpr', pos, test: expr2, expr1, expr2: expr3 };
    }
    return expr1;
  }

  private parseOr(): Node {
    let left = this.parseAnd();
    while (this.test(this.cur, 'name:or')) {
      const pos = this.next().pos;
      left = { kind: 'Or', pos, left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): Node {
    let left = this.parseNot();
    while (this.test(this.cur, 'name:and')) {
      const pos = this.next().pos;
      left = { kind: 'And', pos, left, right: this.parseNot() };
    }
    return left;
  }

  private guard(): void {
    if (++this.depth > LIMITS.maxExprDepth) {
      throw unsupported(`expression nesting deeper than ${LIMITS.maxExprDepth} (limit)`, this.cur.pos);
    }
  }

  private parseNot(): Node {
    if (this.test(this.cur, 'name:not')) {
      const pos = this.next().pos;
      this.guard();
      const node = this.parseNot();
      this.depth--;
      return { kind: 'Not', pos, node };
    }
    return this.parseCompare();
  }

  private parseCompare(): Node {
    const pos = this.cur.pos;
    const expr = this.parseMath1();
    const ops: Array<{ op: string; expr: Node }> = [];
    for (;;) {
      const tt = this.cur.type;
      if (COMPARE_OPS.has(tt)) {
        this.next();
        ops.push({ op: tt, expr: this.parseMath1() });
      } else if (this.skipIf('name:in')) {
        ops.push({ op: 'in', expr: this.parseMath1() });
      } else if (this.test(this.cur, 'name:not') && this.test(this.look(), 'name:in')) {
        this.next();
        this.next();
        ops.push({ op: 'notin', expr: this.parseMath1() });
      } else break;
    }
    if (!ops.length) return expr;
    return { kind: 'Compare', pos, node: expr, ops };
  }

  private parseMath1(): Node {
    let left = this.parseConcat();
    while (this.cur.type === 'add' || this.cur.type === 'sub') {
      const t = this.next();
      left = { kind: 'BinOp', pos: t.pos, op: t.type, left, right: this.parseConcat() };
    }
    return left;
  }

  private parseConcat(): Node {
    const pos = this.cur.pos;
    const args = [this.parseMath2()];
    while (this.cur.type === 'tilde') {
      this.next();
      args.push(this.parseMath2());
    }
    if (args.length === 1) return args[0];
    return { kind: 'Concat', pos, nodes: args };
  }

  private parseMath2(): Node {
    let left = this.parsePow();
    while (['mul', 'div', 'floordiv', 'mod'].includes(this.cur.type)) {
      const t = this.next();
      left = { kind: 'BinOp', pos: t.pos, op: t.type, left, right: this.parsePow() };
    }
    return left;
  }

  private parsePow(): Node {
    let left = this.parseUnary();
    while (this.cur.type === 'pow') {
      const t = this.next();
      left = { kind: 'BinOp', pos: t.pos, op: 'pow', left, right: this.parseUnary() };
    }
    return left;
  }

  private parseUnary(withFilter = true): Node {
    const tt = this.cur.type;
    const pos = this.cur.pos;
    let node: Node;
    if (tt === 'sub' || tt === 'add') {
      this.next();
      this.guard();
      node = { kind: tt === 'sub' ? 'Neg' : 'Pos', pos, node: this.parseUnary(false) };
      this.depth--;
    } else {
      node = this.parsePrimary();
    }
    node = this.parsePostfix(node);
    if (withFilter) node = this.parseFilterExpr(node);
    return node;
  }

  private parsePrimary(): Node {
    const t = this.cur;
    let node: Node;
    if (t.type === 'name') {
      const v = t.value as string;
      if (v === 'true' || v === 'false' || v === 'True' || v === 'False') {
        node = { kind: 'Const', pos: t.pos, value: v === 'true' || v === 'True' };
      } else if (v === 'none' || v === 'None') {
        node = { kind: 'Const', pos: t.pos, value: null };
      } else {
        node = { kind: 'Name', pos: t.pos, name: v, ctx: 'load' };
      }
      this.next();
    } else if (t.type === 'string') {
      this.next();
      let s = t.value as string;
      while (this.cur.type === 'string') s += this.next().value as string;
      node = { kind: 'Const', pos: t.pos, value: s };
    } else if (t.type === 'integer' || t.type === 'float') {
      this.next();
      node = { kind: 'Const', pos: t.pos, value: t.value };
    } else if (t.type === 'lparen') {
      this.next();
      node = this.parseTuple({ explicitParentheses: true });
      this.expect('rparen');
    } else if (t.type === 'lbracket') {
      node = this.parseList();
    } else if (t.type === 'lbrace') {
      node = this.parseDict();
    } else {
      this.fail(`unexpected ${pyStrRepr(describeToken(t))}`, t.pos);
    }
    return node;
  }

  parseTuple(o: { simplified?: boolean; withCondexpr?: boolean; extraEndRules?: string[]; explicitParentheses?: boolean }): Node {
    const pos = this.cur.pos;
    const parse = o.simplified
      ? () => this.parsePrimary()
      : o.withCondexpr === false
        ? () => this.parseExpression(false)
        : () => this.parseExpression();
    const args: Node[] = [];
    let isTuple = false;
    for (;;) {
      if (args.length) this.expect('comma');
      if (this.isTupleEnd(o.extraEndRules)) break;
      args.push(parse());
      if (this.cur.type === 'comma') isTuple = true;
      else break;
    }
    if (!isTuple) {
      if (args.length) return args[0];
      if (!o.explicitParentheses) this.fail(`Expected an expression, got ${pyStrRepr(describeToken(this.cur))}`);
    }
    return { kind: 'Tuple', pos, items: args, ctx: 'load' };
  }

  private isTupleEnd(extra?: string[]): boolean {
    const tt = this.cur.type;
    if (tt === 'variable_end' || tt === 'block_end' || tt === 'rparen') return true;
    return extra ? this.testAny(this.cur, extra) : false;
  }

  private parseList(): Node {
    const t = this.expect('lbracket');
    const items: Node[] = [];
    while (this.cur.type !== 'rbracket') {
      if (items.length) this.expect('comma');
      if (this.cur.type === 'rbracket') break;
      items.push(this.parseExpression());
    }
    this.expect('rbracket');
    return { kind: 'List', pos: t.pos, items };
  }

  private parseDict(): Node {
    const t = this.expect('lbrace');
    const pairs: Array<[Node, Node]> = [];
    while (this.cur.type !== 'rbrace') {
      if (pairs.length) this.expect('comma');
      if (this.cur.type === 'rbrace') break;
      const key = this.parseExpression();
      this.expect('colon');
      pairs.push([key, this.parseExpression()]);
    }
    this.expect('rbrace');
    return { kind: 'Dict', pos: t.pos, pairs };
  }

  private parsePostfix(node: Node): Node {
    for (;;) {
      const tt = this.cur.type;
      if (tt === 'dot' || tt === 'lbracket') node = this.parseSubscript(node);
      else if (tt === 'lparen') node = this.parseCall(node);
      else break;
    }
    return node;
  }

  private parseFilterExpr(node: Node): Node {
    for (;;) {
      const tt = this.cur.type;
      if (tt === 'pipe') node = this.parseFilter(node) as Node;
      else if (tt === 'name' && this.cur.value === 'is') node = this.parseTest(node);
      else if (tt === 'lparen') node = this.parseCall(node);
      else break;
    }
    return node;
  }

  private parseSubscript(node: Node): Node {
    const t = this.next();
    if (t.type === 'dot') {
      const a = this.cur;
      this.next();
      if (a.type === 'name') return { kind: 'Getattr', pos: t.pos, node, attr: a.value as string };
      if (a.type !== 'integer') this.fail('expected name or number', a.pos);
      return { kind: 'Getitem', pos: t.pos, node, arg: { kind: 'Const', pos: a.pos, value: a.value } };
    }
    // lbracket
    const args: Node[] = [];
    while (this.cur.type !== 'rbracket') {
      if (args.length) this.expect('comma');
      args.push(this.parseSubscribed());
    }
    this.expect('rbracket');
    const arg = args.length === 1 ? args[0] : { kind: 'Tuple' as const, pos: t.pos, items: args, ctx: 'load' as const };
    return { kind: 'Getitem', pos: t.pos, node, arg };
  }

  private parseSubscribed(): Node {
    const pos = this.cur.pos;
    const args: Array<Node | null> = [];
    if (this.cur.type === 'colon') {
      this.next();
      args.push(null);
    } else {
      const node = this.parseExpression();
      if (this.cur.type !== 'colon') return node;
      this.next();
      args.push(node);
    }
    if (this.cur.type === 'colon') args.push(null);
    else if (this.cur.type !== 'rbracket' && this.cur.type !== 'comma') args.push(this.parseExpression());
    else args.push(null);
    if (this.curType() === 'colon') {
      this.next();
      if (this.curType() !== 'rbracket' && this.curType() !== 'comma') args.push(this.parseExpression());
      else args.push(null);
    } else args.push(null);
    return { kind: 'Slice', pos, start: args[0], stop: args[1], step: args[2] };
  }

  private parseCallArgs(): Pick<Node, 'args' | 'kwargs' | 'dynArgs' | 'dynKwargs'> {
    const t = this.expect('lparen');
    const args: Node[] = [];
    const kwargs: Array<[string, Node]> = [];
    let dynArgs: Node | null = null;
    let dynKwargs: Node | null = null;
    let requireComma = false;
    const ensure = (ok: boolean) => {
      if (!ok) this.fail('invalid syntax for function call expression', t.pos);
    };
    while (this.cur.type !== 'rparen') {
      if (requireComma) {
        this.expect('comma');
        if (this.cur.type === 'rparen') break;
      }
      if (this.cur.type === 'mul') {
        ensure(dynArgs === null && dynKwargs === null);
        this.next();
        dynArgs = this.parseExpression();
      } else if (this.cur.type === 'pow') {
        ensure(dynKwargs === null);
        this.next();
        dynKwargs = this.parseExpression();
      } else if (this.cur.type === 'name' && this.look().type === 'assign') {
        ensure(dynKwargs === null);
        const key = this.cur.value as string;
        this.next();
        this.next();
        kwargs.push([key, this.parseExpression()]);
      } else {
        ensure(dynArgs === null && dynKwargs === null && !kwargs.length);
        args.push(this.parseExpression());
      }
      requireComma = true;
    }
    this.expect('rparen');
    return { args, kwargs, dynArgs, dynKwargs };
  }

  private parseCall(node: Node): Node {
    const pos = this.cur.pos;
    return { kind: 'Call', pos, node, ...this.parseCallArgs() };
  }

  private parseFilter(node: Node | null, startInline = false): Node | null {
    while (this.cur.type === 'pipe' || startInline) {
      if (!startInline) this.next();
      const t = this.expect('name');
      let name = t.value as string;
      while (this.cur.type === 'dot') {
        this.next();
        name += '.' + (this.expect('name').value as string);
      }
      const call =
        this.cur.type === 'lparen' ? this.parseCallArgs() : { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
      node = { kind: 'Filter', pos: t.pos, node, name, ...call };
      startInline = false;
    }
    return node;
  }

  private parseTest(node: Node): Node {
    const t = this.next();
    let negated = false;
    if (this.test(this.cur, 'name:not')) {
      this.next();
      negated = true;
    }
    let name = this.expect('name').value as string;
    while (this.cur.type === 'dot') {
      this.next();
      name += '.' + (this.expect('name').value as string);
    }
    let call: Pick<Node, 'args' | 'kwargs' | 'dynArgs' | 'dynKwargs'> = { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
    if (this.cur.type === 'lparen') {
      call = this.parseCallArgs();
    } else if (
      ['name', 'string', 'integer', 'float', 'lparen', 'lbracket', 'lbrace'].includes(this.cur.type) &&
      !this.testAny(this.cur, ['name:else', 'name:or', 'name:and'])
    ) {
      if (this.test(this.cur, 'name:is')) this.fail('You cannot chain multiple tests with is');
      let arg = this.parsePrimary();
      arg = this.parsePostfix(arg);
      call = { args: [arg], kwargs: [], dynArgs: null, dynKwargs: null };
    }
    let result: Node = { kind: 'Test', pos: t.pos, node, name, ...call };
    if (negated) result = { kind: 'Not', pos: t.pos, node: result };
    return result;
  }
}
