/**
 * Hover and completion on the top-level keys of a NoCloud `meta-data` file: which of NoCloud's methods read
 * the key on the chosen cloud-init (engine/seed/metaDataKeys.ts, extracted from cloud-init's code), what
 * that read is for, and what NoCloud makes of this very file (engine/seed/metaData.ts, in the words the
 * seed's preview and `--check` use).
 */
import { CompletionItem, CompletionItemKind, TextEdit } from 'vscode-languageserver';
import type { TextSpan } from '../engine/py/values';
import { siblingKeys, textCursorAt } from '../engine/schema/textPath';
import { readMetaData, type MetaDataReading } from '../engine/seed/metaData';
import { LimitExceededError } from '../engine/limits';
import { metaDataKeyReaders, readWords } from '../engine/seed/metaDataKeys';
import { metaDataVerdict } from '../engine/render/seedText';
import type { CloudInitVersion } from '../engine/version/versions';
import type { DocumentState } from './common/analysisCache';
import { markup } from './common/docs';

/** What NoCloud does with `key` on `version`, in Markdown (the readers and what each read is for). */
export function metaDataKeyMarkdown(key: string, version: CloudInitVersion): string {
  const readers = metaDataKeyReaders(version)[key];
  if (!readers) return `**\`${key}\`**: NoCloud reads no meta-data key \`${key}\` (cloud-init ${version}): it stays in the meta-data (instance data \`ds.meta_data\`), and nothing NoCloud does uses it.`;
  const said = (m: string) => `\`${m}\`${readWords(m, key) ? `: ${readWords(m, key)}` : ''}`;
  if (readers.length === 1) return `**\`${key}\`**: NoCloud meta-data (cloud-init ${version}), read by ${said(readers[0])}.`;
  return `**\`${key}\`**: NoCloud meta-data (cloud-init ${version}), read by:\n\n${readers.map((m) => `- ${said(m)}`).join('\n')}`;
}

/** The top-level key under the cursor (its text and where it is written), or null. */
function topLevelKeyAt(state: DocumentState, offset: number): { text: string; start: number; end: number; at: 'key' | 'value' } | null {
  if (state.analysis.info?.kind !== 'meta-data') return null;
  const cursor = textCursorAt(state.text, offset);
  if (!cursor?.key || cursor.parent.length) return null;
  return { ...cursor.key, at: cursor.at };
}

/** Hover on a top-level key of a meta-data file: what NoCloud does with it, then what it makes of the file. */
export function metaDataHover(state: DocumentState, offset: number): { markdown: string; span: TextSpan } | null {
  const key = topLevelKeyAt(state, offset);
  if (!key?.text || offset < key.start || offset > key.end) return null;
  // The analysis read the file once (a million-item instance-id took seconds to read again on every hover).
  const read = state.analysis.metaData ?? readOnce(state.text);
  const verdict =
    'reading' in read
      ? `What NoCloud makes of this file: ${metaDataVerdict(read.reading)}.`
      : `What NoCloud makes of this file is not reproduced here: ${read.limit.replace(/\.?$/, '.')}`;
  return { markdown: `${metaDataKeyMarkdown(key.text, state.settings.cloudInitVersion)}\n\n${verdict}`, span: { start: key.start, end: key.end } };
}

/** What NoCloud makes of `text`, or the limit that stops reproducing it (an analysis that did not keep it). */
function readOnce(text: string): { reading: MetaDataReading } | { limit: string } {
  try {
    return { reading: readMetaData(new TextEncoder().encode(text)) };
  } catch (e) {
    if (!(e instanceof LimitExceededError)) throw e;
    return { limit: e.message };
  }
}

/** Completion of a top-level key of a meta-data file: the keys NoCloud reads that are not written yet. */
export function metaDataCompletion(state: DocumentState, offset: number, markdown: boolean): CompletionItem[] | null {
  const key = topLevelKeyAt(state, offset);
  if (!key || key.at !== 'key') return null;
  const version = state.settings.cloudInitVersion;
  const written = siblingKeys(state.text, key.start);
  written.delete(key.text);
  const afterKey = state.text.slice(key.end, key.end + 1) === ':';
  return Object.entries(metaDataKeyReaders(version))
    .filter(([k]) => !written.has(k))
    .map(([k, readers]) => ({
      label: k,
      kind: CompletionItemKind.Property,
      detail: `NoCloud: ${readers.join(', ')}`,
      documentation: markup(metaDataKeyMarkdown(k, version), markdown),
      textEdit: TextEdit.replace(state.range({ start: key.start, end: key.end }), afterKey ? k : `${k}: `),
    }));
}
