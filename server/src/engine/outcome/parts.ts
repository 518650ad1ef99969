/**
 * The sources of an outcome as every answer names them: the parts in the
 * order cloud-init reads them, each with its status and the spec it was
 * merged with (the preview's part list, the report's parts), and the names
 * the lost values and fates give a source by its index (a user-data part, a
 * drop-in or cloud.cfg, a boot layer).
 */
import { PyValue } from '../py/values';
import { pyReprForMessage } from '../py/repr';
import { ParsedMerger } from '../spec/parse';
import { PartReport, UserDataRun } from '../userdata/run';
import { ConfdResult } from '../system/confd';
import { BootResult } from '../system/boot';
import { MergeManyStep } from '../system/mergemany';
import { Outcome, cloudCfgName } from './run';

export interface OutcomePart {
  label: string;
  file: string;
  /** 'not-reproduced': cloud-init renders this part, this tool cannot (the preview lacks it). */
  status: 'merged' | 'dropped' | 'not-merged' | 'not-reproduced';
  spec?: string;
  reason?: string;
}

/** `list(append)+dict(no_replace)` for a parsed spec, whatever form it was written in. */
export function formatSpec(mergers: ParsedMerger[]): string {
  return mergers
    .map((m) => {
      const name = typeof m.name === 'string' ? m.name : shortRepr(m.name);
      const options = Array.isArray(m.options) && m.options.every((o) => typeof o === 'string') ? m.options.join(',') : shortRepr(m.options);
      return `${name}(${options})`;
    })
    .join('+');
}

/** A spec with ` (default)` when no part set one. */
export function specText(mergers: ParsedMerger[], defaulted?: boolean): string {
  return `${formatSpec(mergers)}${defaulted ? ' (default)' : ''}`;
}

/** The spec of a mergemanydict step, as the part list and lost values say it (undefined: none). */
export function stepSpec(step: MergeManyStep | undefined): string | undefined {
  return step?.spec ? specText(step.spec, step.defaulted) : undefined;
}

/** A repr for a header line: settings can be any YAML value, even an alias bomb or 10,000 levels deep. */
function shortRepr(value: PyValue): string {
  return pyReprForMessage(value, 200);
}

/** The parts of an outcome, in the order cloud-init reads them. */
export function partsOf(outcome: Outcome): OutcomePart[] {
  switch (outcome.kind) {
    case 'user-data':
      return outcome.run.reports.map((r) => describePart(outcome.run, r));
    case 'confd':
      return outcome.result.files
        .slice()
        .sort((a, b) => (a.rank ?? 1e9) - (b.rank ?? 1e9))
        .map((f) => ({
          label: f.used ? `priority ${(f.rank ?? 0) + 1}` : 'ignored',
          file: f.file.name,
          status: f.read?.notReproduced ? 'not-reproduced' : f.used ? 'merged' : 'not-merged',
          spec: stepSpec(f.step),
          reason: f.read?.notReproduced ?? (f.used ? f.read?.warnings.join('; ') || undefined : 'the name does not end in .cfg'),
        }));
    case 'system':
      return outcome.result.files.map((f, i) => ({ label: `file ${i + 1}`, file: f.file.name, status: 'merged', spec: stepSpec(outcome.result.steps[i]) }));
    case 'boot':
      return outcome.boot.layers.map((l) => ({ label: l.layer, file: l.layer, status: 'merged', spec: stepSpec(l.step) }));
    case 'chef': {
      const { loaded, result } = outcome;
      return loaded.texts.map((t, i) => ({
        label: result.kinds[i],
        file: t.name,
        status: loaded.errors.some((e) => e.startsWith(t.name + ':')) ? 'dropped' : 'merged',
        spec: 'Chef deep merge',
        reason: loaded.errors.find((e) => e.startsWith(t.name + ':')),
      }));
    }
    case 'failed':
      return [];
  }
}

function describePart(run: UserDataRun, r: PartReport): OutcomePart {
  const file = run.sources[r.part.blob]?.name ?? '?';
  const label = `${r.part.filename} (${r.part.contentType})`;
  const h = r.handled;
  if (r.disposition === 'merged' && h?.discarded) return { label, file, status: 'dropped', reason: r.note };
  if (r.disposition === 'merged' && h) {
    const spec = h.kind === 'jsonp' ? 'JSON patch' : `${formatSpec(h.effective ?? [])}${h.defaulted ? ' (default)' : h.body && h.header ? ` (${h.body.key} + ${h.header.name})` : h.body ? ` (${h.body.key})` : h.header ? ` (${h.header.name})` : ''}`;
    return { label, file, status: 'merged', spec };
  }
  if (r.disposition === 'jinja-not-reproduced') return { label, file, status: 'not-reproduced', reason: r.note };
  if (r.disposition === 'failed' || r.disposition === 'jinja-ignored' || r.disposition === 'filtered-out' || r.disposition === 'unhandled') {
    return { label, file, status: 'dropped', reason: r.note };
  }
  return { label, file, status: 'not-merged', reason: r.note };
}

/** How the lost values and fates of a merge name its sources, by the index the merge's locator gives them. */
export interface SourceNames {
  /** What was merged: `merge`, `user-data merge`, `cloud.cfg.d merge`, `boot-time layering`. */
  merge: string;
  /** What one source is called: `part`, `file`, `layer`. */
  unit: 'part' | 'file' | 'layer';
  /** In sentences: `part-002 (02-app.yaml)`, `20-web.cfg`, `vendor-data (vendor.yaml)`. */
  name(index: number): string;
  /** In JSON: the part's number, the file's name, the layer. */
  id(index: number): string | number | null;
  spec(index: number): string | undefined;
}

/** The names of a user-data run's parts. */
export function userDataNames(run: UserDataRun, merge = 'merge'): SourceNames {
  let parts: OutcomePart[] | undefined;
  return {
    merge,
    unit: 'part',
    name: (i) => {
      const r = run.reports[i];
      return r ? `${r.part.filename} (${run.sources[r.part.blob]?.name ?? '?'})` : 'an earlier value';
    },
    id: (i) => run.reports[i]?.part.number ?? null,
    spec: (i) => (parts ??= run.reports.map((r) => describePart(run, r)))[i]?.spec,
  };
}

/** The names of drop-ins: a drop-in by its index in the input list, cloud.cfg (named as given) after the last one. */
export function confdNames(result: ConfdResult, cloudCfg: string): SourceNames {
  const stepOf = (i: number) => (i === result.files.length ? result.cloudCfg?.steps[result.cloudCfg.steps.length - 1] : result.files[i]?.step);
  const fileName = (i: number) => (i === result.files.length ? cloudCfg : (result.files[i]?.file.name ?? null));
  return {
    merge: 'cloud.cfg.d merge',
    unit: 'file',
    name: (i) => fileName(i) ?? 'an earlier value',
    id: fileName,
    spec: (i) => stepSpec(stepOf(i)),
  };
}

/** The names of boot layers, each with the file it came from. */
export function bootNames(boot: BootResult, outcome: Outcome): SourceNames {
  const { files, layers } = outcome.inputs;
  const fileOf: Record<string, string | undefined> = {
    'user-data': files.length === 1 ? files[0].name : files.length ? `${files.length} files` : undefined,
    'vendor-data': layers?.vendor?.name,
    'vendor-data2': layers?.vendor2?.name,
    datasource: layers?.dsConfig?.name,
    base: 'system config',
  };
  return {
    merge: 'boot-time layering',
    unit: 'layer',
    name: (i) => {
      const layer = boot.layers[i]?.layer;
      if (!layer) return 'an earlier value';
      return fileOf[layer] ? `${layer} (${fileOf[layer]})` : layer;
    },
    id: (i) => boot.layers[i]?.layer ?? null,
    spec: (i) => stepSpec(boot.layers[i]?.step),
  };
}

/** The names of the sources of an outcome's own merge (undefined: a Chef merge, a failed run). */
export function sourceNames(outcome: Outcome): SourceNames | undefined {
  switch (outcome.kind) {
    case 'user-data':
      return userDataNames(outcome.run);
    case 'confd':
      return confdNames(outcome.result, cloudCfgName(outcome.inputs));
    case 'boot':
      return bootNames(outcome.boot, outcome);
    default:
      return undefined;
  }
}

/**
 * What this tool could not render as cloud-init would (Jinja it cannot reproduce), one `name: message`
 * each: the output lacks it, and the CLI exits 4.
 */
export function notReproduced(outcome: Outcome): string[] {
  const system = (result: ConfdResult, cloudCfg: string): string[] => [
    ...result.files.filter((f) => f.read?.notReproduced).map((f) => `${f.file.name}: ${f.read!.notReproduced}`),
    ...(result.cloudCfg?.read.notReproduced ? [`${cloudCfg}: ${result.cloudCfg.read.notReproduced}`] : []),
  ];
  const runs = (list: Array<UserDataRun | undefined>) => list.flatMap((run) => run?.reports.filter((r) => r.disposition === 'jinja-not-reproduced').map((r) => r.note) ?? []);
  switch (outcome.kind) {
    case 'user-data':
      return runs([outcome.run]);
    case 'confd':
      return system(outcome.result, cloudCfgName(outcome.inputs));
    case 'boot':
      return [...system(outcome.boot.system, cloudCfgName(outcome.inputs)), ...runs([outcome.boot.userData, outcome.boot.vendor, outcome.boot.vendor2])];
    default:
      return [];
  }
}
