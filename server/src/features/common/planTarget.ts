/**
 * The image the editor's boot plan is made for: the target of the image profile (`cloudConfigMerge.image`,
 * a set's `image:`, with the `cloudInitVersion` override), with the cloud.cfg the plan renders for its
 * version and distro. The preview's "Boot plan" section, the plan's diagnostics, hovers and completion read it.
 */
import { planTarget } from '../../engine/plan/facts';
import type { Target } from '../../engine/version/target';
import type { ServerSettings } from './settings';

export function planTargetOf(settings: ServerSettings): Target | undefined {
  const target = planTarget(settings.target.version, settings.target.distro);
  return typeof target === 'string' ? undefined : { ...target, netplan: settings.target.netplan };
}
