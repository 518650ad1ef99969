/**
 * "Faces agree" (issue 36, part 4): the same inputs through every face, compared. A case is a few files in a
 * folder of one workspace, run as the CLI runs them and as the editor runs them:
 *
 * - `--check --format json`'s findings (file, line, column, code, severity) = the language server's published
 *   diagnostics of those files (each file opened alone: the rest of its set is read from disk, as the editor
 *   reads the files that are not open);
 * - `--format preview`'s text = the text of the editor's preview of the same set (what the title bar button
 *   asks: the saved set of the file, `cloudConfigMerge/setOf`, then `cloudConfigMerge/preview`);
 * - `--plan --format json` = the preview's "Boot plan" section (its title, the modules the config activates
 *   with the place of each key, what a reboot and a new instance run again, the pitfalls);
 *
 * The CLI runs in this process (support/cli.ts), in the workspace's folder, with the paths relative to it: the
 * names both faces print are then the same. One language server serves every case of a test file.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { runCliIn } from '../support/cli';
import { LspClient } from '../support/lspClient';
import { unwrapHeader } from '../../server/src/engine/render/previewText';
import { EFFECTS, type EffectKind } from '../../server/src/engine/outcome/effects';
import { placeText } from '../../server/src/engine/outcome/locate';
import { CURRENT_MEANS } from '../../server/src/engine/version/versions';
import type { PartOrderResult, PreviewParams, PreviewResult, SetOfResult } from '../../server/src/protocol';

/** One saved set of the workspace's cloud-config-merge.yaml (paths relative to the workspace). */
export interface SetEntry {
  mode?: 'user-data' | 'confd' | 'boot' | 'chef';
  files?: string[];
  image?: string;
  instanceData?: string;
  includeMap?: Record<string, string>;
  seed?: string;
  vendor?: string;
  cloudCfg?: string;
}

/**
 * A case: its files (paths relative to the workspace) and how both faces are asked about them.
 * - `set`: a saved set (`--set NAME`; the editor previews the set of its first file);
 * - `seed`: a NoCloud seed folder in no saved set (`--seed DIR`; the editor previews what the title bar's
 *   button on its user-data previews: the file's saved set, else the folder's files through the order step);
 * - `confd`: the drop-ins of a `cloud.cfg.d` folder (`--mode confd`; the folder is the editor's set);
 * - `lone`: one file, in no set (`FILE`; the editor previews the file alone);
 * - `network`: a NoCloud network-config on its own (`--check FILE`; not user-data, so no preview or plan).
 */
export interface Case {
  name: string;
  kind: 'set' | 'seed' | 'confd' | 'lone' | 'network';
  files: Record<string, string>;
  /** For `seed`: the folder. */
  seed?: string;
  /** For `set`: its entry in the set file (the set is named after the case). */
  set?: SetEntry;
  /** For `confd` and `lone`: the files given on the command line, in order. */
  args?: string[];
  /** The files whose diagnostics are compared (default: every file of the case but instance data and include targets). */
  diagnosed?: string[];
}

export type Severity = 'error' | 'warning' | 'info' | 'hint';
const LSP_SEVERITY: Record<number, Severity> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };

/** A finding as both faces can say it: `file:line:column code severity` (1-based, as `--check` writes it). */
export type FindingKey = string;
export const key = (file: string, line: number, column: number, code: string, severity: string): FindingKey => `${file}:${line}:${column} ${code} ${severity}`;

/** A workspace folder on disk holding every case, its set file listing the cases' sets. */
export class Workspace {
  readonly root: string;

  constructor(readonly cases: readonly Case[]) {
    this.root = realpathSync(mkdtempSync(join(tmpdir(), 'ccm-agree-')));
    const sets: string[] = [];
    for (const c of cases) {
      for (const [name, text] of Object.entries(c.files)) this.write(name, text);
      if (c.kind === 'set') sets.push(setEntryYaml(c.name, c.set ?? {}));
    }
    if (sets.length) this.write('cloud-config-merge.yaml', `sets:\n${sets.join('')}`);
  }

  write(name: string, text: string): void {
    const path = join(this.root, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }

  uri(name: string): string {
    return pathToFileURL(join(this.root, name)).href;
  }

  /** The workspace-relative name of a URI of this workspace. */
  nameOf(uri: string): string {
    const prefix = pathToFileURL(this.root).href + '/';
    return uri.startsWith(prefix) ? decodeURIComponent(uri.slice(prefix.length)) : uri;
  }

  cli(argv: string[]): { code: number; stdout: string; stderr: string } {
    return runCliIn(argv, this.root);
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

function setEntryYaml(name: string, s: SetEntry): string {
  const q = (v: string) => JSON.stringify(v);
  const lines = [`  ${q(name)}:`];
  if (s.mode) lines.push(`    mode: ${s.mode}`);
  if (s.files) lines.push(`    files: [${s.files.map(q).join(', ')}]`);
  if (s.image) lines.push(`    image: ${s.image}`);
  if (s.instanceData) lines.push(`    instanceData: ${q(s.instanceData)}`);
  if (s.includeMap) lines.push(`    includeMap: {${Object.entries(s.includeMap).map(([u, f]) => `${q(u)}: ${q(f)}`).join(', ')}}`);
  if (s.seed) lines.push(`    seed: ${q(s.seed)}`);
  if (s.vendor) lines.push(`    vendor: ${q(s.vendor)}`);
  if (s.cloudCfg) lines.push(`    cloudCfg: ${q(s.cloudCfg)}`);
  return lines.join('\n') + '\n';
}

/** The command line that names a case's inputs (before the command's own flags). */
export function inputArgs(c: Case): string[] {
  switch (c.kind) {
    case 'set':
      return ['--set', c.name];
    case 'seed':
      return ['--seed', c.seed ?? ''];
    case 'confd':
      return ['--mode', 'confd', ...(c.args ?? [])];
    case 'lone':
    case 'network':
      return [...(c.args ?? [])];
  }
}

/** The files of a case whose diagnostics are compared. */
export function diagnosedFiles(c: Case): string[] {
  if (c.diagnosed) return c.diagnosed;
  const skip = new Set([c.set?.instanceData, ...Object.values(c.set?.includeMap ?? {})]);
  return Object.keys(c.files).filter((f) => !skip.has(f) && !f.endsWith('.json'));
}

// ---------------------------------------------------------------------------------------------------------
// --check --format json, as findings

interface Place {
  file?: string;
  line?: number;
  column?: number;
}
interface SchemaProblem extends Place {
  path: string;
  message: string;
}
interface CheckJson {
  files?: Array<{ file: string; errors: SchemaProblem[]; deprecations: SchemaProblem[]; kind?: string }>;
  merged?: { errors: SchemaProblem[]; deprecations: SchemaProblem[] } | null;
  findings?: Array<{ file: string; line: number; column: number; code: string; severity: Severity }>;
  fates?: { list: Array<{ kind: EffectKind; at: Place }> };
  systemSchema?: { errors: SchemaProblem[]; deprecations: SchemaProblem[] };
  pitfalls?: Array<{ code: string; severity: Severity; file?: string; line?: number; column?: number }>;
}

/** A fate's severity: its effect's weight (hints are inlay hints, not findings). */
const FATE_SEVERITY: Record<string, Severity | null> = { warning: 'warning', information: 'info', hint: null };

/**
 * The findings of `--check --format json`, each with its code and severity: the lint findings as written; each
 * file's schema problems (`schema-error` an error, a warning in system config; `schema-deprecated` a warning);
 * the merged result's on the part that wrote the value (`merged-schema-error` a warning,
 * `merged-schema-deprecation` info), unless that part's own check says it already; the fates by their weight.
 * The sections are read as --check writes them on 2 December 2026; a finding said in two of them (a schema
 * problem that also comes as a coded finding) counts once, so a JSON that moves everything into `findings`
 * compares the same.
 */
export function checkFindings(stdout: string): Set<FindingKey> {
  const json = JSON.parse(stdout) as CheckJson;
  const out = new Set<FindingKey>();
  const add = (p: Place, code: string, severity: Severity) => {
    if (p.file !== undefined && p.line !== undefined && p.column !== undefined) out.add(key(norm(p.file), p.line, p.column, code, severity));
  };
  for (const f of json.findings ?? []) add(f, f.code, f.severity);
  const own = new Set<string>();
  for (const f of json.files ?? []) {
    for (const e of f.errors) {
      // `cloud-init schema -c` refusing its input as a whole (a Jinja or MIME file 22.4 does not render or
      // split): the command's verdict on how it was called, which the CLI explains in a note; no place in the file.
      if (/^format-l1\.c1$/.test(e.path) && /needs to begin with|Unrecognized user-data header/.test(e.message)) continue;
      add({ ...e, file: f.file }, 'schema-error', 'error');
      own.add(`${norm(f.file)}\n${e.path}: ${e.message}`);
    }
    for (const e of f.deprecations) {
      add({ ...e, file: f.file }, 'schema-deprecated', 'warning');
      own.add(`${norm(f.file)}\n${e.path}: ${e.message}`);
    }
  }
  for (const [problems, code, severity] of [
    [json.merged?.errors ?? [], 'merged-schema-error', 'warning'],
    [json.merged?.deprecations ?? [], 'merged-schema-deprecation', 'info'],
  ] as const) {
    for (const e of problems) if (e.file === undefined || !own.has(`${norm(e.file)}\n${e.path}: ${e.message}`)) add(e, code, severity);
  }
  for (const e of json.systemSchema?.errors ?? []) add(e, 'schema-error', 'warning');
  for (const e of json.systemSchema?.deprecations ?? []) add(e, 'schema-deprecated', 'warning');
  // Boot-plan pitfalls, if --check gives them in a section of their own (hints are the hover's, as in the editor).
  for (const p of json.pitfalls ?? []) if (p.severity === 'error' || p.severity === 'warning') add(p, p.code, p.severity);
  for (const fate of json.fates?.list ?? []) {
    const severity = FATE_SEVERITY[EFFECTS[fate.kind].weight];
    if (severity) add(fate.at, `fate-${fate.kind}`, severity);
  }
  return out;
}

const norm = (file: string) => file.replace(/^\.\//, '');

/** The findings a language server's diagnostics say, for the file `name`. */
export function diagnosticFindings(name: string, diagnostics: readonly Diagnostic[]): Set<FindingKey> {
  return new Set(diagnostics.map((d) => key(name, d.range.start.line + 1, d.range.start.character + 1, String(d.code ?? '(no code)'), LSP_SEVERITY[d.severity ?? 1])));
}

/** `a` and `b` as sorted lists, for a readable assertion. */
export const sorted = (s: Iterable<FindingKey>): FindingKey[] => [...s].sort();

// ---------------------------------------------------------------------------------------------------------
// The editor

/** One language server over stdio for a workspace, asked as the editor asks it. */
export class Editor {
  private constructor(
    readonly client: LspClient,
    readonly ws: Workspace,
  ) {}

  static async start(ws: Workspace, settings: Record<string, unknown> = {}): Promise<Editor> {
    return new Editor(await LspClient.start({ workspaceFolders: [ws.root], settings }), ws);
  }

  /** The diagnostics of each file, each opened alone (then closed): the findings, file by file. */
  async findings(files: readonly string[]): Promise<Set<FindingKey>> {
    const out = new Set<FindingKey>();
    for (const file of files) {
      for (const k of diagnosticFindings(file, await this.diagnostics(file))) out.add(k);
    }
    return out;
  }

  /** The diagnostics the server publishes when `file` (workspace-relative) is opened as it is on disk. */
  async diagnostics(file: string, text?: string): Promise<Diagnostic[]> {
    const uri = this.ws.uri(file);
    const ds = await this.client.open(uri, text ?? readFileSync(join(this.ws.root, file), 'utf8'));
    this.client.close(uri);
    return ds;
  }

  /** What the title bar's preview button asks for `file`: its saved set, else the file alone. */
  async previewParamsOf(file: string): Promise<PreviewParams> {
    const set = await this.client.request<SetOfResult | null>('cloudConfigMerge/setOf', { uri: this.ws.uri(file) });
    if (set) return setParams(set);
    return { mode: 'user-data', files: [this.ws.uri(file)] };
  }

  /**
   * What the title bar's button previews for `file` (client/src/preview/commands.ts previewCommand): its saved
   * set (or the NoCloud seed folder it is a file of), else the cloud-init files of its folder (`siblings`, in
   * name order) as the order step takes them (client/src/orderStep.ts chooseOrder: the server's `partOrder`
   * leaves out what is not user-data; a seed is merged as the seed; a saved set of exactly those files, in
   * its order; else name order).
   */
  async titleBarPreviewParams(file: string, siblings: readonly string[]): Promise<PreviewParams> {
    const saved = await this.client.request<SetOfResult | null>('cloudConfigMerge/setOf', { uri: this.ws.uri(file) });
    if (saved) return setParams(saved);
    const given = siblings.map((f) => this.ws.uri(f));
    const order = await this.client.request<PartOrderResult>('cloudConfigMerge/partOrder', { files: given });
    const refused = new Set((order.notUserData ?? []).map((n) => n.file));
    const files = given.filter((f) => !refused.has(f));
    if (order.set?.seed) return setParams(order.set);
    if (order.set && order.set.files.length === files.length) return { ...setParams(order.set), files: order.set.files };
    return { mode: 'user-data', files };
  }

  preview(params: PreviewParams): Promise<PreviewResult> {
    return this.client.request<PreviewResult>('cloudConfigMerge/preview', params);
  }

  /** The editor's preview of a case: the set its first file belongs to, a cloud.cfg.d folder's drop-ins, a file alone. */
  async previewOf(c: Case): Promise<PreviewResult> {
    if (c.kind === 'confd') return this.preview({ mode: 'confd', files: (c.args ?? []).map((f) => this.ws.uri(f)) });
    if (c.kind === 'seed') return this.preview(await this.titleBarPreviewParams(`${c.seed}/user-data`, Object.keys(c.files).filter((f) => f.startsWith(`${c.seed}/`)).sort()));
    if (c.kind === 'set') {
      const first = c.set?.files?.[0] ?? (c.set?.seed ? `${c.set.seed}/user-data` : undefined);
      if (!first) throw new Error(`set case ${c.name} has no file`);
      return this.preview(await this.previewParamsOf(first));
    }
    return this.preview({ mode: 'user-data', files: (c.args ?? []).map((f) => this.ws.uri(f)) });
  }

  stop(): Promise<void> {
    return this.client.stop();
  }
}

/** A set the server resolved, as the client's preview sends it (client/src/preview/commands.ts setState, uri.ts toParams). */
function setParams(set: SetOfResult): PreviewParams {
  return { mode: set.mode, files: set.files, ...(set.boot ? { boot: set.boot } : {}) };
}

// ---------------------------------------------------------------------------------------------------------
// The boot plan: `--plan --format json` and the preview's section, in one shape

export interface PlanDigest {
  /** `cloud-init 23.4 (23.4.4), distro rhel, the rhel cloud.cfg of cloud-init 23.4` */
  title: string;
  /** `init: write_files, activated by write_files at app/20-app.yaml:3`, for each module the config activates. */
  activated: string[];
  /** The modules called whatever the config, counted by stage (`9 init, 2 config, 11 final`). */
  calledAnyway: string;
  reboot: string;
  newInstance: string;
  /** `error plan-owner-created-later app/20-app.yaml:4` (errors and warnings: hints are the hover's). */
  pitfalls: string[];
}

interface PlanJson {
  target: { cloudInitVersion: string; cloudInit: string; distro: string; cloudCfg: string };
  stages: Record<string, Array<{ module: string; frequency: string | null; runs: boolean; decision: string; activatedBy?: Array<{ key: string; file?: string; line?: number; note?: string; anchor?: { line: number } }> }>>;
  boots: { first: string[]; reboot: string[]; newInstance: string[] };
  pitfalls: Array<{ code: string; severity: string; file?: string; line?: number }>;
}

const SHORT_FREQUENCY: Record<string, string> = { always: 'every boot', 'once': 'once ever' };

/** What `--plan --format json` says, in the preview section's shape. */
export function planDigestOfJson(stdout: string): PlanDigest {
  const p = JSON.parse(stdout) as PlanJson;
  const activated: string[] = [];
  const anyway: string[] = [];
  for (const [stage, rows] of Object.entries(p.stages)) {
    let always = 0;
    for (const r of rows) {
      if (r.runs && r.activatedBy?.length) {
        const often = r.frequency === 'once-per-instance' || r.frequency === null ? '' : ` (${SHORT_FREQUENCY[r.frequency] ?? (r.frequency || 'every boot')})`;
        activated.push(`${stage}: ${r.module}${often}, activated by ${r.activatedBy.map((a) => `${a.key} at ${a.file !== undefined && a.line !== undefined ? placeText(a.file, a.line, undefined, a.note, a.anchor?.line) : `${a.file}:${a.line}`}`).join(', ')}`);
      } else if (r.runs && r.decision !== 'run_forced') always++;
    }
    if (always) anyway.push(`${always} ${stage}`);
  }
  const notAgain = p.boots.first.filter((m) => !p.boots.newInstance.includes(m));
  return {
    title: `cloud-init ${p.target.cloudInitVersion} (${p.target.cloudInitVersion === 'current' ? CURRENT_MEANS : p.target.cloudInit}), distro ${p.target.distro}, ${p.target.cloudCfg}`,
    activated,
    calledAnyway: anyway.join(', '),
    reboot: p.boots.reboot.length ? p.boots.reboot.join(', ') : 'nothing',
    newInstance: `${p.boots.newInstance.length} of ${p.boots.first.length}${notAgain.length ? ` (not ${notAgain.join(', ')})` : ''}`,
    pitfalls: p.pitfalls.filter((x) => x.severity === 'error' || x.severity === 'warning').map((x) => `${x.severity} ${x.code} ${x.file}:${x.line}`).sort(),
  };
}

/** The preview's "Boot plan" section of a preview text (wrapped lines joined), or undefined when it has none. */
export function planSectionOf(text: string): string[] | undefined {
  const lines = unwrapHeader(text).split('\n');
  const start = lines.findIndex((l) => /^# Boot plan\b/.test(l));
  if (start < 0) return undefined;
  const out = [lines[start]];
  for (let i = start + 1; i < lines.length && lines[i].startsWith('#   '); i++) out.push(lines[i]);
  return out;
}

/** The preview's section in the digest's shape. */
export function planDigestOfPreview(section: readonly string[]): PlanDigest {
  const title = /^# Boot plan on (.*): the modules that run/.exec(section[0])?.[1] ?? section[0];
  const body = section.slice(1).map((l) => l.slice(4));
  const field = (re: RegExp) => body.map((l) => re.exec(l)?.[1]).find((v) => v !== undefined) ?? '';
  return {
    title,
    activated: body.filter((l) => /^(init|config|final): .*, activated by /.test(l)),
    calledAnyway: field(/^Called whatever the config \(they may find nothing to do\): (.*) modules;/),
    reboot: field(/^Reboot runs again: (.*)$/),
    newInstance: (() => {
      const m = /^A new instance runs (\d+) of the first boot's (\d+) modules again(?: \(not (.*): once per image\))?$/.exec(body.find((l) => l.startsWith('A new instance')) ?? '');
      return m ? `${m[1]} of ${m[2]}${m[3] ? ` (not ${m[3]})` : ''}` : '';
    })(),
    pitfalls: body
      .map((l) => /^(Error|Warning) \(our check ([\w-]+)\) at ([^:]+:\d+):/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1].toLowerCase()} ${m[2]} ${m[3]}`)
      .sort(),
  };
}
