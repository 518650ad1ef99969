/**
 * Reading Chef role, environment and attribute files. JSON is read as YAML (it is a subset, apart
 * from exponent numbers without a dot such as 1e5, which YAML 1.1 keeps as strings), so every value
 * keeps its source position for provenance.
 */
import { PyDict, PyValue, pyClassName } from '../py/values';
import { loadYaml } from '../yaml/load';
import { DEFAULT_LIMITS, Limits } from '../limits';
import { decodeUtf8Surrogateescape } from '../py/codecs';

export interface LoadedChefFiles {
  values: PyValue[];
  texts: Array<{ name: string; text: string }>;
  errors: string[];
}

export function loadChefFiles(files: Array<{ name: string; bytes: Uint8Array }>, limits: Pick<Limits, 'maxDepth' | 'maxExpandedNodes'> = DEFAULT_LIMITS): LoadedChefFiles {
  const out: LoadedChefFiles = { values: [], texts: [], errors: [] };
  files.forEach((file, source) => {
    const text = decodeUtf8Surrogateescape(file.bytes);
    // The Chef merge recurses once per level and walks every alias: bound both when loading.
    const loaded = loadYaml(text, { source, maxDepth: limits.maxDepth, maxAliasExpansion: limits.maxExpandedNodes, maxMergedPairs: limits.maxExpandedNodes });
    out.texts.push({ name: file.name, text });
    if (!loaded.ok) {
      const limit = loaded.error.kind === 'limit' ? ` (limit maxDepth = ${limits.maxDepth})` : /maxAlias/.test(loaded.error.message) ? ` (limit maxExpandedNodes = ${limits.maxExpandedNodes})` : '';
      out.errors.push(`${file.name}: not JSON or YAML: ${loaded.error.message}${limit}`);
      out.values.push(null);
    } else if (!(loaded.value instanceof PyDict)) {
      // Chef reads roles, environments and attribute files as JSON objects (a Hash); anything else is refused.
      out.errors.push(`${file.name}: the top level is ${describeTop(loaded.value)}, not a JSON object: Chef reads attributes only from an object ({...})`);
      out.values.push(null);
    } else {
      out.values.push(loaded.value);
    }
  });
  return out;
}

function describeTop(value: PyValue): string {
  if (value === null) return 'empty';
  return Array.isArray(value) ? 'a list' : `a ${pyClassName(value)} value`;
}

