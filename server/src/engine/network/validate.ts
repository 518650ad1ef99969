/**
 * `cloud-init schema -t network-config -c FILE` of each version, offline (`validate_cloudconfig_file` with
 * the network-config schema type, `cloudinit/config/schema.py`):
 * - 22.4 has no network-config schema at all (no `-t` option): nothing is validated, and we say so;
 * - 23.4 validates version 1 only, against its v1 JSON schema; any other version is skipped with a line;
 * - 24.4 and later pick the schema from the version (`network:` wrapper or not): v1 against the v1 JSON
 *   schema; v2 goes to netplan's parser where netplan's Python API exists (the "api" host, Ubuntu 23.10+:
 *   ./netplan.ts models it), is skipped where only netplan's command exists ("cli", older Ubuntu), and is
 *   checked against the v2 JSON schema elsewhere ("none"); a document of neither version is checked
 *   against the v2 schema as a whole.
 * Errors come back as cloud-init prints them (path, message), with where they are written in the file.
 * Throws LimitExceededError for a document whose aliases expand past maxExpandedNodes.
 */
import { PyError } from '../py/errors';
import { pyStr } from '../py/repr';
import { pyEq } from '../py/compare';
import { PyDict, pyClassName, pyTruthy, type PyValue, type TextSpan } from '../py/values';
import { sharedExpansion, loadYaml, type YamlProblem } from '../yaml/load';
import { DEFAULT_LIMITS, LimitExceededError } from '../limits';
import { Validator } from '../schema/pyjsonschema';
import { validateWith, type SchemaProblem } from '../schema/validate';
import { atLeast, type CloudInitVersion } from '../version/versions';
import type { NetplanHost, NetplanVersion } from '../version/target';
import { networkSchema, type NetworkSchemaKind } from '../schema/networkData';
import { netplanCheck } from './netplan';

/** What cloud-init's validator was (netcheck.py's words): a JSON schema, netplan's parser, or none. */
export type NetworkValidator = 'jsonschema:network-config-v1' | 'jsonschema:network-config-v2' | 'jsonschema:network-config' | 'netplan';

export interface NetworkSchemaResult {
  version: CloudInitVersion;
  host: NetplanHost;
  /** cloud-init's command accepts (true) or rejects (false) the file; null: it validates nothing (`said`/`unsupported` says why). */
  valid: boolean | null;
  validator: NetworkValidator | null;
  errors: SchemaProblem[];
  deprecations: SchemaProblem[];
  /** What cloud-init prints instead of validating (a skipped version, an empty config). */
  said?: string;
  /** This cloud-init has no network-config validation at all (22.4), in words. */
  unsupported?: string;
  /** The YAML error that stops validation (cloud-init reports it as a format-l…c… error, in `errors`). */
  yamlError?: YamlProblem;
  /** The document is not a mapping: cloud-init's command raises (`errors` is empty; `exception` says it). */
  exception?: string;
  /** cloud-init itself raises on this document (a `network:` that is not a mapping): not a verdict. */
  crash?: PyError;
  /** netplan (api host): values the model let through without netplan's own check of them (./netplan.ts). */
  unmodelled?: string[];
  value?: PyValue;
  rootSpan?: TextSpan | null;
}

export const NO_NETWORK_SCHEMA_224 = "cloud-init 22.4 does not validate network-config: it has no network-config schema, and its `cloud-init schema` has no --schema-type option (24.4 and later validate v1 and v2; 23.4 v1 only)";

const validators = new Map<string, Validator>();

function validatorOf(version: CloudInitVersion, kind: NetworkSchemaKind): Validator {
  const found = networkSchema(version, kind);
  if (!found) throw new Error(`cloud-init ${version} has no network-config ${kind} schema`);
  let v = validators.get(found.id);
  // 23.4 and later validate with upstream's anyOf/oneOf (and the anyOf_type_ selection the v1 schema relies on).
  if (!v) validators.set(found.id, (v = new Validator(found.schema, 'current', true)));
  return v;
}

/** `network_schema_version`: the version under the `network:` wrapper, or at the top (undefined: none written). */
function declaredVersion(cfg: PyDict): PyValue | undefined {
  if (cfg.has('network')) {
    const inner = cfg.get('network') as PyValue;
    if (!(inner instanceof PyDict)) throw new PyError('AttributeError', `'${pyClassName(inner)}' object has no attribute 'get'`);
    return inner.get('version');
  }
  return cfg.get('version');
}

/**
 * What `cloud-init schema -t network-config -c FILE` reports for `text` on a host of kind `host`.
 * @param file the name cloud-init's messages give the file
 * @param netplanVersion the netplan whose parser answers on the api host (the image's; see version/target.ts)
 */
export function validateNetworkConfigText(text: string, version: CloudInitVersion, host: NetplanHost, file: string, netplanVersion?: NetplanVersion, maxNodes: number = DEFAULT_LIMITS.maxExpandedNodes): NetworkSchemaResult {
  const base = { version, host, errors: [] as SchemaProblem[], deprecations: [] as SchemaProblem[] };
  if (!atLeast(version, '23.4')) return { ...base, valid: null, validator: null, unsupported: NO_NETWORK_SCHEMA_224 };
  if (!text) return { ...base, valid: null, validator: null, said: `Empty 'network-config' found at ${file}. Nothing to validate.` };
  const loaded = loadYaml(text);
  if (!loaded.ok) return { ...base, valid: false, validator: null, yamlError: loaded.error };
  const cfg = loaded.value;
  const at = { value: cfg, rootSpan: loaded.rootSpan };
  if (!(cfg instanceof PyDict)) return { ...base, ...at, valid: false, validator: null, exception: `network-config ${file} is not a YAML dict.` };
  return { ...validateNetworkConfig(cfg, version, host, netplanVersion, maxNodes), ...at };
}

/**
 * The same for a loaded mapping (a file's, or a drop-in's `network:` key wrapped as `{network: value}`),
 * from the point where `validate_cloudconfig_file` has a dict.
 */
export function validateNetworkConfig(cfg: PyDict, version: CloudInitVersion, host: NetplanHost, netplanVersion?: NetplanVersion, maxNodes: number = DEFAULT_LIMITS.maxExpandedNodes): NetworkSchemaResult {
  const base = { version, host, errors: [] as SchemaProblem[], deprecations: [] as SchemaProblem[] };
  if (!atLeast(version, '23.4')) return { ...base, valid: null, validator: null, unsupported: NO_NETWORK_SCHEMA_224 };
  // Both validators walk every alias where it is used, as Python's do: an alias bomb would never end. Refused, naming
  // the limit; a document without aliases is walked once, however large (its size is bounded by maxFileBytes).
  if (sharedExpansion(cfg, maxNodes) > maxNodes) throw new LimitExceededError('maxExpandedNodes', maxNodes, 'Schema validation (aliases expanded)');
  const netcfg = cfg.has('network') ? (cfg.get('network') as PyValue) : cfg;
  if (!pyTruthy(netcfg)) return { ...base, valid: null, validator: null, said: 'Skipping network-config schema validation on empty config.' };
  let kind: NetworkSchemaKind;
  let validator: NetworkValidator;
  try {
    if (!atLeast(version, '24.4')) {
      if (!(netcfg instanceof PyDict)) throw new PyError('AttributeError', `'${pyClassName(netcfg)}' object has no attribute 'get'`);
      const v = netcfg.get('version');
      if (v === undefined || !pyEq(v, 1n)) return { ...base, valid: null, validator: null, said: `Skipping network-config schema validation. No network schema for version: ${v === undefined ? 'None' : pyStr(v)}` };
      kind = 'v1';
      validator = 'jsonschema:network-config-v1';
    } else {
      const v = declaredVersion(cfg);
      if (v !== undefined && pyEq(v, 2n)) {
        if (host === 'api') return { ...base, ...netplanCheck(cfg, netplanVersion), validator: 'netplan' };
        if (host === 'cli') return { ...base, valid: null, validator: null, said: 'Skipping network-config schema validation for version: 2. No netplan API available.' };
        kind = 'v2';
        validator = 'jsonschema:network-config-v2';
      } else if (v !== undefined && pyEq(v, 1n)) {
        kind = 'v1';
        validator = 'jsonschema:network-config-v1';
      } else {
        kind = 'v2'; // NETWORK_CONFIG's own schema is the v2 file
        validator = 'jsonschema:network-config';
      }
    }
  } catch (err) {
    if (err instanceof PyError) return { ...base, valid: false, validator: null, crash: err };
    throw err;
  }
  try {
    const report = validateWith(cfg, validatorOf(version, kind));
    return { ...base, valid: report.errors.length === 0, validator, errors: report.errors, deprecations: report.deprecations };
  } catch (err) {
    if (err instanceof PyError) return { ...base, valid: false, validator, crash: err };
    throw err;
  }
}
