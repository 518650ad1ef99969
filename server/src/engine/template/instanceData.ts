/**
 * The instance data a `## template: jinja` part is rendered with in the editor, the preview and
 * the CLI: a JSON file (like /run/cloud-init/instance-data-sensitive.json) or a shipped sample
 * (./samples.ts) named by `cloudConfigMerge.instanceData` / `--instance-data`. Reading files is
 * the caller's (the server reads bounded, the CLI reads what the user named); this module decides
 * what a setting means and what a template then sees (cloud-init's variable conversion).
 */
import type { CloudInitVersion } from '../spec/parse';
import { convertInstanceData } from '../userdata/jinja';
import { SAMPLE_NAMES, isSampleName, sampleDescription, sampleInstanceData } from './samples';
import V1_KEYS from './data/v1Keys.json';

export interface InstanceDataChoice {
  /** What the user chose, in words ("sample aws: Amazon EC2 …", "file ./id.json", "none"). */
  label: string;
  /** The JSON text of a file (exact int/float typing) or a sample's value; undefined: nothing chosen. */
  data: unknown;
  /** Why the chosen data cannot be used (unreadable file, unknown sample); `data` is then undefined. */
  problem?: string;
}

export const NO_INSTANCE_DATA: InstanceDataChoice = Object.freeze({ label: 'no instance data (cloudConfigMerge.instanceData is empty)', data: undefined });

/** A setting value that names a sample rather than a file. */
export function sampleNameOf(setting: string): string | undefined {
  const name = setting.trim().toLowerCase();
  return isSampleName(name) ? name : undefined;
}

/**
 * What a setting value means: empty for none, a sample's name, or a file path (read by
 * `readFile`, which throws with a message when it cannot).
 */
export function chooseInstanceData(setting: string, version: CloudInitVersion, readFile: (path: string) => string): InstanceDataChoice {
  const value = setting.trim();
  if (!value) return NO_INSTANCE_DATA;
  const sample = sampleNameOf(value);
  if (sample) return { label: `sample "${sample}" (${sampleDescription(sample)})`, data: sampleInstanceData(sample, version) };
  try {
    return { label: `file ${value}`, data: readFile(value) };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { label: `file ${value}`, data: undefined, problem: `${why} (a JSON file, or one of the samples: ${SAMPLE_NAMES.join(', ')})` };
  }
}

/**
 * An instance-data file's bytes as templates get them, in the editor, its sets and the CLI alike: the
 * text (Python's json reads it later, so `1.0` stays a float and 20-digit ints stay exact). Throws when
 * the bytes are not UTF-8.
 */
export function instanceDataText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('not UTF-8 text');
  }
}

/**
 * The variables a template sees for this data (convert_jinja_instance_data with key aliases, the
 * `v1` keys copied to the top level), or null when the data cannot be loaded.
 */
export function templateVariables(choice: InstanceDataChoice): Record<string, unknown> | null {
  if (choice.data === undefined) return null;
  try {
    return convertInstanceData(choice.data);
  } catch {
    return null;
  }
}

/** Dict methods: `x.items` is the method, never the key `items` (Jinja tries the attribute first). */
export const DICT_METHOD_NAMES: ReadonlySet<string> = new Set(['clear', 'copy', 'fromkeys', 'get', 'items', 'keys', 'pop', 'popitem', 'setdefault', 'update', 'values']);

/** One step of a variable path: `.name` or `[key]`. */
export type PathStep = { kind: 'attr'; name: string } | { kind: 'item'; key: string | number };

/** The value a path reaches in the variables, or undefined (a dict method, a missing key, a non-container). */
export function valueAtPath(variables: Record<string, unknown>, root: string, steps: readonly PathStep[]): unknown {
  let value: unknown = Object.prototype.hasOwnProperty.call(variables, root) ? variables[root] : undefined;
  for (const step of steps) {
    if (value === undefined || value === null || typeof value !== 'object') return undefined;
    if (step.kind === 'attr' && DICT_METHOD_NAMES.has(step.name) && !Array.isArray(value)) return undefined;
    const key = step.kind === 'attr' ? step.name : step.key;
    if (Array.isArray(value)) {
      if (typeof key !== 'number') return undefined;
      value = value[key < 0 ? value.length + key : key];
    } else {
      value = Object.prototype.hasOwnProperty.call(value, String(key)) ? (value as Record<string, unknown>)[String(key)] : undefined;
    }
  }
  return value;
}

/**
 * The keys cloud-init writes under `v1` on every instance, whatever the cloud (DataSource._get_standardized_metadata;
 * scripts/template/extract-v1-keys.py reads them from each version's source): their values differ, their names do not.
 */
export function standardV1Keys(version: CloudInitVersion): readonly string[] {
  return V1_KEYS[version];
}

const standardCache = new Map<CloudInitVersion, Record<string, unknown>>();

/**
 * What a template sees of the instance data before any is chosen: `v1` with its standardized keys (and cloud-init's
 * copies of them at the top level, and the underscore forms of dashed keys), every value None. Only the names are
 * facts: `ds`, `merged_cfg` and the rest differ from cloud to cloud and are not in it.
 */
export function standardVariables(version: CloudInitVersion): Record<string, unknown> {
  let variables = standardCache.get(version);
  if (!variables) {
    variables = convertInstanceData({ v1: Object.fromEntries(standardV1Keys(version).map((k) => [k, null])) });
    standardCache.set(version, variables);
  }
  return variables;
}

/** `v1` alone with its standardized keys, as instance data: what renders a `v1.KEY` path the same on every cloud. */
export function standardChoice(version: CloudInitVersion): InstanceDataChoice {
  return { label: "cloud-init's standardized v1 keys", data: { v1: standardVariables(version).v1 } };
}

/**
 * What is known of a path without chosen instance data: `standard` for `v1`, `v1.KEY` (and the top-level copy
 * `KEY`) of a standardized key; `not-standard` for `v1.KEY` of any other key (undefined on every cloud);
 * `unchecked` for the rest (`ds.*`, a step below a standardized key, a dict method), whose answer depends on the data.
 */
export function standardPathKind(root: string, steps: readonly PathStep[], version: CloudInitVersion): 'standard' | 'not-standard' | 'unchecked' {
  const variables = standardVariables(version);
  if (root !== 'v1') return steps.length === 0 && Object.prototype.hasOwnProperty.call(variables, root) ? 'standard' : 'unchecked';
  const first = steps[0];
  if (!first) return 'standard';
  if (first.kind === 'attr' ? DICT_METHOD_NAMES.has(first.name) : typeof first.key !== 'string') return 'unchecked';
  if (valueAtPath(variables, root, [first]) === undefined) return 'not-standard';
  return steps.length === 1 ? 'standard' : 'unchecked';
}

/** A set's instance-data file as the merge reads it (instanceDataText), or undefined when it is not text a template can use. */
export function instanceDataTextOr(bytes: Uint8Array): string | undefined {
  try {
    return instanceDataText(bytes);
  } catch {
    return undefined;
  }
}
