/**
 * jinja2/environment.py, the part cloud-init uses: `Environment(...).from_string(source)` and
 * `Template.render(**vars)`, in the configuration cloud-init's templater builds (trim_blocks, the
 * `do` extension, its undefined class; plain Environment in 22.4, SandboxedEnvironment since 25.1).
 *
 * Residual differences: no loader, cache, autoescape or other options (cloud-init sets none);
 * Jinja compiles to Python and runs it, this port annotates the parsed tree (./compiler) and
 * walks it (./runtime).
 */
import { Compiler } from './compiler';
import { tokenize } from './lexer';
import type { Load, Node } from './nodes';
import { Parser } from './parser';
import { Renderer } from './runtime';
import { JDict } from './values';

/** A template parsed and checked as Environment.from_string does (no Python is generated). */
export interface JinjaTemplate {
  readonly source: string;
  readonly body: Node[];
  readonly rootLoads: Array<[string, Load]>;
  readonly sandbox: boolean;
  /** 1-based line of an offset in `source`, for messages that name a line. */
  readonly lineOf: (pos: number) => number;
}

/** Environment.from_string: lex, parse and run the compile-time checks; throws TemplateSyntaxError. */
export function fromString(source: string, sandbox: boolean): JinjaTemplate {
  const body = new Parser(tokenize(source)).parse();
  const lineOf = (pos: number) => source.slice(0, pos).split('\n').length;
  const rootLoads = new Compiler(new Renderer(new JDict(), lineOf, sandbox)).compileTemplate(body);
  return { source, body, rootLoads, sandbox, lineOf };
}

/** Where a piece of the output starts (`out`) and the template offset that produced it. */
export interface OutputOrigin {
  out: number;
  src: number;
  /** Template data (maps character by character) rather than an expression's value. */
  data: boolean;
}

/**
 * Template.render(**params): the text, plus notes on what the text cannot show faithfully, and
 * (with `trackOrigins`) where each piece of the output came from.
 */
export function renderTemplate(template: JinjaTemplate, params: JDict, trackOrigins = false): { text: string; notes: string[]; origins?: OutputOrigin[] } {
  const renderer = new Renderer(params, template.lineOf, template.sandbox);
  if (trackOrigins) renderer.origins = [];
  const text = renderer.render(template.body, template.rootLoads);
  return renderer.origins ? { text, notes: renderer.notes, origins: renderer.origins } : { text, notes: renderer.notes };
}
