/**
 * The boot plan in a key's hover and completion: which module of the image reads the key, in which stage,
 * how often, and whether it runs (engine/plan/keys.ts).
 */
import { keyReaders } from '../../engine/plan/keys';
import type { Target } from '../../engine/version/target';

const OFTEN: Record<string, string> = { 'once-per-instance': 'once per instance', always: 'on every boot', once: 'once per image' };

/** Markdown for a top-level key's hover; empty when no module reads the key. */
export function planKeyMarkdown(target: Target | undefined, key: string): string {
  const found = target && keyReaders(target, key);
  if (!target || !found) return '';
  const image = `cloud-init ${target.version}, ${target.distro}, the ${target.cloudCfgVariant} cloud.cfg`;
  const lines = found.readers.map((r) =>
    r.stage === null
      ? `- **${r.module}**: ${r.reason}, so it never runs`
      : `- **${r.module}**, ${r.stage} stage, ${r.frequency === null ? '' : `${OFTEN[r.frequency] ?? r.frequency}, `}${r.runs ? 'runs when this key is set' : r.onImage ? r.reason : `skipped: ${r.reason}`}`,
  );
  return `\n\n**Boot plan** (${image}): ${found.read ? 'read by' : '**no module of this image reads this key**:'}\n${lines.join('\n')}`;
}

/** Why no module of the image reads `key` (completion's detail), or undefined when one does or none is meant to. */
export function notReadOnImage(target: Target | undefined, key: string): string | undefined {
  const found = target && keyReaders(target, key);
  if (!found || found.read) return undefined;
  return `not read on ${target.distro} (cloud-init ${target.version}): ${found.readers.map((r) => `${r.module} ${r.stage === null ? "is in none of this image's module lists" : `is skipped: ${r.reason}`}`).join('; ')}`;
}
