// Issue 16: make-mime, Terraform and Pulumi parts, rendered blobs. The expected outputs in
// fixtures/ were made by the real cloud-init (test/oracle/pipeline.diff.ts --regen checks them).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runCli, runCliIn } from '../support/cli';
import { makeMime } from '../../server/src/engine/userdata/makeMime';
import { readTerraformJson, renderLikeTerraform, unwrapRendered } from '../../server/src/engine/userdata/terraform';
import { unwrapHeader } from '../../server/src/engine/render/previewText';
import { assertValidSarif } from '../support/sarif';

const FIXTURES = resolve(__dirname, '../../../test/pipeline/fixtures');
const MAKEMIME = join(FIXTURES, 'makemime');
const expected = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const scratches: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-pipeline-test-'));
  scratches.push(dir);
  return dir;
};
after(() => {
  for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
});

/* ------------------------------------------------------------------ make-mime */

const ATTACH = ['10-base.yaml:cloud-config', '20-app.yaml:cloud-config', '30-hello.sh:x-shellscript', '40 host.j2:jinja2'];

test("make-mime writes what cloud-init's make-mime writes (its output, boundary fixed, is the fixture)", () => {
  const out = runCliIn(['make-mime', '--boundary', 'BOUNDARY', ...ATTACH], MAKEMIME);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, expected('makemime.expected.mime'));
  // cloud-init's own spelling (-a FILE:TYPE) and types inferred from the first line give the same text.
  const spelled = runCliIn(['make-mime', '--boundary', 'BOUNDARY', ...ATTACH.flatMap((a) => ['-a', a])], MAKEMIME);
  assert.equal(spelled.stdout, out.stdout);
  const inferred = runCliIn(['make-mime', '--boundary', 'BOUNDARY', '10-base.yaml', '20-app.yaml', '30-hello.sh', '40 host.j2'], MAKEMIME);
  assert.equal(inferred.stdout, out.stdout);
});

test('make-mime: a random boundary in Python\'s format; a merge type becomes X-Merge-Type', () => {
  const out = runCliIn(['make-mime', '10-base.yaml::list(append)+dict(recurse_array)+str()'], MAKEMIME);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /^Content-Type: multipart\/mixed; boundary="={15}\d{19}=="\nMIME-Version: 1\.0\n\n/);
  assert.match(out.stdout, /filename="10-base.yaml"\nX-Merge-Type: list\(append\)\+dict\(recurse_array\)\+str\(\)\n\n/);
});

test('make-mime refuses what cloud-init refuses: unknown types (unless forced), files that are not UTF-8', () => {
  const dir = scratch();
  writeFileSync(join(dir, 'a.yaml'), '#cloud-config\na: 1\n');
  writeFileSync(join(dir, 'bad.yaml'), Buffer.from([0x23, 0xff, 0x0a]));
  writeFileSync(join(dir, 'words.txt'), 'no header\n');
  const unknown = runCliIn(['make-mime', 'a.yaml:x-typo'], dir);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /attachment 1 \(a\.yaml\): content type 'text\/x-typo' is not one cloud-init handles/);
  assert.equal(unknown.stdout, '');
  const forced = runCliIn(['make-mime', '--force', 'a.yaml:x-typo'], dir);
  assert.equal(forced.code, 0);
  assert.match(forced.stdout, /Content-Type: text\/x-typo; charset="utf-8"/);
  assert.equal(runCliIn(['make-mime', 'bad.yaml:cloud-config'], dir).code, 2);
  const noType = runCliIn(['make-mime', 'words.txt'], dir);
  assert.equal(noType.code, 2);
  assert.match(noType.stderr, /give one, as words\.txt:cloud-config/);
  assert.equal(runCliIn(['make-mime', '--gzip', 'a.yaml'], dir).code, 2, 'gzip without base64, as Terraform refuses it');
  const bad = runCliIn(['make-mime', 'a.yaml:cloud-config:list(append'], dir);
  assert.equal(bad.code, 0);
  assert.match(bad.stderr, /error: attachment 1 \(a\.yaml\): merge type 'list\(append'/);
});

test('make-mime: a non-ASCII file name makes the disposition one encoded word, as Python writes it', () => {
  const text = makeMime([{ filename: 'café.yaml', subtype: 'cloud-config', text: '#cloud-config\n' }], 'B');
  assert.match(text, /\nContent-Disposition: =\?utf-8\?q\?attachment;_filename=3D=22caf=C3=A9\.yaml=22\?=\n|\nContent-Disposition: =\?utf-8\?b\?[A-Za-z0-9+/=]+\?=\n/);
});

test('the preview of a built blob (plain, or gzip + base64) equals the preview of its parts', () => {
  const dir = scratch();
  const files = ['10-base.yaml', '20-app.yaml', '30-hello.sh', '40 host.j2'];
  const plain = runCliIn(['make-mime', ...files.map((f) => join(MAKEMIME, f))], dir);
  writeFileSync(join(dir, 'user-data.mime'), plain.stdout);
  const packed = runCliIn(['make-mime', '--gzip', '--base64', ...files.map((f) => join(MAKEMIME, f))], dir);
  writeFileSync(join(dir, 'user-data.b64'), packed.stdout);
  const parts = runCli(files.map((f) => join(MAKEMIME, f)));
  assert.equal(parts.code, 0);
  const mime = runCli([join(dir, 'user-data.mime')]);
  // The same merged values; only the names listed differ (loose files are part-001...; MIME parts keep their filename).
  const names = (t: string) => t.replace(/^# (part-\d+|\/.*)$/gm, '# NAME');
  assert.equal(names(mime.stdout), names(parts.stdout));
  assert.match(mime.stdout, /# \/.*\/10-base\.yaml\n/);
  const rendered = runCli(['--rendered', join(dir, 'user-data.b64')]);
  assert.equal(rendered.code, 0, rendered.stderr);
  assert.equal(rendered.stdout, mime.stdout);
  const previewParts = runCli(['--format', 'preview', join(dir, 'user-data.mime')]).stdout.split('# ---- what cloud-init writes ----')[1];
  const previewRendered = runCli(['--rendered', '--format', 'preview', join(dir, 'user-data.b64')]).stdout.split('# ---- what cloud-init writes ----')[1];
  assert.equal(previewRendered, previewParts);
});

/* ------------------------------------------------------------------ Terraform and Pulumi */

test('--from-terraform: every cloudinit_config of a state, each with cloud-init\'s cloud-config.txt', () => {
  for (const version of ['current', '22.4']) {
    const out = runCli(['--from-terraform', join(FIXTURES, 'state.json'), '--cloud-init-version', version]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, `==> data.cloudinit_config.web <==\n${expected(`state.1.${version}.expected.txt`)}==> module.db.cloudinit_config.db <==\n${expected(`state.2.${version}.expected.txt`)}`);
  }
  const one = runCli(['--from-terraform', join(FIXTURES, 'state.json'), '--address', 'module.db.cloudinit_config.db']);
  assert.equal(one.stdout, expected('state.2.current.expected.txt'));
  const missing = runCli(['--from-terraform', join(FIXTURES, 'state.json'), '--address', 'data.cloudinit_config.nope']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /found: data\.cloudinit_config\.web, module\.db\.cloudinit_config\.db/);
});

test('--from-terraform: a plan whose rendered value is unknown is rebuilt from its parts, as the provider renders them', () => {
  const out = runCli(['--from-terraform', join(FIXTURES, 'plan.json')]);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, `==> data.cloudinit_config.web <==\n${expected('plan.1.current.expected.txt')}==> module.db.cloudinit_config.db <==\n${expected('plan.2.current.expected.txt')}`);
  const configs = readTerraformJson(readFileSync(join(FIXTURES, 'plan.json'), 'utf8'));
  assert.deepEqual(configs.map((c) => [c.address, c.rendered === null, c.parts.length]), [['data.cloudinit_config.web', true, 4], ['module.db.cloudinit_config.db', false, 4]]);
});

test('--from-terraform: findings name the Terraform part cloud-init treats differently from what was written', () => {
  const out = runCli(['--from-terraform', join(FIXTURES, 'state.json')]);
  const lines = out.stderr.split('\n').filter((l) => /\[[a-z-]+\]$/.test(l));
  assert.deepEqual(lines.map((l) => l.replace(/: (warning|error): .*\[/, ': $1 [')), [
    'data.cloudinit_config.web: part 3 (filename "tools.yaml"): warning [text-plain-not-sniffed]',
    'module.db.cloudinit_config.db: part 2 (filename "extra.yaml"): error [unclosed-parenthesis]',
    'module.db.cloudinit_config.db: part 2 (filename "extra.yaml"): error [part-skipped]',
    'module.db.cloudinit_config.db: part 3 (filename "tz.yaml"): warning [content-type-invalid]',
    'module.db.cloudinit_config.db: part 4 (filename "ntp.sh"): warning [declared-type-overridden]',
  ]);
  assert.match(out.stderr, /content_type 'cloud-config' is not a valid MIME type to cloud-init: it reads the part as text\/plain, then by its first line as text\/cloud-config/);
});

test('pulumi stack export: a cloudinit Config resource (camelCase) is read as Terraform\'s', () => {
  const out = runCli(['--from-terraform', join(FIXTURES, 'pulumi-stack.json')]);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, expected('pulumi-stack.1.current.expected.txt'));
});

test('--rendered: base64, gzip and plain MIME blobs; a header in the wrong case is named by its part', () => {
  const dir = scratch();
  const mime = 'Content-Type: multipart/mixed; boundary="B"\nMIME-Version: 1.0\n\n--B\nContent-Type: text/cloud-config\nmerge-type: list(append)+dict(recurse_array)+str()\nContent-Disposition: attachment; filename="a.yaml"\n\n#cloud-config\nruncmd: [one]\n\n--B\nContent-Type: text/cloud-config\nmerge-type: list(append)+dict(recurse_array)+str()\n\n#cloud-config\nruncmd: [two]\n--B--\n';
  writeFileSync(join(dir, 'plain.mime'), mime);
  writeFileSync(join(dir, 'blob.gz'), gzipSync(mime));
  writeFileSync(join(dir, 'blob.b64'), gzipSync(mime).toString('base64').replace(/(.{76})/g, '$1\n') + '\n');
  const outs = ['plain.mime', 'blob.gz', 'blob.b64'].map((f) => runCli(['--rendered', join(dir, f)]));
  for (const o of outs) assert.equal(o.code, 0, o.stderr);
  assert.equal(outs[1].stdout, outs[0].stdout);
  assert.equal(outs[2].stdout, outs[0].stdout);
  // Without merge headers cloud-init reads, the second part replaces the first's runcmd.
  assert.match(outs[0].stdout, /runcmd:\n- two\n/);
  assert.match(outs[2].stderr, /blob\.b64: part 1 \(filename "a\.yaml"\): warning: cloud-init matches this header name case-sensitively: 'merge-type' is ignored\. Write 'Merge-Type'\. \[header-case\]/);
  assert.match(outs[2].stderr, /blob\.b64: part 2: warning: .*'merge-type' is ignored/);
});

test('Terraform rendering: Go\'s multipart layout, canonical header names, sorted', () => {
  const text = renderLikeTerraform([
    { contentType: null, content: '#cloud-config\na: 1\n', filename: null, mergeType: null },
    { contentType: 'text/cloud-config', content: '#cloud-config\nb: 2\n', filename: 'b.yaml', mergeType: 'list(append)' },
  ]);
  assert.equal(
    text,
    'Content-Type: multipart/mixed; boundary="MIMEBOUNDARY"\nMIME-Version: 1.0\r\n\r\n' +
      '--MIMEBOUNDARY\r\nContent-Transfer-Encoding: 7bit\r\nContent-Type: text/plain\r\nMime-Version: 1.0\r\n\r\n#cloud-config\na: 1\n' +
      '\r\n--MIMEBOUNDARY\r\nContent-Disposition: attachment; filename="b.yaml"\r\nContent-Transfer-Encoding: 7bit\r\nContent-Type: text/cloud-config\r\nMime-Version: 1.0\r\nX-Merge-Type: list(append)\r\n\r\n#cloud-config\nb: 2\n' +
      '\r\n--MIMEBOUNDARY--\r\n',
  );
  assert.throws(() => renderLikeTerraform([{ contentType: null, content: 'x', filename: null, mergeType: null }], 'bad"boundary'), /refused by the provider/);
});

test('unwrapRendered decodes base64 text only; MIME, gzip and #cloud-config stay as they are', () => {
  const b64 = unwrapRendered(Buffer.from('I2Nsb3VkLWNvbmZpZwo=\n'));
  assert.equal(b64.base64, true);
  assert.equal(Buffer.from(b64.bytes).toString(), '#cloud-config\n');
  for (const raw of ['#cloud-config\na: 1\n', 'Content-Type: multipart/mixed; boundary="B"\n']) assert.equal(unwrapRendered(Buffer.from(raw)).base64, false);
  assert.equal(unwrapRendered(gzipSync('abc')).base64, false);
});

test('--from-terraform refuses what is not terraform show -json output', () => {
  const dir = scratch();
  writeFileSync(join(dir, 'x.json'), '{"a": 1}');
  writeFileSync(join(dir, 'y.json'), 'not json');
  assert.equal(runCli(['--from-terraform', join(dir, 'x.json')]).code, 2);
  assert.match(runCli(['--from-terraform', join(dir, 'y.json')]).stderr, /not JSON/);
  writeFileSync(join(dir, 'empty.json'), '{"format_version": "1.0", "values": {"root_module": {}}}');
  assert.match(runCli(['--from-terraform', join(dir, 'empty.json')]).stderr, /no cloudinit_config/);
});

/* ------------------------------------------------------------------ --lint (the pre-commit hook's command) */

test('--lint: file:line:col findings for cloud-init files, others skipped; exit 1 on an error or warning', () => {
  const dir = scratch();
  writeFileSync(join(dir, 'oops.yaml'), '#cloud-config\nmerge_how: list(append)+str()\npackages: [a]\n');
  writeFileSync(join(dir, 'fine.yaml'), '#cloud-config\nmerge_how: list(append)+dict(recurse_array)+str()\npackages: [a]\n');
  writeFileSync(join(dir, 'other.yaml'), 'merge_how: list(append)+str()\n');
  const out = runCli(['--lint', join(dir, 'oops.yaml'), join(dir, 'fine.yaml'), join(dir, 'other.yaml')]);
  assert.equal(out.code, 1);
  assert.equal(out.stdout, `${join(dir, 'oops.yaml')}:2:12: error: No dict() merger: cloud-init leaves every mapping unchanged, so this whole part is silently discarded (while still counted in '# from N files'). [no-dict-merger]\n`);
  assert.equal(out.stderr, 'cloud-config-merge: 1 problem in 2 cloud-init files\n');
  const clean = runCli(['--lint', join(dir, 'fine.yaml'), join(dir, 'other.yaml')]);
  assert.deepEqual([clean.code, clean.stdout, clean.stderr], [0, '', '']);
  assert.equal(runCli(['--lint']).code, 2);
});

test('--lint --format sarif: SARIF 2.1.0 with one rule per finding code and 1-based regions', () => {
  const dir = scratch();
  writeFileSync(join(dir, 'oops.yaml'), '#cloud-config\nmerge_how: list(append)+str()\npackages: [a]\n');
  const out = runCliIn(['--lint', '--format', 'sarif', 'oops.yaml'], dir);
  assert.equal(out.code, 1);
  const log = JSON.parse(out.stdout) as { version: string; runs: Array<{ tool: { driver: { name: string; rules: Array<{ id: string }> } }; results: Array<{ ruleId: string; ruleIndex: number; level: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }> }> }> };
  assertValidSarif(log);
  assert.equal(log.version, '2.1.0');
  assert.equal(log.runs[0].tool.driver.name, 'cloud-config-merge');
  assert.deepEqual(log.runs[0].tool.driver.rules.map((r) => r.id), ['no-dict-merger']);
  const [result] = log.runs[0].results;
  assert.deepEqual([result.ruleId, result.ruleIndex, result.level], ['no-dict-merger', 0, 'error']);
  assert.deepEqual(result.locations[0].physicalLocation, { artifactLocation: { uri: 'oops.yaml' }, region: { startLine: 2, startColumn: 12, endLine: 2, endColumn: 30 } });
  assert.equal(runCli(['--format', 'sarif', join(dir, 'oops.yaml')]).code, 2, 'sarif goes with --lint');
});

test('--from-terraform: modules nested 100,000 deep are read without exhausting the stack', () => {
  const dir = scratch();
  let module = '{"resources": [{"address": "module.deep.cloudinit_config.x", "type": "cloudinit_config", "values": {"gzip": false, "base64_encode": false, "part": [{"content": "#cloud-config\\na: 1\\n"}]}}]}';
  for (let i = 0; i < 100_000; i++) module = `{"child_modules": [${module}]}`;
  writeFileSync(join(dir, 'deep.json'), `{"format_version": "1.0", "values": {"root_module": ${module}}}`);
  const out = runCli(['--from-terraform', join(dir, 'deep.json')]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /^a: 1$/m);
});

test('--from-terraform --format preview: the findings are in the preview header too, as in the editor', () => {
  const out = runCli(['--from-terraform', join(FIXTURES, 'state.json'), '--address', 'module.db.cloudinit_config.db', '--format', 'preview']);
  assert.equal(out.code, 0, out.stderr);
  assert.ok(out.stdout.split('\n').every((l) => l.length <= 100 || !l.startsWith('#')), 'header lines are wrapped at 100 characters');
  const lines = unwrapHeader(out.stdout).split('\n');
  assert.match(lines[0], /^# Cloud-Config Merge preview/);
  assert.match(lines[1], /^# Finding: part 2 \(filename "extra\.yaml"\): error: .*\[unclosed-parenthesis\]$/);
  assert.ok(out.stdout.endsWith(expected('state.2.current.expected.txt')));
});

test('--rendered: a gzip bomb in base64 is refused at maxDecompressedBytes, not decompressed', () => {
  const dir = scratch();
  writeFileSync(join(dir, 'bomb.b64'), gzipSync(Buffer.alloc(1 << 20, 0x61)).toString('base64'));
  const out = runCli(['--rendered', '--limit', 'maxDecompressedBytes=4096', join(dir, 'bomb.b64')]);
  assert.equal(out.code, 2);
  assert.match(out.stderr, /maxDecompressedBytes = 4096/);
  assert.equal(out.stdout, '');
});
