/**
 * `--check`: one run, one check (engine/check/check.ts), written as text, JSON or SARIF.
 *
 *  - cloud-init's own verdict: each user-data FILE and the merged result validated as `cloud-init schema`
 *    validates them (user-data and handler modes), each network-config as `cloud-init schema -t
 *    network-config`; its words are the text report.
 *  - every finding the editor gives for the same files: each document the run reads (FILEs, vendor-data,
 *    drop-ins, a seed's meta-data and network-config) analysed as an open document with the schema on,
 *    and, when the FILEs make a set (several parts, layers, a seed), the run's findings (fates, the merged
 *    result's schema problems, the boot plan's pitfalls) in the files that wrote the values. A lone FILE is
 *    what the editor shows for a lone document: its own findings and its own boot plan.
 *  - `--image a,b`: exactly `--image a` then `--image b`, each image's verdict from the whole check.
 */
import type { InputFile, SetInputs, Outcome } from '../engine/outcome/run';
import { runSet } from '../engine/outcome/run';
import { isAccepted, checkNetworkFile, checkOutcome, wholeFileNote, type CheckResult, type FileResult } from '../engine/outcome/check';
import { CHECK_MODES, hasFates } from '../engine/outcome/mode';
import { locationJson } from '../engine/outcome/locate';
import { decodeUtf8Surrogateescape } from '../engine/py/codecs';
import { MAX_SCHEMA_PROBLEMS, checkDocuments, checkFindings, failsCheck, type CheckFinding, type DocumentInput, type DocumentsCheck } from '../engine/check/check';
import { runCheck } from '../engine/check/runFindings';
import { fatesOfKinds, type FateReport } from '../engine/outcome/fates';
import type { SystemSchemaReport } from '../engine/outcome/schema';
import { planTarget } from '../engine/plan/facts';
import type { Target } from '../engine/version/target';
import { applyTarget, UsageError, type CliOptions } from './args';
import { CloudInitFailure, InputError, read, runOptions, seedSummary, type CliIO } from './io';
import { metaDataFiles, type MetaDataFile } from './metaData';
import { refuseSeedFilesInCheck, seedFileOf } from './seedFiles';
import { lintOptions } from './lint';
import { isAutoinstallFileName } from '../engine/autoinstall/recognise';
import { detectCloudInitDocument, detectionTextOfBytes, isContainerKind } from '../../../common/detect';
import { planInputsOf } from './plan';
import { packageVersion } from './version';

type Inputs = SetInputs & { paths: string[] };

/** What one `--check` finds: cloud-init's verdict, every finding, the fates and what else it measured. */
export interface CheckRun {
  outcome?: Outcome;
  /** cloud-init's schema result (files and merged), null when none of the FILEs is checked so. */
  result: CheckResult | null;
  findings: CheckFinding[];
  /** Files analysed (cloud-init documents). */
  checked: number;
  fates: FateReport | null;
  failedFates: number;
  metaData: MetaDataFile[];
  seedMetaData?: { path: string; bytes: Uint8Array };
  delivery?: ReturnType<typeof import('../engine/delivery/delivery').deliveryOfFiles>;
  systemSchema?: SystemSchemaReport;
  /** Subiquity's verdict on each FILE that is an autoinstall config. */
  autoinstall?: DocumentsCheck['autoinstall'];
}

export function checkCommand(o: CliOptions, io: CliIO, inputs: Inputs): number {
  if (!CHECK_MODES.includes(o.mode)) throw new UsageError(`--check works with the ${CHECK_MODES.join(', ')} modes, not ${o.mode}`);
  // --image and --annotate speak of user-data: a meta-data or network-config FILE is refused with them.
  refuseSeedFilesInCheck(o, inputs);
  if (o.images) return imagesCheck(o, io, inputs);
  if (o.annotate) return annotate(o, io, inputs);
  if (o.cloud && !['user-data', 'handler', 'boot'].includes(o.mode)) throw new UsageError(`--cloud works with the user-data, handler and boot modes (their FILEs are user-data), not ${o.mode}`);
  const run = checkRun(o, io, inputs);
  writeCheck(o, io, run);
  return failing(o, run) ? 1 : 0;
}

/** The check of one run for the options' image: nothing written. */
export function checkRun(o: CliOptions, io: CliIO, given: Inputs, how: { merged?: boolean } = {}): CheckRun {
  const inputs: Inputs = { ...given, files: given.files.slice(), paths: given.paths.slice() };
  // A NoCloud meta-data FILE is not user-data: read as NoCloud reads it, never merged.
  const metaData = metaDataFiles(o, inputs);
  // network-config is not user-data: checked on its own (`cloud-init schema -t network-config`), never merged.
  const network = networkFiles(o, inputs);
  // An autoinstall.yaml (or --type autoinstall) is the installer's, read as it is: Subiquity's verdict, never merged.
  const autoinstall = autoinstallFiles(o, inputs);
  const seedNetwork = o.seedFiles?.networkConfig;
  if (seedNetwork !== undefined) {
    const bytes = read(o, seedNetwork);
    network.push({ path: seedNetwork, bytes, result: checkNetworkFile(seedNetwork, bytes, o.version, o.target.netplan, o.target.netplanVersion) });
  }
  const seedMetaData = o.seedFiles?.metaData !== undefined ? { path: o.seedFiles.metaData, bytes: read(o, o.seedFiles.metaData) } : undefined;
  // Nothing to merge when every FILE was meta-data or network-config (boot mode still merges its layers).
  const ran = inputs.files.length || o.mode === 'boot' || (!metaData.length && !network.length && !autoinstall.length) ? schemaCheck(o, io, inputs, o.version, how.merged ?? true) : undefined;
  const outcome = ran?.outcome;
  const files: FileResult[] = [...network.map((n) => n.result), ...(ran?.result?.files ?? [])];
  const result: CheckResult | null = ran?.result || files.length ? { files, merged: ran?.result?.merged ?? null } : null;
  const fates = outcome && hasFates(o.mode) ? (require('../engine/outcome/fates') as typeof import('../engine/outcome/fates')).fatesOf(outcome) : null;
  const failedFates = fates ? fatesOfKinds(fates, o.failOn).length : 0;
  // A set: several parts, layers or a seed. A lone FILE is a document alone, as the editor shows it.
  // A lone MIME multipart or archive is a set too: its parts merge with each other (the editor takes it so).
  const lone = inputs.files.length === 1 ? inputs.files[0] : undefined;
  const container = lone !== undefined && o.mode === 'user-data' && isContainerKind(detectCloudInitDocument(detectionTextOfBytes(lone.bytes), inputs.paths[0] ?? lone.name)?.kind);
  const isSet = !['user-data', 'handler'].includes(o.mode) || inputs.files.length > 1 || container;
  // The plan --plan makes for the same options (a custom --cloud-cfg in the user-data and handler modes; there it is no layer).
  const planInputs = o.mode === 'user-data' || o.mode === 'handler' ? planInputsOf(o) : undefined;
  const target = planInputs ? (typeof planInputs === 'string' ? undefined : planInputs.target) : planTargetOf(o);
  const planOptions = planInputs && typeof planInputs !== 'string' ? planInputs.options : {};
  const layers = inputs.layers ?? {};
  const layerFiles = [layers.vendor, layers.vendor2, layers.cloudCfg, layers.dsConfig, ...(layers.confd ?? [])].filter((f): f is InputFile => f !== undefined);
  const documents: DocumentInput[] = [
    ...network.map((n) => ({ path: n.path, text: decodeUtf8Surrogateescape(n.bytes), kind: 'network-config' as const })),
    ...inputs.files.map((f, i) => ({ path: inputs.paths[i] ?? f.name, text: decodeUtf8Surrogateescape(f.bytes) })),
    ...autoinstall.map((a) => ({ path: a.path, text: decodeUtf8Surrogateescape(a.bytes), kind: 'autoinstall' as const })),
    ...layerFiles.map((f) => ({ path: f.name, text: decodeUtf8Surrogateescape(f.bytes) })),
    ...metaData.map((m) => ({ path: m.path, text: decodeUtf8Surrogateescape(m.bytes), kind: 'meta-data' as const })),
    ...(seedMetaData ? [{ path: seedMetaData.path, text: decodeUtf8Surrogateescape(seedMetaData.bytes), kind: 'meta-data' as const }] : []),
  ];
  // The boot plan: the run's in a user-data set, else each cloud-config document's own (as the editor plans a document in no user-data set).
  const runPlans = isSet && o.mode === 'user-data';
  const docs = checkDocuments(documents, { ...lintOptions(o, io), schema: true, maxSchemaProblems: MAX_SCHEMA_PROBLEMS, ...(target && !runPlans ? { planAlone: target, planOptions } : {}) });
  const found = outcome && isSet ? runCheck(outcome, { schema: true, maxProblems: MAX_SCHEMA_PROBLEMS, ...(target && runPlans ? { target, planOptions } : {}), ...(fates ? { fates } : {}) }).findings : [];
  // A lone container's own analysis says what stops its run (the editor takes it so).
  const runFound = container ? found.filter((f) => f.at !== null) : found;
  // Meta-data is not delivered as user-data: with no user-data FILE left there is nothing to measure.
  const delivery = o.cloud && (inputs.files.length || !metaData.length) ? (require('../engine/delivery/delivery') as typeof import('../engine/delivery/delivery')).deliveryOfFiles(inputs.files.map((f, i) => ({ name: inputs.paths[i] ?? f.name, bytes: f.bytes })), o.cloud) : undefined;
  // Drop-ins and cloud.cfg: their merged schema problems, as cloud-init holds system config to its schema.
  const checkedSystem = outcome?.kind === 'confd' ? (require('../engine/outcome/schema') as typeof import('../engine/outcome/schema')).systemSchemaOf(outcome) : undefined;
  return {
    outcome,
    result,
    findings: checkFindings(docs, runFound),
    autoinstall: docs.autoinstall,
    checked: docs.checked,
    fates,
    failedFates,
    metaData,
    seedMetaData,
    delivery,
    systemSchema: checkedSystem?.checked ? checkedSystem.schema : undefined,
  };
}

/** Whether the check fails (exit 1): cloud-init rejects a file or the merge, a finding fails, a --fail-on fate, over the cloud's limit, the system config's schema. */
export function failing(o: CliOptions, run: CheckRun): boolean {
  const verdict = run.result !== null && run.result.files.length + (run.result.merged ? 1 : 0) > 0;
  if (run.result && !isAccepted(run.result)) return true;
  if (run.findings.some((f) => failsCheck(f, verdict && coveredByVerdict(run, f)))) return true;
  const overLimit = run.delivery !== undefined && 'over' in run.delivery && run.delivery.over;
  return run.failedFates > 0 || Boolean(overLimit) || Boolean(run.systemSchema?.errors.length);
}

/** A file cloud-init's own check read (its schema problems are its verdict's, said in its words). */
function coveredByVerdict(run: CheckRun, f: CheckFinding): boolean {
  if (f.code.startsWith('merged-schema-')) return run.result?.merged !== null;
  return run.result?.files.some((r) => r.file === f.file) ?? false;
}

/** The findings the text and SARIF list besides cloud-init's report: what it says already (schema, YAML, fates) is not said twice. */
function besidesReport(run: CheckRun): CheckFinding[] {
  return run.findings.filter((f) => {
    if (f.code.startsWith('fate-')) return false;
    if (!coveredByVerdict(run, f)) return true;
    return !(f.code.startsWith('schema-') || f.code.startsWith('merged-schema-') || f.code === 'yaml-invalid');
  });
}

export function writeCheck(o: CliOptions, io: CliIO, run: CheckRun): void {
  const render = require('../engine/render/checkText') as typeof import('../engine/render/checkText');
  const fatesText = require('../engine/render/fatesText') as typeof import('../engine/render/fatesText');
  const lintText = require('../engine/render/lintText') as typeof import('../engine/render/lintText');
  const seedText = require('../engine/render/seedText') as typeof import('../engine/render/seedText');
  const { result, fates, metaData, seedMetaData, systemSchema, delivery } = run;
  const seed = seedSummary(o, seedMetaData?.bytes);
  if (o.format === 'json') {
    const schema = result ? (JSON.parse(render.formatJson(result, false)) as { files: Array<Record<string, unknown>>; merged: unknown }) : { files: [], merged: null };
    // Each autoinstall FILE's entry says what Subiquity does with it (the error that stops the install first).
    for (const [file, verdict] of run.autoinstall ?? []) {
      const entries = schema.files.filter((f) => f.file === file);
      if (entries.length) for (const e of entries) e.autoinstall = verdict;
      // Not user-data (autoinstall.yaml, --type autoinstall): cloud-init's schema never runs on it.
      else schema.files.push({ file, kind: 'autoinstall', valid: verdict.valid, errors: [], deprecations: [], note: "not user-data: Ubuntu's installer (Subiquity) reads it as it is", autoinstall: verdict });
    }
    const findings = run.findings.map((f) => ({ file: f.file, line: f.start.line + 1, column: f.start.character + 1, endLine: f.end.line + 1, endColumn: f.end.character + 1, severity: f.severity, code: f.code, message: f.message }));
    const system = systemSchema ? { systemSchema: { errors: systemSchema.errors.map((p) => ({ path: p.path, message: p.message, ...(p.source ? locationJson(p.source) : {}) })), deprecations: systemSchema.deprecations.map((p) => ({ path: p.path, message: p.message, ...(p.source ? locationJson(p.source) : {}) })) } } : {};
    const readings = [...metaData.map((m) => seedText.metaDataJson(m.path, m.reading, m.by)), ...(seed && seedMetaData ? [seedText.metaDataJson(seedMetaData.path, seed.metaData, 'seed')] : [])];
    io.stdout(JSON.stringify({ ...schema, ...(readings.length ? { metaData: readings } : {}), findings, ...(fates ? { fates: fatesText.fatesJson(fates) } : {}), failOn: { kinds: o.failOn, failing: run.failedFates }, ...(delivery ? { delivery } : {}), ...system }, null, o.pretty ? 2 : undefined) + '\n');
    return;
  }
  const shown = besidesReport(run);
  const failingShown = shown.filter((f) => failsCheck(f, false)).length;
  if (o.format === 'sarif') {
    const lintSarif = lintText.lintSarif(shown);
    const fateSarif = fates ? { rules: fatesText.FATE_RULES, results: fatesText.fatesSarif(fates, o.failOn) } : { rules: [], results: [] };
    io.stdout(render.formatSarif(result ?? { files: [], merged: null }, o.version, packageVersion(), { rules: [...lintSarif.rules, ...fateSarif.rules], results: [...lintSarif.results, ...fateSarif.results] }) + '\n');
    return;
  }
  // The schema text is what cloud-init prints: the findings and the fates follow it, only when there are some to list.
  const lint = lintText.lintSection(shown, failingShown);
  const indented = (lines: string[]) => lines.map((l, i) => (i ? `  ${l}` : l)).join('\n') + '\n';
  for (const m of metaData) io.stdout(indented(seedText.metaDataFileLines(m.path, m.reading, m.by)));
  io.stdout(render.autoinstallVerdictText(run.autoinstall ?? []));
  if (result) io.stdout(render.formatText(result, o.version));
  if (systemSchema) io.stdout((require('../engine/render/systemSchemaText') as typeof import('../engine/render/systemSchemaText')).systemSchemaText(systemSchema, o.version));
  io.stdout(lint.text);
  if (fates && (fates.fates.length || fates.failure || !result)) io.stdout(fatesText.fatesText(fates));
  if (lint.failure) io.stdout(lint.failure);
  if (run.failedFates) io.stdout(`Error: ${run.failedFates} value(s) meet a --fail-on fate (${o.failOn.join(', ')})\n`);
  if (seed) io.stdout(indented(seedText.seedLines(seed)));
  if (delivery) io.stdout(indented((require('../engine/render/deliveryText') as typeof import('../engine/render/deliveryText')).deliveryLines(delivery)));
}

/** `--check --annotate`: the user-data FILEs with cloud-init's problems written beside their lines. */
function annotate(o: CliOptions, io: CliIO, inputs: Inputs): number {
  const ran = schemaCheck(o, io, inputs, o.version);
  if (ran.outcome.kind !== 'user-data' || !ran.result) throw new UsageError('--annotate works with the user-data and handler modes');
  const render = require('../engine/render/checkText') as typeof import('../engine/render/checkText');
  const out = render.formatAnnotated(inputs.files.map((f, i) => ({ name: inputs.paths[i], bytes: f.bytes })), ran.outcome.run, o.version);
  io.stdout(out.stdout);
  io.stderr(out.stderr);
  return isAccepted(ran.result) ? 0 : 1;
}

/** The image of the check's boot plan: the target's version and distro, with the cloud.cfg the plan renders for them. */
export function planTargetOf(o: CliOptions): Target | undefined {
  const target = planTarget(o.target.version, o.target.distro);
  return typeof target === 'string' ? undefined : { ...target, netplan: o.target.netplan };
}

/**
 * The one --check run for one cloud-init version: the merge, and (user-data and handler modes) cloud-init's
 * validation of each FILE and of the merged result.
 */
export function schemaCheck(o: CliOptions, io: CliIO, inputs: Inputs, version: CliOptions['version'], merged = true): { outcome: Outcome; result: CheckResult | null } {
  const outcome = runSet(o.mode, inputs, { ...runOptions(o, io), version });
  for (const [i, f] of inputs.files.entries()) {
    const note = outcome.kind === 'user-data' ? wholeFileNote(inputs.paths[i], f.bytes, version) : undefined;
    if (note) io.stderr(`cloud-config-merge: note: ${note}\n`);
  }
  const result = checkOutcome(outcome, version, { names: inputs.paths, merged });
  if (result && 'fatal' in result) {
    if (result.fatal.limit) throw new InputError(`${result.fatal.message}: nothing is merged`);
    throw new CloudInitFailure(`${result.fatal.pyType}: ${result.fatal.message} (no user-data is processed at all)`);
  }
  return { outcome, result: result ?? null };
}

/**
 * The FILEs that are network-config (by `--type network-config`, their name or their content: seedFiles.ts's rule),
 * checked, and taken out of `inputs` (what is left is merged). The host is the target's (`--netplan`, else the image's).
 */
function networkFiles(o: CliOptions, inputs: Inputs): Array<{ path: string; bytes: Uint8Array; result: FileResult }> {
  const out: Array<{ path: string; bytes: Uint8Array; result: FileResult }> = [];
  const keep: number[] = [];
  inputs.files.forEach((f, i) => {
    const path = inputs.paths[i] ?? f.name;
    if (seedFileOf(o, path, f.bytes)?.kind !== 'network-config') return keep.push(i);
    out.push({ path, bytes: f.bytes, result: checkNetworkFile(path, f.bytes, o.version, o.target.netplan, o.target.netplanVersion) });
  });
  inputs.files = keep.map((i) => inputs.files[i]);
  inputs.paths = keep.map((i) => inputs.paths[i]);
  return out;
}

/** The FILEs that are autoinstall files (named autoinstall.yaml, or all with --type autoinstall), taken out of the merge. */
function autoinstallFiles(o: CliOptions, inputs: Inputs): Array<{ path: string; bytes: Uint8Array }> {
  const out: Array<{ path: string; bytes: Uint8Array }> = [];
  const keep: number[] = [];
  inputs.files.forEach((f, i) => {
    const path = inputs.paths[i] ?? f.name;
    if (o.type !== 'autoinstall' && !isAutoinstallFileName(path)) return keep.push(i);
    out.push({ path, bytes: f.bytes });
  });
  inputs.files = keep.map((i) => inputs.files[i]);
  inputs.paths = keep.map((i) => inputs.paths[i]);
  return out;
}

/**
 * `--check --image all` (or `--image ID,ID`): each image's verdict is the whole check's for that image
 * (its cloud-init's schema, every finding with its distro's boot plan), exactly as `--check --image ID`
 * decides it; exit 1 when any image listed rejects the input.
 */
function imagesCheck(o: CliOptions, io: CliIO, inputs: Inputs): number {
  if (o.mode !== 'user-data' && o.mode !== 'handler') throw new UsageError(`--image ${o.image} checks user-data against each image's schema: it works with the user-data and handler modes, not ${o.mode}`);
  const images = require('../engine/render/imagesText') as typeof import('../engine/render/imagesText');
  const byTarget = new Map<string, { valid: boolean; errors: Array<{ path: string; message: string; file?: string; line?: number; column?: number }> }>();
  // What does not depend on the version (a part's load, bar 22.4/23.4's tags) is shared by the images' runs.
  const partCache = new (require('../engine/userdata/cloudConfigHandler') as typeof import('../engine/userdata/cloudConfigHandler')).PartLoadCache('all');
  // and so is each document's YAML load in its analysis (a 5 MB file: 0.8 s an image).
  const loadedBodies = new Map<string, import('../engine/yaml/load').YamlLoadResult>();
  const verdicts = (o.images ?? []).map((profile) => {
    const one: CliOptions = { ...o, image: profile.id, images: undefined, partCache, loadedBodies };
    applyTarget(one);
    // Images of one cloud-init version, distro and netplan get the same check: it is run once.
    const key = JSON.stringify(one.target);
    let verdict = byTarget.get(key);
    if (!verdict) {
      const run = checkRun(one, io, inputs);
      const problems = run.result ? images.versionProblems(run.result) : [];
      const findings = run.findings.filter((f) => failsCheck(f, true) || (!run.result && failsCheck(f, false))).map((f) => ({ path: f.code, message: f.message, file: f.file, line: f.start.line + 1, column: f.start.character + 1 }));
      verdict = { valid: !failing(one, run), errors: [...problems, ...findings] };
      byTarget.set(key, verdict);
    }
    return { image: profile.id, version: profile.version, valid: verdict.valid, errors: verdict.errors };
  });
  if (o.format === 'json') io.stdout(JSON.stringify(images.imagesJson(verdicts), null, o.pretty ? 2 : undefined) + '\n');
  else io.stdout(images.imagesText(verdicts));
  return verdicts.every((v) => v.valid) ? 0 : 1;
}
