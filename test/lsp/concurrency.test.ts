// Concurrency over the protocol: hundreds of edits a second, documents opened and closed while they
// are being validated, previews whose sources change while they are read, many previews at once.
// Whatever the interleaving, what the server publishes or answers is for the latest text it had:
// never an older version, never a document that is closed, never a mix of two versions.
//
// The machine may be slow and busy: every wait is on an event (a publish, an answer) with a
// generous time limit, and nothing asserts how long anything took.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { LspClient, fixtureUri } from '../support/lspClient';
import { PreviewRequest, PreviewParams, PreviewResult, previewBody } from '../../server/src/protocol';
import { APPEND_LISTS } from './fixtures';

const TIMEOUT = 60_000;
const tick = (ms = 1) => new Promise((r) => setTimeout(r, ms));

/** Polls a condition the test cannot be told about (the server asking for settings). */
async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + TIMEOUT;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await tick(5);
  }
}

/* ------------------------------------------------------------------ documents that say which version they are */

/** `merge_how: ...+str(` : the unknown option typed into str() starts right after it. */
const SPEC_PREFIX = `merge_how: ${APPEND_LISTS.slice(0, -1)}`;
const OPTION_AT = SPEC_PREFIX.length;

/** Version v of a document rewritten on every keystroke: three different mistakes in turn, each tied to v. */
function shape(v: number): string {
  if (v % 3 === 1) return `#cloud-config\n${SPEC_PREFIX}${'x'.repeat(v)})\nruncmd: [v${v}]\n`;
  if (v % 3 === 2) return `#cloud-config\nmerge_how: list(append)+str()\nruncmd: [v${v}]\n`;
  return `#cloud-config\nruncmd: [v${v}]\n`;
}

type Summary = Array<[string, number, number, number]>;

function summary(diagnostics: Diagnostic[]): Summary {
  return diagnostics.map((d) => [String(d.code), d.range.start.line, d.range.start.character, d.range.end.character]);
}

/** What the server must publish for `shape(v)`. */
function expectedForShape(v: number): Summary {
  if (v % 3 === 1) return [['unknown-option', 1, OPTION_AT, OPTION_AT + v]];
  if (v % 3 === 2) return [['no-dict-merger', 1, 11, 29]];
  return [];
}

/** Every publish that names a version must be for exactly the text of that version; versions never go back. */
function assertEveryPublishMatches(log: PublishDiagnosticsParams[], expected: (version: number) => Summary, what: string): void {
  let previous = 0;
  for (const [i, p] of log.entries()) {
    if (p.version === undefined || p.version === null) continue;
    assert.ok(p.version >= previous, `${what}: publish #${i} is for version ${p.version}, after one for ${previous}`);
    previous = p.version;
    assert.deepEqual(summary(p.diagnostics), expected(p.version), `${what}: publish #${i} (version ${p.version}) does not match that version's text`);
  }
}

let sentinels = 0;
/**
 * Waits until the server has nothing left to publish: a sentinel document, edited after everything
 * else, gets its debounced diagnostics after any validation still pending for the other documents
 * (their timers fire first, and validations run in order).
 */
async function quiesce(client: LspClient): Promise<void> {
  const uri = `untitled:sentinel-${++sentinels}`;
  const since = client.diagnosticsLog(uri).length;
  client.openNoWait(uri, '#cloud-config\nruncmd: [a]\n');
  await client.waitForDiagnostics(uri, since, () => true, TIMEOUT);
  const after = client.diagnosticsLog(uri).length;
  const version = client.change(uri, '#cloud-config\nruncmd: [b]\n');
  await client.waitForDiagnostics(uri, after, (p) => p.version === version, TIMEOUT);
  client.close(uri);
}

/** A large document with one mistake at the end, so that its analysis takes a while. */
function large(mistake: string, lines = 4000): string {
  const entries: string[] = [];
  for (let i = 0; i < lines / 4; i++) entries.push(`  - path: /etc/app/${i}.conf\n    permissions: '0644'\n    content: |\n      value ${i}`);
  return `#cloud-config\nwrite_files:\n${entries.join('\n')}\n${mistake}\n`;
}

/* ------------------------------------------------------------------ previews */

function previewOf(client: LspClient, params: PreviewParams): Promise<PreviewResult> {
  return client.request<PreviewResult>(PreviewRequest.method, params);
}

function part(marker: string): string {
  return `#cloud-config\nmerge_how: ${APPEND_LISTS}\nruncmd:\n  - ${marker}\n`;
}

/** The generation `n` of `- name-n` in a preview body, or null when that source is not in it. */
function generation(body: string, name: string): number | null {
  const m = new RegExp(`^- ${name}-(\\d+)$`, 'm').exec(body);
  return m ? Number(m[1]) : null;
}

/* ------------------------------------------------------------------ diagnostics */

describe('concurrency: diagnostics', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start();
  });
  after(async () => {
    await client.stop();
  });

  test('300 full-text changes in one burst: every publish matches its version, the last is the final text', async () => {
    const uri = fixtureUri('concurrency/burst.yaml');
    assert.deepEqual(summary(await client.open(uri, shape(1))), expectedForShape(1));
    let last = 1;
    for (let v = 2; v <= 301; v++) last = client.change(uri, shape(v));
    assert.equal(last, 301);
    await client.waitForDiagnostics(uri, 0, (p) => p.version === last, TIMEOUT);
    await quiesce(client);
    const log = client.diagnosticsLog(uri);
    assertEveryPublishMatches(log, expectedForShape, 'burst');
    assert.equal(log.at(-1)?.version, last, 'the last publish is for the final version');
    assert.deepEqual(summary(log.at(-1)!.diagnostics), [['unknown-option', 1, OPTION_AT, OPTION_AT + 301]]);
    assert.match(String(log.at(-1)!.diagnostics[0].message), new RegExp(`Unknown option '${'x'.repeat(301)}'`));
  });

  test('a word typed key by key (60 ms apart): analysed after the first key and at the end, not at every key', async () => {
    const uri = fixtureUri('concurrency/word.yaml');
    await client.open(uri, shape(1));
    const since = client.diagnosticsLog(uri).length;
    const keys = 12;
    let last = 1;
    for (let key = 0; key < keys; key++) {
      if (key) await tick(60);
      last = client.change(uri, shape(last + 1));
    }
    await client.waitForDiagnostics(uri, since, (p) => p.version === last, TIMEOUT);
    const published = client.diagnosticsLog(uri).slice(since);
    assertEveryPublishMatches(published, expectedForShape, 'word');
    // Two when nothing stalls (the first key, after a pause, gets a short wait): a stalled machine can
    // stretch a gap past a pause now and then, but never into one analysis per key.
    assert.ok(published.length <= 4, `${published.length} publishes for ${keys} keys: ${published.map((p) => p.version).join(', ')}`);
  });

  test('typing at hundreds of edits a second, with requests in between: each answer is for the text as of its request', async () => {
    const uri = fixtureUri('concurrency/typing.yaml');
    const typed = (k: number) => `#cloud-config\n${SPEC_PREFIX}${'x'.repeat(k)})\nruncmd: [typed]\n`;
    assert.deepEqual(await client.open(uri, typed(0)), []);
    const answers: Array<{ sentBefore: number; answer: Promise<PreviewResult> }> = [];
    const infos: Array<{ sentBefore: number; answer: Promise<{ spec: string | null }> }> = [];
    const EDITS = 300;
    for (let k = 1; k <= EDITS; k++) {
      // One keystroke: an "x" typed right after "str(".
      client.edit(uri, { start: { line: 1, character: OPTION_AT }, end: { line: 1, character: OPTION_AT } }, 'x');
      if (k % 25 === 0) {
        answers.push({ sentBefore: k, answer: previewOf(client, { mode: 'user-data', files: [uri] }) });
        infos.push({ sentBefore: k, answer: client.request('cloudConfigMerge/documentInfo', { uri }) });
      }
      if (k % 3 === 0) await tick();
    }
    const final = 1 + EDITS;
    await client.waitForDiagnostics(uri, 0, (p) => p.version === final, TIMEOUT);
    for (const { sentBefore, answer } of answers) {
      const result = await answer;
      // The spec of the header's part line (header lines wrap at 100 characters, a long word included).
      const m = /\+str\((x*)\) \(merge_how\)/.exec(result.parts[0]?.spec ?? '');
      assert.ok(m, `the preview names the spec: ${result.text.slice(0, 400)}`);
      assert.ok(m[1].length >= sentBefore && m[1].length <= EDITS, `a preview asked after ${sentBefore} keystrokes saw ${m[1].length}`);
      assert.match(previewBody(result), /runcmd:\n- typed\n/);
    }
    for (const { sentBefore, answer } of infos) {
      const spec = (await answer).spec ?? '';
      const typedX = /str\((x*)\)/.exec(spec)?.[1] ?? '';
      assert.ok(typedX.length >= sentBefore && typedX.length <= EDITS, `documentInfo asked after ${sentBefore} keystrokes saw '${spec}'`);
    }
    await quiesce(client);
    const log = client.diagnosticsLog(uri);
    assertEveryPublishMatches(log, (v) => (v === 1 ? [] : [['unknown-option', 1, OPTION_AT, OPTION_AT + v - 1]]), 'typing');
    assert.equal(log.at(-1)?.version, final);
    const last = await previewOf(client, { mode: 'user-data', files: [uri] });
    assert.match(last.parts[0]?.spec ?? '', new RegExp(`\\+str\\(${'x'.repeat(EDITS)}\\) \\(merge_how\\)`));
    client.close(uri);
  });

  /**
   * Opens `uri` while the settings are held, so that its first validation is waiting for them,
   * closes it, waits for the clear, runs `meanwhile` with the cleared diagnostics, then releases.
   */
  async function closedDuringFirstValidation(uri: string, meanwhile: (cleared: Diagnostic[]) => void): Promise<void> {
    const asked = client.configurationRequests;
    const release = client.holdConfiguration();
    try {
      client.openNoWait(uri, '#cloud-config\nmerge_how: list(append)+str()\n');
      await until('the server to ask for the settings', () => client.configurationRequests > asked);
      client.close(uri);
      meanwhile((await client.waitForDiagnostics(uri, 0, () => true, TIMEOUT)).diagnostics);
    } finally {
      release();
    }
  }

  test('a document closed while its validation waits for settings: cleared, and never published again', async () => {
    const uri = fixtureUri('concurrency/closed-mid-validation.yaml');
    await closedDuringFirstValidation(uri, (cleared) => assert.deepEqual(cleared, []));
    await quiesce(client);
    assert.deepEqual(
      client.diagnosticsLog(uri).map((p) => [p.version, p.diagnostics.length]),
      [[undefined, 0]],
      'only the clear on close was published, never the diagnostics of the closed text',
    );
  });

  test('closed and reopened with other text during its first validation: only the new text is published after the close', async () => {
    const uri = fixtureUri('concurrency/reopened.yaml');
    await closedDuringFirstValidation(uri, () => client.openNoWait(uri, shape(4)));
    await client.waitForDiagnostics(uri, 1, () => true, TIMEOUT);
    await quiesce(client);
    const log = client.diagnosticsLog(uri);
    assert.deepEqual(log[0].diagnostics, [], 'the clear on close comes first');
    for (const p of log.slice(1)) assert.deepEqual(summary(p.diagnostics), expectedForShape(4), 'after the close, only the reopened text');
    client.close(uri);
  });

  test('many large documents opened, edited, closed and reopened in bursts: closed ones end cleared, open ones match their final text', async () => {
    for (let round = 0; round < 3; round++) {
      const docs = Array.from({ length: 12 }, (_, i) => ({ i, uri: fixtureUri(`concurrency/many-${round}-${i}.yaml`) }));
      const first = large('merge_how: list(append)+str()');
      const second = large(`merge_how: ${APPEND_LISTS.replace('+str()', '+str(apend)')}`);
      const mistakeLine = first.split('\n').length - 2;
      const firstExpected: Summary = [['no-dict-merger', mistakeLine, 11, 29]];
      const secondExpected: Summary = [['unknown-option', mistakeLine, OPTION_AT, OPTION_AT + 'apend'.length]];
      for (const { i, uri } of docs) {
        client.openNoWait(uri, first);
        client.change(uri, second);
        if (i % 4 === 0) client.close(uri);
        if (i % 4 === 2) {
          client.close(uri);
          client.openNoWait(uri, shape(3 * i + 4), 'yaml', 1);
        }
        if (i % 3 === 0) await tick();
      }
      // Each document's last message has been answered: the final publish of every one is in.
      for (const { i, uri } of docs) {
        if (i % 4 === 0) await client.waitForDiagnostics(uri, 0, (p) => p.version === undefined, TIMEOUT);
        else if (i % 4 === 2) await client.waitForDiagnostics(uri, 0, (p) => p.version === 1 && summary(p.diagnostics)[0]?.[0] === 'unknown-option' && summary(p.diagnostics)[0][3] === OPTION_AT + 3 * i + 4, TIMEOUT);
        else await client.waitForDiagnostics(uri, 0, (p) => p.version === 2, TIMEOUT);
      }
      await quiesce(client);
      for (const { i, uri } of docs) {
        const log = client.diagnosticsLog(uri);
        const last = log.at(-1)!;
        if (i % 4 === 0) {
          assert.deepEqual([last.version, last.diagnostics], [undefined, []], `round ${round} doc ${i}: closed, so the last publish is the clear`);
          assert.equal(log.filter((p) => p.version === undefined).length, 1, `round ${round} doc ${i}: cleared once`);
        } else if (i % 4 === 2) {
          const reopened = shape(3 * i + 4);
          assert.equal(last.version, 1);
          assert.deepEqual(summary(last.diagnostics), expectedForShape(3 * i + 4), `round ${round} doc ${i}: the reopened text (${reopened.length} chars)`);
          const clear = log.findIndex((p) => p.version === undefined);
          assert.ok(clear >= 0, 'the close cleared it');
          for (const p of log.slice(clear + 1)) assert.deepEqual(summary(p.diagnostics), expectedForShape(3 * i + 4), `round ${round} doc ${i}: nothing of the closed text after the clear`);
          client.close(uri);
        } else {
          assertEveryPublishMatches(log, (v) => (v === 1 ? firstExpected : secondExpected), `round ${round} doc ${i}`);
          assert.equal(last.version, 2);
          client.close(uri);
        }
      }
    }
  });
});

/* ------------------------------------------------------------------ previews */

describe('concurrency: previews', () => {
  let client: LspClient;
  let root: string;
  let workspace: string;
  const fileUri = (...parts: string[]) => pathToFileURL(path.join(workspace, ...parts)).href;
  function write(relative: string, text: string): string {
    const file = path.join(workspace, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return pathToFileURL(file).href;
  }

  before(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'ccm-concurrency-')));
    workspace = path.join(root, 'workspace');
    mkdirSync(workspace, { recursive: true });
    client = await LspClient.start({ workspaceFolders: [workspace] });
  });
  after(async () => {
    await client.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test('24 previews of different file sets at once: each answers its own merge', async () => {
    const N = 24;
    const sets = Array.from({ length: N }, (_, n) => {
      const files = [write(`sets/${n}/a.yaml`, part(`set${n}-a`)), write(`sets/${n}/b.yaml`, part(`set${n}-b`))];
      // One source of every set is open in the editor with unsaved text.
      const open = fileUri('sets', String(n), 'c.yaml');
      client.openNoWait(open, part(`set${n}-c-unsaved`));
      // Every other set also #includes a file of its own.
      if (n % 2) {
        write(`sets/${n}/inc.yaml`, part(`set${n}-included`));
        files.push(write(`sets/${n}/include.txt`, `#include\n${path.join(workspace, 'sets', String(n), 'inc.yaml')}\n`));
      }
      return { n, files: [...files.slice(0, 2), open, ...files.slice(2)] };
    });
    const results = await Promise.all(sets.map((s) => previewOf(client, { mode: 'user-data', files: s.files })));
    for (const [i, result] of results.entries()) {
      const { n, files } = sets[i];
      assert.deepEqual(result.problems, [], `set ${n}`);
      const markers = [...previewBody(result).matchAll(/^- (set\d+-[a-z-]+)$/gm)].map((m) => m[1]);
      assert.deepEqual(markers, [`set${n}-a`, `set${n}-b`, `set${n}-c-unsaved`, ...(n % 2 ? [`set${n}-included`] : [])], `set ${n} merges its own files only`);
      assert.deepEqual(
        result.parts.map((p) => p.file),
        n % 2 ? [...files.slice(0, 3), pathToFileURL(path.join(workspace, 'sets', String(n), 'inc.yaml')).href] : files,
        `set ${n}: the parts are its files`,
      );
    }
    for (const s of sets) client.close(s.files[2]);
  });

  test('a preview asked, a source edited before the answer, another preview: the second has the edit', async () => {
    const base = write('edit/base.yaml', part('base'));
    const app = fileUri('edit', 'app.yaml');
    await client.open(app, part('app-1'));
    // Hold the first preview before it reads anything: it first asks the settings for its first
    // file (never asked before), and the editor holds the answer back.
    const asked = client.configurationRequests;
    const release = client.holdConfiguration();
    let first: Promise<PreviewResult>;
    let second: Promise<PreviewResult>;
    try {
      first = previewOf(client, { mode: 'user-data', files: [base, app] });
      await until('the first preview to ask for the settings', () => client.configurationRequests > asked);
      client.change(app, part('app-2'));
      second = previewOf(client, { mode: 'user-data', files: [base, app] });
    } finally {
      release();
    }
    const [one, two] = await Promise.all([first, second]);
    assert.equal(generation(previewBody(two), 'app'), 2, 'the second preview reflects the edit');
    assert.ok([1, 2].includes(generation(previewBody(one), 'app') ?? -1), 'the first is one of the two texts');
    assert.match(previewBody(two), /^- base$/m);
    // And without holding anything: an edit then a preview, many times over.
    for (let g = 3; g < 40; g++) {
      client.change(app, part(`app-${g}`));
      const result = await previewOf(client, { mode: 'user-data', files: [base, app] });
      assert.equal(generation(previewBody(result), 'app'), g);
    }
    client.close(app);
  });

  test('open sources edited while a preview is reading the others from disk: each answer is one snapshot, never a mix', async () => {
    const disk = Array.from({ length: 24 }, (_, i) => write(`mixed/d${String(i).padStart(2, '0')}.yaml`, part(`disk${i}-0`)));
    const b = fileUri('mixed', 'b.yaml');
    const c = fileUri('mixed', 'c.yaml');
    client.openNoWait(b, part('B-0'));
    client.openNoWait(c, part('C-0'));
    const files = [b, ...disk, c];
    const pending: Array<{ asked: number; answer: Promise<PreviewResult> }> = [];
    const ROUNDS = 30;
    for (let g = 0; g < ROUNDS; g++) {
      // The request is sent when both are at generation g; both edits follow it at once.
      pending.push({ asked: g, answer: previewOf(client, { mode: 'user-data', files }) });
      client.change(b, part(`B-${g + 1}`));
      client.change(c, part(`C-${g + 1}`));
      if (g % 5 === 4) await tick();
    }
    for (const { asked, answer } of pending) {
      const result = await answer;
      assert.deepEqual(result.problems, []);
      const gb = generation(previewBody(result), 'B');
      const gc = generation(previewBody(result), 'C');
      assert.ok(gb !== null && gc !== null, previewBody(result));
      assert.equal(gb, gc, `preview asked at generation ${asked} merged B-${gb} with C-${gc}: two different moments`);
      assert.ok(gb >= asked && gb <= ROUNDS, `preview asked at generation ${asked} saw ${gb}`);
      for (let i = 0; i < disk.length; i++) assert.equal(generation(previewBody(result), `disk${i}`), 0);
    }
    const last = await previewOf(client, { mode: 'user-data', files });
    assert.deepEqual([generation(previewBody(last), 'B'), generation(previewBody(last), 'C')], [ROUNDS, ROUNDS]);
    client.close(b);
    client.close(c);
  });

  test('an #include target open in the editor and edited while previews run: each answer has the text as of its request', async () => {
    const target = write('inc/target.yaml', part('target-disk'));
    const include = write('inc/include.txt', `#include\n${fileURLToPath(target)}\n`);
    const others = Array.from({ length: 8 }, (_, i) => write(`inc/o${i}.yaml`, part(`other${i}-0`)));
    client.openNoWait(target, part('target-0'));
    const pending: Array<{ asked: number; answer: Promise<PreviewResult> }> = [];
    for (let g = 0; g < 20; g++) {
      pending.push({ asked: g, answer: previewOf(client, { mode: 'user-data', files: [...others, include] }) });
      client.change(target, part(`target-${g + 1}`));
    }
    for (const { asked, answer } of pending) {
      const result = await answer;
      const seen = generation(previewBody(result), 'target');
      assert.ok(seen !== null && seen >= asked, `preview asked at ${asked} saw target-${seen}`);
      assert.doesNotMatch(previewBody(result), /target-disk/, 'the editor text wins over the disk');
    }
    client.close(target);
    const fromDisk = await previewOf(client, { mode: 'user-data', files: [include] });
    assert.match(previewBody(fromDisk), /^- target-disk$/m, 'closed: the disk text again');
  });

  test('ten previews open at once while their sources are typed into: each answers its own latest text', async () => {
    const shared = write('ten/shared.yaml', part('shared'));
    const docs = Array.from({ length: 10 }, (_, n) => ({ n, uri: fileUri('ten', `doc${n}.yaml`), g: 0 }));
    for (const d of docs) client.openNoWait(d.uri, part(`doc${d.n}-0`));
    for (let round = 1; round <= 15; round++) {
      for (const d of docs) {
        // Several keystrokes per document per round, some documents more than others.
        for (let k = 0; k <= d.n % 3; k++) client.change(d.uri, part(`doc${d.n}-${++d.g}`));
      }
      const results = await Promise.all(docs.map((d) => previewOf(client, { mode: 'user-data', files: [shared, d.uri] })));
      for (const [i, result] of results.entries()) {
        const d = docs[i];
        assert.equal(generation(previewBody(result), `doc${d.n}`), d.g, `round ${round}: preview ${d.n} has its latest text`);
        assert.deepEqual([...previewBody(result).matchAll(/^- (doc\d+)-/gm)].map((m) => m[1]), [`doc${d.n}`], `round ${round}: preview ${d.n} has no other document`);
      }
    }
    for (const d of docs) client.close(d.uri);
  });
});
