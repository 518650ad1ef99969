/**
 * node:fs for the server's Web Worker: there is no disk, so every read says the file does not exist (as the
 * server takes a file it cannot read: only open documents are analysed and previewed). Watchers watch nothing.
 */
function missing(path: unknown): never {
  const e = new Error(`ENOENT: no such file or directory (no file system in the browser), '${String(path)}'`) as Error & { code: string; errno: number };
  e.code = 'ENOENT';
  e.errno = -2;
  throw e;
}

/** The open flags the bounded reader names (their values do not matter: nothing is opened). */
export const constants = { O_RDONLY: 0, O_NONBLOCK: 2048, O_NOFOLLOW: 131072, O_NOCTTY: 256 };
export const readFileSync = missing;
export const statSync = (path: unknown, options?: { throwIfNoEntry?: boolean }): undefined => (options?.throwIfNoEntry === false ? undefined : missing(path));
export const lstatSync = statSync;
export const fstatSync = missing;
export const readdirSync = missing;
export const realpathSync = Object.assign(missing, { native: missing });
export const openSync = missing;
export const readSync = missing;
export const closeSync = (): void => undefined;
export const existsSync = (): boolean => false;
export function watch(): { close(): void; on(): unknown; unref(): void } {
  const watcher = { close: () => undefined, on: () => watcher, unref: () => undefined };
  return watcher;
}
export const promises = {
  open: (path: unknown) => Promise.reject(Object.assign(new Error(`ENOENT: no file system in the browser, '${String(path)}'`), { code: 'ENOENT' })),
  readFile: (path: unknown) => Promise.reject(Object.assign(new Error(`ENOENT: no file system in the browser, '${String(path)}'`), { code: 'ENOENT' })),
};
export default { constants, readFileSync, statSync, lstatSync, fstatSync, readdirSync, realpathSync, openSync, readSync, closeSync, existsSync, watch, promises };
