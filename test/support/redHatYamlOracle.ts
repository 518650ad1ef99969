/**
 * What the installed yaml-language-server (the engine of Red Hat YAML, a dev dependency) decides: does it
 * validate the file at a path with cloud-init's schema, given Red Hat YAML's settings? Its own language
 * service is configured as Red Hat YAML's settings handler configures it (each `yaml.schemas` entry at
 * Settings priority, SchemaStore's entry at SchemaStore priority) and validates a probe document at the
 * file's URI: the schema served for cloud-init's schema flags the probe, every other schema accepts it.
 * So the answer includes yaml-language-server's own glob matching, URI normalisation and priorities.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService, SchemaPriority, type SchemasSettings } from 'yaml-language-server';
import { SCHEMASTORE_CLOUD_CONFIG_FILES, filesValidatedByRedHatYaml, type RedHatYamlState } from '../../client/src/redHatYamlFiles';
import { validatedByRedHatYaml } from '../../server/src/features/common/redHatYaml';

/** SchemaStore's catalogue entry for cloud-init: the schema it serves for SCHEMASTORE_CLOUD_CONFIG_FILES. */
export const SCHEMASTORE_CLOUD_INIT_URL = 'https://raw.githubusercontent.com/canonical/cloud-init/main/cloudinit/config/schemas/schema-cloud-config-v1.json';

/** The workspace root relative `yaml.schemas` keys are resolved against. */
const WORKSPACE = '/w';

const PROBE = 'cloud_config_merge_probe';
const CLOUD_INIT_SCHEMA = JSON.stringify({ type: 'object', properties: { [PROBE]: { type: 'string' } } });
const OTHER_SCHEMA = JSON.stringify({ type: 'object' });

/**
 * Whether yaml-language-server validates `filePath` with cloud-init's schema. `cloudInitSchemas` lists the
 * `yaml.schemas` keys that are cloud-init's schema (which keys name it is the client's decision, not
 * yaml-language-server's: here only matching and priorities are asked).
 */
export async function yamlLanguageServerValidates(state: RedHatYamlState, filePath: string, cloudInitSchemas: readonly string[]): Promise<boolean> {
  if (!state.installed) return false;
  const cloudInit = new Set<string>();
  const schemas: SchemasSettings[] = [];
  const userSchemas = state.schemas && typeof state.schemas === 'object' ? (state.schemas as Record<string, string | string[]>) : {};
  for (const [key, files] of Object.entries(userSchemas)) {
    // Red Hat YAML resolves a relative key against the workspace root.
    const uri = /^[a-z][a-z0-9+.-]*:/i.test(key) ? key : pathToFileURL(path.posix.join(WORKSPACE, key)).href;
    if (cloudInitSchemas.includes(key)) cloudInit.add(uri);
    schemas.push({ uri, fileMatch: Array.isArray(files) ? files : [files], priority: SchemaPriority.Settings });
  }
  if (state.schemaStoreEnable !== false) {
    cloudInit.add(SCHEMASTORE_CLOUD_INIT_URL);
    schemas.push({ uri: SCHEMASTORE_CLOUD_INIT_URL, fileMatch: [...SCHEMASTORE_CLOUD_CONFIG_FILES], priority: SchemaPriority.SchemaStore });
  }
  const service = getLanguageService({
    schemaRequestService: async (uri) => (cloudInit.has(uri) ? CLOUD_INIT_SCHEMA : OTHER_SCHEMA),
    workspaceContext: { resolveRelativePath: (relative, resource) => new URL(relative, resource).href },
  });
  service.configure({ validate: state.validate !== false, schemas });
  const document = TextDocument.create(pathToFileURL(filePath).href, 'yaml', 1, `${PROBE}: 1\n`);
  const diagnostics = await service.doValidation(document, false);
  return diagnostics.some((d) => d.message.includes('Incorrect type'));
}

/** A case: Red Hat YAML's settings, a file, and what yaml-language-server 1.25 answers (checked live). */
export interface MatchCase {
  about: string;
  state: RedHatYamlState;
  /** The `yaml.schemas` keys that are cloud-init's schema. */
  cloudInit?: string[];
  file: string;
  /** yaml-language-server's answer, recorded so that a broken oracle or a changed dependency shows. */
  validated: boolean;
}

/** Our decision (the client's patterns, the server's matcher) equals yaml-language-server's, for every case. */
export async function assertSameDecisions(cases: MatchCase[]): Promise<void> {
  const wrong: string[] = [];
  for (const c of cases) {
    const theirs = await yamlLanguageServerValidates(c.state, c.file, c.cloudInit ?? []);
    assert.equal(theirs, c.validated, `yaml-language-server ${theirs ? 'validates' : 'does not validate'} ${c.file} (${c.about}), the case says otherwise`);
    // The server is given the document's URI, as the editor sends it.
    const ours = validatedByRedHatYaml(pathToFileURL(c.file).href, filesValidatedByRedHatYaml(c.state));
    if (ours !== theirs) wrong.push(`${c.file} (${c.about}): yaml-language-server ${theirs ? 'validates it' : 'does not'}, we decide ${ours}`);
  }
  assert.deepEqual(wrong, [], `decisions that differ from yaml-language-server's:\n${wrong.join('\n')}`);
}
