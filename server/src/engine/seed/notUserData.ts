/**
 * Inputs given to merge that are not user-data: a NoCloud seed's meta-data (a file named meta-data) or a
 * network-config (named so, or YAML whose top level is a network config), found as common/detect.ts finds
 * every document's kind. cloud-init reads both but never merges either into user-data: the editor's order
 * step leaves them out of a merge, saying why in these words; the preview (features/preview.ts) and the CLI
 * (cli/seedFiles.ts, with its --type) refuse them.
 */
import { detectCloudInitDocument, detectionTextOfBytes } from '../../../../common/detect';

export type NotUserDataKind = 'meta-data' | 'network-config';

/** What the input at `path` is when it is not user-data, or undefined (user-data, merged as such). */
export function notUserDataKind(path: string, bytes: Uint8Array): NotUserDataKind | undefined {
  const kind = detectCloudInitDocument(detectionTextOfBytes(bytes), path)?.kind;
  return kind === 'meta-data' || kind === 'network-config' ? kind : undefined;
}

/** Why such an input is not merged (`name` as the user sees the file), without what follows from it. */
function reason(name: string, kind: NotUserDataKind): string {
  if (kind === 'meta-data') return `${name} is a NoCloud seed's meta-data, not user-data: cloud-init never merges it`;
  return `${name} is a network-config, not user-data: cloud-init never merges it into user-data (its network stage reads it)`;
}

/** Where the user sees what cloud-init makes of such a file instead. */
const SEEN_IN: Readonly<Record<NotUserDataKind, string>> = { 'meta-data': 'its editor shows what NoCloud makes of it', 'network-config': 'its editor shows its problems' };

/** Such an input left out of a merge (the order step), in the editor's words. */
export function notUserDataSentence(name: string, kind: NotUserDataKind): string {
  return `${reason(name, kind)}, so it is left out (${SEEN_IN[kind]}).`;
}
