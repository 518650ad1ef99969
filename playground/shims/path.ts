/** The node:path secretlint's preset imports (it calls `basename`), for the browser: POSIX paths. */
export function basename(path: string, ext?: string): string {
  const base = path.replace(/\/+$/, '').split('/').pop() ?? '';
  return ext && base.endsWith(ext) && base !== ext ? base.slice(0, -ext.length) : base;
}

export function extname(path: string): string {
  const base = basename(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot) : '';
}

export default { basename, extname, sep: '/' };
