/**
 * Hover and completion for autoinstall keys (engine/autoinstall/keys.ts), for the Subiquity of the
 * document's image: under `autoinstall:` of a cloud-config, and in an autoinstall.yaml (under its
 * `autoinstall:`, or the whole file). The nested `user-data` is cloud-config: left to the cloud-init schema.
 */
import { CompletionItem, CompletionItemKind, TextEdit } from 'vscode-languageserver';
import type { TextSpan } from '../../engine/py/values';
import { autoinstallKeyDoc, autoinstallKeysAt } from '../../engine/autoinstall/keys';
import { siblingKeys, textCursorAt } from '../../engine/schema/textPath';
import type { NavSegment } from '../../engine/schema/navigate';
import type { DocumentState } from './analysisCache';
import { markup } from './docs';

/** The path under the autoinstall mapping, or undefined when the cursor is not in one. */
function innerPath(state: DocumentState, parent: NavSegment[]): string[] | undefined {
  const kind = state.analysis.info?.kind;
  const segs = parent.map((s) => (typeof s === 'string' ? s : '[]'));
  let inner: string[] | undefined;
  if (kind === 'cloud-config') inner = segs[0] === 'autoinstall' ? segs.slice(1) : undefined;
  else if (kind === 'autoinstall') inner = /^autoinstall\s*:/m.test(state.text) ? (segs[0] === 'autoinstall' ? segs.slice(1) : undefined) : segs;
  if (!inner || inner[0] === 'user-data') return undefined;
  return inner;
}

export function autoinstallHover(state: DocumentState, offset: number): { markdown: string; span: TextSpan } | null {
  const profile = state.settings.target.subiquity;
  if (!profile) return null;
  const cursor = textCursorAt(state.text, offset);
  if (!cursor?.key?.text || offset < cursor.key.start || offset > cursor.key.end) return null;
  const inner = innerPath(state, cursor.parent);
  if (!inner) return null;
  const doc = autoinstallKeyDoc(profile, [...inner, cursor.key.text]);
  return doc ? { markdown: doc.markdown, span: { start: cursor.key.start, end: cursor.key.end } } : null;
}

export function autoinstallCompletion(state: DocumentState, offset: number, markdown: boolean): CompletionItem[] | null {
  const profile = state.settings.target.subiquity;
  if (!profile) return null;
  const cursor = textCursorAt(state.text, offset);
  if (!cursor?.key) return null;
  const inner = innerPath(state, cursor.parent);
  if (!inner) return null;
  const range = (start: number, end: number) => state.range({ start, end });
  if (cursor.at === 'value') {
    const doc = autoinstallKeyDoc(profile, [...inner, cursor.key.text]);
    if (!doc?.values.length || !cursor.value) return null;
    const value = cursor.value;
    return doc.values.map((v, i) => {
      const text = typeof v === 'string' ? v : JSON.stringify(v);
      return { label: text, kind: CompletionItemKind.EnumMember, textEdit: TextEdit.replace(range(value.start, value.end), text), sortText: String(i).padStart(3, '0') };
    });
  }
  const present = siblingKeys(state.text, cursor.key.start);
  present.delete(cursor.key.text);
  const afterKey = state.text.slice(cursor.key.end, cursor.key.end + 1) === ':';
  const items: CompletionItem[] = [];
  for (const k of autoinstallKeysAt(profile, inner)) {
    if (present.has(k.key)) continue;
    items.push({
      label: k.key,
      kind: CompletionItemKind.Property,
      detail: `autoinstall (Subiquity ${profile}): ${k.types}`,
      documentation: markup(k.markdown, markdown),
      textEdit: TextEdit.replace(range(cursor.key.start, cursor.key.end), afterKey ? k.key : `${k.key}: `),
      sortText: `${k.required ? 'a' : 'm'}${k.key}`,
    });
  }
  return items.length ? items : null;
}
