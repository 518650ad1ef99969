/**
 * The playground page (site/, `npm run playground`) in a real browser: Debian's Chromium through playwright-core,
 * the page opened from disk as a user opens it. For a corpus of cases (this project's conformance cases and the
 * faces-agree fixtures that are user-data parts only, the examples on several images) the URL fragment's parts give
 * byte for byte what `node dist/cli.js` prints for the same files; one test per panel; the page makes no request
 * once loaded, whatever is done on it; labels, keyboard and a phone's width.
 *
 * `npm run test:web` builds the site and runs this file (it needs /usr/bin/chromium: `apt-get install chromium`,
 * which scripts/e2e/setup.sh installs too). Not part of `npm test`: .ci/run runs it after the e2e setup.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const ROOT = resolve(__dirname, '..', '..', '..');
const SITE = join(ROOT, 'site');
const CLI = join(ROOT, 'dist', 'cli.js');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

interface WebCase {
  name: string;
  parts: Array<{ name: string; text: string }>;
  image?: string;
}

/** Text a part can be given as in the page: valid UTF-8 (the fragment is JSON text). */
function utf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The conformance cases that are a plain user-data merge of files (no option but --raw), each file valid UTF-8. */
function conformanceCases(): WebCase[] {
  const dir = join(ROOT, 'test', 'conformance', 'cases');
  const out: WebCase[] = [];
  for (const name of readdirSync(dir).sort()) {
    const spec = JSON.parse(readFileSync(join(dir, name, 'case.json'), 'utf8')) as { args: string[] };
    const files = spec.args.filter((a) => a !== '--raw');
    if (files.some((a) => a.startsWith('-'))) continue;
    const parts = files.map((f) => ({ name: f, text: utf8(readFileSync(join(dir, name, f))) }));
    if (parts.some((p) => p.text === undefined)) continue;
    out.push({ name: `conformance ${name}`, parts: parts as WebCase['parts'] });
  }
  return out;
}

/** The faces-agree fixtures whose set is user-data parts and at most an image (no instance data, includes or seed). */
function fixtureCases(): WebCase[] {
  // The compiled fixtures (`tsc -p test`): compiling them here would bring in the whole agree harness.
  const { FIXTURES } = require(join(ROOT, 'out', 'test', 'agree', 'fixtures.js')) as { FIXTURES: Array<{ name: string; kind: string; files: Record<string, string>; set?: unknown; args?: string[] }> };
  const out: WebCase[] = [];
  for (const c of FIXTURES) {
    const entry = c.set as { files?: string[]; image?: string; [k: string]: unknown } | undefined;
    const files = c.kind === 'set' ? entry?.files : c.kind === 'lone' ? (c.args ?? Object.keys(c.files)) : undefined;
    if (!files?.length) continue;
    if (entry && Object.keys(entry).some((k) => k !== 'files' && k !== 'image')) continue;
    const parts = files.map((f) => ({ name: f, text: c.files[f] }));
    if (parts.some((p) => p.text === undefined || /(^|\/)(meta-data|network-config)/.test(p.name))) continue;
    out.push({ name: `agree ${c.name}`, parts, ...(entry?.image ? { image: entry.image } : {}) });
  }
  return out;
}

function exampleCases(): WebCase[] {
  const dir = join(ROOT, 'examples', 'user-data');
  const parts = readdirSync(dir).sort().map((f) => ({ name: f, text: readFileSync(join(dir, f), 'utf8') }));
  return [undefined, 'debian-12', 'rhel-8', 'ubuntu-22.04', 'raspios-13'].map((image) => ({ name: `examples on ${image ?? 'the default image'}`, parts, ...(image ? { image } : {}) }));
}

/** A case made here: a MIME with a gzip part (the zlib shim) and a plaintext password (the SHA-512 shim's fix). */
function madeCases(): WebCase[] {
  const zlib = require('node:zlib') as typeof import('node:zlib');
  const gz = zlib.gzipSync(Buffer.from('#cloud-config\npackages: [htop]\nruncmd: [echo zipped]\n')).toString('base64');
  const mime = [
    'Content-Type: multipart/mixed; boundary="XXX"',
    'MIME-Version: 1.0',
    '',
    '--XXX',
    'Content-Type: application/x-gzip',
    'Content-Transfer-Encoding: base64',
    'Content-Disposition: attachment; filename="zipped.cfg"',
    '',
    gz,
    '--XXX',
    'Content-Type: text/cloud-config',
    'Content-Disposition: attachment; filename="plain.cfg"',
    '',
    '#cloud-config',
    'chpasswd:',
    '  users:',
    '    - {name: root, password: hunter2, type: text}',
    'runcmd: [echo plain]',
    '--XXX--',
    '',
  ].join('\n');
  return [
    { name: 'made: gzip part in a MIME, a plaintext password', parts: [{ name: 'user-data.mime', text: mime }, { name: 'late.yaml', text: '#cloud-config\nruncmd: [echo late]\n' }] },
    { name: 'made: not YAML, unknown keys, a bad merge_how', parts: [{ name: 'a.yaml', text: '#cloud-config\nmerge_how: list(appendd)\npackagez: [x]\nruncmd: [a]\n' }, { name: 'b.yaml', text: '#cloud-config\nruncmd: [b\n' }] },
    { name: 'made: Unicode names and text', parts: [{ name: 'ünï.yaml', text: '#cloud-config\nwrite_files:\n  - path: /etc/motd\n    content: "héllo ✓ 🌍"\n' }] },
  ];
}

const CASES: WebCase[] = [...conformanceCases(), ...fixtureCases(), ...exampleCases(), ...madeCases()];

function fragmentOf(c: WebCase): string {
  return `#parts=${Buffer.from(JSON.stringify(c.parts), 'utf8').toString('base64url')}${c.image ? `&image=${c.image}` : ''}`;
}

interface Run {
  stdout: string;
  stderr: string;
  code: number;
}

/** The CLI on the case's files, written into a scratch folder under their names (the CLI's FILE paths). */
function cli(c: WebCase, args: string[]): Run {
  const dir = mkdtempSync(join(tmpdir(), 'cc-web-'));
  try {
    for (const p of c.parts) {
      mkdirSync(dirname(join(dir, p.name)), { recursive: true });
      writeFileSync(join(dir, p.name), p.text, 'utf8');
    }
    const r = spawnSync(process.execPath, [CLI, ...args, ...(c.image ? ['--image', c.image] : []), ...c.parts.map((p) => p.name)], { cwd: dir, encoding: 'utf8' });
    return { stdout: r.stdout, stderr: r.stderr, code: r.status ?? -1 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let browser: Browser;
let context: BrowserContext;
/** Every request the pages made after their load event, by URL. */
const lateRequests: string[] = [];
/** Every request before it (the page's own files), to show the recording works. */
const loadRequests = new Set<string>();
const pageUrl = pathToFileURL(join(SITE, 'index.html')).href;

before(async () => {
  assert.ok(existsSync(join(SITE, 'index.html')), 'site/ is missing: run `npm run playground` (npm run test:web does)');
  assert.ok(existsSync(CLI), 'dist/cli.js is missing: run `npm run build`');
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium (or set CHROMIUM)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  context = await browser.newContext();
});

after(async () => {
  await browser?.close();
});

/** A page opened on the fragment, answered: requests after its load event are recorded. */
async function open(fragment: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  let loaded = false;
  page.on('load', () => (loaded = true));
  page.on('request', (r) => {
    if (loaded) lateRequests.push(r.url());
    else loadRequests.add(r.url().replace(/#.*/, '').split('/').pop() ?? '');
  });
  await page.goto(pageUrl + fragment);
  await page.waitForFunction(() => Number(document.body.dataset.answered) >= 1);
  return page;
}

async function text(page: Page, id: string): Promise<string> {
  return page.$eval(`#${id}`, (el) => el.textContent ?? '');
}

/** Waits until the page has answered once more than `before` times. */
async function answered(page: Page, count: number): Promise<void> {
  await page.waitForFunction((n) => Number(document.body.dataset.answered) > n, count);
}

const answers = async (page: Page) => Number(await page.$eval('body', (b) => b.dataset.answered));

/** The panels of one case, read once. */
const pages = new Map<string, Promise<Record<string, string>>>();
function panels(c: WebCase): Promise<Record<string, string>> {
  let p = pages.get(c.name);
  if (!p) {
    p = (async () => {
      const page = await open(fragmentOf(c));
      const out: Record<string, string> = {};
      for (const id of ['merged', 'merge-notes', 'provenance', 'findings', 'findings-notes', 'findings-verdict', 'plan', 'lost', 'images', 'preview']) out[id] = await text(page, id);
      await page.close();
      return out;
    })();
    pages.set(c.name, p);
  }
  return p;
}

test(`the corpus has cases (${CASES.length})`, () => {
  assert.ok(CASES.length >= 25, `only ${CASES.length} cases`);
});

for (const c of CASES) {
  test(`${c.name}: cloud-config.txt is the CLI's, byte for byte, with one provenance line per line`, async () => {
    const p = await panels(c);
    const run = cli(c, []);
    assert.equal(p.merged, run.stdout);
    assert.equal(p['merge-notes'], run.stderr);
    const lines = run.stdout === '' ? 0 : run.stdout.replace(/\n$/, '').split('\n').length;
    if (run.code === 0 || run.code === 4) assert.equal(p.provenance === '' ? 0 : p.provenance.replace(/\n$/, '').split('\n').length, lines);
  });
  test(`${c.name}: the findings are --check's, byte for byte, with its verdict`, async () => {
    const p = await panels(c);
    const run = cli(c, ['--check']);
    assert.equal(p.findings, run.stdout);
    assert.equal(p['findings-notes'], run.stderr);
    assert.match(p['findings-verdict'], new RegExp(`exits ${run.code}\\)`));
  });
  test(`${c.name}: the boot plan is --plan's, byte for byte`, async () => {
    const p = await panels(c);
    const run = cli(c, ['--plan']);
    assert.equal(p.plan, run.stdout + run.stderr);
  });
  test(`${c.name}: the whole preview is --format preview's; the lost values and the images line are its own lines`, async () => {
    const p = await panels(c);
    const run = cli(c, ['--format', 'preview']);
    assert.equal(p.preview, run.stdout + run.stderr);
    const lines = run.stdout.split('\n');
    const heading = lines.findIndex((l) => /^# What .* lost/.test(l));
    if (heading < 0) assert.equal(p.lost, '');
    else {
      assert.ok(p.lost.startsWith(lines[heading] + '\n'), `the lost panel starts at the preview's heading: ${p.lost.slice(0, 200)}`);
      assert.ok(run.stdout.includes(p.lost), 'the lost panel is lines of the preview');
    }
    const images = lines.findIndex((l) => l.includes('Which images accept this'));
    if (images < 0) assert.equal(p.images, '');
    else assert.ok(p.images.startsWith(lines[images] + '\n') && run.stdout.includes(p.images), `images panel: ${p.images}`);
  });
}

test('the examples lose values and the images disagree: the lost and images panels are not empty there', async () => {
  const p = await panels(exampleCases()[0]);
  assert.notEqual(p.lost, '');
  assert.match(p.provenance, /10-base\.yaml:\d+/);
  const some = await Promise.all(CASES.map((c) => panels(c)));
  assert.ok(some.some((x) => x.images !== ''), 'no case has an images line');
});

test('editing, reordering, choosing an image, adding a part: the answer follows, the fragment reproduces it', async () => {
  const c = exampleCases()[0];
  const page = await open(fragmentOf(c));
  let n = await answers(page);
  // Keyboard only: Tab to the first part's "Move down" button and press Enter.
  await page.focus('#parts li:first-child .part-text');
  // The first part's "Move up" is disabled, so out of the tab order: the next stop is "Move down".
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.what), 'down');
  await page.keyboard.press('Enter');
  await answered(page, n);
  const swapped = { ...c, parts: [c.parts[1], c.parts[0], ...c.parts.slice(2)] };
  assert.equal(await text(page, 'merged'), cli(swapped, []).stdout);
  n = await answers(page);
  await page.selectOption('#image', 'rhel-8');
  await answered(page, n);
  const rhel = { ...swapped, image: 'rhel-8' };
  assert.equal(await text(page, 'findings'), cli(rhel, ['--check']).stdout);
  n = await answers(page);
  await page.fill('#parts li:last-child .part-text', '#cloud-config\nhostname: typed\n');
  await answered(page, n);
  const typed = { ...rhel, parts: [...rhel.parts.slice(0, -1), { name: rhel.parts[rhel.parts.length - 1].name, text: '#cloud-config\nhostname: typed\n' }] };
  assert.equal(await text(page, 'merged'), cli(typed, []).stdout);
  // The fragment now asks the same question: a new page on it answers the same.
  const hash = await page.evaluate(() => location.hash);
  assert.equal(hash, fragmentOf(typed));
  const again = await open(hash);
  assert.equal(await text(again, 'merged'), await text(page, 'merged'));
  await again.close();
  await page.close();
});

test('dropped files become parts, in the order dropped', async () => {
  const page = await open('#parts=' + Buffer.from('[]').toString('base64url'));
  const n = await answers(page);
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['#cloud-config\nruncmd: [one]\n'], 'one.yaml'));
    dt.items.add(new File(['#cloud-config\nruncmd: [two]\nmerge_how: list(append)+dict()+str()\n'], 'two.yaml'));
    document.getElementById('parts-zone')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await answered(page, n);
  const c: WebCase = { name: 'dropped', parts: [{ name: 'one.yaml', text: '#cloud-config\nruncmd: [one]\n' }, { name: 'two.yaml', text: '#cloud-config\nruncmd: [two]\nmerge_how: list(append)+dict()+str()\n' }] };
  assert.equal(await text(page, 'merged'), cli(c, []).stdout);
  await page.close();
});

test('every control has a label; the results are reachable by keyboard', async () => {
  const page = await open(fragmentOf(exampleCases()[0]));
  const unlabelled = await page.evaluate(() =>
    Array.from(document.querySelectorAll('input, textarea, select, button'))
      .filter((el) => {
        const c = el as HTMLInputElement;
        return !(c.labels?.length || c.getAttribute('aria-label') || c.textContent?.trim());
      })
      .map((el) => el.outerHTML.slice(0, 80)),
  );
  assert.deepEqual(unlabelled, []);
  for (const id of ['merged', 'findings', 'plan', 'lost']) assert.equal(await page.$eval(`#${id}`, (el) => el.tabIndex), 0, `#${id} is focusable`);
  await page.close();
});

test("readable on a phone: nothing wider than a 375-pixel screen but the panels' own scrolling", async () => {
  const page = await open(fragmentOf(exampleCases()[0]), { width: 375, height: 740 });
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
  assert.ok(widths.doc <= widths.view, `the page is ${widths.doc} px wide on a ${widths.view} px screen`);
  await page.close();
});

test('a fragment that cannot be read says so and still answers', async () => {
  const page = await open('#parts=%%%');
  assert.match(await text(page, 'status'), /cannot be read/);
  assert.notEqual(await text(page, 'merged'), '');
  await page.close();
});

test('no request after load, whatever was done on the pages', () => {
  assert.deepEqual([...loadRequests].sort(), ['app.js', 'index.html', 'style.css']);
  assert.deepEqual(lateRequests, []);
});
