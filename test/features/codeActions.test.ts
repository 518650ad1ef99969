// Quick fixes and refactors, run in this process by the server's own handlers (support/featureClient): what the edit does to the user's file.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CodeAction, CodeActionKind, Diagnostic, Range } from 'vscode-languageserver-protocol';
import { applyEdits, cursor, fixtureUri, rangeOf } from '../support/lspClient';
import { FeatureClient } from '../support/featureClient';
import { APPEND_LISTS, WEB_SERVER, mime } from '../lsp/fixtures';

let client: FeatureClient;
let counter = 0;

interface Opened {
  uri: string;
  text: string;
  diagnostics: Diagnostic[];
  actions: CodeAction[];
}

/** Opens a fixture and asks for code actions at the cursor (or over `range`), with the diagnostics the editor got. */
async function actionsAt(fixture: string, options: { path?: string; only?: string[]; range?: (text: string) => Range; marker?: string } = {}): Promise<Opened> {
  const { text, position } = cursor(fixture, options.marker);
  const uri = fixtureUri(`actions-${counter++}/${options.path ?? 'user-data.yaml'}`);
  const diagnostics = await client.open(uri, text);
  const range = options.range?.(text) ?? { start: position, end: position };
  const inRange = diagnostics.filter((d) => d.range.start.line <= range.end.line && d.range.end.line >= range.start.line);
  const actions = await client.codeActions(uri, range, inRange, options.only);
  client.close(uri);
  return { uri, text, diagnostics, actions };
}

function applied(opened: Opened, action: CodeAction): string {
  const edits = action.edit?.changes?.[opened.uri];
  assert.ok(edits, `edits for ${opened.uri}`);
  return applyEdits(opened.text, edits);
}

function find(opened: Opened, title: string | RegExp): CodeAction {
  const action = opened.actions.find((a) => (typeof title === 'string' ? a.title === title : title.test(a.title)));
  assert.ok(action, `action ${title} among ${opened.actions.map((a) => a.title).join(' | ')}`);
  return action;
}

describe('code actions', () => {
  before(async () => {
    client = await FeatureClient.start();
  });
  after(async () => {
    await client.stop();
  });

  describe('quick fixes from diagnostics', () => {
    test('a misspelt merger: the fix is preferred and carries the diagnostic', async () => {
      const opened = await actionsAt(`#cloud-config\nmerge_how: ls|it(append)+dict(no_replace,recurse_list)+str()\n`);
      const fix = find(opened, "Change to 'list'");
      assert.equal(fix.kind, CodeActionKind.QuickFix);
      assert.equal(fix.isPreferred, true);
      assert.equal(fix.diagnostics?.length, 1);
      assert.equal(fix.diagnostics[0].code, 'unknown-merger');
      assert.deepEqual(fix.diagnostics[0].range, rangeOf(opened.text, 'lsit'));
      assert.equal(applied(opened, fix), `#cloud-config\nmerge_how: ${APPEND_LISTS}\n`);
    });

    test("'+' inside parentheses becomes ','", async () => {
      const opened = await actionsAt(`#cloud-config\nmerge_how: list(append+pre|pend)+dict(no_replace,recurse_list)\n`);
      assert.equal(applied(opened, find(opened, /Use ','/)), '#cloud-config\nmerge_how: list(append,prepend)+dict(no_replace,recurse_list)\n');
    });

    test("a missing '+' is inserted", async () => {
      const opened = await actionsAt(`#cloud-config\nmerge_how: list(append)di|ct(no_replace,recurse_list)\n`);
      assert.equal(applied(opened, find(opened, "Insert '+' between the mergers")), '#cloud-config\nmerge_how: list(append)+dict(no_replace,recurse_list)\n');
    });

    test('recurse_list is added to dict() so that list(append) can work', async () => {
      const opened = await actionsAt(`#cloud-config\nmerge_how: list(app|end)+dict(no_replace)+str()\npackages: [git]\n`);
      assert.equal(applied(opened, find(opened, 'Add recurse_list to dict()')), '#cloud-config\nmerge_how: list(append)+dict(no_replace,recurse_list)+str()\npackages: [git]\n');
    });

    test('a spec without dict() gets one', async () => {
      const opened = await actionsAt(`#cloud-config\nmerge_how: list(append)+s|tr()\n`);
      assert.equal(applied(opened, find(opened, 'Add dict(no_replace,recurse_list)')), '#cloud-config\nmerge_how: list(append)+str()+dict(no_replace,recurse_list)\n');
    });

    test('an ignored option is removed with its comma; removal is not preferred', async () => {
      const opened = await actionsAt(`#cloud-config\nmerge_how: list(append)+dict(no_replace,recurse_list,app|end)+str()\n`);
      const remove = find(opened, "Remove 'append'");
      assert.equal(remove.isPreferred, false);
      assert.equal(applied(opened, remove), `#cloud-config\nmerge_how: ${APPEND_LISTS}\n`);
    });

    test('List in the list form is lower-cased', async () => {
      const opened = await actionsAt(`#cloud-config\nmerge_how:\n  - name: Li|st\n    settings: [append]\n  - name: dict\n    settings: [no_replace, recurse_list]\n`);
      assert.match(applied(opened, find(opened, "Change to 'list'")), /- name: list\n/);
    });

    test('a string settings value becomes a list', async () => {
      const opened = await actionsAt(`#cloud-config\nmerge_how:\n  - name: list\n    settings: app|end\n  - name: dict\n    settings: [no_replace, recurse_list]\n`);
      assert.match(applied(opened, find(opened, 'Use a list: [append]')), /settings: \[append\]\n {2}- name: dict/);
    });

    test('a lower-case MIME header name is corrected', async () => {
      const opened = await actionsAt(mime([{ headers: [`merge-t|ype: ${APPEND_LISTS}`], body: '#cloud-config\nruncmd: [ls]\n' }]), { path: 'user-data.mime' });
      assert.match(applied(opened, find(opened, "Change to 'Merge-Type'")), new RegExp(`\nMerge-Type: ${APPEND_LISTS.replace(/[()+]/g, '\\$&')}\n`));
    });

    test('a fix is offered only where its diagnostic is', async () => {
      const opened = await actionsAt(`#cloud-config\nmerge_how: lsit(append)+dict(no_replace,recurse_list)+str()\nruncmd: [l|s]\n`);
      assert.equal(opened.actions.filter((a) => a.kind === CodeActionKind.QuickFix).length, 0);
    });

    test('a fixed-up quoted string is never edited by guesswork', async () => {
      // The escaped line break makes the value differ from the text: no position-based fix is offered.
      const opened = await actionsAt('#cloud-config\nmerge_how: "list(append)+\\\n  dict(no_replace,recurse_list,ap|pend)"\n');
      assert.deepEqual(opened.diagnostics.map((d) => d.code), ['option-ignored']);
      assert.equal(opened.actions.filter((a) => a.kind === CodeActionKind.QuickFix).length, 0);
    });
  });

  describe('refactors', () => {
    test('string form → list form', async () => {
      const opened = await actionsAt(`#cloud-config\nmerge_h|ow: '${APPEND_LISTS}'  # keep package order\npackages: [git]\n`);
      const convert = find(opened, 'Convert merge_how to the list form');
      assert.equal(convert.kind, CodeActionKind.RefactorRewrite);
      assert.equal(
        applied(opened, convert),
        '#cloud-config\nmerge_how: # keep package order\n  - name: list\n    settings: [append]\n  - name: dict\n    settings: [no_replace, recurse_list]\n  - name: str\n    settings: []\npackages: [git]\n',
      );
    });

    test('list form → string form, and back gives the same spec', async () => {
      const list = '#cloud-config\nmerge_how:\n  - name: list\n    settings: [append]\n  - name: dict\n    settings: [no_replace, recurse_list]\n  - name: str\n    settings: []\npackages: [git]\n';
      const opened = await actionsAt(list.replace('- name: list', '- na|me: list'));
      const text = applied(opened, find(opened, 'Convert merge_how to the string form'));
      assert.equal(text, `#cloud-config\nmerge_how: ${APPEND_LISTS}\npackages: [git]\n`);
      const back = await actionsAt(text.replace('merge_how', 'merge_h|ow'));
      assert.equal(applied(back, find(back, 'Convert merge_how to the list form')), list.replace('merge_how:\n', 'merge_how:\n'));
    });

    test('lossy conversions are not offered', async () => {
      // Capitals: the string form would lower-case them and change what cloud-init loads.
      const capitals = await actionsAt('#cloud-config\nmerge_how:\n  - name: list\n    settings: [Ap|pend]\n  - name: dict\n    settings: [no_replace, recurse_list]\n');
      assert.ok(!capitals.actions.some((a) => /string form/.test(a.title)));
      // A settings string means substring matching, which the string form cannot express.
      const substring = await actionsAt('#cloud-config\nmerge_how:\n  - name: list\n    settings: ap|pend\n  - name: dict\n    settings: [no_replace, recurse_list]\n');
      assert.ok(!substring.actions.some((a) => /string form/.test(a.title)));
      // A spec cloud-init rejects.
      const broken = await actionsAt('#cloud-config\nmerge_h|ow: list(append\n');
      assert.ok(!broken.actions.some((a) => /list form/.test(a.title)));
    });

    test('add a spec that appends lists to a cloud-config without one', async () => {
      const opened = await actionsAt(WEB_SERVER.replace('  - nginx', '  - ngi‸nx'), { marker: '‸' });
      const add = find(opened, /appends lists/);
      assert.equal(add.kind, CodeActionKind.RefactorRewrite);
      assert.equal(applied(opened, add), WEB_SERVER.replace('#cloud-config\n', `#cloud-config\nmerge_how: ${APPEND_LISTS}\n`));
    });

    test('offered only on a list of the top level: not on the #cloud-config line where every file opens, nor on a scalar', async () => {
      const opened = await actionsAt(WEB_SERVER.replace('#cloud-config', '#cloud-‸config'), { marker: '‸' });
      assert.deepEqual(opened.actions.map((a) => a.title), [], 'no lightbulb on line 1');
      const scalar = await actionsAt('#cloud-config\nhostname: we|b-01\nruncmd:\n  - ls\n');
      assert.ok(!scalar.actions.some((a) => /appends lists/.test(a.title)));
      const onKey = await actionsAt('#cloud-config\nhostname: web-01\nrun|cmd:\n  - ls\n');
      assert.ok(onKey.actions.some((a) => /appends lists/.test(a.title)));
      const flow = await actionsAt('#cloud-config\npackages: [curl, j|q]\n');
      assert.ok(flow.actions.some((a) => /appends lists/.test(a.title)));
    });

    test('not offered when a spec exists, or in drop-ins', async () => {
      const has = await actionsAt(`#cloud-config\nmerge_how: dict(replace)+list()+str()\nruncmd: [l|s]\n`);
      assert.ok(!has.actions.some((a) => /appends lists/.test(a.title)));
      const dropIn = await actionsAt('runcmd: [l|s]\n', { path: 'etc/cloud/cloud.cfg.d/99-x.cfg' });
      assert.ok(!dropIn.actions.some((a) => /appends lists/.test(a.title)));
    });

    test('context.only filters by kind', async () => {
      const fixture = `#cloud-config\nmerge_how: ls|it(append)+dict(no_replace,recurse_list)+str()\n`;
      const quick = await actionsAt(fixture, { only: [CodeActionKind.QuickFix] });
      assert.ok(quick.actions.length > 0 && quick.actions.every((a) => a.kind === CodeActionKind.QuickFix));
      const refactor = await actionsAt(fixture, { only: [CodeActionKind.Refactor] });
      assert.ok(refactor.actions.every((a) => a.kind?.startsWith('refactor')));
    });
  });
});
