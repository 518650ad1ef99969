/**
 * The image the editor's boot plan is made for: the cloud-init version of `cloudConfigMerge.cloudInitVersion`
 * and, until image profiles name one, the documented default distro (ubuntu) with the cloud.cfg that version
 * renders for it. The preview's "Boot plan" section, the plan's diagnostics, hovers and completion read it.
 */
import { planTarget, DEFAULT_PLAN_DISTRO } from '../../engine/plan/facts';
import type { Target } from '../../engine/version/target';
import type { ServerSettings } from './settings';

export function planTargetOf(settings: ServerSettings): Target | undefined {
  const target = planTarget(settings.cloudInitVersion, DEFAULT_PLAN_DISTRO);
  return typeof target === 'string' ? undefined : target;
}
