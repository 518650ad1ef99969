/**
 * A bare `user-data` (or `vendor-data`) that is a shell script, a part handler or a MIME multipart opens
 * as YAML: the extension associates those names with YAML so that a cloud-config seed is checked when
 * opened first. Such a file is given its own language once, when it opens; a language the user picks
 * afterwards is left alone. The language server still reads it (its selector matches these names).
 */
import * as vscode from 'vscode';
import { bareSeedLanguage } from '../../common/detect';
import { detectionText } from './documents';

export function registerBareSeedLanguage(): vscode.Disposable {
  const decided = new Set<string>();
  const check = (doc: vscode.TextDocument) => {
    if (doc.languageId !== 'yaml' || doc.uri.scheme !== 'file' || decided.has(doc.uri.toString())) return;
    const language = bareSeedLanguage(doc.uri.path, detectionText(doc));
    if (!language) return;
    decided.add(doc.uri.toString());
    void vscode.languages.setTextDocumentLanguage(doc, language).then(undefined, () => undefined);
  };
  vscode.workspace.textDocuments.forEach(check);
  return vscode.workspace.onDidOpenTextDocument(check);
}
