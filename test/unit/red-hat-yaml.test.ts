/**
 * No double reports with Red Hat YAML: the client works out which files Red Hat YAML validates with
 * cloud-init's schema (client/src/redHatYamlFiles.ts) and the server matches document URIs against those
 * patterns as yaml-language-server does (server/src/features/common/redHatYaml.ts), checked here against
 * the matcher of the yaml-language-server installed beside us, and from Red Hat YAML's settings to the
 * decision against its whole language service (test/support/redHatYamlOracle.ts: URI normalisation and
 * schema priorities included). The protocol test (test/lsp/schema-diagnostics.test.ts) checks that the
 * server then leaves the schema findings to it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filesValidatedByRedHatYaml, withRedHatYamlFiles, type RedHatYamlState } from '../../client/src/redHatYamlFiles';
import { validatedByRedHatYaml } from '../../server/src/features/common/redHatYaml';
import { normalizeSettings } from '../../server/src/features/common/settings';
import { SCHEMASTORE_CLOUD_INIT_URL, assertSameDecisions, type MatchCase } from '../support/redHatYamlOracle';

const DEFAULTS: RedHatYamlState = { installed: true, validate: undefined, schemaStoreEnable: undefined, schemas: undefined };
const CLOUD_INIT = SCHEMASTORE_CLOUD_INIT_URL;
const LOCAL_CLOUD_INIT = './schemas/cloud-init.json';
const only = (schemas: Record<string, string | string[]>): RedHatYamlState => ({ ...DEFAULTS, schemaStoreEnable: false, schemas });
const ci = (about: string, files: string | string[], file: string, validated: boolean): MatchCase => ({ about, state: only({ [CLOUD_INIT]: files }), cloudInit: [CLOUD_INIT], file, validated });

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

test('with its defaults, Red Hat YAML validates the files yaml-language-server matches to SchemaStore\'s *cloud-config.yaml', async () => {
  const cases: MatchCase[] = [
    { about: 'the pattern itself', state: DEFAULTS, file: '/w/cloud-config.yaml', validated: true },
    { about: 'a prefix, in a folder', state: DEFAULTS, file: '/w/app/web-cloud-config.yaml', validated: true },
    { about: 'a space in the folder name', state: DEFAULTS, file: '/w/my dir/cloud-config.yaml', validated: true },
    { about: 'a # in the folder name', state: DEFAULTS, file: '/w/a#b/cloud-config.yaml', validated: true },
    { about: 'a % in the folder name', state: DEFAULTS, file: '/w/a%20b/cloud-config.yaml', validated: true },
    { about: 'brackets in the folder name', state: DEFAULTS, file: '/w/[x]/cloud-config.yaml', validated: true },
    { about: '.yml is another name', state: DEFAULTS, file: '/w/cloud-config.yml', validated: false },
    { about: 'case matters', state: DEFAULTS, file: '/w/CLOUD-CONFIG.YAML', validated: false },
    { about: 'the name must end with it', state: DEFAULTS, file: '/w/cloud-config.yaml.bak', validated: false },
    { about: 'a folder of that name does not count', state: DEFAULTS, file: '/w/cloud-config.yaml/user-data.yaml', validated: false },
    { about: 'another name', state: DEFAULTS, file: '/w/app/user-data.yaml', validated: false },
    { about: 'not installed', state: { ...DEFAULTS, installed: false }, file: '/w/cloud-config.yaml', validated: false },
    { about: 'yaml.validate off', state: { ...DEFAULTS, validate: false }, file: '/w/cloud-config.yaml', validated: false },
    { about: 'yaml.schemaStore.enable off', state: { ...DEFAULTS, schemaStoreEnable: false }, file: '/w/cloud-config.yaml', validated: false },
  ];
  await assertSameDecisions(cases);
});

test('yaml.schemas patterns match as yaml-language-server matches them: a bare one the file name, one with / the path end', async () => {
  const userData = only({ [CLOUD_INIT]: ['user-data/*.yaml', 'vendor.yaml'] });
  const infra = only({ [LOCAL_CLOUD_INIT]: 'infra/**/*.yml' });
  const cases: MatchCase[] = [
    { about: 'dir/*.yaml', state: userData, cloudInit: [CLOUD_INIT], file: '/w/user-data/a.yaml', validated: true },
    { about: 'dir/*.yaml at any depth of the workspace', state: userData, cloudInit: [CLOUD_INIT], file: '/w/x/user-data/a.yaml', validated: true },
    { about: '* stays in its folder', state: userData, cloudInit: [CLOUD_INIT], file: '/w/user-data/sub/a.yaml', validated: false },
    { about: 'another extension', state: userData, cloudInit: [CLOUD_INIT], file: '/w/user-data/a.yml', validated: false },
    { about: 'a bare file name', state: userData, cloudInit: [CLOUD_INIT], file: '/w/vendor.yaml', validated: true },
    { about: 'a bare file name in a folder', state: userData, cloudInit: [CLOUD_INIT], file: '/w/x/vendor.yaml', validated: true },
    { about: 'a bare file name is the whole name', state: userData, cloudInit: [CLOUD_INIT], file: '/w/myvendor.yaml', validated: false },
    { about: '** with no folder between', state: infra, cloudInit: [LOCAL_CLOUD_INIT], file: '/w/infra/a.yml', validated: true },
    { about: '** across folders', state: infra, cloudInit: [LOCAL_CLOUD_INIT], file: '/w/infra/x/y/a.yml', validated: true },
    { about: 'outside the folder', state: infra, cloudInit: [LOCAL_CLOUD_INIT], file: '/w/a.yml', validated: false },
    { about: 'a leading / is dropped', state: only({ [CLOUD_INIT]: '/cloud.cfg.d/*.cfg' }), cloudInit: [CLOUD_INIT], file: '/w/etc/cloud/cloud.cfg.d/10-a.cfg', validated: true },
    { about: '? is one character', state: only({ [CLOUD_INIT]: 'u?.yaml' }), cloudInit: [CLOUD_INIT], file: '/w/u1.yaml', validated: true },
    { about: '? is not two', state: only({ [CLOUD_INIT]: 'u?.yaml' }), cloudInit: [CLOUD_INIT], file: '/w/u12.yaml', validated: false },
    { about: '**/*.yaml', state: only({ [CLOUD_INIT]: '**/*.yaml' }), cloudInit: [CLOUD_INIT], file: '/w/a/b/c.yaml', validated: true },
    { about: 'dots are literal', state: only({ [CLOUD_INIT]: 'a.yaml' }), cloudInit: [CLOUD_INIT], file: '/w/axyaml', validated: false },
    {
      about: 'another schema\'s pattern adds nothing',
      state: only({ [CLOUD_INIT]: 'vendor.yaml', 'https://json.schemastore.org/github-workflow.json': '*.yml' }),
      cloudInit: [CLOUD_INIT],
      file: '/w/ci.yml',
      validated: false,
    },
    { about: 'SchemaStore and yaml.schemas together', state: { ...DEFAULTS, schemas: { [CLOUD_INIT]: 'vendor.yaml' } }, cloudInit: [CLOUD_INIT], file: '/w/web-cloud-config.yaml', validated: true },
  ];
  await assertSameDecisions(cases);
});

test('a file or folder whose name starts with a dot is not matched by * or ** (SchemaStore\'s pattern included)', async () => {
  await assertSameDecisions([
    { about: 'a hidden folder', state: DEFAULTS, file: '/w/.hidden/cloud-config.yaml', validated: false },
    { about: 'a hidden file', state: DEFAULTS, file: '/w/.cloud-config.yaml', validated: false },
    { about: 'a hidden file with a prefix', state: DEFAULTS, file: '/w/app/.x-cloud-config.yaml', validated: false },
    ci('** does not enter a hidden folder', 'infra/**/*.yml', '/w/infra/.x/a.yml', false),
    ci('**/*.yaml and a hidden folder', '**/*.yaml', '/w/.github/a.yaml', false),
  ]);
});

test('braces, classes and extglob groups are glob syntax, not literal characters', async () => {
  await assertSameDecisions([
    ci('braces: the first choice', '*.{yaml,yml}', '/w/a.yaml', true),
    ci('braces: the second choice', '*.{yaml,yml}', '/w/b.yml', true),
    ci('a class', 'user-data/[ab].yaml', '/w/user-data/a.yaml', true),
    ci('outside the class', 'user-data/[ab].yaml', '/w/user-data/c.yaml', false),
    ci('parentheses are an extglob group', '*cloud-config (copy).yaml', '/w/cloud-config (copy).yaml', false),
  ]);
});

test('a pattern starting with ! excludes files from its schema\'s other patterns', async () => {
  await assertSameDecisions([
    ci('excluded by name', ['*.yaml', '!a.yaml'], '/w/a.yaml', false),
    ci('excluded by name in a folder', ['*.yaml', '!a.yaml'], '/w/user-data/a.yaml', false),
    ci('not excluded', ['*.yaml', '!a.yaml'], '/w/b.yaml', true),
  ]);
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
