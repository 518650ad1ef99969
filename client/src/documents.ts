/**
 * Which documents are cloud-init input, decided from what is cheap to see:
 * the first line and the file name. The language server makes the real call
 * (its documentInfo request); this only decides when to start it and which
 * files to offer.
 */
import * as vscode from 'vscode';

/** First lines that make a YAML (or plain text) document cloud-init input. */
const HEADER = /^(?:\uFEFF)?(?:#cloud-config(?:-archive|-jsonp)?(?![\w-])|#include(?:-once)?(?![\w-]))/;
/** A template header in any case (cloud-init lowercases before it looks; the server decides exactly). */
const TEMPLATE_HEADER = /^(?:\uFEFF)?\s*##\s*template:\s*jinja\b/i;
/** MIME user-data: a multipart message. */
const MIME = /^(?:\uFEFF)?(?:Content-Type:\s*multipart\/|MIME-Version:)/i;

/** Documents the language server is told about (it ignores the ones that turn out not to be cloud-init input). */
export const DOCUMENT_SELECTOR: Array<{ scheme: string; language?: string; pattern?: string }> = [
  { scheme: 'file', language: 'yaml' },
  { scheme: 'untitled', language: 'yaml' },
  { scheme: 'file', pattern: '**/{user-data,vendor-data,vendor-data2}{,.*}' },
  { scheme: 'file', pattern: '**/*.{mime,mim}' },
  { scheme: 'file', language: 'json' },
];

export function isSystemConfigPath(uri: vscode.Uri): boolean {
  return /\/cloud\.cfg$/.test(uri.path) || /\/cloud\.cfg\.d\/[^/]+\.cfg$/.test(uri.path);
}

/** Whether the start of a file's text marks it as cloud-init input. */
export function looksLikeCloudConfig(firstLine: string, uri: vscode.Uri): boolean {
  return HEADER.test(firstLine) || TEMPLATE_HEADER.test(firstLine) || MIME.test(firstLine) || isSystemConfigPath(uri);
}

/** A Chef role or environment file (JSON with default/override attributes and a Chef type). */
export function looksLikeChefJson(text: string): boolean {
  return /"(default_attributes|override_attributes)"\s*:/.test(text) && /"(chef_type|json_class)"\s*:/.test(text);
}

export function isCloudConfigDocument(doc: vscode.TextDocument): boolean {
  if (doc.uri.scheme !== 'file' && doc.uri.scheme !== 'untitled') return false;
  if (doc.lineCount === 0) return false;
  if (doc.languageId === 'json') return looksLikeChefJson(doc.getText().slice(0, 8192));
  return looksLikeCloudConfig(doc.lineAt(0).text, doc.uri);
}

const CANDIDATES = '**/{*.yaml,*.yml,*.cfg,*.txt,*.mime,*.j2,*.jinja,user-data,user-data.*,vendor-data,vendor-data.*,vendor-data2,cloud.cfg}';
const EXCLUDE = '**/{node_modules,.git,.vscode-test,.tmp,out,dist}/**';

/** The workspace's cloud-init files (open editors' unsaved text counts), in no particular order. */
export async function findCloudConfigFiles(token?: vscode.CancellationToken, limit = 2000): Promise<vscode.Uri[]> {
  const uris = await vscode.workspace.findFiles(CANDIDATES, EXCLUDE, limit, token);
  const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
  const decoder = new TextDecoder();
  const checks = await Promise.all(
    uris.map(async (uri) => {
      const doc = open.get(uri.toString());
      if (doc) return isCloudConfigDocument(doc);
      if (isSystemConfigPath(uri)) return true;
      try {
        const bytes = await vscode.workspace.fs.readFile(uri);
        const head = decoder.decode(bytes.subarray(0, 512));
        return looksLikeCloudConfig(head.split(/\r?\n/, 1)[0], uri);
      } catch {
        return false;
      }
    }),
  );
  return uris.filter((_, i) => checks[i]);
}
