/**
 * Red Hat YAML (redhat.vscode-yaml) validates some files against cloud-init's schema too: those SchemaStore
 * associates with it (`*cloud-config.yaml`, while `yaml.schemaStore.enable` is on) and those a user maps to
 * a cloud-init schema in `yaml.schemas`. On those files our server leaves the schema findings to it, so no
 * problem is reported twice; everything else (merge findings, hovers, completion, preview) stays ours.
 * The client tells the server which files through the `cloudConfigMerge` settings it answers with.
 */
import * as vscode from 'vscode';
import type { RedHatYamlState } from './redHatYamlFiles';

export { filesValidatedByRedHatYaml, withRedHatYamlFiles } from './redHatYamlFiles';

export const RED_HAT_YAML_ID = 'redhat.vscode-yaml';

export function redHatYamlState(): RedHatYamlState {
  const yaml = vscode.workspace.getConfiguration('yaml');
  return {
    installed: vscode.extensions.getExtension(RED_HAT_YAML_ID) !== undefined,
    validate: yaml.get('validate'),
    schemaStoreEnable: yaml.get('schemaStore.enable'),
    schemas: yaml.get('schemas'),
  };
}
