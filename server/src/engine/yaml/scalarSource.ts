/**
 * Where the characters of a loaded scalar are in the text it was written in, when that can be told
 * simply: an archive entry's `content: |` and the like, whose positions are reported in the file.
 */
import type { TextSpan } from '../py/values';

/**
 * How offsets in a scalar's value map to the text it is written in: a plain or quoted scalar on one line
 * whose text is the value itself, or a literal block scalar (each value line is a source line after the
 * block's indentation). Undefined when neither holds.
 */
export function valueOffsetMap(text: string, span: TextSpan, value: string): ((offset: number) => number | undefined) | undefined {
  const written = text.slice(span.start, span.end);
  if (!written.includes('\n')) {
    const at = written.indexOf(value);
    if (at < 0 || (at > 0 && !/^["']$/.test(written[0]))) return undefined;
    return (o) => (o <= value.length ? span.start + at + o : undefined);
  }
  if (!/^\|[-+0-9]*[ \t]*(#.*)?$/.test(written.slice(0, written.indexOf('\n')))) return undefined;
  const lineStarts: number[] = [];
  let pos = span.start + written.indexOf('\n') + 1;
  const valueLines = value.split('\n');
  let indent: number | undefined;
  for (let k = 0; k < valueLines.length; k++) {
    const end = text.indexOf('\n', pos);
    const line = text.slice(pos, end < 0 ? text.length : end);
    if (valueLines[k] === '' && !line.trim()) {
      lineStarts.push(pos + Math.min(line.length, indent ?? line.length));
    } else {
      indent ??= line.length - line.trimStart().length;
      if (line.slice(indent) !== valueLines[k]) return k === valueLines.length - 1 && valueLines[k] === '' ? finish() : undefined;
      lineStarts.push(pos + indent);
    }
    if (end < 0) break;
    pos = end + 1;
  }
  return finish();

  function finish() {
    const starts = [0];
    for (let k = 0; k < valueLines.length - 1; k++) starts.push(starts[k] + valueLines[k].length + 1);
    return (o: number) => {
      let k = starts.length - 1;
      while (k > 0 && starts[k] > o) k--;
      return lineStarts[k] === undefined ? undefined : lineStarts[k] + (o - starts[k]);
    };
  }
}
