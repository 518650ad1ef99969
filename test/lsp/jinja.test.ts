// Jinja templates in the editor, through the built server: completion of instance-data paths,
// filters and tests, hovers with the value cloud-init writes, diagnostics, the rendered part.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeWatchedFilesNotification, Diagnostic, FileChangeType, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { EDITOR_CAPABILITIES, LspClient, applyEdits, cursor, fixtureUri, rangeOf } from '../support/lspClient';
import { InstanceDataChangedNotification, InstanceDataFilesNotification, InstanceDataTextNotification, RenderedPartRequest, type RenderedPartResult } from '../../server/src/protocol';
import { mime } from './fixtures';

let client: LspClient;
let counter = 0;

const TEMPLATE = `## template: jinja
#cloud-config
hostname: {{ v1.local_hostname }}
fqdn: {{ ds['meta-data'].hostname }}
write_files:
  - path: /etc/region
    content: {{ v1.region }}
`;

function name(): string {
  return fixtureUri(`jinja-${counter++}/user-data.yaml`);
}

async function openAt(fixture: string, marker = '|'): Promise<{ uri: string; position: ReturnType<typeof cursor>['position']; text: string }> {
  const { text, position } = cursor(fixture, marker);
  const uri = name();
  await client.open(uri, text);
  return { uri, position, text };
}

function markdownOf(hover: Hover | null): string {
  assert.ok(hover, 'a hover');
  return (hover.contents as MarkupContent).value;
}

function codes(diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) => String(d.code));
}

describe('jinja templates', () => {
  before(async () => {
    client = await LspClient.start({ settings: { instanceData: 'aws' } });
  });
  after(async () => {
    await client.stop();
  });

  describe('completion', () => {
    test('after `v1.` the standardized keys, dash and underscore forms, with their values', async () => {
      const { uri, position } = await openAt('## template: jinja\n#cloud-config\nhostname: {{ v1.| }}\n');
      const items = await client.completion(uri, position);
      const labels = items.map((i) => i.label);
      assert.ok(labels.includes('local_hostname') && labels.includes('region') && labels.includes('cloud_name'), labels.join());
      assert.equal(items.find((i) => i.label === 'region')?.detail, '"us-east-1"');
      // `local-hostname` cannot follow a dot: it is offered as an item lookup replacing the dot
      const dashed = items.find((i) => i.label === 'local-hostname');
      assert.ok(dashed?.textEdit && 'range' in dashed.textEdit);
      assert.equal(dashed.textEdit.newText, "['local-hostname']");
      client.close(uri);
    });

    test('nested paths: ds.meta_data (the alias of meta-data) lists the metadata keys', async () => {
      const { uri, position } = await openAt('## template: jinja\n#cloud-config\nx: {{ ds.meta_data.placement.| }}\n');
      const labels = (await client.completion(uri, position)).map((i) => i.label);
      assert.deepEqual(labels.sort(), ['availability-zone', 'availability_zone', 'availability-zone-id', 'availability_zone_id', 'region'].sort());
      client.close(uri);
    });

    test('a key a dict method shadows (`items`, `keys` …) is offered as an item', async () => {
      const { uri, position } = await openAt('## template: jinja\n#cloud-config\nx: {{ v1.| }}\n');
      const items = await client.completion(uri, position);
      assert.ok(!items.some((i) => i.label === 'keys' && i.textEdit?.newText === 'keys'));
      client.close(uri);
    });

    test('where an expression starts: the top-level variables (v1 keys copied up) and the globals', async () => {
      const { uri, position } = await openAt('## template: jinja\n#cloud-config\nx: {{ | }}\n');
      const labels = (await client.completion(uri, position)).map((i) => i.label);
      for (const expected of ['v1', 'ds', 'merged_cfg', 'merged_system_cfg', 'sys_info', 'local_hostname', 'region', 'range', 'namespace']) assert.ok(labels.includes(expected), expected);
      client.close(uri);
    });

    test('filters after `|` and tests after `is`', async () => {
      const filters = await openAt('## template: jinja\n#cloud-config\nx: {{ v1.region | up§ }}\n', '§');
      const filterLabels = (await client.completion(filters.uri, filters.position)).map((i) => i.label);
      assert.ok(filterLabels.includes('upper') && filterLabels.includes('default') && filterLabels.includes('tojson'));
      client.close(filters.uri);
      const tests = await openAt('## template: jinja\n#cloud-config\n{% if v1.region is | %}x{% endif %}\n');
      const testLabels = (await client.completion(tests.uri, tests.position)).map((i) => i.label);
      assert.ok(testLabels.includes('defined') && testLabels.includes('string') && !testLabels.includes('tojson'));
      client.close(tests.uri);
    });

    test('outside the tags the usual cloud-config completion applies', async () => {
      const { uri, position } = await openAt('## template: jinja\n#cloud-config\nmerge_how: li|\n');
      const labels = (await client.completion(uri, position)).map((i) => i.label);
      assert.ok(labels.includes('list'), labels.join());
      client.close(uri);
    });
  });

  describe('hover', () => {
    test('a variable shows what cloud-init writes for it with the chosen data', async () => {
      const { uri, position, text } = await openAt('## template: jinja\n#cloud-config\nregion: {{ v1.reg|ion }}\n');
      const hover = await client.hover(uri, position);
      assert.match(markdownOf(hover), /\*\*v1\.region\*\* with sample "aws".*cloud-init writes `us-east-1`/);
      assert.deepEqual(hover!.range, rangeOf(text, 'v1.region'));
      client.close(uri);
    });

    test('a part of a path: the value there, as JSON', async () => {
      const { uri, position, text } = await openAt("## template: jinja\n#cloud-config\nz: {{ ds['meta-data'].place|ment['availability-zone'] }}\n");
      const hover = await client.hover(uri, position);
      const value = markdownOf(hover);
      assert.match(value, /"region": "us-east-1"/);
      assert.deepEqual(hover!.range, rangeOf(text, "ds['meta-data'].placement"));
      client.close(uri);
    });

    test('an undefined variable: what cloud-init writes instead', async () => {
      const { uri, position } = await openAt('## template: jinja\n#cloud-config\nx: {{ v1.no|pe }}\n');
      assert.match(markdownOf(await client.hover(uri, position)), /undefined: cloud-init writes `CI_MISSING_JINJA_VAR\/nope`/);
      client.close(uri);
    });

    test('an attribute of an undefined variable: the error that drops the part', async () => {
      const { uri, position } = await openAt('## template: jinja\n#cloud-config\nx: {{ nope.dee|per }}\n');
      assert.match(markdownOf(await client.hover(uri, position)), /raises UndefinedError: 'nope' is undefined; cloud-init then drops the whole part/);
      client.close(uri);
    });

    test("a loop variable is the template's own", async () => {
      const { uri, position } = await openAt('## template: jinja\n#cloud-config\n{% for key in v1.public_ssh_keys %}\n- {{ ke|y }}\n{% endfor %}\n');
      assert.match(markdownOf(await client.hover(uri, position)), /set by this template/);
      client.close(uri);
    });
  });

  describe('diagnostics', () => {
    test('a template that renders cleanly has no template findings', async () => {
      const diagnostics = await client.open(name(), TEMPLATE);
      assert.deepEqual(codes(diagnostics).filter((c) => c.startsWith('jinja')), []);
    });

    test('an undefined variable is marked where it is written, saying what cloud-init writes', async () => {
      const text = '## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostnme }}\n';
      const diagnostics = await client.open(name(), text);
      const found = diagnostics.find((d) => d.code === 'jinja-undefined-variable');
      assert.ok(found, JSON.stringify(diagnostics));
      assert.deepEqual(found.range, rangeOf(text, 'v1.local_hostnme'));
      assert.match(String(found.message), /CI_MISSING_JINJA_VAR\/local_hostnme/);
    });

    test('a misspelt key: a quick fix to the closest key the instance data has there', async () => {
      const text = "## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostnme }}\nkeys: {{ ds.meta_data['public-kyes'] }}\n";
      const uri = name();
      const diagnostics = await client.open(uri, text);
      const found = diagnostics.filter((d) => d.code === 'jinja-undefined-variable');
      assert.equal(found.length, 2, JSON.stringify(diagnostics));
      const titles: string[] = [];
      let fixed = text;
      for (const d of found) {
        const actions = await client.codeActions(uri, d.range, [d]);
        const action = actions.find((a) => a.isPreferred);
        assert.ok(action?.edit?.changes, JSON.stringify(actions));
        titles.push(action.title);
        fixed = applyEdits(fixed, action.edit.changes[uri]);
      }
      assert.deepEqual(titles, ['Change .local_hostnme to .local_hostname', "Change ['public-kyes'] to ['public-keys']"]);
      const again = await client.open(name(), fixed);
      assert.deepEqual(codes(again).filter((c) => c.startsWith('jinja')), []);
    });

    test('a misspelt step inside a path drops the part; the quick fix repairs that step', async () => {
      const text = '## template: jinja\n#cloud-config\nfqdn: {{ ds.meta_dta.hostname }}\n';
      const uri = name();
      const diagnostics = await client.open(uri, text);
      const found = diagnostics.find((d) => d.code === 'jinja-render-error');
      assert.ok(found, JSON.stringify(diagnostics));
      assert.match(String(found.message), /raises UndefinedError: 'dict object' has no attribute 'meta_dta'/);
      const action = (await client.codeActions(uri, found.range, [found])).find((a) => a.isPreferred);
      assert.equal(action?.title, 'Change .meta_dta to .meta_data');
      assert.equal(applyEdits(text, action.edit!.changes![uri]), text.replace('meta_dta', 'meta_data'));
    });

    test('a Jinja syntax error at its line', async () => {
      const text = '## template: jinja\n#cloud-config\na: 1\nb: {% if v1.region %}x\n';
      const diagnostics = await client.open(name(), text);
      const found = diagnostics.find((d) => d.code === 'jinja-syntax');
      assert.ok(found, JSON.stringify(diagnostics));
      assert.equal(found.severity, 1);
      assert.match(String(found.message), /TemplateSyntaxError: Unexpected end of template/);
    });

    test('YAML that breaks only after rendering is reported at the template line that produced it', async () => {
      const text = "## template: jinja\n#cloud-config\nok: 1\nkeys: {{ ds['meta-data']['public-keys'] }}: x\nlast: 2\n";
      const diagnostics = await client.open(name(), text);
      const found = diagnostics.find((d) => d.code === 'jinja-rendered-yaml-invalid');
      assert.ok(found, JSON.stringify(diagnostics));
      assert.equal(found.range.start.line, 3);
      assert.match(String(found.message), /mapping values are not allowed here/);
    });

    test('a schema error of the rendered cloud-config is reported at the template line that wrote the value', async () => {
      const text = '## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostname }}\nruncmd: {{ v1.region }}\n';
      const diagnostics = await client.open(name(), text);
      const found = diagnostics.find((d) => d.code === 'schema-error');
      assert.ok(found, JSON.stringify(diagnostics));
      assert.equal(found.range.start.line, 3);
      assert.match(String(found.message), /^Rendered with sample "aws".*: runcmd: 'us-east-1' is not of type 'array'$/);
    });

    test('a template part of a MIME multipart is checked at its place in the file', async () => {
      const text = mime([
        { body: '#cloud-config\nruncmd: [ls]\n' },
        { type: 'text/jinja2', body: '## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostnme }}\n' },
      ]);
      const uri = fixtureUri(`jinja-${counter++}/user-data.mime`);
      const diagnostics = await client.open(uri, text);
      const found = diagnostics.find((d) => d.code === 'jinja-undefined-variable');
      assert.ok(found, JSON.stringify(diagnostics));
      assert.deepEqual(found.range, rangeOf(text, 'v1.local_hostnme'));
      // hovers work inside the part too
      const hover = await client.hover(uri, found.range.end);
      assert.match(markdownOf(hover), /undefined: cloud-init writes `CI_MISSING_JINJA_VAR\/local_hostnme`/);
    });

    test('{{ }} in a cloud-config without the template header stays literal', async () => {
      const text = '#cloud-config\nhostname: {{ v1.local_hostname }}\n';
      const diagnostics = await client.open(name(), text);
      const found = diagnostics.find((d) => d.code === 'jinja-without-header');
      assert.ok(found, JSON.stringify(diagnostics));
      assert.deepEqual(found.range, rangeOf(text, '{{ v1.local_hostname }}'));
      assert.equal(found.severity, 2);
    });
  });

  describe('Show Rendered Part', () => {
    test('the server renders the open text with the chosen instance data', async () => {
      const uri = name();
      await client.open(uri, TEMPLATE);
      const result = await client.connection.sendRequest<RenderedPartResult>(RenderedPartRequest.method, { uri });
      assert.match(result.text, /^# Rendered by Cloud-Config Merge/);
      assert.match(result.text, /instance data: sample "aws"/);
      assert.ok(result.text.endsWith("#cloud-config\nhostname: ip-172-31-20-5\nfqdn: ip-172-31-20-5.ec2.internal\nwrite_files:\n  - path: /etc/region\n    content: us-east-1\n"), result.text);
    });

    test('in a MIME multipart: the text/jinja2 part under the cursor, then the same part by its index after edits', async () => {
      const uri = name();
      const text = mime([
        { body: '#cloud-config\npackages: [git]\n' },
        { type: 'text/jinja2', headers: ['Content-Disposition: attachment; filename="first.tmpl"'], body: '## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostname }}\n' },
        { type: 'text/plain', body: '## template: jinja\n#cloud-config\nregion: {{ v1.region }}\n' },
      ]);
      await client.open(uri, text);
      const render = (params: object) => client.connection.sendRequest<RenderedPartResult>(RenderedPartRequest.method, { uri, ...params });

      const second = await render({ position: rangeOf(text, 'v1.region').start });
      assert.equal(typeof second.part, 'number');
      assert.match(second.text, /^# Rendered by Cloud-Config Merge.*\n# The text\/jinja2 part of this multipart, its body from line \d+\n/);
      assert.ok(second.text.endsWith('# ---\n#cloud-config\nregion: us-east-1'), second.text);

      const first = await render({ position: rangeOf(text, 'v1.local_hostname').start });
      assert.notEqual(first.part, second.part);
      assert.match(first.text, /# The text\/jinja2 part first\.tmpl of this multipart/);
      assert.ok(first.text.endsWith('# ---\n#cloud-config\nhostname: ip-172-31-20-5'), first.text);

      // an edit above the part moves it: the index still names it
      const edited = 'X-Note: moved\n' + text;
      client.change(uri, edited);
      const again = await render({ part: second.part });
      assert.equal(again.part, second.part);
      assert.ok(again.text.endsWith('region: us-east-1'), again.text);

      const outside = await render({ position: rangeOf(edited, 'packages').start });
      assert.equal(outside.part, undefined);
      assert.match(outside.text, /^# The cursor is not in a text\/jinja2 part of this multipart: put the cursor in one \(they start at lines \d+, \d+\)/);
      client.close(uri);
    });

    test('a multipart without a template part says so', async () => {
      const uri = name();
      await client.open(uri, mime([{ body: '#cloud-config\npackages: [git]\n' }]));
      const result = await client.connection.sendRequest<RenderedPartResult>(RenderedPartRequest.method, { uri, position: { line: 0, character: 0 } });
      assert.equal(result.text, '# This MIME multipart has no text/jinja2 part: cloud-init renders nothing in it.\n');
      client.close(uri);
    });
  });
});

describe('jinja templates with an instance-data file', () => {
  let fileClient: LspClient;
  const folder = mkdtempSync(path.join(tmpdir(), 'jinja-instance-data-'));
  writeFileSync(path.join(folder, 'instance-data.json'), JSON.stringify({ v1: { region: 'moon-1' }, ds: { meta_data: { ratio: 1.5 } } }));
  before(async () => {
    fileClient = await LspClient.start({ settings: { instanceData: 'instance-data.json' }, workspaceFolders: [folder] });
  });
  after(async () => {
    await fileClient.stop();
  });

  test('a relative path is read from the workspace folder', async () => {
    const { text, position } = cursor('## template: jinja\n#cloud-config\nregion: {{ v1.regi|on }}\n');
    const uri = pathToFileURL(path.join(folder, 'user-data.yaml')).toString();
    await fileClient.open(uri, text);
    assert.match(markdownOf(await fileClient.hover(uri, position)), /file instance-data\.json: cloud-init writes `moon-1`/);
    fileClient.close(uri);
  });

  test('an unreadable file is reported on the header line, and variables other than the v1 keys are left unchecked', async () => {
    await fileClient.changeSettings({ instanceData: 'missing.json' });
    const text = '## template: jinja\n#cloud-config\nregion: {{ ds.nope }}\n';
    const diagnostics = await fileClient.open(fixtureUri(`jinja-${counter++}/user-data.yaml`), text);
    const found = diagnostics.find((d) => d.code === 'jinja-instance-data');
    assert.ok(found, JSON.stringify(diagnostics));
    assert.equal(found.range.start.line, 0);
    assert.match(String(found.message), /no such file/);
    assert.ok(!diagnostics.some((d) => d.code === 'jinja-undefined-variable'));
  });
});

describe('instance-data files in a multi-root workspace, watched on disk', () => {
  let watching: LspClient;
  const root = mkdtempSync(path.join(tmpdir(), 'jinja-multi-root-'));
  const folders = ['north', 'south'].map((n) => path.join(root, n));
  const dataFile = (folder: string) => path.join(folder, 'instance-data.json');
  const TEMPLATE_WITH_ZONE = '## template: jinja\n#cloud-config\nregion: {{ v1.region }}\nzone: {{ v1.availability_zone }}\n';
  const docIn = (folder: string) => pathToFileURL(path.join(folder, 'user-data.yaml')).href;
  const notified: string[] = [];
  before(async () => {
    for (const folder of folders) {
      mkdirSync(folder);
      writeFileSync(dataFile(folder), JSON.stringify({ v1: { region: `${path.basename(folder)}-1` } }));
    }
    const capabilities = { ...EDITOR_CAPABILITIES, workspace: { ...EDITOR_CAPABILITIES.workspace, didChangeWatchedFiles: { dynamicRegistration: true } } };
    watching = await LspClient.start({ settings: { instanceData: 'instance-data.json' }, workspaceFolders: folders, capabilities });
    watching.connection.onNotification(InstanceDataChangedNotification.method, (p: { file: string }) => void notified.push(p.file));
  });
  after(async () => {
    await watching.stop();
  });

  test('the server asks the client to watch JSON files', async () => {
    const deadline = Date.now() + 5000;
    while (!watching.registrations.some((r) => r.method === 'workspace/didChangeWatchedFiles') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const registration = watching.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles');
    assert.deepEqual(registration?.registerOptions, { watchers: [{ globPattern: '**/*.json' }] });
  });

  test("a relative path resolves from the document's own workspace folder", async () => {
    for (const folder of folders) {
      const { text, position } = cursor('## template: jinja\n#cloud-config\nregion: {{ v1.regi|on }}\n');
      const uri = pathToFileURL(path.join(folder, 'hover.yaml')).href;
      await watching.open(uri, text);
      assert.match(markdownOf(await watching.hover(uri, position)), new RegExp(`cloud-init writes \`${path.basename(folder)}-1\``));
      watching.close(uri);
    }
  });

  test('a change on disk re-publishes the diagnostics and the rendered part of the templates using the file', async () => {
    const [north, south] = folders;
    const before = await watching.open(docIn(north), TEMPLATE_WITH_ZONE);
    assert.ok(codes(before).includes('jinja-undefined-variable'), JSON.stringify(before));
    await watching.open(docIn(south), TEMPLATE_WITH_ZONE);
    const southPublished = watching.diagnosticsLog(docIn(south)).length;

    writeFileSync(dataFile(north), JSON.stringify({ v1: { region: 'north-2', availability_zone: 'north-2a' } }));
    const since = watching.diagnosticsLog(docIn(north)).length;
    await watching.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(dataFile(north)).href, type: FileChangeType.Changed }] });
    const after = await watching.waitForDiagnostics(docIn(north), since);
    assert.ok(!codes(after.diagnostics).includes('jinja-undefined-variable'), JSON.stringify(after.diagnostics));
    assert.deepEqual(notified, [dataFile(north)]);
    const rendered = await watching.connection.sendRequest<RenderedPartResult>(RenderedPartRequest.method, { uri: docIn(north) });
    assert.ok(rendered.text.endsWith('region: north-2\nzone: north-2a\n'), rendered.text);
    // the other folder's file did not change: its template is left alone
    assert.equal(watching.diagnosticsLog(docIn(south)).length, southPublished);
  });

  test('a change to a JSON file no open template uses is ignored', async () => {
    const other = path.join(folders[0], 'package.json');
    writeFileSync(other, '{}');
    const count = notified.length;
    await watching.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(other).href, type: FileChangeType.Changed }] });
    // a request after it is answered after it: the notification has been handled by then
    await watching.hover(docIn(folders[0]), { line: 0, character: 0 });
    assert.equal(notified.length, count);
  });
});

describe('an instance-data file outside the workspace, watched on disk', () => {
  let client: LspClient;
  const root = mkdtempSync(path.join(tmpdir(), 'jinja-outside-'));
  const folder = path.join(root, 'project');
  const shared = path.join(root, 'shared');
  const dataFile = path.join(shared, 'instance-data.json');
  const doc = pathToFileURL(path.join(folder, 'user-data.yaml')).href;
  const TEMPLATE = '## template: jinja\n#cloud-config\nzone: {{ v1.availability_zone }}\n';
  const outsideWatchers = () =>
    client.registrations.filter((r) => r.method === 'workspace/didChangeWatchedFiles' && JSON.stringify(r.registerOptions).includes('baseUri'));
  const until = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + 5000;
    while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(check(), what);
  };
  before(async () => {
    mkdirSync(folder, { recursive: true });
    mkdirSync(shared, { recursive: true });
    writeFileSync(dataFile, JSON.stringify({ v1: { region: 'r' } }));
    const capabilities = { ...EDITOR_CAPABILITIES, workspace: { ...EDITOR_CAPABILITIES.workspace, didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } } };
    client = await LspClient.start({ settings: { instanceData: '../shared/instance-data.json' }, workspaceFolders: [folder], capabilities });
  });
  after(async () => {
    await client.stop();
  });

  test('is watched with a pattern on its own folder while a document uses it; a change re-publishes; closing drops the watcher', async () => {
    const first = await client.open(doc, TEMPLATE);
    assert.ok(codes(first).includes('jinja-undefined-variable'), JSON.stringify(first));
    await until(() => outsideWatchers().length === 1, 'a watcher for the outside file');
    const [registration] = outsideWatchers();
    assert.deepEqual(registration.registerOptions, { watchers: [{ globPattern: { baseUri: pathToFileURL(shared).href, pattern: 'instance-data.json' } }] });

    writeFileSync(dataFile, JSON.stringify({ v1: { region: 'r', availability_zone: 'r-1a' } }));
    const since = client.diagnosticsLog(doc).length;
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(dataFile).href, type: FileChangeType.Changed }] });
    const after = await client.waitForDiagnostics(doc, since);
    assert.ok(!codes(after.diagnostics).includes('jinja-undefined-variable'), JSON.stringify(after.diagnostics));

    client.close(doc);
    await until(() => client.unregistrations.includes(registration.id), 'the watcher is dropped when no document uses the file');
  });
});

describe('unsaved edits of the instance-data file, sent by the editor', () => {
  let client: LspClient;
  const folder = mkdtempSync(path.join(tmpdir(), 'jinja-unsaved-'));
  const dataFile = path.join(folder, 'instance-data.json');
  const doc = pathToFileURL(path.join(folder, 'user-data.yaml')).href;
  const TEMPLATE = '## template: jinja\n#cloud-config\nregion: {{ v1.region }}\nzone: {{ v1.availability_zone }}\n';
  const filesSent: string[][] = [];
  const changed: string[] = [];
  const rendered = async () => (await client.connection.sendRequest<RenderedPartResult>(RenderedPartRequest.method, { uri: doc })).text;
  /** Sends the editor's text; the first diagnostics after it that `settled` accepts. */
  const sendText = async (text: string | null, settled: (codes: string[]) => boolean) => {
    const since = client.diagnosticsLog(doc).length;
    await client.connection.sendNotification(InstanceDataTextNotification.method, { file: dataFile, text });
    return (await client.waitForDiagnostics(doc, since, (p) => settled(codes(p.diagnostics)))).diagnostics;
  };
  before(async () => {
    writeFileSync(dataFile, JSON.stringify({ v1: { region: 'disk-1' } }));
    client = await LspClient.start({ settings: { instanceData: 'instance-data.json' }, workspaceFolders: [folder] });
    client.connection.onNotification(InstanceDataFilesNotification.method, (p: { files: string[] }) => void filesSent.push(p.files));
    client.connection.onNotification(InstanceDataChangedNotification.method, (p: { file: string }) => void changed.push(p.file));
  });
  after(async () => {
    await client.stop();
  });

  test('the server names the files in use; unsaved text wins over the disk until the editor drops it', async () => {
    const opened = await client.open(doc, TEMPLATE);
    assert.ok(codes(opened).includes('jinja-undefined-variable'), JSON.stringify(opened));
    const deadline = Date.now() + 5000;
    while (!filesSent.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(filesSent.at(-1), [dataFile]);

    await sendText(JSON.stringify({ v1: { region: 'edited-1', availability_zone: 'edited-1a' } }), (c) => !c.includes('jinja-undefined-variable'));
    assert.ok((await rendered()).endsWith('region: edited-1\nzone: edited-1a\n'), await rendered());
    assert.deepEqual(changed, [dataFile], 'open rendered views are told to ask again');

    // saved elsewhere meanwhile: the editor's text still wins while it has unsaved changes
    writeFileSync(dataFile, JSON.stringify({ v1: { region: 'disk-2' } }));
    assert.ok((await rendered()).endsWith('region: edited-1\nzone: edited-1a\n'));

    await sendText(null, (c) => c.includes('jinja-undefined-variable'));
    assert.match(await rendered(), /region: disk-2\n/);
  });

  test('unsaved text is held to the file size limit', async () => {
    // above the template's size (the limit applies to it too), below the unsaved text's
    await client.changeSettings({ instanceData: 'instance-data.json', limits: { maxFileBytes: 128 } });
    const diagnostics = await sendText(JSON.stringify({ v1: { region: 'x'.repeat(200) } }), (c) => c.includes('jinja-instance-data'));
    const found = diagnostics.find((d) => d.code === 'jinja-instance-data');
    assert.match(String(found?.message), /\(unsaved\): \d+ bytes, over the limit maxFileBytes = 128/);
    await sendText(null, (c) => !c.includes('jinja-instance-data'));
  });

  test('a closed template takes its file out of the set', async () => {
    const before = filesSent.length;
    client.close(doc);
    const deadline = Date.now() + 5000;
    while (filesSent.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(filesSent.at(-1), []);
  });
});
