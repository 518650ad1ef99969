/**
 * The boot plan written out: `--plan`'s readable timeline and its JSON, and the preview's "Boot plan"
 * section (each module that runs, with the file:line of the keys that activated it).
 */
import { PyDict, PyValue } from '../py/values';
import { Locator, SourceLocation, fileLine, locationJson } from '../outcome/locate';
import { BootPlan, PlanRow, STAGES, STAGE_KEYS } from '../plan/plan';
import type { Pitfall } from '../plan/pitfalls';
import type { OutcomePlan } from '../plan/ofOutcome';
import type { HeaderPiece, HeaderWriter } from './header';
import { CURRENT_MEANS } from '../version/versions';

/** Where each top-level key of the merged config was written (for "activated by"). */
function keyPlaces(merged: PyValue | null, locate: Locator | null): Map<string, SourceLocation | null> {
  const out = new Map<string, SourceLocation | null>();
  if (!(merged instanceof PyDict) || !locate) return out;
  for (const { key, origin } of merged.entryList()) if (typeof key === 'string') out.set(key, origin ? locate(origin, 'key') : null);
  return out;
}

const SHORT: Record<string, string> = { 'once-per-instance': 'once per instance', always: 'every boot', once: 'once ever' };

/** One row as a line: `  runs  runcmd  once per instance  activated by runcmd (user-data:3)`. */
function rowLine(row: PlanRow, places: Map<string, SourceLocation | null>): string {
  const freq = row.frequency === null ? '-' : SHORT[row.frequency] ?? (row.frequency === '' ? 'every boot (empty frequency)' : row.frequency);
  const why = row.runs && row.activatedBy?.length ? `activated by ${row.activatedBy.map((k) => { const at = places.get(k); return at ? `${k} (${fileLine(at)})` : k; }).join(', ')}${row.decision === 'run_forced' ? `; ${row.reason}` : ''}` : row.reason;
  return `  ${row.runs ? 'runs   ' : 'skipped'}  ${row.module.padEnd(32)} ${freq.padEnd(18)} ${why}`;
}

/**
 * The target in words: `cloud-init 24.4 (24.4.1), distro rhel, the rhel cloud.cfg of cloud-init 24.4`; current
 * says its release and what it is (CURRENT_MEANS), not the commit the facts were extracted at.
 */
export function planTitle(plan: BootPlan): string {
  const version = plan.target.version === 'current' ? CURRENT_MEANS : plan.cloudInit;
  return `cloud-init ${plan.target.version} (${version}), distro ${plan.target.distro}, ${plan.cloudCfg}`;
}

/** The timeline's lines: each stage, its modules, then what later boots run. */
export function planLines(plan: BootPlan, merged: PyValue | null, locate: Locator | null): string[] {
  const places = keyPlaces(merged, locate);
  const lines: string[] = [];
  for (const stage of STAGES) {
    const s = plan.stages[stage];
    const from = s.listFrom === 'user' ? `your own ${STAGE_KEYS[stage]}` : s.listFrom === 'cloud.cfg' ? `${STAGE_KEYS[stage]} of the cloud.cfg` : `no ${STAGE_KEYS[stage]}`;
    lines.push(`${stage} stage (${from}):`);
    if (s.error) lines.push(`  cloud-init fails reading the list, no module of this stage runs: ${s.error}`);
    for (const row of s.rows) lines.push(rowLine(row, places));
  }
  // Sets: a module list of 100,000 `always` entries runs 100,000 modules at every boot.
  const rebootRuns = new Set(plan.boots.reboot);
  const newInstanceRuns = new Set(plan.boots.newInstance);
  const firstOnly = plan.boots.first.filter((m) => !rebootRuns.has(m));
  lines.push(`first boot: ${plan.boots.first.length} modules run`);
  lines.push(`reboot: ${plan.boots.reboot.length ? plan.boots.reboot.join(', ') : 'nothing runs'} (not again: ${firstOnly.length ? firstOnly.join(', ') : 'none'})`);
  lines.push(`new instance (a new instance id): ${plan.boots.newInstance.length} modules run${plan.boots.newInstance.length !== plan.boots.first.length ? `; not ${plan.boots.first.filter((m) => !newInstanceRuns.has(m)).join(', ')} (once per image)` : ''}`);
  return lines;
}

function pitfallLine(p: Pitfall): string {
  return `${p.at ? `${fileLine(p.at, true)}: ` : ''}${p.severity}: ${p.message} [${p.code}]`;
}

/** `--plan`'s text; when every file is for another tool (`otherTool`), that, and not the image's module list. */
export function planText(plan: BootPlan, pitfalls: readonly Pitfall[], merged: PyValue | null, locate: Locator | null, otherTool = false): string {
  if (otherTool) return [`Boot plan: none of these files is cloud-init user-data (${planTitle(plan)}):`, ...pitfalls.map((p) => `  ${pitfallLine(p)}`)].join('\n') + '\n';
  const lines = [`Boot plan: ${planTitle(plan)}`, ...planLines(plan, merged, locate)];
  if (pitfalls.length) lines.push('pitfalls (our own checks of this plan):', ...pitfalls.map((p) => `  ${pitfallLine(p)}`));
  return lines.join('\n') + '\n';
}

/** `--plan --format json`; `otherTool: true` when every file is for another tool (the text then lists no module). */
export function planJson(plan: BootPlan, pitfalls: readonly Pitfall[], merged: PyValue | null, locate: Locator | null, otherTool = false): unknown {
  const places = keyPlaces(merged, locate);
  const stages = Object.fromEntries(
    STAGES.map((stage) => [
      stage,
      plan.stages[stage].rows.map((row) => ({
        module: row.module,
        cc: row.cc,
        frequency: row.frequency,
        runs: row.runs,
        decision: row.decision,
        reason: row.reason,
        ...(row.activatedBy ? { activatedBy: row.activatedBy.map((key) => { const at = places.get(key); return { key, ...(at ? locationJson(at) : {}) }; }) } : {}),
      })),
    ]),
  );
  const errors = Object.fromEntries(STAGES.filter((s) => plan.stages[s].error).map((s) => [s, plan.stages[s].error]));
  return {
    ...(otherTool ? { otherTool: true } : {}),
    target: { cloudInitVersion: plan.target.version, cloudInit: plan.cloudInit, distro: plan.target.distro, cloudCfg: plan.cloudCfg },
    stages,
    ...(Object.keys(errors).length ? { stageErrors: errors } : {}),
    boots: plan.boots,
    pitfalls: pitfalls.map((p) => ({ code: p.code, severity: p.severity, message: p.message, path: p.path, ...(p.at ? locationJson(p.at) : { file: null, line: null, column: null }) })),
  };
}

/** A place as a header piece: `app.yaml:4`, linked to the line when it is in the file's own text. */
function placePiece(l: SourceLocation | null): HeaderPiece {
  if (!l) return 'an unknown place';
  if (l.note) return fileLine(l);
  return { text: `${l.file}:${l.line + 1}`, target: { file: l.file, line: l.line } };
}

/**
 * The preview's "Boot plan" section: each module that runs, by stage, with how often and the place of the
 * keys that activated it; modules skipped though the config sets their keys; what a reboot and a new
 * instance run again; the pitfalls (errors and warnings) at their places.
 */
const FORCED = ' (forced by unverified_modules)';

export function planSection(w: HeaderWriter, p: OutcomePlan | { error: string }): void {
  if ('error' in p) {
    w.add(`# Boot plan: none: ${p.error}`);
    return;
  }
  const { plan, pitfalls, merged, locate } = p;
  if (p.otherTool) {
    for (const pit of pitfalls) if (pit.code === 'plan-other-tool') w.add('# Boot plan: none: ', placePiece(pit.at), ` ${pit.message.slice(pit.at ? pit.at.file.length + 1 : 0)}`);
    return;
  }
  const places = keyPlaces(merged, locate);
  w.add(`# Boot plan on ${planTitle(plan)}: the modules that run, by stage, once per instance unless said:`);
  const often = (row: PlanRow) => (row.frequency === 'once-per-instance' || row.frequency === null ? '' : ` (${SHORT[row.frequency] ?? (row.frequency || 'every boot')})`);
  const keyPieces = (keys: readonly string[]) => keys.flatMap((k, i): HeaderPiece[] => [i ? ', ' : '', `${k} at `, placePiece(places.get(k) ?? null)]);
  const calledAnyway: string[] = [];
  for (const stage of STAGES) {
    const s = plan.stages[stage];
    if (s.error) w.add(`#   ${stage}: cloud-init fails reading ${STAGE_KEYS[stage]}, no module of this stage runs: ${s.error}`);
    const always = s.rows.filter((r) => r.runs && !r.activatedBy?.length).map((r) => `${r.module}${often(r)}${r.decision === 'run_forced' ? FORCED : ''}`);
    if (s.listFrom === 'user') w.add(`#   ${stage}: the list is your own ${STAGE_KEYS[stage]}`);
    for (const row of s.rows) {
      const keyed = row.meta?.activate.filter((k) => places.has(k)) ?? [];
      if (row.runs && row.activatedBy?.length) w.add(`#   ${stage}: ${row.module}${often(row)}, activated by `, ...keyPieces(row.activatedBy));
      else if (!row.runs && keyed.length) w.add(`#   ${stage}: ${row.module} SKIPPED (${row.reason}), so `, ...keyPieces(keyed), ' is not read');
    }
    const forced = always.filter((m) => m.endsWith(FORCED));
    if (forced.length) w.add(`#   ${stage}: ${forced.map((m) => m.slice(0, -FORCED.length)).join(', ')}, forced by unverified_modules`);
    if (always.length > forced.length) calledAnyway.push(`${always.length - forced.length} ${stage}`);
  }
  // The modules called whatever the config are the image's, not the user's: counted here, listed by --plan.
  if (calledAnyway.length) w.add(`#   Called whatever the config (they may find nothing to do): ${calledAnyway.join(', ')} modules; cloud-config-merge --plan lists them`);
  w.add(`#   Reboot runs again: ${plan.boots.reboot.length ? plan.boots.reboot.join(', ') : 'nothing'}`);
  const again = new Set(plan.boots.newInstance);
  const notAgain = plan.boots.first.filter((m) => !again.has(m));
  w.add(`#   A new instance runs ${plan.boots.newInstance.length} of the first boot's ${plan.boots.first.length} modules again${notAgain.length ? ` (not ${notAgain.join(', ')}: once per image)` : ''}`);
  for (const pit of pitfalls) {
    if (pit.severity !== 'error' && pit.severity !== 'warning') continue;
    w.add(`#   ${pit.severity === 'error' ? 'Error' : 'Warning'} (our check ${pit.code}) at `, placePiece(pit.at), `: ${pit.message}`);
  }
}
