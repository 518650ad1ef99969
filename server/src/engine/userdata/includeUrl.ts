/**
 * The one rule for what an `#include` line names, shared by the CLI and the editor: cloud-init's
 * `url_helper.read_file_or_url`. A line starting with `/` is a local path; `file://` (any case) is
 * cut off and the rest opened as it is: never URL-decoded (`a%20b` is a directory named `a%20b`) and
 * with no host part (`file://localhost/x` opens the relative path `localhost/x`). Anything else is a
 * URL that cloud-init fetches and this tool never does.
 */
import { pyLStrip } from '../py/str';

export type IncludeTarget =
  /** `path` exactly as cloud-init passes it to open(): relative paths are relative to its working directory. */
  | { kind: 'file'; path: string; url: string }
  | { kind: 'remote'; url: string };

export function includeTarget(line: string): IncludeTarget {
  let url = pyLStrip(line);
  if (url.startsWith('/')) url = 'file://' + url;
  if (url.toLowerCase().startsWith('file://')) return { kind: 'file', path: url.slice('file://'.length), url };
  return { kind: 'remote', url };
}
