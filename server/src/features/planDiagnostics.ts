/**
 * The boot plan's pitfalls as diagnostics, on the value they are about (engine/plan/pitfalls.ts): our own
 * checks, named `plan-*`. A document in a set (sets/partSets.ts) gets those of the set's one outcome that
 * are written in it; a #cloud-config document in no set is planned on its own (its loaded value). Hints
 * (keys read once per instance) are left to the hover. A pitfall with an obvious fix
 * (`defer: true`, `- default`) carries it for planFixes.ts.
 */
import { Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { planAlone } from '../engine/check/check';
import { ServerContext } from './common/context';
import { DIAGNOSTIC_SOURCE, SEVERITY } from './common/ranges';
import { PartSets } from '../sets/partSets';
import { ServerSettings } from './common/settings';
import { planTargetOf } from './common/planTarget';
import { describeError } from './common/log';
import { toRange, type PlanDiagnosticData } from './fates';

export type { PlanDiagnosticData };

export function planDiagnostics(ctx: ServerContext, sets: PartSets, document: TextDocument, settings: ServerSettings): Diagnostic[] {
  const target = planTargetOf(settings);
  if (!target) return [];
  // A document in a user-data set gets the pitfalls of the set's run with its other findings (fates.ts).
  if (sets.setsOf(document.uri).some((s) => s.mode === 'user-data')) return [];
  try {
    // A #cloud-config document alone: its loaded value is the merged result (no second merge per edit).
    const state = ctx.state(document);
    const own = state.memo('plan', () => planAlone(state.analysis, state.text, document.uri, target));
    return own.map((f) => {
      const data: PlanDiagnosticData | undefined = f.planFix ? { planFix: f.planFix } : undefined;
      return { range: toRange(f.at!), severity: SEVERITY[f.severity], source: DIAGNOSTIC_SOURCE, code: f.code, message: f.message, ...(data ? { data } : {}) };
    });
  } catch (e) {
    ctx.log.error(`boot plan of ${document.uri}: ${describeError(e)}`);
    return [];
  }
}
