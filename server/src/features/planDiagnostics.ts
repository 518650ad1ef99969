/**
 * The boot plan's pitfalls as diagnostics, on the value they are about (engine/plan/pitfalls.ts): our own
 * checks, named `plan-*`. A document in a set (common/partSets.ts) gets those of the set's one outcome that
 * are written in it; a #cloud-config document in no set is planned on its own (its loaded value). Hints
 * (keys read once per instance) are left to the hover. A pitfall with an obvious fix
 * (`defer: true`, `- default`) carries it for planFixes.ts.
 */
import { Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { PyDict } from '../engine/py/values';
import { inFileText, textLocator } from '../engine/outcome/locate';
import { planBoot } from '../engine/plan/plan';
import { planPitfalls } from '../engine/plan/pitfalls';
import { OutcomePlan, planOfOutcome } from '../engine/plan/ofOutcome';
import type { PlanFix } from '../engine/plan/pitfalls';
import { ServerContext } from './common/context';
import { DIAGNOSTIC_SOURCE, SEVERITY } from './common/ranges';
import { PartSets } from './common/partSets';
import { ServerSettings } from './common/settings';
import { planTargetOf } from './common/planTarget';
import { describeError } from './common/log';
import { analysesFor, toRange } from './fates';

/** What a pitfall diagnostic carries for its quick fix. */
export interface PlanDiagnosticData {
  planFix: PlanFix;
}

export function planDiagnostics(ctx: ServerContext, sets: PartSets, document: TextDocument, settings: ServerSettings): Diagnostic[] {
  const target = planTargetOf(settings);
  if (!target) return [];
  try {
    const analyses = analysesFor(sets, document, settings).filter((a) => a.set.mode === 'user-data');
    const plans: Array<{ plan: OutcomePlan; uriOf: (name: string) => string | undefined; prefix: string }> = [];
    for (const analysis of analyses) {
      const p = planOfOutcome(analysis.outcome, target);
      if (!('error' in p)) plans.push({ plan: p, uriOf: (n) => analysis.uriOf(n), prefix: analyses.length > 1 ? `${analysis.set.label}: ` : '' });
    }
    if (!analyses.length) {
      // A #cloud-config document alone: its loaded value is the merged result (no second merge per edit).
      const state = ctx.state(document);
      const loaded = state.analysis.yaml;
      if (state.analysis.info?.kind !== 'cloud-config' || !loaded?.ok || state.analysis.yamlBase === undefined) return [];
      const base = state.analysis.yamlBase;
      const own = state.memo('plan', () => {
        const value = loaded.value instanceof PyDict ? loaded.value : null;
        const plan = planBoot(value, target);
        const locate = textLocator([{ name: document.uri, text: state.text, base }]);
        return plan.ok ? { plan: plan.plan, pitfalls: planPitfalls(plan.plan, value, locate, () => state.text), merged: value, locate } : null;
      });
      if (own) plans.push({ plan: own, uriOf: (n) => (n === document.uri ? n : undefined), prefix: '' });
    }
    const out: Diagnostic[] = [];
    const seen = new Set<string>();
    for (const { plan, uriOf, prefix } of plans) {
      for (const pit of plan.pitfalls) {
        // Hints (a key read once per instance) are the hover's to say: every valid document would have them.
        if (pit.severity === 'hint') continue;
        const at = inFileText(pit.at);
        if (!at || uriOf(at.file) !== document.uri) continue;
        const message = `${prefix}${pit.message} (our boot-plan check, for ${target.distro} with cloud-init ${target.version})`;
        const key = `${at.line}:${at.character}:${message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const data: PlanDiagnosticData | undefined = pit.fix ? { planFix: pit.fix } : undefined;
        out.push({ range: toRange(at), severity: SEVERITY[pit.severity], source: DIAGNOSTIC_SOURCE, code: pit.code, message, ...(data ? { data } : {}) });
      }
    }
    return out;
  } catch (e) {
    ctx.log.error(`boot plan of ${document.uri}: ${describeError(e)}`);
    return [];
  }
}
