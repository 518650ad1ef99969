/**
 * No double reports with Red Hat YAML: the client works out which files Red Hat YAML validates with
 * cloud-init's schema (client/src/redHatYamlFiles.ts) and the server matches document URIs against those
 * patterns as yaml-language-server does (server/src/features/common/redHatYaml.ts), checked here against
 * the matcher of the yaml-language-server installed beside us. The protocol test
 * (test/lsp/schema-diagnostics.test.ts) checks that the server then leaves the schema findings to it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filesValidatedByRedHatYaml, withRedHatYamlFiles } from '../../client/src/redHatYamlFiles';
import { validatedByRedHatYaml } from '../../server/src/features/common/redHatYaml';
import { normalizeSettings } from '../../server/src/features/common/settings';

const DEFAULTS = { installed: true, validate: undefined, schemaStoreEnable: undefined, schemas: undefined };

test('Red Hat YAML with its defaults validates *cloud-config.yaml through SchemaStore; not installed or off, nothing', () => {
  assert.deepEqual(filesValidatedByRedHatYaml(DEFAULTS), [['*cloud-config.yaml']]);
  assert.deepEqual(filesValidatedByRedHatYaml({ ...DEFAULTS, installed: false }), []);
  assert.deepEqual(filesValidatedByRedHatYaml({ ...DEFAULTS, validate: false }), []);
  assert.deepEqual(filesValidatedByRedHatYaml({ ...DEFAULTS, schemaStoreEnable: false }), []);
});

test("yaml.schemas entries that name cloud-init's schema add their files, each entry as one association; other schemas do not", () => {
  const schemas = {
    'https://raw.githubusercontent.com/canonical/cloud-init/main/cloudinit/config/schemas/schema-cloud-config-v1.json': ['user-data/*.yaml', '!user-data/draft-*.yaml', 'vendor.yaml'],
    './schemas/cloud-init.json': 'infra/**/*.yml',
    'https://json.schemastore.org/github-workflow.json': '.github/workflows/*.yml',
  };
  assert.deepEqual(filesValidatedByRedHatYaml({ ...DEFAULTS, schemaStoreEnable: false, schemas }), [['user-data/*.yaml', '!user-data/draft-*.yaml', 'vendor.yaml'], ['infra/**/*.yml']]);
});

/** yaml-language-server's own matcher, as its schema service builds one per association. */
const { FilePatternAssociation } = require('yaml-language-server/lib/umd/languageservice/services/yamlSchemaService') as {
  FilePatternAssociation: new (patterns: string[], folderUri: string | undefined, uris: string[]) => { matchesPattern(uri: string): boolean };
};

test("a document is left to Red Hat YAML exactly when yaml-language-server's own matcher applies the association to its URI", () => {
  const associations = [
    ['*cloud-config.yaml'],
    ['user-data/*.yaml'],
    ['user-data/*.yaml', '!user-data/draft-*.yaml'],
    ['infra/**/*.yml'],
    ['/abs/*.yaml'],
    ['**/*.yaml'],
    ['*.{yaml,yml}'],
    ['vendor.yaml'],
    ['my dir/*.yaml'],
    ['.config/*.yaml'],
    ['!only-negative.yaml'],
    ['[abc].yaml'],
    ['!(x).yaml'],
  ];
  const uris = [
    'file:///w/app/web-cloud-config.yaml',
    'file:///w/cloud-config.yaml',
    'file:///w/cloud-config.yml',
    'file:///w/Cloud-Config.yaml',
    'file:///w/.hidden/web-cloud-config.yaml',
    'file:///w/.cloud-config.yaml',
    'file:///w/user-data/a.yaml',
    'file:///w/user-data/draft-a.yaml',
    'file:///w/user-data/sub/a.yaml',
    'file:///w/infra/x/y/a.yml',
    'file:///w/infra/a.yml',
    'file:///w/infra/.x/a.yml',
    'file:///abs/a.yaml',
    'file:///w/abs/a.yaml',
    'file:///w/vendor.yaml',
    'file:///w/my%20dir/a.yaml',
    'file:///w/.config/a.yaml',
    'file:///c%3A/w/vendor.yaml',
    'file:///w/a.yaml',
    'file:///w/x.yaml',
    'untitled:Untitled-1',
  ];
  let compared = 0;
  for (const patterns of associations) {
    const theirs = new FilePatternAssociation(patterns, undefined, ['schema']);
    for (const uri of uris) {
      assert.equal(validatedByRedHatYaml(uri, [patterns]), theirs.matchesPattern(uri), `${JSON.stringify(patterns)} on ${uri}`);
      compared++;
    }
  }
  assert.equal(compared, associations.length * uris.length);
  // What a user meets: a file in a dot-folder or a dot-file is not validated by Red Hat YAML, so ours stays;
  // an exclusion holds within its association only.
  assert.equal(validatedByRedHatYaml('file:///w/.hidden/web-cloud-config.yaml', [['*cloud-config.yaml']]), false);
  assert.equal(validatedByRedHatYaml('file:///w/user-data/draft-a.yaml', [['user-data/*.yaml', '!user-data/draft-*.yaml']]), false);
  assert.equal(validatedByRedHatYaml('file:///w/user-data/draft-a.yaml', [['user-data/*.yaml', '!user-data/draft-*.yaml'], ['*.yaml']]), true);
});

test('the client adds the files to our settings and the server reads them back', () => {
  const sent = withRedHatYamlFiles({ cloudInitVersion: '22.4', schema: { enable: true } }, [['*cloud-config.yaml'], ['a/*.yaml', '!a/b.yaml']]);
  const settings = normalizeSettings(sent);
  assert.equal(settings.cloudInitVersion, '22.4');
  assert.deepEqual(settings.schema, { enable: true, validatedByRedHatYaml: [['*cloud-config.yaml'], ['a/*.yaml', '!a/b.yaml']] });
  assert.deepEqual(normalizeSettings({ schema: { validatedByRedHatYaml: 'x' } }).schema.validatedByRedHatYaml, []);
  // A plain pattern is an association of its own.
  assert.deepEqual(normalizeSettings({ schema: { validatedByRedHatYaml: ['*cloud-config.yaml', 3, ['', 'b']] } }).schema.validatedByRedHatYaml, [['*cloud-config.yaml'], ['b']]);
});
