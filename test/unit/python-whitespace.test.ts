// Where cloud-init strips text with Python's str.strip(), a byte-order mark (U+FEFF) stays: it is not
// whitespace for str.isspace(), while JavaScript's trim() drops it. Each case below was read by the CLI
// as if the BOM were not there; the expected outputs are the oracle's (oracle.py --raw / --report).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli';

const BOM = '\ufeff';
let dir: string;

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('a byte-order mark that Python does not strip', () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'py-ws-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('#include with a BOM before the URL: cloud-init requests "\\ufeffhttps://…", which --include-map does not answer', () => {
    const part = file('part.yaml', '#cloud-config\nruncmd: [included]\n');
    const userData = file('include.txt', `#include\n${BOM}https://example.com/part.yaml\n`);
    const run = runCli(['--format', 'json', '--include-map', `https://example.com/part.yaml=${part}`, userData]);
    assert.equal(run.code, 3, 'cloud-init would fail: the include is unreachable');
    assert.doesNotMatch(run.stdout, /included/);
    assert.match(run.stderr, /remote includes are never fetched/);
    // Without the BOM the map answers.
    const plain = file('include-plain.txt', '#include\nhttps://example.com/part.yaml\n');
    assert.deepEqual(JSON.parse(runCli(['--format', 'json', '--include-map', `https://example.com/part.yaml=${part}`, plain]).stdout), { runcmd: ['included'] });
  });

  test('an archive entry typed "\\ufefftext/cloud-config" is not a cloud-config: --check does not validate it', () => {
    const archive = file('archive.yaml', `#cloud-config-archive\n- type: "\\ufefftext/cloud-config"\n  content: |\n    #cloud-config\n    runcmd: 5\n- type: text/cloud-config\n  content: |\n    #cloud-config\n    packages: [a]\n`);
    const run = runCli(['--check', archive]);
    assert.equal(run.code, 0, run.stdout);
    assert.doesNotMatch(run.stdout, /archive entry 1/);
    assert.match(run.stdout, /Valid schema .*archive\.yaml \(archive entry 2\)/);
  });

  test('a MIME filename starting with a BOM keeps it in the "# from 1 files" list of cloud-config.txt', () => {
    const mime = file('fn.mime', `Content-Type: multipart/mixed; boundary="B"\nMIME-Version: 1.0\n\n--B\nContent-Type: text/cloud-config\nContent-Disposition: attachment; filename="${BOM}a.yaml"\n\nruncmd: [a]\n--B--\n`);
    const run = runCli([mime]);
    assert.equal(run.stdout, `#cloud-config\n\n# from 1 files\n# ${BOM}a.yaml\n\n---\nruncmd:\n- a\n...\n`);
  });
});
