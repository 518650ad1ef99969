/**
 * Which network-config schema a document is read with in the editor (hover, completion): the version
 * it declares, at the top or under `network:` (v2 when it declares none: NETWORK_CONFIG's own schema is
 * the v2 file), as the chosen cloud-init has it; none for 22.4, and none for v2 on 23.4.
 */
import { networkSchemaSource, type NetworkSchemaSource } from '../schema/networkData';
import type { CloudInitVersion } from '../version/versions';

export function networkSchemaForText(text: string, version: CloudInitVersion): NetworkSchemaSource | undefined {
  const declared = /^(?:[ \t]*)version:[ \t]*['"]?([12])\b/m.exec(text)?.[1];
  return networkSchemaSource(version, declared === '1' ? 'v1' : 'v2');
}
