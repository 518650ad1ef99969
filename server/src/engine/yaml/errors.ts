/**
 * PyYAML's `error.py`: the exception every stage raises (`MarkedYAMLError` with its context and problem
 * lines, or a Python exception such as ValueError raised while constructing), and the problem the
 * loader returns for it. Positions are spans into the text, not PyYAML's "line L, column C" marks.
 */
import type { TextSpan } from '../py/values';
import { isBreak } from './reader';

export interface YamlProblem {
  message: string;
  span: TextSpan;
  /**
   * 'invalid-character' | 'syntax' | 'multiple-documents' | 'undefined-alias' |
   * 'duplicate-anchor' | 'unknown-tag' | 'unhashable-key' | 'merge' |
   * 'constructor' | 'value' | 'recursive' | 'limit' (nesting) |
   * 'expansion' (maxAliasExpansion, maxMergedPairs) | 'duplicate-key'
   */
  kind: string;
  /**
   * The Python exception class PyYAML raises here: ReaderError, ScannerError,
   * ParserError, ComposerError, ConstructorError (all yaml.YAMLError), or
   * ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError.
   * Absent for problems Python does not have (limits, duplicate keys).
   */
  pyException?: string;
  /**
   * PyYAML's context mark ("while parsing a block mapping" points here); for
   * a duplicate key, the previous occurrence of the key.
   */
  contextSpan?: TextSpan;
  /** PyYAML's context line alone ("while parsing a block mapping"), when there is one. */
  context?: string;
}


// ---------------------------------------------------------------------------
// Errors

export class LoadError extends Error {
  constructor(
    readonly kind: string,
    readonly pyException: string | undefined,
    readonly problem: string,
    readonly span: TextSpan,
    readonly context?: string,
    readonly contextSpan?: TextSpan,
  ) {
    super(context ? `${context}\n${problem}` : problem);
  }

  toProblem(): YamlProblem {
    const p: YamlProblem = { message: this.message, span: this.span, kind: this.kind };
    if (this.pyException) p.pyException = this.pyException;
    if (this.contextSpan) p.contextSpan = this.contextSpan;
    if (this.context) p.context = this.context;
    return p;
  }
}

/** A span for a point error: the character there, or empty at a line end or the end. */
export function pointSpan(src: string, pos: number): TextSpan {
  if (pos >= src.length) return { start: src.length, end: src.length };
  const c = src.charCodeAt(pos);
  if (isBreak(c)) return { start: pos, end: pos };
  const wide = c >= 0xd800 && c <= 0xdbff && pos + 1 < src.length;
  return { start: pos, end: pos + (wide ? 2 : 1) };
}
