// Completion inside merge specs, run in this process by the server's own handlers (support/featureClient).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CompletionItem, InsertTextFormat, MarkupContent, TextEdit } from 'vscode-languageserver-protocol';
import { cursor, fixtureUri } from '../support/lspClient';
import { FeatureClient } from '../support/featureClient';
import { APPEND_LISTS, mime } from '../lsp/fixtures';

let client: FeatureClient;
let counter = 0;

async function complete(fixture: string, path = 'user-data.yaml', marker = '|'): Promise<{ items: CompletionItem[]; text: string }> {
  const { text, position } = cursor(fixture, marker);
  const uri = fixtureUri(`completion-${counter++}/${path}`);
  client.openNoWait(uri, text);
  const items = await client.completion(uri, position);
  client.close(uri);
  return { items, text };
}

/** The same with cloudConfigMerge.schema.enable off (the document's settings fetched before asking). */
async function completeWithoutSchema(fixture: string): Promise<{ items: CompletionItem[]; text: string }> {
  const { text, position } = cursor(fixture);
  const uri = fixtureUri(`completion-${counter++}/user-data.yaml`);
  client.settings = { schema: { enable: false } };
  await client.open(uri, text);
  const items = await client.completion(uri, position);
  client.close(uri);
  client.settings = {};
  return { items, text };
}

const labels = (items: CompletionItem[]) => items.map((i) => i.label);
const edit = (item: CompletionItem) => item.textEdit as TextEdit;

describe('completion', () => {
  before(async () => {
    client = await FeatureClient.start();
  });
  after(async () => {
    await client.stop();
  });

  describe('merger names (string form)', () => {
    test('an empty value: the three mergers and the recipes', async () => {
      const { items } = await complete('#cloud-config\nmerge_how: ‸\nruncmd: [ls]\n', 'user-data.yaml', '‸');
      assert.deepEqual(labels(items), ['dict', 'list', 'str', APPEND_LISTS, 'dict(no_replace)+list()+str()', 'dict(replace)+list()+str()']);
      const list = items.find((i) => i.label === 'list')!;
      assert.equal(edit(list).newText, 'list($1)');
      assert.equal(list.insertTextFormat, InsertTextFormat.Snippet);
      assert.match((list.documentation as MarkupContent).value, /\*\*list\(\)\*\*/);
      const recipe = items.find((i) => i.label === APPEND_LISTS)!;
      assert.equal(edit(recipe).newText, APPEND_LISTS);
      assert.match(recipe.detail!, /append lists/);
    });

    test("right after an opening quote (a trigger character, the editor's closing quote already there): mergers and recipes", async () => {
      for (const q of ['"', "'"]) {
        const { items } = await complete(`#cloud-config\nmerge_how: ${q}|${q}\n`);
        assert.deepEqual(labels(items), ['dict', 'list', 'str', APPEND_LISTS, 'dict(no_replace)+list()+str()', 'dict(replace)+list()+str()'], q);
      }
    });

    test("right after '(' inside quotes: the options of that merger", async () => {
      const { items } = await complete('#cloud-config\nmerge_how: "list(|)"\n');
      assert.ok(labels(items).includes('append'), labels(items).join(', '));
      const { items: unclosed } = await complete('#cloud-config\nmerge_how: "list(|"\n');
      assert.ok(labels(unclosed).includes('append'), labels(unclosed).join(', '));
    });

    test('the word being typed is replaced', async () => {
      const { items } = await complete('#cloud-config\nmerge_how: li|\n');
      const list = items.find((i) => i.label === 'list')!;
      assert.deepEqual(edit(list).range, { start: { line: 1, character: 11 }, end: { line: 1, character: 13 } });
    });

    test("after '+': only mergers not in the spec yet, and no recipes", async () => {
      const { items } = await complete('#cloud-config\nmerge_how: list(append)+|\n');
      assert.deepEqual(labels(items), ['dict', 'str']);
    });

    test("no parentheses are added when '(' follows", async () => {
      const { items } = await complete('#cloud-config\nmerge_how: l|(append)+dict()\n');
      assert.equal(edit(items.find((i) => i.label === 'list')!).newText, 'list');
    });

    test('in a MIME Merge-Type header', async () => {
      const { items } = await complete(mime([{ headers: ['Merge-Type: list(append)+|'], body: '#cloud-config\nruncmd: [ls]\n' }]), 'user-data.mime');
      assert.deepEqual(labels(items), ['dict', 'str']);
    });
  });

  describe('options inside name( … )', () => {
    test('only the options list() reads', async () => {
      const { items } = await complete('#cloud-config\nmerge_how: list(|)+dict()\n');
      assert.deepEqual(labels(items), ['append', 'prepend', 'replace', 'no_replace', 'recurse_dict', 'recurse_list', 'recurse_array', 'recurse_str']);
      assert.match((items[0].documentation as MarkupContent).value, /\*\*append\*\* in list\(\)/);
    });

    test('str() reads only append, and nothing once it is given', async () => {
      assert.deepEqual(labels((await complete('#cloud-config\nmerge_how: dict()+str(|)\n')).items), ['append']);
      assert.deepEqual(labels((await complete('#cloud-config\nmerge_how: dict()+str(append,|)\n')).items), []);
    });

    test('options already given are left out, on both sides of the cursor', async () => {
      const { items } = await complete('#cloud-config\nmerge_how: list(append)+dict(no_replace,|,allow_delete)+str()\n');
      assert.deepEqual(labels(items), ['replace', 'recurse_list', 'recurse_array', 'recurse_str', 'recurse_dict']);
    });

    test('a partly typed option is replaced', async () => {
      const { items } = await complete('#cloud-config\nmerge_how: list(append)+dict(no_replace,rec|\n');
      assert.deepEqual(edit(items.find((i) => i.label === 'recurse_list')!).range, { start: { line: 1, character: 40 }, end: { line: 1, character: 43 } });
    });

    test('inside quotes, and before a comment', async () => {
      assert.ok(labels((await complete("#cloud-config\nmerge_how: 'list(append)+dict(|)'\n")).items).includes('recurse_list'));
      assert.ok(labels((await complete('#cloud-config\nmerge_how: list(|)  # keep order\n')).items).includes('append'));
    });

    test('names are read as cloud-init reads them (case, dashes)', async () => {
      assert.deepEqual(labels((await complete('#cloud-config\nmerge_how: Dict()+M-Str(|)\n')).items), ['append']);
    });

    test('an unknown merger has no options to offer', async () => {
      assert.deepEqual(labels((await complete('#cloud-config\nmerge_how: lists(|)\n')).items), []);
    });
  });

  describe('the list form', () => {
    test('name: values', async () => {
      const { items } = await complete('#cloud-config\nmerge_how:\n  - name: |\n    settings: []\n');
      assert.deepEqual(labels(items), ['dict', 'list', 'str']);
      assert.equal(edit(items[0]).newText, 'dict');
    });

    test('settings: [ … ] for the entry’s merger, minus those given', async () => {
      const { items } = await complete('#cloud-config\nmerge_how:\n  - name: dict\n    settings: [no_replace, |]\n');
      assert.deepEqual(labels(items), ['replace', 'allow_delete', 'recurse_list', 'recurse_array', 'recurse_str', 'recurse_dict']);
    });

    test('block settings items, when name comes after settings', async () => {
      const { items } = await complete('#cloud-config\nmerge_how:\n  - settings:\n      - append\n      - |\n    name: list\n  - name: dict\n    settings: [recurse_list]\n');
      assert.deepEqual(labels(items), ['prepend', 'replace', 'no_replace', 'recurse_dict', 'recurse_list', 'recurse_array', 'recurse_str']);
    });

    test('list items elsewhere get nothing', async () => {
      assert.deepEqual((await complete('#cloud-config\nruncmd:\n  - |\n')).items, []);
      assert.deepEqual((await complete('#cloud-config\nusers:\n  - name: |\n')).items, []);
    });
  });

  describe('hostile lines', () => {
    // Before: the word under the cursor was found with /[A-Za-z0-9_-]*$/, which tries every start
    // position: 100,000 letters before a '(' took ten seconds, 200,000 about forty.
    test('a 200,000-letter merger name before the cursor answers at once (no options for an unknown merger)', { timeout: 20_000 }, async () => {
      const long = 'a'.repeat(200_000);
      assert.deepEqual((await complete(`#cloud-config\nmerge_how: ${long}(|\n`)).items, []);
      const { items } = await complete(`#cloud-config\nmerge_how: list(append)+${long}|\n`);
      assert.deepEqual(labels(items), ['dict', 'str'], 'the mergers not in the spec yet, for the editor to filter');
    });
  });

  describe('the merge_how key', () => {
    // With cloudConfigMerge.schema.enable off: only the spec key (schema keys: schema completion below).
    test('at the top level of a cloud-config without a spec', async () => {
      const { items } = await completeWithoutSchema('#cloud-config\nmer|\nruncmd: [ls]\n');
      assert.deepEqual(labels(items), ['merge_how']);
      assert.match(edit(items[0]).newText, /^merge_how: \$\{1\|list\(append\)\+dict\(no_replace\\,recurse_list\)\+str\(\),/);
      assert.deepEqual(edit(items[0]).range, { start: { line: 1, character: 0 }, end: { line: 1, character: 3 } });
    });

    test('not when the document already has one, and not when indented', async () => {
      assert.deepEqual((await completeWithoutSchema('#cloud-config\nmer|\nmerge_how: dict()\n')).items, []);
      assert.deepEqual((await completeWithoutSchema('#cloud-config\nntp:\n  mer|\n')).items, []);
    });

    test('plain text for clients without snippets', async () => {
      const plain = await FeatureClient.start({ capabilities: { textDocument: { completion: { completionItem: { snippetSupport: false } } } } });
      try {
        const { text, position } = cursor('#cloud-config\nmer|\n');
        const uri = fixtureUri('plain/user-data.yaml');
        plain.openNoWait(uri, text);
        const [item] = await plain.completion(uri, position);
        assert.equal(edit(item).newText, `merge_how: ${APPEND_LISTS}`);
        assert.notEqual(item.insertTextFormat, InsertTextFormat.Snippet);
        const [list] = (await plain.completion(uri, position)).filter((i) => i.label === 'merge_how');
        assert.ok(list);
      } finally {
        await plain.stop();
      }
    });
  });

  test('nothing in files that are not cloud-init parts', async () => {
    assert.deepEqual((await complete('services:\n  merge_how: li|\n', 'compose.yaml')).items, []);
    assert.deepEqual((await complete('merge_how: li|\n', 'settings.yaml')).items, []);
  });
});
