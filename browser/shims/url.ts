/** node:url for the browser: file URLs and POSIX paths. */
export function fileURLToPath(url: string | URL): string {
  const u = typeof url === 'string' ? new URL(url) : url;
  if (u.protocol !== 'file:') throw new TypeError('The URL must be of scheme file');
  return decodeURIComponent(u.pathname);
}

export function pathToFileURL(path: string): URL {
  return new URL('file://' + path.split('/').map(encodeURIComponent).join('/'));
}

const WhatwgURL = URL;
export { WhatwgURL as URL };
export default { fileURLToPath, pathToFileURL, URL: WhatwgURL };
