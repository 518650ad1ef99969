// A Jinja template before any instance data is chosen (issue 31, item 4): the `v1` keys are the same on every
// cloud, so completion offers them and a misspelt one is flagged; `ds.*` and the rest stay unchecked, and the
// hover says so. Also with data: a misspelt variable directly followed by text is flagged. Run in this process
// by the server's own handlers (support/featureClient).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { cursor, fixtureUri } from '../support/lspClient';
import { FeatureClient } from '../support/featureClient';
import { templateFindings } from '../../server/src/engine/lint/templateLint';
import { chooseInstanceData, NO_INSTANCE_DATA, standardV1Keys, templateVariables } from '../../server/src/engine/template/instanceData';
import { SAMPLE_NAMES, sampleInstanceData } from '../../server/src/engine/template/samples';

let client: FeatureClient;
let counter = 0;

const uri = () => fixtureUri(`jinja-default-${counter++}/user-data.yaml`);

function markdown(hover: Hover | null): string {
  assert.ok(hover, 'a hover');
  return (hover.contents as MarkupContent).value;
}

const undefinedOnes = (diagnostics: Diagnostic[], text: string) =>
  diagnostics
    .filter((d) => d.code === 'jinja-undefined-variable')
    .map((d) => {
      const lines = text.split('\n');
      return lines[d.range.start.line].slice(d.range.start.character, d.range.end.character);
    });

describe('a Jinja template with no instance data chosen', () => {
  before(async () => {
    client = await FeatureClient.start();
  });
  after(async () => {
    await client.stop();
  });

  test('completion after `{{ v1.` offers the keys every cloud has', async () => {
    const { text, position } = cursor('## template: jinja\n#cloud-config\nhostname: {{ v1.| }}\n');
    const at = uri();
    await client.open(at, text);
    const items = await client.completion(at, position);
    const labels = items.map((i) => i.label);
    for (const key of ['local_hostname', 'region', 'cloud_name', 'availability_zone', 'instance_id', 'distro', 'platform']) assert.ok(labels.includes(key), labels.join());
    assert.ok(!labels.includes('meta_data'), 'nothing of ds');
    assert.match(items.find((i) => i.label === 'region')?.detail ?? '', /on every cloud; its value depends on the instance/);
    // A dashed key cannot follow a dot: an item lookup replaces the dot.
    const dashed = items.find((i) => i.label === 'local-hostname');
    assert.equal(dashed?.textEdit?.newText, "['local-hostname']");
    client.close(at);
  });

  test('completion where an expression starts offers v1 and its top-level copies; after `ds.` nothing', async () => {
    const names = await (async () => {
      const { text, position } = cursor('## template: jinja\n#cloud-config\nhostname: {{ loc| }}\n');
      const at = uri();
      await client.open(at, text);
      const items = (await client.completion(at, position)).map((i) => i.label);
      client.close(at);
      return items;
    })();
    assert.ok(names.includes('v1') && names.includes('local_hostname'), names.join());
    assert.ok(!names.includes('ds'), 'ds differs from cloud to cloud');
    const { text, position } = cursor('## template: jinja\n#cloud-config\nhostname: {{ ds.| }}\n');
    const at = uri();
    await client.open(at, text);
    assert.deepEqual(await client.completion(at, position), []);
    client.close(at);
  });

  test("a misspelt v1 key is flagged, followed by text or not; ds.* is not checked", async () => {
    const text = [
      '## template: jinja',
      '#cloud-config',
      'fqdn: {{ v1.local_hostnme }}.example.internal',
      'write_files:',
      '  - path: /etc/motd',
      '    content: "region {{ v1.regoin }}"',
      'hostname: {{ v1.local_hostname }}',
      'zone: {{ v1["availability-zone"] }}',
      'meta: {{ ds.meta_data.anything }}',
      '',
    ].join('\n');
    const diagnostics = await client.open(uri(), text);
    assert.deepEqual(undefinedOnes(diagnostics, text), ['v1.local_hostnme', 'v1.regoin']);
    const first = diagnostics.find((d) => d.code === 'jinja-undefined-variable')!;
    assert.match(String(first.message), /^v1\.local_hostnme is not one of the v1 keys cloud-init writes on every cloud, so it is undefined wherever this template runs: where it is printed, cloud-init writes `CI_MISSING_JINJA_VAR\/local_hostnme`/);
  });

  test('the quick fix of a misspelt v1 key is the standardized key', async () => {
    const text = '## template: jinja\n#cloud-config\nfqdn: {{ v1.local_hostnme }}.example.internal\n';
    const diagnostics = await client.open(uri(), text);
    const found = templateFindings(text, { instanceData: NO_INSTANCE_DATA, version: 'current' }).find((f) => f.code === 'jinja-undefined-variable');
    assert.ok(found && diagnostics.length);
    assert.deepEqual(found.fixes?.[0].edits.map((e) => [text.slice(e.span.start, e.span.end), e.newText]), [['.local_hostnme', '.local_hostname']]);
  });

  test('hovers: a standardized key, a misspelt one, and a path that needs instance data', async () => {
    const hover = async (fixture: string) => {
      const { text, position } = cursor(fixture);
      const at = uri();
      await client.open(at, text);
      const found = markdown(await client.hover(at, position));
      client.close(at);
      return found;
    };
    assert.match(await hover('## template: jinja\n#cloud-config\nx: {{ v1.reg|ion }}\n'), /^\*\*v1\.region\*\*: cloud-init writes this under `v1` on every cloud; its value depends on the instance\.\n\nNo instance data is chosen\. Set `cloudConfigMerge\.instanceData`/);
    assert.match(await hover('## template: jinja\n#cloud-config\nx: {{ v1.reg|oin }}\n'), /^\*\*v1\.regoin\*\* is not one of the keys cloud-init writes under `v1` on every cloud \(`_beta_keys`, `availability-zone`.*\): undefined: cloud-init writes `CI_MISSING_JINJA_VAR\/regoin`/);
    assert.match(await hover('## template: jinja\n#cloud-config\nx: {{ ds.meta_|data.x }}\n'), /No instance data is chosen\. Only cloud-init's standardized `v1` keys, the same on every cloud, are checked without it; `ds` and the other paths differ from cloud to cloud and are not checked\./);
  });

  test('with an instance-data file that cannot be read, the v1 keys are still checked', () => {
    const unreadable = chooseInstanceData('missing.json', 'current', () => {
      throw new Error('no such file');
    });
    const text = '## template: jinja\n#cloud-config\nregion: {{ v1.nope }}\nx: {{ ds.nope }}\n';
    const found = templateFindings(text, { instanceData: unreadable, version: 'current' });
    assert.deepEqual(found.map((f) => [f.code, text.slice(f.span.start, f.span.end).split('\n')[0]]), [
      ['jinja-instance-data', '## template: jinja'],
      ['jinja-undefined-variable', 'v1.nope'],
    ]);
    assert.match(found[0].message, /Only the keys of v1, which every cloud has, are checked\./);
  });
});

describe('a Jinja template with instance data chosen', () => {
  test('a misspelt variable directly followed by text is flagged, as one alone is', () => {
    const instanceData = chooseInstanceData('aws', 'current', () => '');
    const text = '## template: jinja\n#cloud-config\nfqdn: {{ v1.local_hostnme }}.example.internal\nmotd: "region {{ v1.regoin }}"\n';
    const found = templateFindings(text, { instanceData, version: 'current' }).filter((f) => f.code === 'jinja-undefined-variable');
    assert.deepEqual(found.map((f) => text.slice(f.span.start, f.span.end)), ['v1.local_hostnme', 'v1.regoin']);
    assert.match(found[0].message, /cloud-init writes CI_MISSING_JINJA_VAR\/local_hostnme here/);
  });
});

test("the standardized keys are cloud-init's: every shipped sample has them under v1, and nothing else there", () => {
  for (const version of ['22.4', 'current'] as const) {
    const keys = standardV1Keys(version);
    assert.ok(keys.includes('local_hostname') && keys.includes('local-hostname'));
    for (const sample of SAMPLE_NAMES) {
      const v1 = sampleInstanceData(sample, version).v1 as Record<string, unknown>;
      assert.deepEqual(Object.keys(v1).sort(), [...keys].sort(), `sample ${sample} (${version})`);
      const variables = templateVariables({ label: sample, data: sampleInstanceData(sample, version) })!;
      for (const key of keys) assert.ok(key in (variables.v1 as object), key);
    }
  }
});
