/**
 * The playground page: parts (pasted, dropped or picked; a MIME blob is one part), their order and the image in,
 * the engine's renderings out (answer.ts). The question lives in the URL fragment, so a link reproduces it.
 * Nothing is sent anywhere: the page makes no request after it is loaded.
 */
import { answer, PROFILES, DEFAULT_IMAGE, type Answer, type Part } from './answer';
import { decodeQuestion, encodeQuestion } from './fragment';

const EXAMPLE: Part[] = [
  { name: '10-base.yaml', text: '#cloud-config\npackages: [nginx]\nruncmd:\n  - systemctl enable --now nginx\n' },
  { name: '20-app.yaml', text: '#cloud-config\nruncmd:\n  - echo ready > /run/app\n' },
];

const byId = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing`);
  return el as T;
};

const state: { parts: Part[]; image: string } = { parts: [], image: DEFAULT_IMAGE };
let partSerial = 0;

function status(text: string): void {
  byId('status').textContent = text;
}

/** One part's editor: its name, its text, and buttons to move or remove it (all reachable by keyboard). */
function renderParts(focus?: { index: number; what: string }): void {
  const list = byId<HTMLOListElement>('parts');
  list.replaceChildren();
  state.parts.forEach((part, index) => {
    const n = index + 1;
    const id = `part-${++partSerial}`;
    const item = document.createElement('li');
    item.className = 'part';
    const nameLabel = document.createElement('label');
    nameLabel.htmlFor = `${id}-name`;
    nameLabel.textContent = `Part ${n}: file name`;
    const name = document.createElement('input');
    name.id = `${id}-name`;
    name.className = 'part-name';
    name.value = part.name;
    name.spellcheck = false;
    name.addEventListener('input', () => {
      part.name = name.value;
      schedule();
    });
    const textLabel = document.createElement('label');
    textLabel.htmlFor = `${id}-text`;
    textLabel.textContent = `Part ${n}: text`;
    const text = document.createElement('textarea');
    text.id = `${id}-text`;
    text.className = 'part-text';
    text.value = part.text;
    text.rows = Math.min(16, Math.max(4, part.text.split('\n').length + 1));
    text.spellcheck = false;
    text.addEventListener('input', () => {
      part.text = text.value;
      schedule();
    });
    const buttons = document.createElement('div');
    buttons.className = 'part-buttons';
    const button = (label: string, what: string, enabled: boolean, act: () => void) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.dataset.what = what;
      b.setAttribute('aria-label', `${label} (part ${n}, ${part.name || 'unnamed'})`);
      b.disabled = !enabled;
      b.addEventListener('click', act);
      buttons.append(b);
    };
    button('Move up', 'up', index > 0, () => move(index, -1));
    button('Move down', 'down', index < state.parts.length - 1, () => move(index, 1));
    button('Remove', 'remove', true, () => {
      state.parts.splice(index, 1);
      renderParts({ index: Math.min(index, state.parts.length - 1), what: 'remove' });
      status(`Removed part ${n}.`);
      schedule(0);
    });
    item.append(nameLabel, name, textLabel, text, buttons);
    list.append(item);
  });
  if (focus && focus.index >= 0) {
    const item = list.children[focus.index];
    const target = item?.querySelector<HTMLElement>(`button[data-what="${focus.what}"]:not([disabled])`) ?? item?.querySelector<HTMLElement>('textarea');
    target?.focus();
  } else if (focus) byId('add-part').focus();
}

function move(index: number, by: number): void {
  const [part] = state.parts.splice(index, 1);
  state.parts.splice(index + by, 0, part);
  renderParts({ index: index + by, what: by < 0 ? 'up' : 'down' });
  status(`Moved ${part.name || 'the part'} to position ${index + by + 1}.`);
  schedule(0);
}

function freshName(): string {
  const names = new Set(state.parts.map((p) => p.name));
  for (let i = state.parts.length + 1; ; i++) if (!names.has(`part-${i}.yaml`)) return `part-${i}.yaml`;
}

/** Files dropped or picked: each one a part, in the order given, read as UTF-8 text. */
async function addFiles(files: FileList | File[]): Promise<void> {
  const list = Array.from(files);
  for (const file of list) state.parts.push({ name: file.name, text: await file.text() });
  renderParts();
  status(`Added ${list.length} part${list.length === 1 ? '' : 's'}.`);
  schedule(0);
}

let timer: ReturnType<typeof setTimeout> | undefined;
function schedule(delay = 250): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = undefined;
    update();
  }, delay);
}

function show(id: string, text: string): void {
  byId(id).textContent = text;
}

/** The preview's lines of a section kind (the header's own lines, as the CLI's --format preview writes them). */
function sectionText(a: Answer, kind: string): string {
  const lines = a.preview.stdout.split('\n');
  return a.sections.filter((s) => s.kind === kind).map((s) => lines.slice(s.line, s.endLine + 1).join('\n') + '\n').join('');
}

function update(): void {
  const started = performance.now();
  const a = answer(state.parts, state.image);
  document.body.dataset.answered = String((Number(document.body.dataset.answered) || 0) + 1);
  show('merged', a.merged.stdout);
  show('provenance', a.provenance.join('\n') + (a.provenance.length ? '\n' : ''));
  show('merge-notes', a.merged.stderr);
  byId('merge-notes').hidden = a.merged.stderr === '';
  show('lost', sectionText(a, 'lost'));
  byId('lost-none').hidden = a.sections.some((s) => s.kind === 'lost');
  show('findings', a.findings.stdout);
  show('findings-notes', a.findings.stderr);
  byId('findings-notes').hidden = a.findings.stderr === '';
  show('findings-verdict', a.findings.code === 0 ? 'The check passes (cloud-config-merge --check exits 0).' : `The check fails (cloud-config-merge --check exits ${a.findings.code}).`);
  show('plan', a.plan.stdout + a.plan.stderr);
  show('images', a.imagesLine ? a.imagesLine + '\n' : '');
  byId('images-same').hidden = a.imagesLine !== undefined;
  show('preview', a.preview.stdout + a.preview.stderr);
  show('refused', a.refused.join('\n'));
  byId('refused').hidden = a.refused.length === 0;
  const fragment = encodeQuestion({ parts: state.parts, image: state.image });
  if (location.hash !== fragment) history.replaceState(null, '', fragment);
  byId<HTMLAnchorElement>('link').href = fragment;
  show('timing', `Answered in ${Math.round(performance.now() - started)} ms, in this browser.`);
}

function load(fragment: string): void {
  const q = decodeQuestion(fragment);
  if (typeof q === 'string') {
    status(q);
    state.parts = EXAMPLE.map((p) => ({ ...p }));
  } else if (q) {
    state.parts = q.parts;
    if (q.image) state.image = PROFILES.some((p) => p.id === q.image) ? q.image : DEFAULT_IMAGE;
    if (q.image && state.image !== q.image) status(`The link names an unknown image, ${q.image}: ${DEFAULT_IMAGE} is used.`);
  } else state.parts = EXAMPLE.map((p) => ({ ...p }));
  byId<HTMLSelectElement>('image').value = state.image;
  renderParts();
  update();
}

function start(): void {
  const select = byId<HTMLSelectElement>('image');
  for (const p of PROFILES) {
    const option = document.createElement('option');
    option.value = p.id;
    option.textContent = `${p.label} (cloud-init ${p.version})${p.id === DEFAULT_IMAGE ? ' (default)' : ''}`;
    select.append(option);
  }
  select.addEventListener('change', () => {
    state.image = select.value;
    schedule(0);
  });
  byId('add-part').addEventListener('click', () => {
    state.parts.push({ name: freshName(), text: '#cloud-config\n' });
    renderParts({ index: state.parts.length - 1, what: 'text' });
    schedule(0);
  });
  const picker = byId<HTMLInputElement>('files');
  picker.addEventListener('change', () => {
    if (picker.files?.length) void addFiles(picker.files);
    picker.value = '';
  });
  const zone = byId('parts-zone');
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('dragging');
    if (e.dataTransfer?.files.length) void addFiles(e.dataTransfer.files);
  });
  byId('copy-link').addEventListener('click', () => {
    const url = location.href;
    navigator.clipboard?.writeText(url).then(
      () => status('Link copied.'),
      () => status(`Copy this link: ${url}`),
    );
  });
  window.addEventListener('hashchange', () => load(location.hash));
  load(location.hash);
}

start();
