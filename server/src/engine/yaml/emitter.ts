/**
 * PyYAML's `emitter.py`: a state machine that keeps the emitter's state (column, whitespace and
 * indentation flags, the indentation stack, simple-key checks, style choice from scalarAnalysis.ts,
 * line folding) and writes the text into one growing byte buffer (asciiOutput.ts: allow_unicode is
 * off, so everything else is escaped), so time is linear in the output. PyYAML's own layout makes
 * deeply nested mappings quadratic in the depth (4 more spaces a level).
 *
 * Two drivers share the writers: the event state machine (any node graph: anchors, aliases, tags,
 * complex keys) and `emitValue`, a direct walk of the common value (no shared objects, str keys,
 * lists, dicts and plain scalars) that writes the same bytes without building nodes or events.
 */
import { PyDict, PyValue } from '../py/values';
import { pyIntStr } from '../py/int';
import { RepNode, floatText, sortedStrEntries } from './representer';
import { BOOL_TAG, FLOAT_TAG, INT_TAG, NULL_TAG, STR_TAG, resolveScalar } from './resolver';
import { AsciiOutput } from './asciiOutput';
import { Analysis, Chars, analyzeScalar, blockHints, escapeChar, isBreak, isBreakCode, isPlainSafe, isSimpleStrKey, needsEscape } from './scalarAnalysis';
import { ALIAS, DOCUMENT_END, DOCUMENT_START, EventSource, MAPPING_END, MAPPING_START, PathNode, SCALAR_EVENT, SEQUENCE_END, SEQUENCE_START, STREAM_END, STREAM_START, STREAM_START_EVENT, YEvent } from './serializer';

// ---------------------------------------------------------------------------
// Emitter

/** Thrown inside emitValue for a value only the node pipeline writes right. */
class NeedsNodes extends Error {}

/** A collection emitValue is writing: a list's items, or a dict's items in sorted order. */
interface WalkFrame {
  items: PyValue[] | null;
  entries: Array<{ key: PyValue; value: PyValue }> | null;
  i: number;
  path: PathNode | null;
}

export class Emitter {
  private readonly output = new AsciiOutput();
  /** Flat pairs: PathNode, line. */
  readonly marks: Array<PathNode | number> = [];

  private readonly states: Array<() => void> = [];
  private state: () => void;
  private event: YEvent = STREAM_START_EVENT;
  private source: EventSource | null = null;

  private readonly indents: Array<number | null> = [];
  private indent: number | null = null;
  private flowLevel = 0;

  private rootContext = false;
  private mappingContext = false;
  private simpleKeyContext = false;

  private line = 0;
  private column = 0;
  private whitespace = true;
  private indention = true;
  private openEnded = false;

  private analysis: Analysis | null = null;
  private style: string | null = null;

  // States as bound functions, created once.
  private readonly sFirstDocumentStart = (): void => this.expectDocumentStart(true);
  private readonly sDocumentStart = (): void => this.expectDocumentStart(false);
  private readonly sDocumentRoot = (): void => this.expectDocumentRoot();
  private readonly sDocumentEnd = (): void => this.expectDocumentEnd();
  private readonly sNothing = (): void => {
    throw new Error('expected nothing');
  };
  private readonly sFirstFlowSequenceItem = (): void => this.expectFirstFlowSequenceItem();
  private readonly sFirstFlowMappingKey = (): void => this.expectFirstFlowMappingKey();
  private readonly sFirstBlockSequenceItem = (): void => this.expectBlockSequenceItem(true);
  private readonly sBlockSequenceItem = (): void => this.expectBlockSequenceItem(false);
  private readonly sFirstBlockMappingKey = (): void => this.expectBlockMappingKey(true);
  private readonly sBlockMappingKey = (): void => this.expectBlockMappingKey(false);
  private readonly sBlockMappingSimpleValue = (): void => this.expectBlockMappingSimpleValue();
  private readonly sBlockMappingValue = (): void => this.expectBlockMappingValue();

  constructor(
    private readonly bestIndent: number,
    private readonly bestWidth: number,
    private readonly withLines: boolean,
    private readonly explicitStart: boolean,
    private readonly explicitEnd: boolean,
  ) {
    this.state = (): void => this.expectStreamStart();
  }

  /** Writes the events of `source` (the node pipeline). */
  run(source: EventSource): void {
    this.source = source;
    for (;;) {
      this.event = source.next();
      this.state();
      if (this.event.type === STREAM_END) return;
    }
  }

  private get events(): EventSource {
    return this.source as EventSource;
  }

  // -------------------------------------------------------------------------
  // The direct driver

  /**
   * Writes `root` as the event pipeline would, walking the value itself. Returns false, with the
   * output unusable, when the value has what only the node pipeline writes right: an object reached
   * twice (anchors; not looked for without `checkShared`), a non-str key, a tuple, set, bytes or
   * timestamp, or nesting at `maxLevels`.
   */
  emitValue(root: PyValue, maxLevels: number, checkShared = true): boolean {
    try {
      this.walk(root, maxLevels, checkShared ? new Set<object>() : null);
      return true;
    } catch (e) {
      if (e instanceof NeedsNodes) return false;
      throw e;
    }
  }

  /** @param seen the collections met so far, or null when the caller knows none is met twice */
  private walk(root: PyValue, maxLevels: number, seen: Set<object> | null): void {
    const stack: WalkFrame[] = [];
    /** Opens `value` in the current context: a scalar is written, a non-empty collection pushed. */
    const node = (value: PyValue, path: PathNode | null): void => {
      if (stack.length >= maxLevels) throw new NeedsNodes();
      if (typeof value === 'string') return this.writeDirectScalar(value);
      if (value instanceof PyDict || Array.isArray(value)) {
        if (seen !== null) {
          if (seen.has(value)) throw new NeedsNodes();
          seen.add(value);
        }
        if (Array.isArray(value)) {
          if (value.length === 0) return this.writeEmptyFlow('[', ']');
          this.increaseIndent(false, this.mappingContext && !this.indention);
          stack.push({ items: value, entries: null, i: 0, path });
        } else {
          if (value.size === 0) return this.writeEmptyFlow('{', '}');
          this.increaseIndent(false);
          const entries = sortedStrEntries(value);
          if (!entries) throw new NeedsNodes();
          stack.push({ items: null, entries, i: 0, path });
        }
        return;
      }
      this.writeDirectScalar(value);
    };

    this.writeDocumentStart(true);
    this.setContext(true, false, false);
    node(root, null);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const items = top.items;
      if (items !== null) {
        if (top.i >= items.length) {
          this.indent = this.indents.pop() as number | null;
          stack.pop();
          continue;
        }
        const index = top.i++;
        this.writeIndent();
        const mark = this.withLines ? { parent: top.path, seg: index } : null;
        if (mark) this.marks.push(mark, this.line);
        this.writeIndicator('-', true, false, true);
        this.setContext(false, false, false);
        node(items[index], mark);
        continue;
      }
      const entries = top.entries as Array<{ key: PyValue; value: PyValue }>;
      if (top.i >= entries.length) {
        this.indent = this.indents.pop() as number | null;
        stack.pop();
        continue;
      }
      const { key, value } = entries[top.i++];
      this.writeIndent();
      const mark = this.withLines ? { parent: top.path, seg: key as string } : null;
      if (mark) this.marks.push(mark, this.line);
      if (stack.length >= maxLevels) throw new NeedsNodes();
      if (isSimpleStrKey(key as string)) {
        this.setContext(false, true, true);
        this.writeDirectScalar(key);
        this.writeIndicator(':', false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.setContext(false, true, false);
        this.writeDirectScalar(key);
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
      }
      this.setContext(false, true, false);
      node(value, mark);
    }
    this.writeDocumentEnd();
    this.writeStreamEnd();
  }

  private setContext(root: boolean, mapping: boolean, simpleKey: boolean): void {
    this.rootContext = root;
    this.mappingContext = mapping;
    this.simpleKeyContext = simpleKey;
  }

  /** An empty list or dict: the flow collection the event pipeline writes, with no items. */
  private writeEmptyFlow(open: string, close: string): void {
    this.writeIndicator(open, true, true);
    this.writeIndicator(close, false);
  }

  /** A None, bool, int, float or str, as the representer and expectScalar write it. */
  private writeDirectScalar(value: PyValue): void {
    let tag: string;
    let text: string;
    if (typeof value === 'string') {
      // The common scalar: plain when it reads back as a str, else single-quoted; never tagged.
      if (isPlainSafe(value)) {
        this.increaseIndent(true);
        if (resolveScalar(value, true) === STR_TAG) this.writePlain(value, !this.simpleKeyContext);
        else this.writeSingleQuoted(value, !this.simpleKeyContext);
        this.indent = this.indents.pop() as number | null;
        return;
      }
      tag = STR_TAG;
      text = value;
    } else if (value === null) {
      tag = NULL_TAG;
      text = 'null';
    } else if (typeof value === 'boolean') {
      tag = BOOL_TAG;
      text = value ? 'true' : 'false';
    } else if (typeof value === 'bigint') {
      tag = INT_TAG;
      text = pyIntStr(value);
    } else if (typeof value === 'number') {
      tag = FLOAT_TAG;
      text = floatText(value);
    } else {
      throw new NeedsNodes();
    }
    const implicitPlain = resolveScalar(text, true) === tag;
    this.analysis = analyzeScalar(text);
    this.style = this.chooseScalarStyle(null, implicitPlain);
    if (!((this.style === '' && implicitPlain) || (this.style !== '' && tag === STR_TAG))) {
      this.writeIndicator('!!' + tag.slice(tag.lastIndexOf(':') + 1), true);
    }
    this.increaseIndent(true);
    this.processScalar();
    this.indent = this.indents.pop() as number | null;
  }

  // -------------------------------------------------------------------------
  // The event driver

  private popState(): void {
    this.state = this.states.pop() as () => void;
  }

  private increaseIndent(flow: boolean, indentless = false): void {
    this.indents.push(this.indent);
    if (this.indent === null) {
      this.indent = flow ? this.bestIndent : 0;
    } else if (!indentless) {
      this.indent += this.bestIndent;
    }
  }

  // Stream and document handlers.

  private expectStreamStart(): void {
    if (this.event.type !== STREAM_START) throw new Error('expected StreamStartEvent');
    this.state = this.sFirstDocumentStart;
  }

  private expectDocumentStart(first: boolean): void {
    const ev = this.event;
    if (ev.type === DOCUMENT_START) {
      // check_empty_document never holds: represented scalars always carry a tag.
      this.writeDocumentStart(first);
      this.state = this.sDocumentRoot;
    } else if (ev.type === STREAM_END) {
      this.writeStreamEnd();
      this.state = this.sNothing;
    } else {
      throw new Error('expected DocumentStartEvent');
    }
  }

  private writeDocumentStart(first: boolean): void {
    const implicit = first && !this.explicitStart;
    if (!implicit) {
      this.writeIndent();
      this.writeIndicator('---', true);
    }
  }

  private writeStreamEnd(): void {
    if (this.openEnded) {
      this.writeIndicator('...', true);
      this.writeIndent();
    }
  }

  private expectDocumentEnd(): void {
    if (this.event.type !== DOCUMENT_END) throw new Error('expected DocumentEndEvent');
    this.writeDocumentEnd();
    this.state = this.sDocumentStart;
  }

  private writeDocumentEnd(): void {
    this.writeIndent();
    if (this.explicitEnd) {
      this.writeIndicator('...', true);
      this.writeIndent();
    }
  }

  private expectDocumentRoot(): void {
    this.states.push(this.sDocumentEnd);
    this.expectNode(true, false, false);
  }

  // Node handlers.

  private expectNode(root: boolean, mapping: boolean, simpleKey: boolean): void {
    this.setContext(root, mapping, simpleKey);
    const ev = this.event;
    switch (ev.type) {
      case ALIAS:
        this.processAnchor('*');
        this.popState();
        return;
      case SCALAR_EVENT:
        this.processAnchor('&');
        this.processTag();
        this.expectScalar();
        return;
      case SEQUENCE_START:
        this.processAnchor('&');
        this.processTag();
        if (this.flowLevel || this.checkEmptySequence()) this.expectFlowSequence();
        else this.expectBlockSequence();
        return;
      case MAPPING_START:
        this.processAnchor('&');
        this.processTag();
        if (this.flowLevel || this.checkEmptyMapping()) this.expectFlowMapping();
        else this.expectBlockMapping();
        return;
      default:
        throw new Error('expected NodeEvent');
    }
  }

  private expectScalar(): void {
    this.increaseIndent(true);
    this.processScalar();
    this.indent = this.indents.pop() as number | null;
    this.popState();
  }

  // Flow collections: with default_flow_style=False only empty ones are flow.

  private expectFlowSequence(): void {
    this.writeIndicator('[', true, true);
    this.flowLevel++;
    this.increaseIndent(true);
    this.state = this.sFirstFlowSequenceItem;
  }

  private expectFirstFlowSequenceItem(): void {
    if (this.event.type !== SEQUENCE_END) throw new Error('non-empty flow sequence is not supported');
    this.indent = this.indents.pop() as number | null;
    this.flowLevel--;
    this.writeIndicator(']', false);
    this.popState();
  }

  private expectFlowMapping(): void {
    this.writeIndicator('{', true, true);
    this.flowLevel++;
    this.increaseIndent(true);
    this.state = this.sFirstFlowMappingKey;
  }

  private expectFirstFlowMappingKey(): void {
    if (this.event.type !== MAPPING_END) throw new Error('non-empty flow mapping is not supported');
    this.indent = this.indents.pop() as number | null;
    this.flowLevel--;
    this.writeIndicator('}', false);
    this.popState();
  }

  // Block collections.

  private expectBlockSequence(): void {
    const indentless = this.mappingContext && !this.indention;
    this.increaseIndent(false, indentless);
    this.state = this.sFirstBlockSequenceItem;
  }

  private expectBlockSequenceItem(first: boolean): void {
    if (!first && this.event.type === SEQUENCE_END) {
      this.indent = this.indents.pop() as number | null;
      this.popState();
      return;
    }
    this.writeIndent();
    if (this.withLines && this.event.mark) this.marks.push(this.event.mark, this.line);
    this.writeIndicator('-', true, false, true);
    this.states.push(this.sBlockSequenceItem);
    this.expectNode(false, false, false);
  }

  private expectBlockMapping(): void {
    this.increaseIndent(false);
    this.state = this.sFirstBlockMappingKey;
  }

  private expectBlockMappingKey(first: boolean): void {
    if (!first && this.event.type === MAPPING_END) {
      this.indent = this.indents.pop() as number | null;
      this.popState();
      return;
    }
    this.writeIndent();
    if (this.withLines && this.event.mark) this.marks.push(this.event.mark, this.line);
    if (this.checkSimpleKey()) {
      this.states.push(this.sBlockMappingSimpleValue);
      this.expectNode(false, true, true);
    } else {
      this.writeIndicator('?', true, false, true);
      this.states.push(this.sBlockMappingValue);
      this.expectNode(false, true, false);
    }
  }

  private expectBlockMappingSimpleValue(): void {
    this.writeIndicator(':', false);
    this.states.push(this.sBlockMappingKey);
    this.expectNode(false, true, false);
  }

  private expectBlockMappingValue(): void {
    this.writeIndent();
    this.writeIndicator(':', true, false, true);
    this.states.push(this.sBlockMappingKey);
    this.expectNode(false, true, false);
  }

  // Checkers.

  private checkEmptySequence(): boolean {
    return this.event.type === SEQUENCE_START && this.events.peek().type === SEQUENCE_END;
  }

  private checkEmptyMapping(): boolean {
    return this.event.type === MAPPING_START && this.events.peek().type === MAPPING_END;
  }

  private checkSimpleKey(): boolean {
    const ev = this.event;
    let length = 0;
    if (ev.anchor !== null) length += ev.anchor.length;
    if (ev.type !== ALIAS) length += 2 + (ev.node as RepNode).tag.length; // prepared tag `!!suffix`
    if (ev.type === SCALAR_EVENT) {
      if (this.analysis === null) this.analysis = analyzeScalar((ev.node as RepNode).value);
      length += this.analysis.scalar.length;
    }
    if (length >= 128) return false;
    if (ev.type === ALIAS) return true;
    if (ev.type === SCALAR_EVENT) {
      const a = this.analysis as Analysis;
      return !a.empty && !a.multiline;
    }
    return this.checkEmptySequence() || this.checkEmptyMapping();
  }

  // Anchor, tag and scalar processors.

  private processAnchor(indicator: string): void {
    const anchor = this.event.anchor;
    if (anchor === null) return;
    this.writeIndicator(indicator + anchor, true);
  }

  private processTag(): void {
    const ev = this.event;
    const node = ev.node as RepNode;
    if (ev.type === SCALAR_EVENT) {
      if (this.analysis === null) this.analysis = analyzeScalar(node.value);
      if (this.style === null) this.style = this.chooseScalarStyle(node.style, ev.implicit0);
      if ((this.style === '' && ev.implicit0) || (this.style !== '' && ev.implicit1)) return;
    } else if (ev.implicit0) {
      return;
    }
    this.writeIndicator('!!' + node.tag, true);
  }

  /**
   * choose_scalar_style for the analysed scalar.
   * @param style the representer's style for the node
   * @param implicitPlain plain style would resolve back to the node's tag
   */
  private chooseScalarStyle(style: string | null, implicitPlain: boolean): string {
    const a = this.analysis as Analysis;
    if (!style && implicitPlain) {
      if (
        !(this.simpleKeyContext && (a.empty || a.multiline)) &&
        ((this.flowLevel && a.allowFlowPlain) || (!this.flowLevel && a.allowBlockPlain))
      ) {
        return '';
      }
    }
    if (style === '|' || style === '>') {
      if (!this.flowLevel && !this.simpleKeyContext && a.allowBlock) return style;
    }
    if (!style || style === "'") {
      if (a.allowSingleQuoted && !(this.simpleKeyContext && a.multiline)) return "'";
    }
    return '"';
  }

  /** Writes the analysed scalar in the chosen style (both were set by the caller). */
  private processScalar(): void {
    const node = this.event.node as RepNode;
    if (this.analysis === null) this.analysis = analyzeScalar(node.value);
    if (this.style === null) this.style = this.chooseScalarStyle(node.style, this.event.implicit0);
    const split = !this.simpleKeyContext;
    const text = this.analysis.scalar;
    switch (this.style) {
      case '"':
        this.writeDoubleQuoted(text, split);
        break;
      case "'":
        this.writeSingleQuoted(text, split);
        break;
      case '|':
        this.writeLiteral(text);
        break;
      case '':
        this.writePlain(text, split);
        break;
      default:
        throw new Error(`unsupported scalar style ${this.style}`);
    }
    this.analysis = null;
    this.style = null;
  }

  /** The text written, once run() or emitValue() has finished. */
  get out(): string {
    return this.output.text();
  }

  // Writers.

  private write(data: string): void {
    this.output.append(data);
  }

  /** Writes `text[start:end]` (Python characters). */
  private writeRange(text: Chars, start: number, end: number): void {
    if (typeof text === 'string') this.output.appendRange(text, start, end);
    else this.output.append(text.slice(start, end).join(''));
  }

  private writeIndicator(indicator: string, needWhitespace: boolean, whitespace = false, indention = false): void {
    if (!this.whitespace && needWhitespace) {
      this.output.appendChar(0x20);
      this.column++;
    }
    this.whitespace = whitespace;
    this.indention = this.indention && indention;
    this.column += indicator.length;
    this.openEnded = false;
    if (indicator.length === 1) this.output.appendChar(indicator.charCodeAt(0));
    else this.write(indicator);
  }

  private writeIndent(): void {
    const indent = this.indent ?? 0;
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) {
      this.writeLineBreak();
    }
    if (this.column < indent) {
      this.whitespace = true;
      this.output.appendSpaces(indent - this.column);
      this.column = indent;
    }
  }

  private writeLineBreak(data = '\n'): void {
    this.whitespace = true;
    this.indention = true;
    this.line++;
    this.column = 0;
    this.output.appendChar(data.charCodeAt(0));
  }

  private writeBreaks(text: Chars, start: number, end: number): void {
    for (let i = start; i < end; i++) this.writeLineBreak(text[i]);
  }

  /** PyYAML's write_single_quoted. */
  private writeSingleQuoted(chars: Chars, split: boolean): void {
    this.writeIndicator("'", true);
    this.writeRuns(asString(chars), split, true);
    this.writeIndicator("'", false);
  }

  /**
   * The text of write_plain and write_single_quoted, by runs instead of by characters: a single space
   * past the width folds the line (inside the text, when quoted), a run of breaks is written as lines,
   * and a quote is doubled when quoted. After a fold or breaks, plain text is not at whitespace.
   */
  private writeRuns(text: string, split: boolean, quoted: boolean): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      const c = text.charCodeAt(i);
      let j = i + 1;
      if (c === 0x20) {
        while (j < n && text.charCodeAt(j) === 0x20) j++;
        if (j === i + 1 && this.column > this.bestWidth && split && (!quoted || (i !== 0 && j !== n))) {
          this.writeIndent();
          if (!quoted) this.whitespace = this.indention = false;
        } else {
          this.column += j - i;
          this.output.appendRange(text, i, j);
        }
      } else if (isBreakCode(c)) {
        // Plain text never has one (the analysis allows no plain style then); PyYAML handles it alike.
        while (j < n && isBreakCode(text.charCodeAt(j))) j++;
        if (c === 0x0a) this.writeLineBreak();
        this.writeBreaks(text, i, j);
        this.writeIndent();
        if (!quoted) this.whitespace = this.indention = false;
      } else if (quoted && c === 0x27) {
        this.column += 2;
        this.write("''");
      } else {
        j = this.output.appendWord(text, i, quoted);
        this.column += j - i;
      }
      i = j;
    }
  }

  private writeDoubleQuoted(text: Chars, split: boolean): void {
    this.writeIndicator('"', true);
    let start = 0;
    let end = 0;
    const n = text.length;
    while (end <= n) {
      const ch = end < n ? text[end] : null;
      if (ch === null || needsEscape(ch)) {
        if (start < end) {
          this.column += end - start;
          this.writeRange(text, start, end);
          start = end;
        }
        if (ch !== null) {
          const data = escapeChar(ch);
          this.column += data.length;
          this.write(data);
          start = end + 1;
        }
      }
      if (
        0 < end &&
        end < n - 1 &&
        (ch === ' ' || start >= end) &&
        this.column + (end - start) > this.bestWidth &&
        split
      ) {
        this.column += end - start + 1;
        this.writeRange(text, start, end);
        this.write('\\');
        if (start < end) start = end;
        this.writeIndent();
        this.whitespace = false;
        this.indention = false;
        if (text[start] === ' ') {
          this.column += 1;
          this.write('\\');
        }
      }
      end++;
    }
    this.writeIndicator('"', false);
  }

  private writeLiteral(text: Chars): void {
    const hints = blockHints(text, this.bestIndent);
    this.writeIndicator('|' + hints, true);
    if (hints.endsWith('+')) this.openEnded = true;
    this.writeLineBreak();
    let breaks = true;
    let start = 0;
    let end = 0;
    const n = text.length;
    while (end <= n) {
      const ch = end < n ? text[end] : null;
      if (breaks) {
        if (ch === null || !isBreak(ch)) {
          this.writeBreaks(text, start, end);
          if (ch !== null) this.writeIndent();
          start = end;
        }
      } else if (ch === null || isBreak(ch)) {
        this.writeRange(text, start, end);
        if (ch === null) this.writeLineBreak();
        start = end;
      }
      if (ch !== null) breaks = isBreak(ch);
      end++;
    }
  }

  /** PyYAML's write_plain. */
  private writePlain(chars: Chars, split: boolean): void {
    const text = asString(chars);
    if (this.rootContext) this.openEnded = true;
    if (text.length === 0) return;
    if (!this.whitespace) {
      this.column += 1;
      this.output.appendChar(0x20);
    }
    this.whitespace = false;
    this.indention = false;
    this.writeRuns(text, split, false);
  }
}

/**
 * Plain, single-quoted and literal scalars have only printable ASCII and line breaks (anything else
 * makes the analysis choose double quotes), so their text is never split into Python characters.
 */
function asString(chars: Chars): string {
  if (typeof chars !== 'string') throw new Error('internal error: a scalar with surrogates reached a writer of printable text');
  return chars;
}

