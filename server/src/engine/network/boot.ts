/**
 * What a first boot does with a NoCloud `network-config` file (the same in every version the project
 * reproduces, checked with ../shared/oracle/netcheck.py's `boot`): NoCloud loads it with `util.load_yaml`
 * (anything but a mapping, and YAML that does not load, count as no file); `Init._find_networking_config`
 * takes what is under a top-level `network:` key, or the whole mapping; `config: disabled` there turns
 * networking configuration off; nothing usable means cloud-init generates its fallback config from the
 * host's NICs; otherwise the config goes to the distro, and `parse_net_config_data` reads it: version 2 as
 * a whole, another version only with a `config:` key, and without either it raises. On a host without
 * netplan the distro's renderer parses it (./networkState.ts): where that raises, the network is not
 * configured; on a netplan host version 2 is handed to netplan as written.
 */
import { pyEq } from '../py/compare';
import { pyRepr } from '../py/repr';
import { PyDict, pyTruthy, type PyValue } from '../py/values';
import { expandedSize, loadYaml, sharedExpansion } from '../yaml/load';
import type { CloudInitVersion } from '../version/versions';
import type { NetplanHost } from '../version/target';
import { parseNetworkState } from './networkState';

const REPR_NODES = 10000;

export type NetworkBoot =
  /** No usable network config in the file: cloud-init generates its fallback config (DHCP on the first NIC). */
  | { result: 'fallback'; why: string }
  /** `config: disabled`: cloud-init leaves the network alone. */
  | { result: 'disabled' }
  /**
   * Handed to the distro (`version`: what it says, as written). `interpreted` false: cloud-init parses no
   * interface from it (a version it has no parser for); `error`: what parse_net_config_data raises.
   */
  | {
      result: 'applied';
      version: PyValue | null;
      wrapped: boolean;
      interpreted: boolean;
      error?: string;
      /** What the renderer's parse raises (`Type: message`) on a host without netplan: the network is not configured. */
      parseError?: string;
      /** The parse of a shape the model does not follow: whether it raises is not known here. */
      parseNotFollowed?: string;
    };

/** Whose boot: the cloud-init version and the host (without netplan the renderer parses the config). */
export interface BootHost {
  version: CloudInitVersion;
  host: NetplanHost;
}

/**
 * A first boot with this file as the NoCloud seed's network-config (the text as cloud-init reads it).
 * `validated`: the text's validation result, whose loaded `value` (when it has one) is used instead of
 * loading the text again.
 */
export function networkBoot(text: string, validated?: { value?: PyValue } & Partial<BootHost>): NetworkBoot {
  if (!text) return { result: 'fallback', why: 'the file is empty' };
  let value = validated?.value;
  if (value === undefined) {
    const loaded = loadYaml(text);
    if (!loaded.ok) return { result: 'fallback', why: 'the file is not valid YAML, so NoCloud reads no network config' };
    value = loaded.value;
  }
  if (!(value instanceof PyDict)) return { result: 'fallback', why: 'the file is not a YAML mapping, so NoCloud reads no network config' };
  return bootOf(value, validated?.version !== undefined && validated.host !== undefined ? { version: validated.version, host: validated.host } : undefined);
}

/** The same from a loaded mapping (a drop-in's `network:` value is read the same way). */
export function bootOf(cfg: PyDict, on?: BootHost): NetworkBoot {
  const wrapped = pyTruthy(cfg) && cfg.has('network');
  const ncfg = wrapped ? (cfg.get('network') as PyValue) : cfg;
  if (ncfg instanceof PyDict && ncfg.has('config') && pyEq(ncfg.get('config') as PyValue, 'disabled')) return { result: 'disabled' };
  if (!pyTruthy(ncfg)) return { result: 'fallback', why: wrapped ? 'its `network:` is empty' : 'the mapping is empty' };
  if (!(ncfg instanceof PyDict)) return { result: 'applied', version: null, wrapped, interpreted: false, error: `${wrapped ? '`network:`' : 'the config'} is not a mapping` };
  const version = ncfg.get('version') ?? null;
  let config = ncfg.get('config');
  if (version !== null && pyEq(version, 2n)) config = ncfg;
  if (version !== null && pyTruthy(version) && config !== undefined && config !== null) {
    const v2 = pyEq(version, 2n);
    const interpreted = pyEq(version, 1n) || v2;
    // netplan's renderer takes version 2 as written; any other host's renderer parses it, as it parses v1 everywhere
    if (!interpreted || !on || (v2 && on.host !== 'none')) return { result: 'applied', version, wrapped, interpreted };
    const parsed = parseNetworkState(ncfg, on.version);
    if ('error' in parsed) return { result: 'applied', version, wrapped, interpreted, parseError: parsed.error };
    return { result: 'applied', version, wrapped, interpreted, ...('unmodelled' in parsed ? { parseNotFollowed: parsed.unmodelled } : {}) };
  }
  // (cloud-init prints the whole config; one of more values than a bound, aliases expanded, is not written out here)
  const size = expandedSize(ncfg, REPR_NODES);
  const shown = size > REPR_NODES ? `<a mapping of more than ${REPR_NODES} values${sharedExpansion(ncfg, size) > 0 ? ' once its aliases are expanded' : ''}>` : pyRepr(ncfg);
  const error = `RuntimeError: No valid network_state object created from network config. Did you specify the correct version? Network config:\n${shown}`;
  return { result: 'applied', version, wrapped, interpreted: false, error };
}

/** What the boot does, in one sentence for a user. */
export function describeBoot(b: NetworkBoot): string {
  switch (b.result) {
    case 'fallback':
      return `At boot cloud-init finds no usable network config here (${b.why}) and generates its fallback config (DHCP on the first NIC).`;
    case 'disabled':
      return 'At boot cloud-init reads `config: disabled` and leaves the network configuration alone.';
    case 'applied':
      if (b.error) return `At boot cloud-init cannot use this network config: ${b.error.split('\n')[0]}`;
      if (b.parseError) return `At boot the renderer's parse of this network config raises ${b.parseError.split('\n')[0]} (a host without netplan): cloud-init does not configure the network.`;
      if (!b.interpreted) return `At boot cloud-init has no parser for network config version ${pyRepr(b.version)}: it configures no interface from it.`;
      return `At boot cloud-init hands this network config to the distro's renderer (version ${pyRepr(b.version)}${b.wrapped ? ', under `network:`' : ''})${b.parseNotFollowed ? `; whether the renderer's parse of it raises is not reproduced here (${b.parseNotFollowed})` : ''}.`;
  }
}
