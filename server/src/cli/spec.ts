/** `--spec` / `--spec-merge-how` (JSON or YAML values merged with one merger set) and `--explain` (a spec in words). */
import type { PyValue } from '../engine/py/values';
import { loadYaml, mergeExpansionError } from '../engine/yaml/load';
import { parsePythonJson, toCanonicalJson } from '../engine/py/json';
import { mergeWithSpec } from '../engine/merge/mergeWithSpec';
import { UsageError, type CliOptions } from './args';
import { customMergers, InputError, read, type CliIO } from './io';
import { reportFormat } from './merge';
import { dumpPyYaml } from '../engine/yaml/dump';

const explainModule = (): typeof import('../engine/lint/explainSpec') => require('../engine/lint/explainSpec') as typeof import('../engine/lint/explainSpec');

/** A value file for `--spec`: `.json` is read as Python's json does, anything else as YAML. */
function readValueFile(o: CliOptions, path: string): PyValue {
  const bytes = read(o, path);
  const text = new TextDecoder().decode(bytes);
  if (path.endsWith('.json')) {
    try {
      return parsePythonJson(text);
    } catch (e) {
      throw new InputError(`${path}: not JSON: ${(e as Error).message}`);
    }
  }
  const loaded = loadYaml(text, { maxMergedPairs: o.limits.maxExpandedNodes });
  const overLimit = mergeExpansionError(loaded, o.limits.maxExpandedNodes);
  if (overLimit) throw overLimit;
  if (!loaded.ok) throw new InputError(`${path}: not YAML: ${loaded.error.message}`);
  return loaded.value;
}

export function specMerge(o: CliOptions, io: CliIO): number {
  if (!o.files.length) throw new UsageError('--spec needs at least one VALUE_FILE');
  const values = o.files.map((f) => readValueFile(o, f));
  let spec: PyValue = o.spec as string;
  if (o.specMergeHow !== undefined) {
    const loaded = loadYaml(o.specMergeHow);
    if (!loaded.ok) throw new UsageError(`--spec-merge-how is not YAML: ${loaded.error.message}`);
    spec = loaded.value;
  }
  const merged = mergeWithSpec(spec, values, { version: o.version, modules: customMergers(o, io) });
  if (!merged.ok) throw merged.error;
  const result = merged.value;
  if (o.format === 'json' || o.format === 'report') io.stdout(toCanonicalJson(result, reportFormat(o)).text + '\n');
  else io.stdout(dumpPyYaml(result));
  return 0;
}

export function explain(o: CliOptions, io: CliIO): number {
  let input: string | PyValue;
  if (o.explainMergeHow !== undefined) {
    const loaded = loadYaml(o.explainMergeHow);
    if (!loaded.ok) throw new UsageError(`--explain-merge-how is not YAML: ${loaded.error.message}`);
    input = loaded.value;
  } else {
    input = o.explain as string;
  }
  const result = explainModule().explainSpec(input, { version: o.version, customMergers: customMergers(o, io) });
  if (o.format === 'json' || o.format === 'report') {
    const parsed = result.parsed === null ? 'null' : '[' + result.parsed.map(([n, opts]) => `[${toCanonicalJson(n).text},${toCanonicalJson(opts).text}]`).join(',') + ']';
    io.stdout(`{"parsed":${parsed},"effective":${JSON.stringify(result.effective)},"default_applies":${result.defaultApplies},"error":${JSON.stringify(result.error)},"warnings":${JSON.stringify(result.warnings)}}\n`);
  } else {
    io.stdout(result.words.join('\n') + '\n');
  }
  return result.error ? 3 : 0;
}
