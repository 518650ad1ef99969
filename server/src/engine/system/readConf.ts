/** `util.read_conf`: one YAML config file as cloud-init reads system configuration (spec §4.2). */
import { PyDict, pyClassName } from '../py/values';
import { PyError, PyErrorType } from '../py/errors';
import { loadYaml, mergeExpansionError, YamlLoadResult } from '../yaml/load';
import { jinjaSyntaxErrorText, renderCloudInitJinja } from '../userdata/jinja';
import { configFileIsTemplate } from '../userdata/templater';
import { atLeast, type CloudInitVersion } from '../version/versions';
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
  /** Our limitation, never cloud-init's: a Jinja drop-in this tool cannot render (counted as `{}` here; cloud-init renders it). */
  notReproduced?: string;
}

export interface ReadConfOptions {
  /** Instance data: when given, `## template: jinja` files are rendered first (as with an instance-data file). */
  instanceData?: unknown;
  source?: number;
  /** How read_conf treats a Jinja template that fails (default 'current'). */
  version?: CloudInitVersion;
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
  if (options.instanceData !== undefined && configFileIsTemplate(text)) {
    const version = options.version ?? 'current';
    const rendered = renderCloudInitJinja(text, options.instanceData, { version });
    if (!rendered.ok && rendered.reason === 'unsupported') {
      return { value: new PyDict(), warnings, text, notReproduced: `${rendered.message}; counted as {} here` };
    }
    if (!rendered.ok && rendered.reason === 'syntax' && atLeast(version, '24.4')) {
      // From 24.4 (not 23.4) read_conf catches the syntax error, warns, and loads the unrendered text.
      warnings.push(`Failed to render templated yaml config file '${file.name}'. ${jinjaSyntaxErrorText(rendered)}`);
    } else if (!rendered.ok && (rendered.reason === 'undefined' || rendered.reason === 'type' || rendered.reason === 'security')) {
      // render_jinja_payload logs and returns None; load_yaml takes None as {} up to 23.4, raises from 24.4.
      warnings.push(`Ignoring jinja template for ${file.name}: ${rendered.message}`);
      if (atLeast(version, '24.4')) throw new PyError('AttributeError', "'NoneType' object has no attribute 'decode'");
      return { value: new PyDict(), warnings, text };
    } else if (!rendered.ok && rendered.reason === 'no-instance-data') {
      // JinjaLoadError: logged, and the unrendered text is loaded.
      warnings.push(`Could not apply Jinja template to ${file.name}: ${rendered.message}`);
    } else if (!rendered.ok) {
      // Anything else (a syntax error in 22.4, ZeroDivisionError, ...) propagates out of read_conf: the stage fails.
      throw new PyError((rendered.exception ?? 'Exception') as PyErrorType, rendered.message);
    } else if (!rendered.text) {
      if (atLeast(version, '24.4')) throw new PyError('AttributeError', "'NoneType' object has no attribute 'decode'");
      return { value: new PyDict(), warnings, text };
    } else {
      text = rendered.text;
    }
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
