/**
 * No double reports with Red Hat YAML: the client works out which files Red Hat YAML validates with
 * cloud-init's schema (client/src/redHatYamlFiles.ts) and the server matches file paths against those
 * patterns as yaml-language-server does (server/src/features/common/redHatYaml.ts). The protocol test
 * (test/lsp/schema-diagnostics.test.ts) checks that the server then leaves the schema findings to it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filesValidatedByRedHatYaml, withRedHatYamlFiles } from '../../client/src/redHatYamlFiles';
import { validatedByRedHatYaml } from '../../server/src/features/common/redHatYaml';
import { normalizeSettings } from '../../server/src/features/common/settings';

const DEFAULTS = { installed: true, validate: undefined, schemaStoreEnable: undefined, schemas: undefined };

test('Red Hat YAML with its defaults validates *cloud-config.yaml through SchemaStore; not installed or off, nothing', () => {
  assert.deepEqual(filesValidatedByRedHatYaml(DEFAULTS), ['*cloud-config.yaml']);
  assert.deepEqual(filesValidatedByRedHatYaml({ ...DEFAULTS, installed: false }), []);
  assert.deepEqual(filesValidatedByRedHatYaml({ ...DEFAULTS, validate: false }), []);
  assert.deepEqual(filesValidatedByRedHatYaml({ ...DEFAULTS, schemaStoreEnable: false }), []);
});

test('yaml.schemas entries that name cloud-init\'s schema add their files; other schemas do not', () => {
  const schemas = {
    'https://raw.githubusercontent.com/canonical/cloud-init/main/cloudinit/config/schemas/schema-cloud-config-v1.json': ['user-data/*.yaml', 'vendor.yaml'],
    './schemas/cloud-init.json': 'infra/**/*.yml',
    'https://json.schemastore.org/github-workflow.json': '.github/workflows/*.yml',
  };
  assert.deepEqual(filesValidatedByRedHatYaml({ ...DEFAULTS, schemaStoreEnable: false, schemas }), ['user-data/*.yaml', 'vendor.yaml', 'infra/**/*.yml']);
});

test('the patterns match as yaml-language-server matches them: a bare pattern the file name, one with / the path end', () => {
  const globs = ['*cloud-config.yaml', 'user-data/*.yaml', 'infra/**/*.yml'];
  assert.equal(validatedByRedHatYaml('/w/app/web-cloud-config.yaml', globs), true);
  assert.equal(validatedByRedHatYaml('/w/cloud-config.yaml', globs), true);
  assert.equal(validatedByRedHatYaml('/w/cloud-config.yml', globs), false);
  assert.equal(validatedByRedHatYaml('/w/user-data/a.yaml', globs), true);
  assert.equal(validatedByRedHatYaml('/w/user-data/sub/a.yaml', globs), false);
  assert.equal(validatedByRedHatYaml('/w/infra/x/y/a.yml', globs), true);
  assert.equal(validatedByRedHatYaml('/w/infra/a.yml', globs), true);
  assert.equal(validatedByRedHatYaml('/w/app/user-data.yaml', globs), false);
});

test('the client adds the files to our settings and the server reads them back', () => {
  const sent = withRedHatYamlFiles({ cloudInitVersion: '22.4', schema: { enable: true } }, ['*cloud-config.yaml']);
  const settings = normalizeSettings(sent);
  assert.equal(settings.cloudInitVersion, '22.4');
  assert.deepEqual(settings.schema, { enable: true, validatedByRedHatYaml: ['*cloud-config.yaml'] });
  assert.deepEqual(normalizeSettings({ schema: { validatedByRedHatYaml: 'x' } }).schema.validatedByRedHatYaml, []);
});
