/** How cloud-init reads a merge spec, in data and in words. */
import { PyValue } from '../py/values';
import { PyError } from '../py/errors';
import { CloudInitVersion, ParsedMerger, ParsedSpec, SpecError, parseListSpec, parseStringSpec } from '../spec/parse';
import { DEFAULT_PART_SPEC, DEFAULT_PART_SPEC_TEXT } from '../spec/defaults';
import { constructMergers, MergerFactory } from '../merge/construct';
import { describeEffective } from '../spec/catalogue';
import { lintListSpec, lintStringSpec } from './specLint';

export type EffectiveSettings = Record<'dict' | 'list' | 'str', Record<string, string | boolean> | null>;

export interface SpecExplanation {
  parsed: Array<[PyValue, PyValue]> | null;
  effective: EffectiveSettings | null;
  /** The spec was empty, so a part would use `dict(replace)+list()+str()`. */
  defaultApplies: boolean;
  error: { kind: string; stage: 'parse' | 'construct'; message: string } | null;
  /** The explanation in plain words. */
  words: string[];
  /** What the spec linter says about it (misleading options, mergers that never run, ...). */
  warnings: string[];
}

export interface ExplainOptions {
  version?: CloudInitVersion;
  customMergers?: ReadonlyMap<string, MergerFactory>;
}

/** Explains a string spec, or a list/dict form value (as `merge_how` would hold it). */
export function explainSpec(spec: string | PyValue, options: ExplainOptions = {}): SpecExplanation {
  const lintOptions = { context: 'part' as const, label: 'spec', span: { start: 0, end: typeof spec === 'string' ? spec.length : 0 }, customMergers: options.customMergers };
  const lint = typeof spec === 'string' ? lintStringSpec(spec, 0, lintOptions) : lintListSpec(spec, undefined, lintOptions);
  const warnings = lint.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => f.message);
  const result = explainParsed(spec, options);
  return { ...result, warnings, words: [...result.words, ...warnings.map((w) => `Note: ${w}`)] };
}

function explainParsed(spec: string | PyValue, options: ExplainOptions): Omit<SpecExplanation, 'warnings'> {
  let parsed: ParsedSpec;
  try {
    parsed = typeof spec === 'string' ? parseStringSpec(spec, 0, options.version) : parseListSpec(spec);
  } catch (e) {
    return failure(e, 'parse', null);
  }
  const pairs = parsed.mergers.map((m): [PyValue, PyValue] => [m.name, m.options]);
  const defaultApplies = parsed.mergers.length === 0;
  const mergers: ParsedMerger[] = defaultApplies ? DEFAULT_PART_SPEC().mergers : parsed.mergers;
  try {
    const root = constructMergers(mergers, { modules: options.customMergers });
    const effective: EffectiveSettings = {
      dict: root.handlerFor('dict')?.settings() ?? null,
      list: root.handlerFor('list')?.settings() ?? null,
      str: root.handlerFor('str')?.settings() ?? null,
    };
    const words = [
      defaultApplies ? `Empty spec: a user-data part uses the default ${DEFAULT_PART_SPEC_TEXT}.` : `Parsed as ${pairs.length} merger(s); for each type the first one that handles it wins.`,
      ...describeEffective(effective),
    ];
    return { parsed: pairs, effective, defaultApplies, error: null, words };
  } catch (e) {
    return failure(e, 'construct', pairs);
  }
}

function failure(e: unknown, stage: 'parse' | 'construct', parsed: Array<[PyValue, PyValue]> | null): Omit<SpecExplanation, 'warnings'> {
  if (!(e instanceof PyError)) throw e;
  const actualStage = e instanceof SpecError ? e.stage : stage;
  const consequence =
    'In a user-data part cloud-init skips the whole part (WARNING "Failed at merging in cloud config part"); in system configuration the stage fails.';
  return {
    parsed,
    effective: null,
    defaultApplies: false,
    error: { kind: e.pyType, stage: actualStage, message: e.message },
    words: [`cloud-init raises ${e.pyType}: ${e.message}`, consequence],
  };
}
