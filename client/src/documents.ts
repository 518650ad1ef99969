/**
 * Which documents are cloud-init input, decided by the same function as the language server
 * (common/detect.ts) from what is cheap to see: the path and the start of the text. The client
 * uses it to start the server, for the status item and for the files a preview offers.
 */
import * as vscode from 'vscode';
import { DetectedDocument, detectCloudInitDocument, detectionTextFrom, detectionTextOfBytes, isJsonDocument, systemFileKind } from '../../common/detect';

export { looksLikeChefJson } from '../../common/detect';

/**
 * Documents the language server is told about (it ignores the ones that turn out not to be cloud-init
 * input). Every untitled document, whatever its language: one is not on disk, so the server can read it
 * nowhere else when it is previewed or built into MIME (Build MIME's own result is plain text).
 */
export const DOCUMENT_SELECTOR: Array<{ scheme: string; language?: string; pattern?: string }> = [
  { scheme: 'file', language: 'yaml' },
  { scheme: 'untitled' },
  { scheme: 'file', pattern: '**/{user-data,vendor-data,vendor-data2}{,.*}' },
  { scheme: 'file', pattern: '**/network-config{,.*}' },
  { scheme: 'file', pattern: '**/*.{mime,mim}' },
  { scheme: 'file', language: 'json' },
];

export function isSystemConfigPath(uri: vscode.Uri): boolean {
  return systemFileKind(uri.path) !== null;
}

/** As much of a document's text as detection reads: its start, or all of it for JSON (or a blank start). */
export function detectionText(doc: vscode.TextDocument): string {
  if (isJsonDocument(doc.uri.path, doc.languageId)) return doc.getText();
  return detectionTextFrom((chars) => (chars === undefined ? doc.getText() : doc.getText(new vscode.Range(new vscode.Position(0, 0), doc.positionAt(chars)))));
}

/** What a document is for cloud-init (null: not cloud-init input, or not a file). */
export function documentKindOf(doc: vscode.TextDocument): DetectedDocument | null {
  if (doc.uri.scheme !== 'file' && doc.uri.scheme !== 'untitled') return null;
  return detectCloudInitDocument(detectionText(doc), doc.uri.path, doc.languageId);
}

export function isCloudConfigDocument(doc: vscode.TextDocument): boolean {
  return documentKindOf(doc) !== null;
}

/** Input a merge preview takes: a network-config is checked, never merged as user-data. */
export function isMergedKind(found: DetectedDocument | null): boolean {
  return found !== null && found.kind !== 'network-config' && found.kind !== 'autoinstall';
}

const CANDIDATES = '**/{*.yaml,*.yml,*.cfg,*.txt,*.mime,*.j2,*.jinja,user-data,user-data.*,vendor-data,vendor-data.*,vendor-data2,cloud.cfg}';
const EXCLUDE = '**/{node_modules,.git,.vscode-test,.tmp,out,dist}/**';

/** The workspace's cloud-init files (open editors' unsaved text counts), in no particular order. */
export async function findCloudConfigFiles(token?: vscode.CancellationToken, limit = 2000): Promise<vscode.Uri[]> {
  const uris = await vscode.workspace.findFiles(CANDIDATES, EXCLUDE, limit, token);
  const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
  const checks = await Promise.all(
    uris.map(async (uri) => {
      const doc = open.get(uri.toString());
      if (doc) return isMergedKind(documentKindOf(doc));
      if (isSystemConfigPath(uri)) return true;
      try {
        const bytes = await vscode.workspace.fs.readFile(uri);
        return isMergedKind(detectCloudInitDocument(detectionTextOfBytes(bytes), uri.path));
      } catch {
        return false;
      }
    }),
  );
  return uris.filter((_, i) => checks[i]);
}
