/**
 * The one list of modes a set of files can be merged in, and which faces
 * each mode has. Every face (the CLI's flags, the editor's previews, the set
 * file, `--check`, fates) asks here instead of keeping its own list.
 */

/**
 * - `user-data`: each file is one user-data blob, merged as cloud-init merges user-data;
 * - `handler`: each file goes straight to the cloud-config part handler (headers from FILE.headers.json);
 * - `confd`: `/etc/cloud/cloud.cfg.d` drop-ins (and cloud.cfg), in cloud-init's order;
 * - `system`: `util.mergemanydict` over system config files (`--reverse`: the other way round);
 * - `boot`: the user-data laid over vendor-data, the datasource and system config;
 * - `chef`: Chef roles, environments or attribute files, deep-merged in order.
 */
export type Mode = 'user-data' | 'handler' | 'confd' | 'system' | 'boot' | 'chef';

export const MODES: readonly Mode[] = ['user-data', 'handler', 'confd', 'system', 'boot', 'chef'];

/** The modes a preview shows (the system mode is the CLI's only). */
export type PreviewMode = Exclude<Mode, 'system'>;
export const PREVIEW_MODES: readonly PreviewMode[] = ['user-data', 'handler', 'confd', 'boot', 'chef'];

/** The modes a named set (the set file, an editor preview) can have. */
export type SetMode = Exclude<Mode, 'system' | 'handler'>;
export const SET_MODES: readonly SetMode[] = ['user-data', 'confd', 'boot', 'chef'];

/** The modes whose merges have fates (a Chef merge has no specs; system and handler modes are below the parts). */
export type FateMode = 'user-data' | 'confd' | 'boot';
export const FATE_MODES: readonly FateMode[] = ['user-data', 'confd', 'boot'];

/** The modes `--check` validates or reports fates for. */
export const CHECK_MODES: readonly Mode[] = ['user-data', 'handler', 'confd', 'boot'];

/** The modes whose merged result is cloud-init's cloud-config.txt, validated as `cloud-init schema --system` does. */
export const SCHEMA_MODES: readonly Mode[] = ['user-data', 'handler'];

export function isMode(value: unknown): value is Mode {
  return typeof value === 'string' && (MODES as readonly string[]).includes(value);
}

export function hasFates(mode: Mode): mode is FateMode {
  return (FATE_MODES as readonly string[]).includes(mode);
}
