/**
 * How the CLI answers `#include` URLs: `--include-map URL=FILE` first, then
 * local paths and `file://` URLs read from disk (as cloud-init reads them);
 * any other URL is never fetched and counts as unreachable.
 */
import { IncludeResolver } from '../engine/userdata/process';
import { includeTarget } from '../engine/userdata/includeUrl';

/**
 * @param read reads the files of `--include-map` (named by the user)
 * @param readLocal reads paths that come from the user-data itself (default `read`)
 */
export function fileIncludeResolver(map: Array<{ url: string; file: string }>, read: (path: string) => Uint8Array, readLocal: (path: string) => Uint8Array = read): IncludeResolver {
  const mapped = new Map(map.map((m) => [m.url, m.file]));
  return {
    read(url) {
      // `url` is the line as cloud-init strips it (Python's strip keeps U+FEFF, JavaScript's trim does not).
      const file = mapped.get(url);
      if (file !== undefined) return { ok: true, bytes: read(file), name: file };
      const target = includeTarget(url);
      if (target.kind === 'file') {
        // Opened as cloud-init opens it: a relative path is relative to this process's directory.
        try {
          return { ok: true, bytes: readLocal(target.path), name: target.path };
        } catch (e) {
          return { ok: false, message: `[Errno 2] ${(e as Error).message} for url: ${target.url}` };
        }
      }
      return { ok: false, message: `${url}: remote includes are never fetched (answer it with --include-map URL=FILE)` };
    },
  };
}
