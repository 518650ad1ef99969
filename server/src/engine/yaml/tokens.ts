/**
 * PyYAML's `tokens.py`: the token kinds the scanner produces and the parser consumes, with the
 * names PyYAML's messages use for them (`TOKEN_ID`), and the one token class carrying what each
 * kind holds.
 */
export const enum T {
  StreamStart,
  StreamEnd,
  Directive,
  DocumentStart,
  DocumentEnd,
  BlockSequenceStart,
  BlockMappingStart,
  BlockEnd,
  FlowSequenceStart,
  FlowMappingStart,
  FlowSequenceEnd,
  FlowMappingEnd,
  Key,
  Value,
  BlockEntry,
  FlowEntry,
  Alias,
  Anchor,
  Tag,
  Scalar,
}

export const TOKEN_ID = [
  '<stream start>',
  '<stream end>',
  '<directive>',
  '<document start>',
  '<document end>',
  '<block sequence start>',
  '<block mapping start>',
  '<block end>',
  '[',
  '{',
  ']',
  '}',
  '?',
  ':',
  '-',
  ',',
  '<alias>',
  '<anchor>',
  '<tag>',
  '<scalar>',
];

export class Token {
  /** Scalar text, alias/anchor name, directive name. */
  value = '';
  plain = false;
  /** End of the last content line of a block scalar (for spans), or -1. */
  contentEnd = -1;
  /** Tag handle (null for verbatim and `!`) and suffix. */
  handle: string | null = null;
  suffix = '';
  /** %YAML version or %TAG handle/prefix. */
  version: [number, number] | null = null;
  tagDirective: [string, string] | null = null;

  constructor(
    readonly type: T,
    readonly start: number,
    public end: number,
  ) {}
}

export function scalarToken(start: number, end: number, value: string, plain: boolean, contentEnd: number): Token {
  const t = new Token(T.Scalar, start, end);
  t.value = value;
  t.plain = plain;
  t.contentEnd = contentEnd;
  return t;
}
