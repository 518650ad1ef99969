/** `util.read_conf`: one YAML config file as cloud-init reads system configuration (spec §4.2). */
import { PyDict, pyClassName } from '../values';
import { PyError } from '../py/errors';
import { loadYaml, mergeExpansionError, YamlLoadResult } from '../yaml/load';
import { isJinjaTemplate, renderCloudInitJinja } from '../userdata/jinja';
import { PYTHON_RECURSION } from '../limits';

export interface ConfigFile {
  name: string;
  bytes: Uint8Array;
}

export interface ReadConfResult {
  value: PyDict;
  /** What cloud-init would log; the file then counts as `{}`. */
  warnings: string[];
  yaml?: YamlLoadResult;
  text: string;
}

export interface ReadConfOptions {
  /** Instance data: when given, `## template: jinja` files are rendered first (as with an instance-data file). */
  instanceData?: unknown;
  source?: number;
}

export function readConf(file: ConfigFile, options: ReadConfOptions = {}): ReadConfResult {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(file.bytes);
  } catch {
    // load_file decodes strictly; the error propagates and the whole stage fails.
    throw new PyError('ValueError', `'utf-8' codec can't decode ${file.name}: not valid UTF-8`);
  }
  const warnings: string[] = [];
  if (options.instanceData !== undefined && isJinjaTemplate(text)) {
    const rendered = renderCloudInitJinja(text, options.instanceData);
    if (!rendered.ok) {
      warnings.push(`Ignoring jinja template for ${file.name}: ${rendered.message}`);
      return { value: new PyDict(), warnings, text };
    }
    if (!rendered.text) return { value: new PyDict(), warnings, text };
    text = rendered.text;
  }
  const yaml = loadYaml(text, { source: options.source ?? 0, maxDepth: PYTHON_RECURSION.yamlConfDepth });
  const overLimit = mergeExpansionError(yaml);
  if (overLimit) throw overLimit;
  if (!yaml.ok && yaml.error.kind === 'limit') {
    // PyYAML recurses once per nesting level; load_yaml does not catch RecursionError: the stage fails.
    throw new PyError('RecursionError', `maximum recursion depth exceeded (${file.name} nests more than ${PYTHON_RECURSION.yamlConfDepth} levels deep)`);
  }
  if (!yaml.ok) {
    warnings.push(`Failed loading yaml blob. ${yaml.error.message}`);
    return { value: new PyDict(), warnings, yaml, text };
  }
  if (yaml.value === null) return { value: new PyDict(), warnings, yaml, text };
  if (!(yaml.value instanceof PyDict)) {
    warnings.push(`Failed loading yaml blob. Yaml load allows (<class 'dict'>,) root types, but got ${pyClassName(yaml.value)} instead`);
    return { value: new PyDict(), warnings, yaml, text };
  }
  return { value: yaml.value, warnings, yaml, text };
}
