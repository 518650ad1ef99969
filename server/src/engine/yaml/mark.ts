/**
 * PyYAML's `error.py` as text: a `Mark` (line, column, the snippet with its caret) and the string of a
 * `MarkedYAMLError` / `ReaderError`, as `str(e)` gives them. cloud-init prints that string inside its own
 * messages (`cloud-init schema`: "File f is not valid YAML. while parsing ...").
 *
 * Lines and columns count as PyYAML's reader does: `\r\n`, `\r`, `\n`, NEL, LS and PS end a line; columns
 * are code points, a BOM is not counted.
 */
import type { YamlProblem } from './errors';

export interface PyYamlMark {
  /** 0-based, as PyYAML's `Mark.line`. */
  line: number;
  column: number;
}

const LINE_BREAKS = new Set(['\n', '\x85', '\u2028', '\u2029']);
const SNIPPET_STOPS = new Set(['\0', '\r', '\n', '\x85', '\u2028', '\u2029']);

/** The code points of `text` as PyYAML's buffer holds them (with its trailing NUL). */
function codePoints(text: string): string[] {
  return [...Array.from(text), '\0'];
}

function pointerOf(text: string, offset: number): number {
  return Array.from(text.slice(0, offset)).length;
}

/** The mark PyYAML's reader has at UTF-16 `offset` of `text`. */
export function markAt(text: string, offset: number): PyYamlMark {
  const buffer = codePoints(text);
  const pointer = pointerOf(text, offset);
  let line = 0;
  let column = 0;
  for (let i = 0; i < pointer; i++) {
    const ch = buffer[i];
    if (LINE_BREAKS.has(ch) || (ch === '\r' && buffer[i + 1] !== '\n')) {
      line++;
      column = 0;
    } else if (ch !== '\uFEFF') column++;
  }
  return { line, column };
}

/** `Mark.get_snippet()`: the line around the pointer (at most 75 characters) and a caret under it. */
function snippet(buffer: string[], pointer: number, indent = 4, maxLength = 75): string {
  let head = '';
  let start = pointer;
  while (start > 0 && !SNIPPET_STOPS.has(buffer[start - 1])) {
    start--;
    if (pointer - start > maxLength / 2 - 1) {
      head = ' ... ';
      start += 5;
      break;
    }
  }
  let tail = '';
  let end = pointer;
  while (end < buffer.length && !SNIPPET_STOPS.has(buffer[end])) {
    end++;
    if (end - pointer > maxLength / 2 - 1) {
      tail = ' ... ';
      end -= 5;
      break;
    }
  }
  const text = buffer.slice(start, end).join('');
  return `${' '.repeat(indent)}${head}${text}${tail}\n${' '.repeat(indent + pointer - start + head.length)}^`;
}

/** `str(Mark)`: `  in "NAME", line L, column C:` and the snippet. */
export function formatMark(text: string, offset: number, name: string): string {
  const m = markAt(text, offset);
  return `  in "${name}", line ${m.line + 1}, column ${m.column + 1}:\n${snippet(codePoints(text), pointerOf(text, offset))}`;
}

/**
 * `str(e)` of the YAMLError PyYAML raises for `problem` while loading `text` from a stream named `name`
 * (`<unicode string>` for a str, `<byte string>` for bytes). Undefined for problems PyYAML does not raise
 * as a YAMLError (a ValueError while constructing, our own limits).
 */
export function pyYamlErrorString(problem: YamlProblem, text: string, name: string): string | undefined {
  if (problem.pyException === 'ReaderError') {
    return `${problem.message}\n  in "${name}", position ${pointerOf(text, problem.span.start)}`;
  }
  if (!problem.pyException || !/^(Scanner|Parser|Composer|Constructor)Error$/.test(problem.pyException)) return undefined;
  const lines: string[] = [];
  const context = problem.context;
  const body = context !== undefined && problem.message.startsWith(`${context}\n`) ? problem.message.slice(context.length + 1) : problem.message;
  if (context !== undefined) lines.push(context);
  if (problem.contextSpan) {
    const c = markAt(text, problem.contextSpan.start);
    const p = markAt(text, problem.span.start);
    if (c.line !== p.line || c.column !== p.column) lines.push(formatMark(text, problem.contextSpan.start, name));
  }
  lines.push(body, formatMark(text, problem.span.start, name));
  return lines.join('\n');
}

/** The mark cloud-init reports a YAML error at: the context mark when there is one, else the problem's. */
export function reportedMark(problem: YamlProblem, text: string): PyYamlMark {
  if (problem.pyException === 'ReaderError') return { line: 0, column: 0 }; // a ReaderError has no marks
  return markAt(text, (problem.contextSpan ?? problem.span).start);
}
