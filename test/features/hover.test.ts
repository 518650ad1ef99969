// Hover over merge specs, header lines and MIME headers, run in this process by the server's own handlers (support/featureClient).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Hover, MarkupContent, MarkupKind } from 'vscode-languageserver-protocol';
import { cursor, fixtureUri, rangeOf } from '../support/lspClient';
import { FeatureClient } from '../support/featureClient';
import { APPEND_LISTS, mime } from '../lsp/fixtures';

let client: FeatureClient;
let counter = 0;

/** Opens the fixture (cursor at `|`, or at `marker`) and hovers there. */
async function hoverAt(fixture: string, path = 'user-data.yaml', marker = '|'): Promise<{ hover: Hover | null; text: string }> {
  const { text, position } = cursor(fixture, marker);
  const uri = fixtureUri(`hover-${counter++}/${path}`);
  await client.open(uri, text);
  const hover = await client.hover(uri, position);
  client.close(uri);
  return { hover, text };
}

function markdown(hover: Hover | null): string {
  assert.ok(hover, 'a hover');
  const contents = hover.contents as MarkupContent;
  assert.equal(contents.kind, MarkupKind.Markdown);
  return contents.value;
}

describe('hover', () => {
  before(async () => {
    client = await FeatureClient.start();
  });
  after(async () => {
    await client.stop();
  });

  describe('merger names and options in the string form', () => {
    test('a merger name explains what it handles, its default and an example', async () => {
      const { hover, text } = await hoverAt(`#cloud-config\nmerge_how: li|st(append)+dict(no_replace,recurse_list)+str()\nruncmd: [ls]\n`);
      const value = markdown(hover);
      assert.match(value, /\*\*list\(\)\*\*/);
      assert.match(value, /index-wise overwrite/, 'the real default (replace is index-wise)');
      assert.match(value, /```yaml\nmerge_how: .+\n# .+\n```/, 'a two-line example');
      assert.deepEqual(hover!.range, rangeOf(text, 'list'));
    });

    test('an option is explained for the merger it is given to', async () => {
      const { hover, text } = await hoverAt(`#cloud-config\nmerge_how: list(append)+dict(no_replace,recurse_l|ist)+str()\n`);
      const value = markdown(hover);
      assert.match(value, /\*\*recurse_list\*\* in dict\(\)/);
      assert.match(value, /no_replace mode/);
      assert.deepEqual(hover!.range, rangeOf(text, 'recurse_list'));
    });

    test('the same word means something else for list()', async () => {
      const { hover } = await hoverAt(`#cloud-config\nmerge_how: list(recurse_l|ist,append)+dict(no_replace,recurse_list)+str()\n`);
      assert.match(markdown(hover), /\*\*recurse_list\*\* in list\(\): With list\(replace\)/);
    });

    test('an option the merger never reads says so', async () => {
      const { hover } = await hoverAt(`#cloud-config\nmerge_how: list(append)+dict(no_replace,recurse_list)+str(prep|end)\n`);
      assert.match(markdown(hover), /\*\*prepend\*\* in str\(\): no effect/);
    });

    test('capitals and dashes are read as cloud-init reads them', async () => {
      const { hover } = await hoverAt(`#cloud-config\nmerge_how: List(Append)+Dict(No-Re|place,Recurse-List)+Str()\n`);
      assert.match(markdown(hover), /\*\*no_replace\*\* in dict\(\)/);
    });

    test('an unknown merger name', async () => {
      const { hover } = await hoverAt(`#cloud-config\nmerge_how: lis|ts(append)+dict()\n`);
      assert.match(markdown(hover), /no merger by this name/);
    });
  });

  describe('the list form', () => {
    const LIST = `#cloud-config\nmerge_how:\n  - name: li|st\n    settings: [append]\n  - name: dict\n    settings: [no_replace, recurse_list]\n`;
    test('name: values', async () => {
      const { hover, text } = await hoverAt(LIST);
      assert.match(markdown(hover), /\*\*list\(\)\*\*/);
      assert.deepEqual(hover!.range, rangeOf(text, 'list'));
    });
    test('settings: items, for the merger of their entry', async () => {
      const { hover, text } = await hoverAt(LIST.replace('li|st', 'list').replace('[no_replace', '[no_re|place'));
      assert.match(markdown(hover), /\*\*no_replace\*\* in dict\(\)/);
      assert.deepEqual(hover!.range, rangeOf(text, 'no_replace'));
    });
  });

  describe('the whole spec on its key', () => {
    test('merge_how: the effective settings in plain words', async () => {
      const { hover, text } = await hoverAt(`#cloud-config\nmerge_h|ow: ${APPEND_LISTS}\nruncmd: [ls]\n`);
      const value = markdown(hover);
      assert.match(value, /\*\*merge_how\*\*: how this part merges into the parts before it/);
      assert.match(value, /lists: append the new items/);
      assert.match(value, /mappings: keep existing values, merge new mappings recursively; recurse into lists/);
      assert.deepEqual(hover!.range, rangeOf(text, 'merge_how'));
    });

    test('an empty spec names the default that applies', async () => {
      const { hover } = await hoverAt(`#cloud-config\nmerge_|how: ''\nruncmd: [ls]\n`);
      const value = markdown(hover);
      assert.match(value, /`dict\(replace\)\+list\(\)\+str\(\)`/);
      assert.match(value, /new values replace existing ones/);
    });

    test('in a cloud.cfg.d drop-in the default and the meaning differ', async () => {
      const { hover } = await hoverAt(`merge_h|ow: ''\nruncmd: [ls]\n`, 'etc/cloud/cloud.cfg.d/90-base.cfg');
      const value = markdown(hover);
      assert.match(value, /drop-ins whose names sort after it/);
      assert.match(value, /`list\(\)\+dict\(\)\+str\(\)`/);
    });

    test('a spec cloud-init rejects', async () => {
      const { hover } = await hoverAt(`#cloud-config\nmerge_h|ow: lists(append)+dict()\n`);
      assert.match(markdown(hover), /raises ImportError/);
    });

    test('merge_type next to merge_how is not read', async () => {
      const { hover } = await hoverAt(`#cloud-config\nmerge_how: dict(replace)+list()+str()\nmerge_t|ype: ${APPEND_LISTS}\n`);
      assert.match(markdown(hover), /not read here, because merge_how is present/);
    });
  });

  describe('header lines', () => {
    test('#cloud-config at the top of a file', async () => {
      const { hover, text } = await hoverAt(`#cloud-con|fig\npackages: [git]\n`);
      assert.match(markdown(hover), /\*\*#cloud-config\*\*: A cloud-config part/);
      assert.deepEqual(hover!.range, rangeOf(text, '#cloud-config'));
    });

    test('a second #cloud-config further down is a comment, not a header', async () => {
      const { hover } = await hoverAt(`#cloud-config\npackages: [git]\n#cloud-con|fig\n`);
      assert.equal(hover, null);
    });

    test('## template: jinja and the #cloud-config after it', async () => {
      const template = `## templ|ate: jinja\n#cloud-config\nhostname: {{ v1.local_hostname }}\n`;
      assert.match(markdown((await hoverAt(template)).hover), /\*\*## template: jinja\*\*/);
      assert.match(markdown((await hoverAt(template.replace('templ|ate', 'template').replace('#cloud-config', '#cloud-con|fig'))).hover), /\*\*#cloud-config\*\*/);
    });

    test('#include in an include file', async () => {
      const { hover } = await hoverAt(`#incl|ude\nhttps://example.com/base.yaml\n`, 'include.txt');
      assert.match(markdown(hover), /never fetches other URLs/);
    });

    test('#cloud-config-archive', async () => {
      const { hover } = await hoverAt(`#cloud-config-arch|ive\n- type: text/cloud-config\n  content: '#cloud-config'\n`);
      assert.match(markdown(hover), /\*\*#cloud-config-archive\*\*/);
    });

    test('the first line of each MIME part, scripts included', async () => {
      const doc = mime([
        { body: '#cloud-con|fig\nruncmd: [ls]\n' },
        { type: 'text/x-shellscript', body: '#!/bin/bash\necho hi\n' },
      ]);
      assert.match(markdown((await hoverAt(doc, 'user-data.mime')).hover), /\*\*#cloud-config\*\*/);
      assert.match(markdown((await hoverAt(doc.replace('#cloud-con|fig', '#cloud-config').replace('#!/bin/bash', '#!/bin/ba|sh'), 'user-data.mime')).hover), /\*\*#!\*\*: A shell script/);
    });
  });

  describe('MIME headers', () => {
    test('Merge-Type: the header rules and the effective spec', async () => {
      const { hover, text } = await hoverAt(mime([{ headers: [`Merge-Ty|pe: ${APPEND_LISTS}`], body: '#cloud-config\nruncmd: [ls]\n' }]), 'user-data.mime');
      const value = markdown(hover);
      assert.match(value, /\*\*Merge-Type\*\*/);
      assert.match(value, /case-sensitively/);
      assert.match(value, /lists: append the new items/);
      assert.deepEqual(hover!.range, rangeOf(text, 'Merge-Type'));
    });

    test('a lower-case merge-type header is ignored by cloud-init', async () => {
      const { hover } = await hoverAt(mime([{ headers: [`merge-ty|pe: ${APPEND_LISTS}`], body: '#cloud-config\nruncmd: [ls]\n' }]), 'user-data.mime');
      assert.match(markdown(hover), /cloud-init ignores 'merge-type'/);
    });

    test('X-Merge-Type next to Merge-Type is not read', async () => {
      const { hover } = await hoverAt(mime([{ headers: [`Merge-Type: ${APPEND_LISTS}`, 'X-Merge-Ty|pe: dict(replace)+list()+str()'], body: '#cloud-config\nruncmd: [ls]\n' }]), 'user-data.mime');
      assert.match(markdown(hover), /Merge-Type is present and not empty/);
    });

    test('options inside a header value', async () => {
      const { hover } = await hoverAt(mime([{ headers: ['Merge-Type: list(app|end)+dict(no_replace,recurse_list)+str()'], body: '#cloud-config\nruncmd: [ls]\n' }]), 'user-data.mime');
      assert.match(markdown(hover), /\*\*append\*\* in list\(\)/);
    });

    test('a body spec is explained together with the header it is combined with', async () => {
      const doc = mime([{ headers: ['Merge-Type: dict(no_replace,recurse_list)+str()'], body: '#cloud-config\nmerge_h|ow: list(append)\nruncmd: [ls]\n' }]);
      const value = markdown((await hoverAt(doc, 'user-data.mime')).hover);
      assert.match(value, /`list\(append\)\+dict\(no_replace,recurse_list\)\+str\(\)`/);
      assert.match(value, /Together with Merge-Type/);
    });
  });

  test('nothing on ordinary keys and values (with cloudConfigMerge.schema.enable off)', async () => {
    client.settings = { schema: { enable: false } };
    assert.equal((await hoverAt(`#cloud-config\nrun|cmd: [ls]\n`)).hover, null);
    assert.equal((await hoverAt(`#cloud-config\nruncmd: [l|s]\n`)).hover, null);
    client.settings = {};
  });

  test('nothing in YAML files that are not cloud-init parts', async () => {
    assert.equal((await hoverAt(`services:\n  merge_h|ow: list()\n`, 'docker-compose.yaml')).hover, null);
  });

  test('plain text for clients without markdown', async () => {
    const plain = await FeatureClient.start({ capabilities: { textDocument: { hover: { contentFormat: ['plaintext'] } } } });
    try {
      const { text, position } = cursor(`#cloud-config\nmerge_how: li|st(append)+dict()\n`);
      const uri = fixtureUri('plain/user-data.yaml');
      plain.openNoWait(uri, text);
      const hover = await plain.hover(uri, position);
      const contents = hover!.contents as MarkupContent;
      assert.equal(contents.kind, MarkupKind.PlainText);
      assert.doesNotMatch(contents.value, /\*\*|```/);
      assert.match(contents.value, /^list\(\): /);
    } finally {
      await plain.stop();
    }
  });
});
