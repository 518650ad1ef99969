/**
 * Which documents are autoinstall configs, and how Subiquity gets them:
 * - `cloud-config`: user-data that cloud-init reads (`#cloud-config` first line) with an `autoinstall:`
 *   key; cloud-init hands its combined config to the installer, and its schema runs on it first;
 * - `autoinstall.yaml`: a file named so (on the install media, or `subiquity.autoinstallpath`), or any
 *   file the user says is one (`--type autoinstall`), read as it is: a top-level `autoinstall:` is
 *   unwrapped, else the whole file is the config. As cloud-init user-data such a file is ignored.
 */
import { CLOUD_CONFIG_TYPE, sniffContentType } from '../userdata/sniff';
import { isAutoinstallFileName } from '../../../../common/detect';
import { loadYaml } from '../yaml/load';
import { PyDict, type PyValue } from '../py/values';
import { subiquityVerdict, type AutoinstallVerdict, type Delivery } from './subiquity';
import type { SubiquityProfile } from './facts';

export { isAutoinstallFileName };

/** How the document reaches Subiquity, or null when it is no autoinstall candidate. */
export function autoinstallDelivery(text: string, path: string, forced = false): Delivery | null {
  if (isAutoinstallFileName(path)) return 'autoinstall.yaml';
  if (sniffContentType(text) === CLOUD_CONFIG_TYPE) return 'cloud-config';
  if (forced) return 'autoinstall.yaml';
  return null;
}

/** A `#cloud-config` whose loaded value has a top-level `autoinstall` key. */
export function hasAutoinstallKey(value: PyValue): boolean {
  return value instanceof PyDict && value.has('autoinstall');
}

export interface TextVerdict {
  delivery: Delivery;
  verdict: AutoinstallVerdict;
  /** The document's loaded value (spans for the findings). */
  value: PyValue;
}

/**
 * Subiquity's verdict on one document as the text it is (a cloud-config is its own combined config), or
 * null when the document is not an autoinstall config: not a candidate, not YAML cloud-init loads, or a
 * cloud-config without `autoinstall:` (unless `forced`).
 */
export function autoinstallOfText(text: string, path: string, profile: SubiquityProfile, options: { forced?: boolean; value?: PyValue } = {}): TextVerdict | null {
  const delivery = autoinstallDelivery(text, path, options.forced);
  if (!delivery) return null;
  let value = options.value;
  if (value === undefined) {
    const loaded = loadYaml(text);
    if (!loaded.ok) return null;
    value = loaded.value;
  }
  if (delivery === 'cloud-config' && !hasAutoinstallKey(value)) return null;
  return { delivery, verdict: subiquityVerdict({ profile, delivery, value }), value };
}
