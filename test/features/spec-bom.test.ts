// A byte-order mark (U+FEFF) inside a merge spec: Python's str.strip() keeps it, JavaScript's trim()
// drops it. The hover, the diagnostic on the same word, completion and the merge must all read the
// spec as cloud-init does. Expected verdicts from the oracle:
//   python3 /work/shared/oracle/oracle.py --parse-spec $'\ufefflist()'         -> ValueError (not in the right format)
//   python3 /work/shared/oracle/oracle.py --parse-spec $'list(\ufeffappend)'   -> list with option '\ufeffappend' (ignored)
//   oracle.py --report a.yaml b.yaml, b.yaml's list form `name: "\ufefflist"`  -> part skipped (ImportError)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Diagnostic, Hover, MarkupContent, Range } from 'vscode-languageserver-protocol';
import { cursor, fixtureUri } from '../support/lspClient';
import { FeatureClient } from '../support/featureClient';
import { runCli } from '../support/cli';

const BOM = '\ufeff';
let client: FeatureClient;
let counter = 0;
let dir: string;

async function hoverAndDiagnostics(fixture: string): Promise<{ hover: string; range: Range; diagnostics: Diagnostic[] }> {
  const { text, position } = cursor(fixture);
  const uri = fixtureUri(`spec-bom-${counter++}/user-data.yaml`);
  const diagnostics = await client.open(uri, text);
  const hover: Hover | null = await client.hover(uri, position);
  client.close(uri);
  assert.ok(hover?.range, 'a hover with a range');
  return { hover: (hover.contents as MarkupContent).value, range: hover.range, diagnostics };
}

function on(diagnostics: Diagnostic[], range: Range): Diagnostic[] {
  const overlaps = (d: Diagnostic) => d.range.start.line === range.start.line && d.range.start.character <= range.end.character && d.range.end.character >= range.start.character;
  return diagnostics.filter(overlaps);
}

/** The merged result of two parts, the second one with the spec under test. */
function merged(secondPart: string): unknown {
  const a = join(dir, `a-${counter}.yaml`);
  const b = join(dir, `b-${counter++}.yaml`);
  writeFileSync(a, '#cloud-config\nruncmd: [first]\n');
  writeFileSync(b, secondPart);
  const run = runCli(['--format', 'json', a, b]);
  return JSON.parse(run.stdout);
}

describe('a byte-order mark inside a merge spec reads as cloud-init reads it', () => {
  before(async () => {
    client = await FeatureClient.start();
    dir = mkdtempSync(join(tmpdir(), 'spec-bom-'));
  });
  after(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a merger name after a BOM: the hover does not document list(), it agrees with the error on the same word', async () => {
    const spec = `dict()+${BOM}list(append)`;
    const { hover, range, diagnostics } = await hoverAndDiagnostics(`#cloud-config\nmerge_how: "dict()+${BOM}li|st(append)"\nruncmd: [second]\n`);
    assert.doesNotMatch(hover, /\*\*list\(\)\*\*/, 'not the documentation of list()');
    assert.match(hover, /\\ufefflist.*no merger by this name/, 'the invisible character shown, the name unknown');
    const here = on(diagnostics, range);
    assert.equal(here.length, 1, JSON.stringify(diagnostics));
    assert.equal(here[0].severity, 1, 'an error');
    assert.match(here[0].message as string, /'\\ufefflist' is not a valid merger name.*rejects the whole spec/);
    // The merge: cloud-init skips the part, the first part's runcmd stays.
    assert.deepEqual(merged(`#cloud-config\nmerge_how: "${spec}"\nruncmd: [second]\n`), { runcmd: ['first'] });
  });

  test('an option after a BOM is not append: the hover, the warning and the merge say it is ignored', async () => {
    const { hover, range, diagnostics } = await hoverAndDiagnostics(`#cloud-config\nmerge_how: "dict(recurse_list)+list(${BOM}app|end)"\nruncmd: [second]\n`);
    assert.doesNotMatch(hover, /\*\*append\*\* in list\(\)/, 'not the documentation of append');
    assert.match(hover, /\\ufeffappend.*not an option of any merger/);
    const here = on(diagnostics, range);
    assert.equal(here.length, 1, JSON.stringify(diagnostics));
    assert.match(here[0].message as string, /Unknown option '\\ufeffappend' for list\(\).*Did you mean 'append'\?/);
    // Without append, list() overwrites item by item: second replaces first.
    assert.deepEqual(merged(`#cloud-config\nmerge_how: "dict(recurse_list)+list(${BOM}append)"\nruncmd: [second]\n`), { runcmd: ['second'] });
  });

  test('the list form: name "\\ufefflist" is not list()', async () => {
    const { hover, range, diagnostics } = await hoverAndDiagnostics(`#cloud-config\nmerge_how:\n  - name: "${BOM}li|st"\n    settings: [append]\n  - name: dict\n    settings: [no_replace, recurse_list]\nruncmd: [second]\n`);
    assert.doesNotMatch(hover, /\*\*list\(\)\*\*/);
    assert.match(hover, /no merger by this name/);
    const here = on(diagnostics, range).filter((d) => d.code === 'unknown-merger');
    assert.equal(here.length, 1, JSON.stringify(diagnostics));
    assert.match(here[0].message as string, /No merger named '\\ufefflist'/);
    assert.deepEqual(merged(`#cloud-config\nmerge_how:\n  - name: "\\ufefflist"\n    settings: [append]\n  - name: dict\n    settings: [no_replace, recurse_list]\nruncmd: [second]\n`), { runcmd: ['first'] });
  });

  test('completion still offers append when the word written is BOM+append', async () => {
    const { text, position } = cursor(`#cloud-config\nmerge_how: "dict()+list(${BOM}append, |)"\n`);
    const uri = fixtureUri(`spec-bom-${counter++}/user-data.yaml`);
    client.openNoWait(uri, text);
    const items = await client.completion(uri, position);
    client.close(uri);
    assert.ok(items.some((i) => i.label === 'append'), items.map((i) => i.label).join(', '));
  });
});
