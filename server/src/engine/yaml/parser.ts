/**
 * PyYAML's `parser.py`: the LL(1) state machine (a stack of states, no recursion) turning tokens into
 * events, with tag handles and its error messages ("while parsing a block mapping / expected <block
 * end>, but found '<block sequence start>'").
 */
import { pyStrRepr } from '../py/repr';
import { LoadError, pointSpan } from './errors';
import { Scanner, T, TOKEN_ID, Token } from './scanner';

// ---------------------------------------------------------------------------
// Parser (events)

export const enum E {
  StreamStart,
  StreamEnd,
  DocumentStart,
  DocumentEnd,
  Alias,
  Scalar,
  SequenceStart,
  SequenceEnd,
  MappingStart,
  MappingEnd,
}

/**
 * One event. The parser hands out two recycled Event objects in turn (every reader, the composer
 * and ../schema/schemaMarks, is done with an event before it takes the next-but-one): no allocation.
 */
export class Event {
  type = E.StreamStart;
  start = 0;
  end = 0;
  anchor: string | null = null;
  tag: string | null = null;
  /** Scalars: may the implicit resolvers be used (PyYAML's implicit[0])? */
  implicit = false;
  value = '';
  /** Block scalars: end of the last content line, or -1. */
  contentEnd = -1;
  /** Collections: written with brackets ([...] or {...}). */
  flow = false;
  /** A single-pair mapping inside a flow sequence (`[a: b]`). */
  pairInSequence = false;
}

const enum S {
  StreamStart,
  ImplicitDocumentStart,
  DocumentStart,
  DocumentEnd,
  DocumentContent,
  BlockNode,
  BlockSequenceFirstEntry,
  BlockSequenceEntry,
  IndentlessSequenceEntry,
  BlockMappingFirstKey,
  BlockMappingKey,
  BlockMappingValue,
  FlowSequenceFirstEntry,
  FlowSequenceEntry,
  FlowSequenceEntryMappingKey,
  FlowSequenceEntryMappingValue,
  FlowSequenceEntryMappingEnd,
  FlowMappingFirstKey,
  FlowMappingKey,
  FlowMappingValue,
  FlowMappingEmptyValue,
  FlowNode,
  BlockNodeOrIndentlessSequence,
  Done,
}

const DEFAULT_TAG_HANDLES: ReadonlyMap<string, string> = new Map([
  ['!', '!'],
  ['!!', 'tag:yaml.org,2002:'],
]);

export class Parser {
  private state: S = S.StreamStart;
  private readonly states: S[] = [];
  private readonly marks: number[] = [];
  private current: Event | null = null;
  private tagHandles: ReadonlyMap<string, string> = DEFAULT_TAG_HANDLES;
  private readonly scanner: Scanner;
  private readonly slots = [new Event(), new Event()];
  private slot = 0;

  constructor(private readonly src: string) {
    this.scanner = new Scanner(src);
  }

  /** The next recycled Event, reset. */
  private event(type: E, start: number, end: number): Event {
    this.slot ^= 1;
    const e = this.slots[this.slot];
    e.type = type;
    e.start = start;
    e.end = end;
    e.anchor = null;
    e.tag = null;
    e.implicit = false;
    e.value = '';
    e.contentEnd = -1;
    e.flow = false;
    e.pairInSequence = false;
    return e;
  }

  /** A node start event with its properties. */
  private nodeEvent(type: E, start: number, end: number, anchor: string | null, tag: string | null): Event {
    const e = this.event(type, start, end);
    e.anchor = anchor;
    e.tag = tag;
    return e;
  }

  private collectionStart(type: E, start: number, end: number, anchor: string | null, tag: string | null, flow: boolean): Event {
    const e = this.nodeEvent(type, start, end, anchor, tag);
    e.flow = flow;
    return e;
  }

  private emptyScalar(mark: number): Event {
    const e = this.event(E.Scalar, mark, mark);
    e.implicit = true;
    return e;
  }

  checkEvent(type: E): boolean {
    const e = this.peekEvent();
    return e !== null && e.type === type;
  }

  peekEvent(): Event | null {
    if (this.current === null && this.state !== S.Done) this.current = this.next();
    return this.current;
  }

  getEvent(): Event {
    const e = this.peekEvent() as Event;
    this.current = null;
    return e;
  }

  private fail(context: string | undefined, contextPos: number | undefined, problem: string, token: Token): LoadError {
    const span = token.end > token.start ? { start: token.start, end: token.end } : pointSpan(this.src, token.start);
    return new LoadError('syntax', 'ParserError', problem, span, context, contextPos === undefined ? undefined : pointSpan(this.src, contextPos));
  }

  private peek(): Token {
    return this.scanner.peekToken() as Token;
  }

  private popState(): void {
    this.state = this.states.pop() as S;
  }

  private next(): Event {
    switch (this.state) {
      case S.StreamStart: {
        const t = this.scanner.getToken();
        this.state = S.ImplicitDocumentStart;
        return this.event(E.StreamStart, t.start, t.end);
      }
      case S.ImplicitDocumentStart: {
        const nt = this.peek().type;
        if (nt !== T.Directive && nt !== T.DocumentStart && nt !== T.StreamEnd) {
          this.tagHandles = DEFAULT_TAG_HANDLES;
          const t = this.peek();
          this.states.push(S.DocumentEnd);
          this.state = S.BlockNode;
          return this.event(E.DocumentStart, t.start, t.start);
        }
        return this.parseDocumentStart();
      }
      case S.DocumentStart:
        return this.parseDocumentStart();
      case S.DocumentEnd: {
        const t = this.peek();
        let end = t.start;
        if (this.peek().type === T.DocumentEnd) end = this.scanner.getToken().end;
        this.state = S.DocumentStart;
        return this.event(E.DocumentEnd, t.start, end);
      }
      case S.DocumentContent: {
        const nt = this.peek().type;
        if (nt === T.Directive || nt === T.DocumentStart || nt === T.DocumentEnd || nt === T.StreamEnd) {
          const e = this.emptyScalar(this.peek().start);
          this.popState();
          return e;
        }
        return this.parseNode(true, false);
      }
      case S.BlockNode:
        return this.parseNode(true, false);
      case S.BlockNodeOrIndentlessSequence:
        return this.parseNode(true, true);
      case S.FlowNode:
        return this.parseNode(false, false);
      case S.BlockSequenceFirstEntry:
        this.marks.push(this.scanner.getToken().start);
        return this.parseBlockSequenceEntry();
      case S.BlockSequenceEntry:
        return this.parseBlockSequenceEntry();
      case S.IndentlessSequenceEntry:
        return this.parseIndentlessSequenceEntry();
      case S.BlockMappingFirstKey:
        this.marks.push(this.scanner.getToken().start);
        return this.parseBlockMappingKey();
      case S.BlockMappingKey:
        return this.parseBlockMappingKey();
      case S.BlockMappingValue:
        return this.parseBlockMappingValue();
      case S.FlowSequenceFirstEntry:
        this.marks.push(this.scanner.getToken().start);
        return this.parseFlowSequenceEntry(true);
      case S.FlowSequenceEntry:
        return this.parseFlowSequenceEntry(false);
      case S.FlowSequenceEntryMappingKey: {
        const t = this.scanner.getToken();
        const nt = this.peek().type;
        if (nt !== T.Value && nt !== T.FlowEntry && nt !== T.FlowSequenceEnd) {
          this.states.push(S.FlowSequenceEntryMappingValue);
          return this.parseNode(false, false);
        }
        this.state = S.FlowSequenceEntryMappingValue;
        return this.emptyScalar(t.end);
      }
      case S.FlowSequenceEntryMappingValue:
        if (this.peek().type === T.Value) {
          const t = this.scanner.getToken();
          const nt = this.peek().type;
          if (nt !== T.FlowEntry && nt !== T.FlowSequenceEnd) {
            this.states.push(S.FlowSequenceEntryMappingEnd);
            return this.parseNode(false, false);
          }
          this.state = S.FlowSequenceEntryMappingEnd;
          return this.emptyScalar(t.end);
        }
        this.state = S.FlowSequenceEntryMappingEnd;
        return this.emptyScalar(this.peek().start);
      case S.FlowSequenceEntryMappingEnd: {
        this.state = S.FlowSequenceEntry;
        const t = this.peek();
        return this.event(E.MappingEnd, t.start, t.start);
      }
      case S.FlowMappingFirstKey:
        this.marks.push(this.scanner.getToken().start);
        return this.parseFlowMappingKey(true);
      case S.FlowMappingKey:
        return this.parseFlowMappingKey(false);
      case S.FlowMappingValue:
        if (this.peek().type === T.Value) {
          const t = this.scanner.getToken();
          const nt = this.peek().type;
          if (nt !== T.FlowEntry && nt !== T.FlowMappingEnd) {
            this.states.push(S.FlowMappingKey);
            return this.parseNode(false, false);
          }
          this.state = S.FlowMappingKey;
          return this.emptyScalar(t.end);
        }
        this.state = S.FlowMappingKey;
        return this.emptyScalar(this.peek().start);
      case S.FlowMappingEmptyValue:
        this.state = S.FlowMappingKey;
        return this.emptyScalar(this.peek().start);
      case S.Done:
        throw new Error('parser: no more events');
    }
  }

  private parseDocumentStart(): Event {
    while (this.peek().type === T.DocumentEnd) this.scanner.getToken();
    if (this.peek().type !== T.StreamEnd) {
      const start = this.peek().start;
      this.processDirectives();
      if (this.peek().type !== T.DocumentStart) {
        const t = this.peek();
        throw this.fail(undefined, undefined, `expected '<document start>', but found '${TOKEN_ID[t.type]}'`, t);
      }
      const t = this.scanner.getToken();
      this.states.push(S.DocumentEnd);
      this.state = S.DocumentContent;
      return this.event(E.DocumentStart, start, t.end);
    }
    const t = this.scanner.getToken();
    this.state = S.Done;
    return this.event(E.StreamEnd, t.start, t.end);
  }

  private processDirectives(): void {
    let version: [number, number] | null = null;
    const handles = new Map<string, string>();
    while (this.peek().type === T.Directive) {
      const t = this.scanner.getToken();
      if (t.value === 'YAML') {
        if (version !== null) throw this.fail(undefined, undefined, 'found duplicate YAML directive', t);
        const v = t.version as [number, number];
        if (v[0] !== 1) throw this.fail(undefined, undefined, 'found incompatible YAML document (version 1.* is required)', t);
        version = v;
      } else if (t.value === 'TAG') {
        const [handle, prefix] = t.tagDirective as [string, string];
        if (handles.has(handle)) throw this.fail(undefined, undefined, `duplicate tag handle ${pyStrRepr(handle)}`, t);
        handles.set(handle, prefix);
      }
    }
    for (const [k, v] of DEFAULT_TAG_HANDLES) if (!handles.has(k)) handles.set(k, v);
    this.tagHandles = handles;
  }

  private parseNode(block: boolean, indentlessSequence: boolean): Event {
    const first = this.peek();
    if (first.type === T.Scalar) {
      // The common case, the general path below without properties.
      this.scanner.getToken();
      this.popState();
      const e = this.nodeEvent(E.Scalar, first.start, first.end, null, null);
      e.implicit = first.plain;
      e.value = first.value;
      e.contentEnd = first.contentEnd;
      return e;
    }
    if (first.type === T.Alias) {
      const t = this.scanner.getToken();
      this.popState();
      return this.nodeEvent(E.Alias, t.start, t.end, t.value, null);
    }
    let anchor: string | null = null;
    let tagToken: Token | null = null;
    let start: number | null = null;
    let end = 0;
    if (this.peek().type === T.Anchor) {
      const t = this.scanner.getToken();
      start = t.start;
      end = t.end;
      anchor = t.value;
      if (this.peek().type === T.Tag) {
        tagToken = this.scanner.getToken();
        end = tagToken.end;
      }
    } else if (this.peek().type === T.Tag) {
      tagToken = this.scanner.getToken();
      start = tagToken.start;
      end = tagToken.end;
      if (this.peek().type === T.Anchor) {
        const t = this.scanner.getToken();
        end = t.end;
        anchor = t.value;
      }
    }
    let tag: string | null = null;
    if (tagToken) {
      const handle = tagToken.handle;
      if (handle !== null) {
        const prefix = this.tagHandles.get(handle);
        if (prefix === undefined) {
          throw this.fail('while parsing a node', start as number, `found undefined tag handle ${pyStrRepr(handle)}`, tagToken);
        }
        tag = prefix + tagToken.suffix;
      } else {
        tag = tagToken.suffix;
      }
    }
    if (start === null) start = end = this.peek().start;
    const implicit = tag === null || tag === '!';
    if (indentlessSequence && this.peek().type === T.BlockEntry) {
      this.state = S.IndentlessSequenceEntry;
      return this.collectionStart(E.SequenceStart, start, this.peek().end, anchor, tag, false);
    }
    const t = this.peek();
    switch (t.type) {
      case T.Scalar: {
        this.scanner.getToken();
        this.popState();
        const e = this.nodeEvent(E.Scalar, start, t.end, anchor, tag);
        e.implicit = (t.plain && tag === null) || tag === '!';
        e.value = t.value;
        e.contentEnd = t.contentEnd;
        return e;
      }
      case T.FlowSequenceStart:
        this.state = S.FlowSequenceFirstEntry;
        return this.collectionStart(E.SequenceStart, start, t.end, anchor, tag, true);
      case T.FlowMappingStart:
        this.state = S.FlowMappingFirstKey;
        return this.collectionStart(E.MappingStart, start, t.end, anchor, tag, true);
      case T.BlockSequenceStart:
        if (!block) break;
        this.state = S.BlockSequenceFirstEntry;
        return this.collectionStart(E.SequenceStart, start, t.start, anchor, tag, false);
      case T.BlockMappingStart:
        if (!block) break;
        this.state = S.BlockMappingFirstKey;
        return this.collectionStart(E.MappingStart, start, t.start, anchor, tag, false);
    }
    if (anchor !== null || tag !== null) {
      // Empty scalars are allowed even if a tag or an anchor is specified.
      this.popState();
      const e = this.nodeEvent(E.Scalar, start, end, anchor, tag);
      e.implicit = implicit;
      return e;
    }
    throw this.fail(`while parsing a ${block ? 'block' : 'flow'} node`, start, `expected the node content, but found '${TOKEN_ID[t.type]}'`, t);
  }

  private parseBlockSequenceEntry(): Event {
    if (this.peek().type === T.BlockEntry) {
      const t = this.scanner.getToken();
      const nt = this.peek().type;
      if (nt !== T.BlockEntry && nt !== T.BlockEnd) {
        this.states.push(S.BlockSequenceEntry);
        return this.parseNode(true, false);
      }
      this.state = S.BlockSequenceEntry;
      return this.emptyScalar(t.end);
    }
    if (this.peek().type !== T.BlockEnd) {
      const t = this.peek();
      throw this.fail('while parsing a block collection', this.marks[this.marks.length - 1], `expected <block end>, but found '${TOKEN_ID[t.type]}'`, t);
    }
    const t = this.scanner.getToken();
    this.popState();
    this.marks.pop();
    return this.event(E.SequenceEnd, t.start, t.end);
  }

  private parseIndentlessSequenceEntry(): Event {
    if (this.peek().type === T.BlockEntry) {
      const t = this.scanner.getToken();
      const nt = this.peek().type;
      if (nt !== T.BlockEntry && nt !== T.Key && nt !== T.Value && nt !== T.BlockEnd) {
        this.states.push(S.IndentlessSequenceEntry);
        return this.parseNode(true, false);
      }
      this.state = S.IndentlessSequenceEntry;
      return this.emptyScalar(t.end);
    }
    const t = this.peek();
    this.popState();
    return this.event(E.SequenceEnd, t.start, t.start);
  }

  private parseBlockMappingKey(): Event {
    if (this.peek().type === T.Key) {
      const t = this.scanner.getToken();
      const nt = this.peek().type;
      if (nt !== T.Key && nt !== T.Value && nt !== T.BlockEnd) {
        this.states.push(S.BlockMappingValue);
        return this.parseNode(true, true);
      }
      this.state = S.BlockMappingValue;
      return this.emptyScalar(t.end);
    }
    if (this.peek().type !== T.BlockEnd) {
      const t = this.peek();
      throw this.fail('while parsing a block mapping', this.marks[this.marks.length - 1], `expected <block end>, but found '${TOKEN_ID[t.type]}'`, t);
    }
    const t = this.scanner.getToken();
    this.popState();
    this.marks.pop();
    return this.event(E.MappingEnd, t.start, t.end);
  }

  private parseBlockMappingValue(): Event {
    if (this.peek().type === T.Value) {
      const t = this.scanner.getToken();
      const nt = this.peek().type;
      if (nt !== T.Key && nt !== T.Value && nt !== T.BlockEnd) {
        this.states.push(S.BlockMappingKey);
        return this.parseNode(true, true);
      }
      this.state = S.BlockMappingKey;
      return this.emptyScalar(t.end);
    }
    this.state = S.BlockMappingKey;
    return this.emptyScalar(this.peek().start);
  }

  private parseFlowSequenceEntry(first: boolean): Event {
    if (this.peek().type !== T.FlowSequenceEnd) {
      if (!first) {
        if (this.peek().type === T.FlowEntry) {
          this.scanner.getToken();
        } else {
          const t = this.peek();
          throw this.fail('while parsing a flow sequence', this.marks[this.marks.length - 1], `expected ',' or ']', but got '${TOKEN_ID[t.type]}'`, t);
        }
      }
      if (this.peek().type === T.Key) {
        const t = this.peek();
        this.state = S.FlowSequenceEntryMappingKey;
        const e = this.collectionStart(E.MappingStart, t.start, t.end, null, null, true);
        e.pairInSequence = true;
        return e;
      }
      if (this.peek().type !== T.FlowSequenceEnd) {
        this.states.push(S.FlowSequenceEntry);
        return this.parseNode(false, false);
      }
    }
    const t = this.scanner.getToken();
    this.popState();
    this.marks.pop();
    return this.event(E.SequenceEnd, t.start, t.end);
  }

  private parseFlowMappingKey(first: boolean): Event {
    if (this.peek().type !== T.FlowMappingEnd) {
      if (!first) {
        if (this.peek().type === T.FlowEntry) {
          this.scanner.getToken();
        } else {
          const t = this.peek();
          throw this.fail('while parsing a flow mapping', this.marks[this.marks.length - 1], `expected ',' or '}', but got '${TOKEN_ID[t.type]}'`, t);
        }
      }
      if (this.peek().type === T.Key) {
        const t = this.scanner.getToken();
        const nt = this.peek().type;
        if (nt !== T.Value && nt !== T.FlowEntry && nt !== T.FlowMappingEnd) {
          this.states.push(S.FlowMappingValue);
          return this.parseNode(false, false);
        }
        this.state = S.FlowMappingValue;
        return this.emptyScalar(t.end);
      }
      if (this.peek().type !== T.FlowMappingEnd) {
        this.states.push(S.FlowMappingEmptyValue);
        return this.parseNode(false, false);
      }
    }
    const t = this.scanner.getToken();
    this.popState();
    this.marks.pop();
    return this.event(E.MappingEnd, t.start, t.end);
  }
}
