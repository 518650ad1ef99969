/**
 * A container beside its own parts: an input that is MIME multipart or a `#cloud-config-archive`
 * (gzip-compressed or not) whose parts include every part of other inputs given with it, so that
 * merging them all merges those parts twice (a `built.mime` selected with the files it was built from).
 *
 * Parts are compared by content, the decoded payload cloud-init hands to its handlers (a MIME part's
 * file name is not reliable: make-mime names it after the file, other tools do not), with line
 * endings and trailing line breaks left out of the comparison. The preview's header and the editor's
 * order step both say it with `containerSentence`.
 */
import type { UserDataPart } from './parts';
import { pyRStripChars } from '../py/str';

export interface ContainedInputs {
  /** The index of the input that holds the others' parts. */
  container: number;
  /** The indexes of the inputs whose every part it holds, in input order. */
  contains: number[];
  /** How many of its parts no other input has (what leaving it out would lose). */
  own: number;
}

/** What a part is compared by: its decoded payload, CRLF as LF, without trailing line breaks. */
function contentKey(part: UserDataPart): string {
  const text = part.text ?? (part.bytes ? Buffer.from(part.bytes).toString('latin1') : '');
  // (not /\n+$/: it retries at every break of a long run inside the text, quadratic on fuzzed input)
  return `${part.text === null ? 'b' : 't'}${pyRStripChars(text.replace(/\r\n?/g, '\n'), '\n')}`;
}

/** Whether a part was reached through a MIME multipart or an archive of its input. */
function fromContainer(part: UserDataPart): boolean {
  return part.route.some((step) => step.via === 'mime' || step.via === 'archive');
}

/**
 * The containers among `inputs` inputs, given the parts user-data processing yielded from them (a
 * part's `blob` is its input's index; parts of sources reached by `#include` are not any input's).
 * An input is contained when it has at least one part and the container has a part of the same
 * content for each of them; an input is never its own container, and two inputs that hold the same
 * parts are copies, not a container and its parts.
 */
export function containersAmong(parts: readonly UserDataPart[], inputs: number): ContainedInputs[] {
  if (inputs < 2 || !parts.some(fromContainer)) return [];
  const byInput = Array.from({ length: inputs }, () => [] as UserDataPart[]);
  for (const part of parts) if (part.blob >= 0 && part.blob < inputs) byInput[part.blob].push(part);
  const keys = byInput.map((own) => new Set(own.map(contentKey)));
  const out: ContainedInputs[] = [];
  byInput.forEach((own, container) => {
    if (!own.some(fromContainer)) return;
    const held = keys[container];
    const contains: number[] = [];
    keys.forEach((other, i) => {
      if (i === container || !other.size || ![...other].every((k) => held.has(k))) return;
      if ([...held].every((k) => other.has(k))) return;
      contains.push(i);
    });
    if (!contains.length) return;
    const elsewhere = new Set(keys.flatMap((k, i) => (i === container ? [] : [...k])));
    out.push({ container, contains, own: [...held].filter((k) => !elsewhere.has(k)).length });
  });
  return out;
}

/**
 * `built.mime already contains 20-web.yaml and base.yaml` (the names as the caller shows them), and
 * `(and 1 part of its own)` when it has parts none of the others has.
 */
export function containerSentence(container: string, contained: readonly string[], own = 0): string {
  const list = contained.length < 2 ? contained.join('') : `${contained.slice(0, -1).join(', ')} and ${contained[contained.length - 1]}`;
  return `${container} already contains ${list}${own ? ` (and ${own} part${own === 1 ? '' : 's'} of its own)` : ''}`;
}
