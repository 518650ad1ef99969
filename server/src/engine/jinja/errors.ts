/**
 * Jinja2's exceptions (jinja2/exceptions.py: TemplateSyntaxError and the
 * TemplateAssertionError raised through it), plus this port's own refusal:
 * JinjaUnsupportedError for what it cannot reproduce (the message is the tool's,
 * never a cloud-init log line) and the LIMITS that keep hostile templates from
 * running away (loop steps, output and value sizes, integer bits, expression
 * and block nesting; the nesting limits also stay below CPython's own "too
 * many nested parentheses" compile limit).
 *
 * Runtime exceptions (UndefinedError, TypeError ...) are the kernel's PyError
 * (../py/errors.ts) with the Python class name.
 *
 * Residual differences: TemplateSyntaxError carries an offset, not Jinja's
 * (lineno, name, filename); the line is computed by the callers.
 */
import { PyError } from '../py/errors';

/** Hard limits; exceeding one is reported as `unsupported`. */
export const LIMITS = {
  /** Total loop iterations plus items produced by range/list/filters, per render. */
  maxSteps: 1_000_000,
  /** Rendered text, in UTF-16 code units. */
  maxOutput: 4_000_000,
  /** Any single string or list built during rendering. */
  maxValueSize: 4_000_000,
  /** Bits of an integer produced by ** or * . */
  maxIntBits: 65_536,
  /** Nesting of expressions (AST depth). */
  maxExprDepth: 48,
  /** Nesting of block statements. */
  maxBlockDepth: 40,
};

/**
 * The tool's own message for what it cannot reproduce (never one of
 * cloud-init's): cloud-init renders such a template, this tool does not know
 * what it would give.
 */
export function cannotReproduce(construct: string, offset?: number): string {
  return `this tool cannot reproduce ${construct}${offset !== undefined ? ` (at offset ${offset})` : ''}; cloud-init would render it`;
}

/** Thrown (and reported as `unsupported`) for anything outside the emulated subset. */
export class JinjaUnsupportedError extends Error {
  constructor(
    readonly construct: string,
    public offset?: number,
  ) {
    super(cannotReproduce(construct, offset));
  }
}

export class TemplateSyntaxError extends Error {
  constructor(
    message: string,
    readonly pos: number | undefined,
    readonly pyType: string = 'TemplateSyntaxError',
  ) {
    super(message);
  }
}
export function typeError(msg: string): PyError {
  return new PyError('TypeError', msg);
}

export function unsupported(what: string, pos?: number): JinjaUnsupportedError {
  return new JinjaUnsupportedError(what, pos);
}
