/**
 * The header width a preview asks the server for (`cloudConfigMerge.preview.headerWidth`): the width the
 * user set, wherever set; left unset, a side column's (the setting's default) unless the preview has the
 * window to itself, where the server's full width fits. No `vscode` import: unit-tested in node.
 */
import { HEADER_WIDTH, SIDE_COLUMN_HEADER_WIDTH } from '../../../server/src/engine/render/header';

/** What `inspect` says of the setting: the values a user, a workspace or a folder gave it. */
export interface HeaderWidthSetting {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** @param alone the preview is (or, about to open, will be) the only editor group of the window. */
export function chooseHeaderWidth(setting: HeaderWidthSetting | undefined, alone: boolean): number {
  const set = setting?.workspaceFolderValue ?? setting?.workspaceValue ?? setting?.globalValue;
  if (typeof set === 'number') return set;
  return alone ? HEADER_WIDTH : SIDE_COLUMN_HEADER_WIDTH;
}
