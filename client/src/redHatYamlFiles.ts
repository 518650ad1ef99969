/**
 * Which files Red Hat YAML (redhat.vscode-yaml) validates with cloud-init's schema, from its settings:
 * those SchemaStore associates with it (`*cloud-config.yaml`, while `yaml.schemaStore.enable` is on) and
 * those a user maps to a cloud-init schema in `yaml.schemas`. No `vscode` import: unit-tested in node.
 */
/** SchemaStore's file patterns for cloud-init's schema (what Red Hat YAML applies unless told not to). */
export const SCHEMASTORE_CLOUD_CONFIG_FILES = ['*cloud-config.yaml'];

/** A `yaml.schemas` key that names cloud-init's schema (its file, or SchemaStore's entry for it). */
const CLOUD_INIT_SCHEMA = /schema-cloud-config|cloud-init|cloudinit/i;

/** The settings Red Hat YAML reads, as far as they decide which files it validates with cloud-init's schema. */
export interface RedHatYamlState {
  installed: boolean;
  validate: unknown;
  schemaStoreEnable: unknown;
  schemas: unknown;
}

/**
 * The file patterns Red Hat YAML validates with cloud-init's schema, given its state (empty when it does
 * not run): one list per association (SchemaStore's, each `yaml.schemas` entry's), as its `!` exclusions
 * hold within their association. The server matches them (server/src/features/common/redHatYaml.ts).
 */
export function filesValidatedByRedHatYaml(state: RedHatYamlState): string[][] {
  if (!state.installed || state.validate === false) return [];
  const associations = state.schemaStoreEnable === false ? [] : [[...SCHEMASTORE_CLOUD_CONFIG_FILES]];
  if (state.schemas && typeof state.schemas === 'object' && !Array.isArray(state.schemas)) {
    for (const [schema, files] of Object.entries(state.schemas as Record<string, unknown>)) {
      if (!CLOUD_INIT_SCHEMA.test(schema)) continue;
      const patterns = (Array.isArray(files) ? files : [files]).filter((f): f is string => typeof f === 'string' && f.length > 0);
      if (patterns.length) associations.push(patterns);
    }
  }
  return associations;
}

/** Our settings as the server reads them, with the files Red Hat YAML validates added under `schema`. */
export function withRedHatYamlFiles(settings: unknown, files: string[][]): unknown {
  const plain = settings && typeof settings === 'object' ? (JSON.parse(JSON.stringify(settings)) as Record<string, unknown>) : {};
  const schema = plain.schema && typeof plain.schema === 'object' ? (plain.schema as Record<string, unknown>) : {};
  return { ...plain, schema: { ...schema, validatedByRedHatYaml: files } };
}
