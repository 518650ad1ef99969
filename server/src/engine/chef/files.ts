/**
 * Reading Chef role, environment and attribute files. JSON is read as YAML (it is a subset, apart
 * from exponent numbers without a dot such as 1e5, which YAML 1.1 keeps as strings), so every value
 * keeps its source position for provenance.
 */
import { PyValue } from '../values';
import { loadYaml } from '../yaml/load';
import { decodeUtf8Surrogateescape } from '../userdata/mime';

export interface LoadedChefFiles {
  values: PyValue[];
  texts: Array<{ name: string; text: string }>;
  errors: string[];
}

export function loadChefFiles(files: Array<{ name: string; bytes: Uint8Array }>): LoadedChefFiles {
  const out: LoadedChefFiles = { values: [], texts: [], errors: [] };
  files.forEach((file, source) => {
    const text = decodeUtf8Surrogateescape(file.bytes);
    const loaded = loadYaml(text, { source });
    out.texts.push({ name: file.name, text });
    if (!loaded.ok) out.errors.push(`${file.name}: not JSON or YAML: ${loaded.error.message}`);
    out.values.push(loaded.ok ? loaded.value : null);
  });
  return out;
}

/** A Chef role or environment file (JSON with default_attributes / override_attributes). */
export function looksLikeChefFile(text: string): boolean {
  return /^\s*\{/.test(text) && /"(default_attributes|override_attributes)"\s*:/.test(text) && /"(chef_type|json_class)"\s*:/.test(text);
}
