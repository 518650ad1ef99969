/**
 * The `cloudConfigMerge.*` settings as the server uses them. Clients send
 * them nested (VS Code) or with dotted keys (many other editors); both are
 * accepted, anything malformed falls back to the default.
 */
import { DEFAULT_LIMITS, LIMIT_NAMES, Limits, withLimits } from '../../engine/limits';
import { redHatYamlAssociations } from './redHatYaml';
import { imageProfile, resolveTarget } from '../../engine/version/profiles';
import type { Target } from '../../engine/version/target';
import { parseCloudInitVersion, type CloudInitVersion } from '../../engine/version/versions';
import { isCloudName, type CloudName } from '../../engine/delivery/limits';

export const SETTINGS_SECTION = 'cloudConfigMerge';

export type TraceLevel = 'off' | 'messages' | 'verbose';

export interface ServerSettings {
  /** Which cloud-init the messages follow (22.4 and 23.4 spell "identifer"; see engine/version/versions.ts): the target's. */
  cloudInitVersion: CloudInitVersion;
  /** `cloudConfigMerge.image`: a profile id, '' for the default profile. */
  image: string;
  /** Set when the image is a saved set's `image:` (the file is in that set), not the setting's. */
  imageFrom?: { set: string; setFile: string };
  /** `cloudConfigMerge.cloudInitVersion` when it is set: it overrides the image's version. */
  versionOverride?: CloudInitVersion;
  /** `cloudConfigMerge.image` and `cloudConfigMerge.cloudInitVersion` as written when the server does not know them (their defaults apply). */
  unknown?: { image?: string; cloudInitVersion?: string };
  /** The image (or the default one) with the version override: what diagnostics, hovers and previews reproduce. */
  target: Target;
  validation: { enable: boolean };
  /** cloud-init's schema validation of cloud-config documents (`cloudConfigMerge.schema.enable`). */
  schema: {
    enable: boolean;
    /** Files Red Hat YAML validates with cloud-init's schema (sent by the client), one pattern list per association: their schema findings are left to it. */
    validatedByRedHatYaml: string[][];
  };
  /** Our resource limits (`cloudConfigMerge.limits.*`); hitting one is reported, naming it. */
  limits: Limits;
  /** `#include` of local files outside the workspace folders (preview only). */
  includes: { allowOutsideWorkspace: boolean };
  trace: { server: TraceLevel };
  /** Custom merger modules by merger name (paths relative to the workspace folder); loaded in trusted workspaces only. */
  customMergers: Record<string, string>;
  /** Instance data for `## template: jinja` parts: a JSON file (relative to the workspace folder) or a sample's name; '' for none. */
  instanceData: string;
  /** The cloud the user-data is delivered to (`cloudConfigMerge.cloud`): previews hold it to that cloud's limit; '' for none. */
  cloud: CloudName | '';
  /** Secret findings (`secret-*`) as errors instead of warnings (`cloudConfigMerge.secrets.asErrors`). */
  secrets: { asErrors: boolean };
}

export const DEFAULT_SETTINGS: ServerSettings = Object.freeze({
  cloudInitVersion: 'current',
  image: '',
  target: Object.freeze(resolveTarget()),
  validation: Object.freeze({ enable: true }),
  schema: Object.freeze({ enable: true, validatedByRedHatYaml: Object.freeze([]) as unknown as string[][] }),
  limits: Object.freeze({ ...DEFAULT_LIMITS }),
  includes: Object.freeze({ allowOutsideWorkspace: false }),
  trace: Object.freeze({ server: 'off' }),
  customMergers: Object.freeze({}),
  instanceData: '',
  cloud: '',
  secrets: Object.freeze({ asErrors: false }),
});

/** Reads a setting given as `{a: {b: v}}` or `{'a.b': v}`. */
function lookup(raw: unknown, path: string): unknown {
  if (!raw || typeof raw !== 'object') return undefined;
  const record = raw as Record<string, unknown>;
  if (path in record) return record[path];
  const dot = path.indexOf('.');
  if (dot < 0) return undefined;
  return lookup(record[path.slice(0, dot)], path.slice(dot + 1));
}

/** Settings from what the client answered for the `cloudConfigMerge` section. */
export function normalizeSettings(raw: unknown): ServerSettings {
  const version = lookup(raw, 'cloudInitVersion');
  const image = lookup(raw, 'image');
  const enable = lookup(raw, 'validation.enable');
  const schemaEnable = lookup(raw, 'schema.enable');
  const redHat = lookup(raw, 'schema.validatedByRedHatYaml');
  const limits = withLimits(Object.fromEntries(LIMIT_NAMES.map((name) => [name, lookup(raw, `limits.${name}`)])));
  const outside = lookup(raw, 'includes.allowOutsideWorkspace');
  const trace = lookup(raw, 'trace.server');
  const custom = lookup(raw, 'customMergers');
  const instanceData = lookup(raw, 'instanceData');
  const cloud = lookup(raw, 'cloud');
  const secretsAsErrors = lookup(raw, 'secrets.asErrors');
  const customMergers: Record<string, string> = {};
  if (custom && typeof custom === 'object' && !Array.isArray(custom)) {
    for (const [name, file] of Object.entries(custom)) if (typeof file === 'string' && /^[a-z_][a-z0-9_]*$/.test(name)) customMergers[name] = file;
  }
  const versionOverride = typeof version === 'string' ? parseCloudInitVersion(version) : undefined;
  const unknown = {
    ...(typeof image === 'string' && image.trim() && !imageProfile(image) ? { image } : {}),
    ...(version !== undefined && version !== null && versionOverride === undefined ? { cloudInitVersion: typeof version === 'string' ? version : JSON.stringify(version) } : {}),
  };
  return {
    customMergers,
    ...withImage({ versionOverride }, typeof image === 'string' ? image : ''),
    ...(Object.keys(unknown).length ? { unknown } : {}),
    validation: { enable: typeof enable === 'boolean' ? enable : DEFAULT_SETTINGS.validation.enable },
    schema: {
      enable: typeof schemaEnable === 'boolean' ? schemaEnable : DEFAULT_SETTINGS.schema.enable,
      validatedByRedHatYaml: redHatYamlAssociations(redHat),
    },
    limits,
    includes: { allowOutsideWorkspace: typeof outside === 'boolean' ? outside : DEFAULT_SETTINGS.includes.allowOutsideWorkspace },
    trace: { server: trace === 'messages' || trace === 'verbose' ? trace : 'off' },
    instanceData: typeof instanceData === 'string' ? instanceData.trim() : '',
    cloud: typeof cloud === 'string' && isCloudName(cloud) ? cloud : '',
    secrets: { asErrors: secretsAsErrors === true },
  };
}

/**
 * The image settings for `image` (a set's own, or the setting), keeping the version override: an image the
 * profiles do not know is the default one, as any malformed setting falls back to its default.
 */
export function withImage<T extends { versionOverride?: CloudInitVersion }>(settings: T, image: string): T & Pick<ServerSettings, 'image' | 'target' | 'cloudInitVersion'> {
  const known = imageProfile(image)?.id ?? '';
  const target = resolveTarget({ image: known, version: settings.versionOverride });
  return { ...settings, image: known, target, cloudInitVersion: target.version };
}

/** The settings that change what the analysis of a document finds. */
export function analysisKey(settings: ServerSettings): string {
  // (with the settings not known, which documentInfo reports from the analysis's settings)
  return `${settings.cloudInitVersion}|${settings.image}|${JSON.stringify(settings.unknown ?? null)}|${settings.schema.enable}|${JSON.stringify(settings.schema.validatedByRedHatYaml)}|${settings.limits.maxFileBytes}|${settings.limits.maxDepth}|${JSON.stringify(settings.customMergers)}|${settings.instanceData}|${settings.cloud}|${settings.limits.maxDecompressedBytes}|${settings.secrets.asErrors}`;
}
