/**
 * What `cloud-init schema --config-file FILE` of each version does with a file before its validator runs
 * (`validate_cloudconfig_file`, upstream's `_get_config_type_and_rendered_userdata`), shared by `--check`
 * and `--check --annotate`, which print the outcome each in their own form:
 * - 22.4 wants the file to begin with `#cloud-config`, byte for byte;
 * - upstream says an empty file has nothing to validate, sniffs the user-data type, renders a
 *   `## template: jinja` file with the instance data (problems in the rendered text are then reported on
 *   line 2: its header line is gone), rejects an unknown first line, and only names other types.
 */
import { sniffContentType, CLOUD_CONFIG_TYPE, JINJA_TYPE } from '../userdata/sniff';
import type { SchemaVersion } from './validate';
import { atLeast } from '../version/versions';

export type SchemaCommandInput =
  /** Validate `content` (the file's text, or what was rendered from it; `toFile` maps its offsets to the file's). */
  | { kind: 'validate'; content: string; toFile?: (offset: number) => number }
  /** Rejected before validating: cloud-init reports `message` at `format-l<line>.c1`. */
  | { kind: 'header-error'; line: number; message: string }
  /** Not validated, and not an error: cloud-init prints `said`. */
  | { kind: 'not-evaluated'; said: string }
  /** A template cloud-init's command cannot render, so it stops (exit 1): `words` are what it prints, null without instance data. */
  | { kind: 'unrendered'; words: string | null };

/** The headers upstream names when it recognises none (`USERDATA_VALID_HEADERS`: the `#` ones, sorted). */
const VALID_HEADERS = '#!, ## template: jinja, #cloud-boothook, #cloud-config, #cloud-config-archive, #cloud-config-jsonp, #include, #include-once, #part-handler';

// Only a template needs the Jinja engine (required on first use).
const jinjaModule = (): typeof import('../userdata/jinja') => require('../userdata/jinja') as typeof import('../userdata/jinja');

/**
 * @param path the name cloud-init's messages give the file
 * @param instanceData what `--instance-data` chose, as renderCloudInitJinja takes it; undefined: none
 *   (cloud-init's command then fails on a template, as on a machine without instance data yet)
 */
export function schemaCommandInput(text: string, version: SchemaVersion, path: string, instanceData?: unknown): SchemaCommandInput {
  if (!atLeast(version, '23.4')) {
    return text.startsWith('#cloud-config') ? { kind: 'validate', content: text } : { kind: 'header-error', line: 1, message: `File ${path} needs to begin with "#cloud-config"` };
  }
  if (!text) return { kind: 'not-evaluated', said: `Empty 'cloud-config' found at ${path}. Nothing to validate.` };
  let type = sniffContentType(text);
  let content = text;
  let toFile: ((offset: number) => number) | undefined;
  let line = 1;
  if (type === JINJA_TYPE) {
    const jinja = jinjaModule();
    const rendered = jinja.renderCloudInitJinja(text, instanceData, { version, trackOrigins: true });
    if (!rendered.ok) {
      if (rendered.reason === 'no-instance-data') return { kind: 'unrendered', words: null };
      // cloud-init's own words (the braces are in its message: it is not an f-string).
      if (rendered.exception === 'NotJinjaError') return { kind: 'header-error', line: 1, message: "Detected type '{user_data_type}' from header. But, content is not a jinja template" };
      const words = rendered.reason === 'syntax' ? `Failed to render templated user-data. ${jinja.jinjaSyntaxErrorText(rendered)}` : `${rendered.exception ? `${rendered.exception}: ` : ''}${rendered.message}`;
      return { kind: 'unrendered', words };
    }
    content = rendered.text;
    toFile = rendered.payloadOffsetOf;
    line = 2;
    type = sniffContentType(content);
  }
  if (type === null) return { kind: 'header-error', line, message: `Unrecognized user-data header in ${path}: "${content.split('\n', 1)[0]}".\nExpected first line to be one of: ${VALID_HEADERS}` };
  if (type !== CLOUD_CONFIG_TYPE) return { kind: 'not-evaluated', said: `User-data type '${type}' not currently evaluated by cloud-init schema` };
  return { kind: 'validate', content, toFile };
}
