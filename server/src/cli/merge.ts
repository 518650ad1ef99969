/**
 * A merge in any mode (`cloud-config-merge FILE...`): what cloud-init writes (YAML), its value (JSON) or the
 * report; and `--format preview`, the editor's preview text of the same run.
 */
import { PyDict, type PyValue } from '../engine/py/values';
import { loadYaml } from '../engine/yaml/load';
import { dumpPyYaml } from '../engine/yaml/dump';
import { toCanonicalJson } from '../engine/py/json';
import { runSet, type Outcome, type SetInputs } from '../engine/outcome/run';
import { notReproduced } from '../engine/outcome/parts';
import type { ReportFormat } from '../engine/render/reportJson';
import { UsageError, type CliOptions } from './args';
import { CloudInitFailure, InputError, runOptions, seedSummary, type CliIO } from './io';

const previewModule = (): typeof import('../engine/render/previewText') => require('../engine/render/previewText') as typeof import('../engine/render/previewText');
const reportModule = (): typeof import('../engine/render/reportJson') => require('../engine/render/reportJson') as typeof import('../engine/render/reportJson');
const planModule = (): typeof import('./plan') => require('./plan') as typeof import('./plan');

/** Exit code 4: done, but a Jinja template cloud-init renders could not be reproduced (the output lacks it; see the `note:` lines). */
const NOT_REPRODUCED = 4;

/**
 * What cloud-init's later stages see: cloud-config.txt read back with `util.load_yaml`, where an
 * empty file, invalid YAML or a root that is not a mapping (a JSON patch can make one) all give {}.
 */
function readBackCloudConfig(text: string): PyValue {
  const loaded = text ? loadYaml(text) : undefined;
  return loaded?.ok && loaded.value instanceof PyDict ? loaded.value : new PyDict();
}

/** JSON output: `--pretty`, and `--limit maxExpandedNodes` for aliased values. */
export function reportFormat(o: CliOptions): ReportFormat {
  return { pretty: o.pretty, maxNodes: o.limits.maxExpandedNodes };
}

/**
 * A merge in any mode: what cloud-init writes (YAML), its value (JSON) or the report (the pipeline
 * modes pass blobs already read from Terraform configs or rendered user-data).
 */
export function mergeMode(o: CliOptions, io: CliIO, inputs: SetInputs): number {
  return writeMerge(o, io, runSet(o.mode, inputs, runOptions(o, io)));
}

/** What a merge writes: the YAML cloud-init writes, its value as JSON, or the report; the exit code. */
export function writeMerge(o: CliOptions, io: CliIO, outcome: Outcome): number {
  // Said as any other failure of this kind is (main): exit 2 over a limit, 3 where cloud-init raises.
  if (outcome.kind === 'failed') throw outcome.failure.thrown;
  sayNotes(outcome, io);
  const missing = notReproduced(outcome);
  // user-data's own messages already say which parts are not reproduced.
  if (outcome.kind !== 'user-data') for (const m of missing) io.stderr(`note: ${m}\n`);
  const partial = missing.length ? NOT_REPRODUCED : 0;
  if (outcome.kind === 'user-data') {
    const run = outcome.run;
    const overLimit = run.fatal?.limit ? `${run.fatal.message}: nothing is merged` : undefined;
    if (o.format === 'report') {
      io.stdout(reportModule().reportOf(outcome, reportFormat(o)) + '\n');
      if (overLimit) io.stderr(`cloud-config-merge: ${overLimit}\n`);
      return overLimit ? 2 : run.fatal || run.renderError ? 3 : partial;
    }
    if (overLimit) throw new InputError(overLimit);
    if (run.fatal) throw new CloudInitFailure(`${run.fatal.pyType}: ${run.fatal.message} (no user-data is processed at all)`);
    if (run.renderError) throw new CloudInitFailure(`writing cloud-config.txt raises: ${run.renderError}`);
    if (o.format === 'json') io.stdout(toCanonicalJson(readBackCloudConfig(run.cloudConfigTxt), reportFormat(o)).text + '\n');
    else io.stdout(run.cloudConfigTxt);
    return partial;
  }
  if (outcome.kind === 'chef') for (const e of outcome.loaded.errors) throw new InputError(e);
  const value = outcome.kind === 'boot' ? outcome.boot.value : outcome.kind === 'chef' ? outcome.result.merged : outcome.result.value;
  if (o.format === 'report') io.stdout(reportModule().reportOf(outcome, reportFormat(o)) + '\n');
  else if (o.format === 'json') io.stdout(toCanonicalJson(value, reportFormat(o)).text + '\n');
  else io.stdout(dumpPyYaml(value));
  return partial;
}

/**
 * What the run says besides its result, on stderr: cloud-init's own warnings, our notes, why each
 * skipped part was skipped.
 */
function sayNotes(outcome: Outcome, io: CliIO): void {
  const note = (text: string) => io.stderr(`note: ${text}\n`);
  switch (outcome.kind) {
    case 'user-data': {
      const run = outcome.run;
      // Warnings are cloud-init's own log lines; notes are ours (e.g. what a preview cannot show).
      for (const m of run.messages) io.stderr(m.level === 'info' ? `note: ${m.message}\n` : `cloud-init ${m.level.toUpperCase()}: ${m.message}\n`);
      // Why each skipped part was skipped (cloud-init's own warning leaves out all but a ValueError's message).
      for (const r of run.reports) {
        if ((r.disposition === 'failed' && r.handled?.error) || (r.disposition === 'jinja-ignored' && r.note.startsWith('Skipped by cloud-init'))) note(`${r.part.filename}: ${r.note}`);
      }
      return;
    }
    case 'confd': {
      const result = outcome.result;
      for (const n of result.notes) note(n);
      for (const f of result.files) for (const w of f.read?.warnings ?? []) io.stderr(`cloud-init WARNING: ${f.file.name}: ${w}\n`);
      return;
    }
    case 'system':
      for (const f of outcome.result.files) for (const w of f.read.warnings) io.stderr(`cloud-init WARNING: ${f.file.name}: ${w}\n`);
      return;
    case 'boot':
      for (const n of outcome.boot.notes) note(n);
      return;
    case 'chef':
      for (const n of outcome.result.notices) note(`${n.path.join('.') || '(root)'}: ${n.message}`);
      return;
    case 'failed':
      return;
  }
}

/** The exact text of the editor's preview for the same files. */
export function previewMode(o: CliOptions, io: CliIO, inputs: SetInputs): number {
  if (o.mode === 'system') throw new UsageError('--format preview works with the user-data, handler, confd, boot and chef modes');
  return writePreview(o, io, runSet(o.mode, inputs, runOptions(o, io)));
}

function previewPlan(o: CliOptions): { plan?: import('../engine/version/target').Target; planOptions?: import('../engine/plan/plan').PlanOptions } {
  const inputs = o.mode === 'user-data' || o.mode === 'handler' ? planModule().planInputsOf(o) : undefined;
  return inputs && typeof inputs !== 'string' ? { plan: inputs.target, planOptions: inputs.options } : {};
}

/** The preview's text of an outcome; the exit code. */
export function writePreview(o: CliOptions, io: CliIO, outcome: Outcome): number {
  const model = previewModule().renderPreview(outcome, {
    // The editor's preview text, as the editor shows it by default (cloudConfigMerge.schema.enable).
    schema: true,
    cloud: o.cloud,
    seed: seedSummary(o),
    // The boot plan --plan makes for the same options (a custom --cloud-cfg too), in user-data and handler modes.
    ...previewPlan(o),
    limitHint: (limit) => `raise it with --limit ${limit}=N`,
  });
  io.stdout(model.text);
  if (model.limit) io.stderr(`cloud-config-merge: ${model.failure}\n`);
  return model.limit ? 2 : model.failure ? 3 : model.parts.some((p) => p.status === 'not-reproduced') ? NOT_REPRODUCED : 0;
}
