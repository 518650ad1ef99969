/**
 * The one way the language server reads a workspace file: the open editor's text (unsaved edits
 * count), else the disk through the one bounded reader (node/readFile.ts, which checks the descriptor
 * it reads, so a file swapped for a device or grown past the limit between a look and the read is
 * still refused). Every feature that reads "the file as it is now" comes here.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { readBounded, readBoundedSync } from '../../node/readFile';

export interface OpenDocuments {
  get(uri: string): TextDocument | undefined;
}

/** The URI of a file path, or the URI itself. */
export function uriOf(uriOrFile: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(uriOrFile) && !/^[a-z]:[\\/]/i.test(uriOrFile) ? uriOrFile : pathToFileURL(uriOrFile).href;
}

/** The open editor's document of a URI or a file path. */
export function openDocument(documents: OpenDocuments, uriOrFile: string): TextDocument | undefined {
  return documents.get(uriOf(uriOrFile));
}

/** The file behind a `file:` URI (or a path as it is); undefined for any other scheme. */
function diskPath(uriOrFile: string): string | undefined {
  const uri = uriOf(uriOrFile);
  if (!/^file:/i.test(uri)) return undefined;
  return fileURLToPath(uri);
}

function notOnDisk(uriOrFile: string): Error {
  return new Error(`${uriOrFile}: not open in the editor, and not a file`);
}

/** The open document's text, else the file's bytes, at most `maxBytes` from disk (throws BoundedReadError, or the system's error). */
export function openOrDiskBytes(open: TextDocument | undefined, uriOrFile: string, maxBytes: number): Uint8Array {
  if (open) return new TextEncoder().encode(open.getText());
  const file = diskPath(uriOrFile);
  if (file === undefined) throw notOnDisk(uriOrFile);
  return readBoundedSync(file, { maxBytes });
}

/** The file as it is now: the open editor's text, else at most `maxBytes` from disk. */
export function readOpenOrDiskSync(documents: OpenDocuments, uriOrFile: string, maxBytes: number): Uint8Array {
  return openOrDiskBytes(openDocument(documents, uriOrFile), uriOrFile, maxBytes);
}

/** The same, reading the disk without blocking the server. */
export async function readOpenOrDisk(documents: OpenDocuments, uriOrFile: string, maxBytes: number): Promise<Uint8Array> {
  const open = openDocument(documents, uriOrFile);
  if (open) return new TextEncoder().encode(open.getText());
  const file = diskPath(uriOrFile);
  if (file === undefined) throw notOnDisk(uriOrFile);
  return readBounded(file, { maxBytes });
}
