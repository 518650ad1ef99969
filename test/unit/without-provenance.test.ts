// Loading and merging without provenance (issue 15): where nothing reads where values were written
// (the CLI's YAML and JSON output), parts are loaded with Origins only on the body spec keys. These
// tests pin that nothing else changes: the same values, cloud-config.txt, messages and spec error
// positions as with provenance.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadYaml } from '../../server/src/engine/yaml/load';
import { PyDict, getListOrigins, type PyValue } from '../../server/src/engine/py/values';
import { toCanonicalJson } from '../../server/src/engine/py/json';
import { runUserData, type UserDataRun } from '../../server/src/engine/userdata/run';
import { Rng, userDataCase } from '../oracle/generate';

const SPEC_KEYS = ['merge_how', 'merge_type'];

function loaded(text: string, originKeys?: readonly string[]): PyDict {
  const r = loadYaml(text, { source: 3, originKeys });
  assert.ok(r.ok && r.value instanceof PyDict);
  return r.value;
}

/** Every Origin of a value, as `path: key span / value span`, in order. */
function originsIn(value: PyValue, path = '$'): string[] {
  const out: string[] = [];
  if (value instanceof PyDict) {
    for (const { key, value: child, origin } of value.items()) {
      const at = `${path}.${String(key)}`;
      if (origin) out.push(`${at}: ${origin.source} ${origin.key?.start}-${origin.key?.end} ${origin.value.start}-${origin.value.end}`);
      out.push(...originsIn(child, at));
    }
  } else if (Array.isArray(value)) {
    const origins = getListOrigins(value);
    value.forEach((child, i) => {
      const origin = origins?.[i];
      if (origin) out.push(`${path}[${i}]: ${origin.source} ${origin.value.start}-${origin.value.end}`);
      out.push(...originsIn(child, `${path}[${i}]`));
    });
  }
  return out;
}

describe('loadYaml with originKeys', () => {
  const text = [
    'packages: [git, [vim, "1.0"]]',
    'merge_how:',
    '- name: list',
    '  settings: [append]',
    '- name: dict',
    '  settings: {a: [no_replace]}',
    'users: {ann: {groups: [a]}}',
    'merge_type: "list(append)+dict()"',
    '',
  ].join('\n');

  test('only the named top-level keys and everything inside them get Origins, the same ones as a full load', () => {
    const full = originsIn(loaded(text));
    const partial = originsIn(loaded(text, SPEC_KEYS));
    assert.deepEqual(partial, full.filter((line) => /^\$\.merge_(how|type)\b/.test(line)));
    assert.ok(partial.some((line) => line.startsWith('$.merge_how[0].settings[0]')), partial.join('\n'));
    assert.ok(partial.some((line) => line.startsWith('$.merge_type: 3 ')), partial.join('\n'));
  });

  test('the values are the same', () => {
    assert.equal(toCanonicalJson(loaded(text, SPEC_KEYS)).text, toCanonicalJson(loaded(text)).text);
  });

  test('a key of another type or nested deeper is not named', () => {
    const value = loaded('1: [a]\nusers: {merge_how: [b]}\nomap: !!omap [a: 1]\n', SPEC_KEYS);
    assert.deepEqual(originsIn(value), []);
  });

  test('with aliases every value gets Origins (an aliased node can be filled before the key that names it)', () => {
    const aliased = 'x: &l [[1, 2]]\nmerge_how: [*l]\n';
    assert.deepEqual(originsIn(loaded(aliased, SPEC_KEYS)), originsIn(loaded(aliased)));
    assert.ok(originsIn(loaded(aliased)).some((line) => line.startsWith('$.x[0][1]')));
  });
});

/** What a run shows, provenance aside: the output, the messages, each part's fate and spec positions. */
function observable(run: UserDataRun): unknown {
  return {
    cloudConfigTxt: run.cloudConfigTxt,
    renderError: run.renderError,
    fatal: run.fatal,
    messages: run.messages,
    reports: run.reports.map((r) => ({
      disposition: r.disposition,
      note: r.note,
      error: r.handled?.error,
      body: r.handled?.body && { key: r.handled.body.key, spec: r.handled.body.spec },
      effective: r.handled?.effective,
      duplicateKeys: r.handled?.yaml?.ok ? r.handled.yaml.duplicateKeys : undefined,
    })),
  };
}

describe('runUserData without provenance', () => {
  const runBoth = (blobs: Array<string | Buffer>, onIncludeFailure?: 'error' | 'skip') => {
    const inputs = blobs.map((b, i) => ({ name: `blob${i}`, bytes: Buffer.from(b) }));
    return [runUserData(inputs, { version: '22.4', onIncludeFailure }), runUserData(inputs, { version: '22.4', onIncludeFailure, provenance: false })];
  };

  test('spec errors keep their positions in the part (list form, string form)', () => {
    const listSpec = '#cloud-config\nmerge_how:\n- name: list\n  settings: [append]\n- {settings: [x]}\na: [2]\n';
    const [withOrigins, without] = runBoth(['#cloud-config\na: [1]\n', listSpec, '#cloud-config\nmerge_type: "list(append)+dict(no_replace, "\n']);
    assert.deepEqual(observable(without), observable(withOrigins));
    const listError = without.reports[1].handled?.error;
    assert.equal(listError?.pyType, 'KeyError');
    const item = listSpec.indexOf('{settings');
    assert.deepEqual(listError?.span, { start: item, end: item + '{settings: [x]}'.length });
  });

  test('leaves no Origins in the merged values beyond the spec keys', () => {
    const [withOrigins, without] = runBoth(['#cloud-config\na: [1]\nb: {c: d}\n', '#cloud-config\nmerge_how: "list(append)+dict(recurse_list)"\na: [2]\n']);
    assert.ok(originsIn(withOrigins.result).length > 0);
    assert.deepEqual(originsIn(without.result), []);
  });

  test('2,000 generated user-data sets (MIME, archives, JSON patches, specs, errors) give the same output, messages and spec positions', () => {
    const r = new Rng(20261125);
    for (let i = 0; i < 2000; i++) {
      const c = userDataCase(r);
      const blobs = c.blobs.map((b) => Buffer.from(b, 'base64'));
      const [withOrigins, without] = runBoth(blobs, c.include_missing);
      assert.deepEqual(observable(without), observable(withOrigins), `case ${i}`);
    }
  });
});
