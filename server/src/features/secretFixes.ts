/**
 * The quick fix of a plaintext password (engine/secrets): replace it by a SHA-512 crypt hash computed here,
 * with a fresh salt, and make cloud-init read the new value as a hash (`type: text` becomes `type: hash`,
 * `plain_text_passwd` becomes `hashed_passwd`). The password never leaves this process. The hash is made
 * only when the fix is asked for, on the password the analysis found in place.
 */
import { CodeAction, CodeActionKind, Diagnostic, Range, TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentState } from './common/analysisCache';
import { DIAGNOSTIC_SOURCE, rangesTouch, sameRange } from './common/ranges';
import type { PlaintextPasswordSite } from '../engine/secrets/secretFindings';
import { randomSalt, sha512Crypt } from '../engine/secrets/sha512Crypt';

export const HASH_FIX_TITLE = 'Replace with a SHA-512 crypt hash (computed locally)';

/** The edits that replace one plaintext password by `hash`. */
export function hashEdits(text: string, site: PlaintextPasswordSite, hash: string): Array<{ span: { start: number; end: number }; newText: string }> {
  const written = text.slice(site.span.start, site.span.end);
  const quoted = written.startsWith("'") || written.startsWith('"');
  // A hash has only [./0-9A-Za-z$] and ':' in a list line: single quotes never need an escape.
  const value = typeof site.replace === 'string' ? `'${hash}'` : quoted ? `'${site.replace.listLine}:${hash}'` : `${site.replace.listLine}:${hash}`;
  const edits = [{ span: site.span, newText: value }];
  if (site.alsoEdit) edits.push(site.alsoEdit);
  return edits.sort((a, b) => b.span.start - a.span.start);
}

export function secretFixes(state: DocumentState, document: TextDocument, range: Range, diagnostics: Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const site of state.analysis.passwords ?? []) {
    const siteRange = state.range(site.span);
    const diagnostic = diagnostics.find((d) => d.source === DIAGNOSTIC_SOURCE && d.code === 'secret-plaintext-password' && sameRange(d.range, siteRange));
    if (!diagnostic && !rangesTouch(siteRange, range)) continue;
    const hash = sha512Crypt(site.password, randomSalt());
    const edits = hashEdits(state.text, site, hash).map((e) => TextEdit.replace(state.range(e.span), e.newText));
    actions.push({ title: HASH_FIX_TITLE, kind: CodeActionKind.QuickFix, diagnostics: diagnostic ? [diagnostic] : undefined, isPreferred: true, edit: { changes: { [document.uri]: edits } } });
  }
  return actions;
}
