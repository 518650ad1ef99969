/**
 * What the system-config merges lost: a `cloud.cfg.d` drop-in's values that a drop-in merged before it
 * kept (by default the alphabetically last file wins) or that `cloud.cfg` lost to the drop-ins; and, at
 * boot, what user-data took over vendor-data, the datasource config and the system config. Computed
 * from the same merge traces as the user-data section (lost.ts), so it never disagrees with the merge.
 */
import { PyDict, PyValue } from './values';
import { PathSegment } from './merge/trace';
import { Locator, SourceLocation, formatPath } from './provenance';
import { pyKeyDisplay } from './yaml/dump';
import { ConfdResult } from './system/confd';
import { BootResult } from './system/boot';
import { EventPlaces, MergeLosses, TracedStep, originPlaces, specStepLosses } from './lost';

/**
 * The drop-ins' merge and `cloud.cfg`'s merge under it. Sources are numbered as the locator numbers
 * them: a drop-in by its index in the input list, `cloud.cfg` after the last one.
 */
export function confdLosses(result: ConfdResult, locate: Locator): MergeLosses {
  const steps: TracedStep[] = result.files
    .filter((f) => f.step && !f.step.skipped)
    .sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0))
    .map((f) => ({ index: f.input, events: f.step?.events, spec: f.step?.defaulted ? undefined : f.step?.spec }));
  // cloud.cfg is merged last, under what the drop-ins set
  const cloudCfg = result.cloudCfg?.steps[result.cloudCfg.steps.length - 1];
  if (cloudCfg && !cloudCfg.skipped) steps.push({ index: result.files.length, events: cloudCfg.events, spec: cloudCfg.defaulted ? undefined : cloudCfg.spec });
  return specStepLosses(steps, originPlaces(locate));
}

/**
 * The final boot-time merge, layer by layer (a layer is numbered by its index in `boot.layers`). Its
 * values are read back from the instance's cloud-config files, so their origins no longer name the
 * files: `placeIn` finds a path in a layer's own merge, and the earlier value belongs to the first
 * layer that has the path.
 */
export function bootLosses(boot: BootResult, placeIn: (layer: number, path: string) => SourceLocation | null): MergeLosses {
  const steps: TracedStep[] = boot.layers.map((l, index) => ({ index, events: l.step?.skipped ? [] : l.step?.events, spec: l.step?.defaulted ? undefined : l.step?.spec }));
  const places: EventPlaces = (e, step) => {
    const path = displayPath(e.path);
    const owner = boot.layers.findIndex((l, j) => j < step && hasPath(l.value, e.path));
    return { old: owner >= 0 ? placeIn(owner, path) : null, new: placeIn(step, path), oldOwner: owner };
  };
  return specStepLosses(steps, places);
}

function displayPath(path: PathSegment[]): string {
  return formatPath(path.map((s) => (typeof s === 'number' ? s : pyKeyDisplay(s))));
}

function hasPath(value: PyValue | undefined, path: PathSegment[]): boolean {
  let current: PyValue | undefined = value;
  for (const segment of path) {
    if (current instanceof PyDict && current.has(segment)) current = current.get(segment);
    else if (Array.isArray(current) && typeof segment === 'number' && segment < current.length) current = current[segment];
    else return false;
  }
  return true;
}
