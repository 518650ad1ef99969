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
  /** The next recycled token in TokenPool's list. */
  nextSpare: Token | null = null;

  constructor(
    public type: T,
    public start: number,
    public end: number,
  ) {}
}

/**
 * Recycled tokens. The parser is done with a token before it takes the second one after it, so a
 * token returns to the pool four takes after it was taken: a load allocates a handful of tokens.
 */
export class TokenPool {
  private spare: Token | null = null;
  private readonly recent: Array<Token | undefined> = [undefined, undefined, undefined, undefined];
  private recentIndex = 0;

  token(type: T, start: number, end: number): Token {
    const t = this.spare;
    if (t === null) return new Token(type, start, end);
    this.spare = t.nextSpare;
    t.type = type;
    t.start = start;
    t.end = end;
    t.value = '';
    t.plain = false;
    t.contentEnd = -1;
    t.handle = null;
    t.suffix = '';
    t.version = null;
    t.tagDirective = null;
    return t;
  }

  scalar(start: number, end: number, value: string, plain: boolean, contentEnd: number): Token {
    const t = this.token(T.Scalar, start, end);
    t.value = value;
    t.plain = plain;
    t.contentEnd = contentEnd;
    return t;
  }

  /** The parser has taken `t`. */
  taken(t: Token): void {
    const old = this.recent[this.recentIndex];
    if (old !== undefined) {
      old.nextSpare = this.spare;
      this.spare = old;
    }
    this.recent[this.recentIndex] = t;
    this.recentIndex = (this.recentIndex + 1) & 3;
  }
}
