/**
 * userdata/process.ts on its own: how raw user-data becomes parts (cloud-init's UserDataProcessor: MIME,
 * archives, gzip, #include, content sniffing, part names). Part types, names and the include failure
 * modes below are what the oracle's `--report` printed for the same inputs (cloud-init 22.4.2).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { processUserData, type IncludeResolver } from '../../server/src/engine/userdata/process';

const utf8 = (s: string) => new TextEncoder().encode(s);
const summary = (inputs: Array<[string, string | Uint8Array]>, options = {}) => {
  const r = processUserData(inputs.map(([name, body]) => ({ name, bytes: typeof body === 'string' ? utf8(body) : body })), options);
  return {
    parts: r.parts.map((p) => [p.contentType, p.filename, p.blob, p.text]),
    messages: r.messages.map((m) => [m.level, m.code]),
    fatal: r.fatal ? [r.fatal.pyType, r.fatal.message] : null,
  };
};

const MIME = [
  'Content-Type: multipart/mixed; boundary="BB"',
  'MIME-Version: 1.0',
  '',
  '--BB',
  'Content-Type: text/cloud-config',
  'Content-Disposition: attachment; filename="a.yaml"',
  '',
  '#cloud-config',
  'a: 1',
  '--BB',
  'Content-Type: text/plain',
  '',
  '#!/bin/sh',
  'echo',
  '--BB--',
  '',
].join('\n');

test('a MIME multipart: one part per leaf, its filename or part-NNN, text/plain sniffed by its first line', () => {
  assert.deepEqual(summary([['m', MIME]]).parts, [
    ['text/cloud-config', 'a.yaml', 0, '#cloud-config\na: 1'],
    ['text/x-shellscript', 'part-002', 0, '#!/bin/sh\necho'],
  ]);
});

test('a #cloud-config-archive: its entries become parts, with their filename and type', () => {
  const archive = '#cloud-config-archive\n- content: "#cloud-config\\nb: 2\\n"\n  filename: b.cfg\n- type: text/x-shellscript\n  content: "echo"\n';
  assert.deepEqual(summary([['a', archive]]).parts, [
    ['text/cloud-config', 'b.cfg', 0, '#cloud-config\nb: 2\n'],
    ['text/x-shellscript', 'part-002', 0, 'echo'],
  ]);
  assert.deepEqual(summary([['a', '#cloud-config-archive\nkey: value\n']]).messages, [['warning', 'archive-not-a-list']]);
});

test('several blobs are numbered on across blobs; gzip is undone before sniffing', () => {
  assert.deepEqual(summary([['x', '#cloud-config\na: 1\n'], ['y', gzipSync(utf8('#cloud-config\nb: 1\n'))]]).parts, [
    ['text/cloud-config', 'part-001', 0, '#cloud-config\na: 1\n'],
    ['text/cloud-config', 'part-002', 1, '#cloud-config\nb: 1\n'],
  ]);
});

test('#include: a reachable URL adds its content as a source; an unreachable one fails everything, or is skipped', () => {
  const includes: IncludeResolver = {
    read: (url) => (url === 'http://x/inc' ? { ok: true, bytes: utf8('#cloud-config\nd: 4\n'), name: url } : { ok: false, message: 'unreachable' }),
  };
  const r = processUserData([{ name: 'i', bytes: utf8('#include\nhttp://x/inc\n') }], { includes });
  assert.deepEqual(r.parts.map((p) => [p.contentType, p.blob, p.text]), [['text/cloud-config', 1, '#cloud-config\nd: 4\n']]);
  assert.deepEqual(r.sources.map((s) => [s.name, s.includedBy?.url ?? null]), [['i', null], ['http://x/inc', 'http://x/inc']]);
  const failing = summary([['i', '#include\nhttp://x/none\n']], { includes });
  assert.deepEqual([failing.parts, failing.fatal?.[0]], [[], 'RuntimeError'], 'ERROR_ON_USER_DATA_FAILURE: no user-data is used at all');
  // 22.4's _handle_error raised a plain Exception; today's raises RuntimeError.
  assert.equal(summary([['i', '#include\nhttp://x/none\n']], { includes, version: '22.4' }).fatal?.[0], 'Exception');
  assert.deepEqual(summary([['i', '#include\nhttp://x/none\n']], { includes, onIncludeFailure: 'skip' }), { parts: [], messages: [['warning', 'include-unreachable']], fatal: null });
});
