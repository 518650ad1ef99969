/**
 * What the boot-time layering wizard proposes before the user picks (commands.ts pickBootLayers): a seed
 * folder's `vendor-data` is never ticked as user-data, and the vendor-data step starts on the vendor-data
 * beside the user-data (a NoCloud seed folder holds both, issue 42). URIs as strings; no `vscode` import:
 * unit-tested in node.
 */

/** The last segment of a URI or path. */
function baseOf(uri: string): string {
  return uri.replace(/[/\\]+$/, '').replace(/^.*[/\\]/, '');
}

function folderOf(uri: string): string {
  return uri.replace(/[/\\]+$/, '').replace(/[/\\][^/\\]*$/, '');
}

/** A file named as a seed names vendor-data: `vendor-data` or `vendor-data2`, with or without an extension. */
export function isVendorDataName(uri: string): boolean {
  return /^vendor-data2?(\.[^.]+)?$/.test(decodeURIComponent(baseOf(uri)));
}

/** The files step 1 ticks as user-data: those of the preview, but not a vendor-data beside them. */
export function tickedUserData(current: readonly string[]): string[] {
  return current.filter((u) => !isVendorDataName(u));
}

/**
 * The vendor-data step 2 starts on: the one the preview had; else a vendor-data in the folder of a chosen
 * user-data file (`vendor-data` itself first, then `vendor-data.yaml`…); else none.
 */
export function proposedVendorData(candidates: readonly string[], userData: readonly string[], current?: string): string | undefined {
  if (current) return current;
  const folders = new Set(userData.map(folderOf));
  const beside = candidates.filter((u) => isVendorDataName(u) && folders.has(folderOf(u)) && !userData.includes(u));
  return beside.find((u) => baseOf(u) === 'vendor-data') ?? beside.find((u) => !/^vendor-data2/.test(baseOf(u))) ?? beside[0];
}
