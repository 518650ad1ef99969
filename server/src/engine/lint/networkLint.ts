/**
 * The editor's findings for a network-config document: what `cloud-init schema -t network-config` of the
 * chosen version reports on the chosen netplan host (engine/network/validate), placed where each value is
 * written, as cloud-config's schema findings are (schemaLint's reportFindings); that the chosen cloud-init
 * does not validate it, where so; and what a first boot does with it when that is not simply "applied".
 */
import { PyDict, type TextSpan } from '../py/values';
import { coded } from '../findings/codes';
import { LimitExceededError } from '../limits';
import type { Finding } from '../findings/findings';
import type { CloudInitVersion } from '../version/versions';
import type { NetplanHost, NetplanVersion } from '../version/target';
import { validateNetworkConfig } from '../network/validate';
import { validateNetworkConfigTextOnce } from '../network/validatedText';
import type { SchemaReport } from '../schema/validate';
import { bootOf, describeBoot, networkBoot } from '../network/boot';
import { unmodelledWords } from '../network/netplan';
import { newSchemaBudget, reportFindings, type SchemaBudget } from './schemaLint';

export interface NetworkLintOptions {
  version: CloudInitVersion;
  netplan: NetplanHost;
  /** The netplan the image ships (the api host's parser); the default image's when absent. */
  netplanVersion?: NetplanVersion;
  /** Validate (the editor's `schema` setting); the boot finding is given either way. */
  schema?: boolean;
  budget?: SchemaBudget;
}

export function networkFindings(text: string, path: string, options: NetworkLintOptions): Finding[] {
  const start: TextSpan = { start: 0, end: Math.max(0, text.search(/\r|\n|$/)) };
  let r;
  try {
    r = validateNetworkConfigTextOnce(text, options.version, options.netplan, path, options.netplanVersion);
  } catch (err) {
    if (!(err instanceof LimitExceededError)) throw err;
    return [{ ...coded('limit-exceeded', 'warning'), span: start, message: `Not checked against cloud-init's network-config schema: ${err.message}.` }];
  }
  const findings: Finding[] = [];
  if (r.yamlError) return [{ ...coded('yaml-invalid'), span: r.yamlError.span, message: `cloud-init cannot load this YAML: ${r.yamlError.message}. NoCloud then reads no network config, and cloud-init falls back to DHCP on the first NIC.` }];
  const root = r.value instanceof PyDict ? r.value : undefined;
  const rootSpan = r.rootSpan ?? null;
  if (options.schema !== false) {
    const why = r.unsupported ?? r.said ?? r.exception ?? (r.crash ? `cloud-init's schema command raises ${r.crash.pyType}: ${r.crash.message}` : undefined);
    if (why && r.valid !== false) findings.push({ ...coded('network-not-validated'), span: start, message: why });
    else if (why) findings.push({ ...coded('schema-error'), span: start, message: why });
    if (root && (r.errors.length || r.deprecations.length)) {
      // netplan's own position is in cloud-init's dump of the config: the editor shows its message at the value.
      for (const f of reportFindings(root, rootSpan, 0, editorReport(r), options.budget ?? newSchemaBudget(), text)) findings.push({ ...f, message: f.message.replace(/^: /, '') });
    }
    // No verdict where netplan checks a value the model does not: a warning, so that `--check` and `--lint`
    // exit 1 rather than pass a file cloud-init may reject (the verdict is "not checked", never "valid").
    if (r.validator === 'netplan' && r.valid !== false && r.unmodelled?.length) {
      findings.push({ ...coded('network-not-checked'), span: start, message: `Not checked: netplan checks ${unmodelledWords(r.unmodelled)}, which is not reproduced here; no error was found in the rest.` });
    }
  }
  const boot = networkBoot(text, r);
  if (boot.result !== 'applied' || boot.error || boot.parseError || !boot.interpreted) {
    findings.push({ ...coded('network-boot', boot.result === 'applied' ? 'warning' : 'info'), span: start, message: describeBoot(boot) });
  }
  return findings;
}

/** netplan's own position is in cloud-init's dump of the config: the editor shows the first line of its message, at the value. */
function editorReport(r: SchemaReport): SchemaReport {
  return { errors: r.errors.map((p) => (/^format-l/.test(p.path) ? { ...p, path: '', message: p.message.split('\n')[0] } : p)), deprecations: r.deprecations };
}

/**
 * The `network:` key of a drop-in (or of cloud.cfg), as cloud-init validates the system config's network
 * config when it applies it at boot (`apply_network_config`, 23.4+, with the same schema choice and netplan
 * host); a `config: disabled` is never validated (the boot stops before).
 */
export function dropInNetworkFindings(root: PyDict, rootSpan: TextSpan | null, text: string, options: NetworkLintOptions): Finding[] {
  const value = root.get('network');
  if (!(value instanceof PyDict) || bootOf(root).result === 'disabled') return [];
  let r;
  try {
    // what reaches apply_network_config: the config under `network:` (its problems are logged at that path)
    r = validateNetworkConfig(value, options.version, options.netplan, options.netplanVersion);
  } catch (err) {
    if (!(err instanceof LimitExceededError)) throw err;
    return [];
  }
  if (!r.errors.length && !r.deprecations.length) return [];
  const valueSpan = root.originOf('network')?.value ?? rootSpan;
  return reportFindings(value, valueSpan, 0, editorReport(r), options.budget ?? newSchemaBudget(), text).map((f) => ({ ...f, message: `network config: ${f.message.replace(/^: /, '')}` }));
}
