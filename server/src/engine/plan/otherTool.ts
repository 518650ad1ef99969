/**
 * Files written for another tool than cloud-init, given as user-data: a coreos-cloudinit file (CoreOS
 * Container Linux, Flatcar: a `#cloud-config` whose `coreos:` key no cloud-init module reads), an Ignition
 * config (JSON with an `ignition.version`), a Butane config (YAML with `variant:` and `version:`, which the
 * `butane` tool turns into Ignition) and an Ubuntu autoinstall file without `#cloud-config` (Subiquity reads
 * it from the install media; as user-data cloud-init has no handler for it). Their authors need to hear it
 * once, not a list of modules. Only the first bytes' shape is read: nothing is run.
 */
import { PyDict, PyValue } from '../py/values';
import { sniffContentType } from '../userdata/sniff';
import { coded } from '../findings/codes';
import type { Locator, SourceLocation } from '../outcome/locate';
import type { BootPlan } from './plan';
import type { Pitfall } from './pitfalls';

export interface OtherTool {
  /** `Ignition`, `Butane`, `coreos-cloudinit`, `Subiquity (autoinstall)`. */
  tool: string;
  /** What the file is and who reads it, in one sentence. */
  message: string;
}

/** What cloud-init logs when no handler takes the file (cloud-init's own wording, from the oracle). */
const UNHANDLED = 'cloud-init has no handler for it (it logs "Unhandled non-multipart (text/x-not-multipart) userdata") and the boot runs only what the image configures';

/** Top-level keys of Subiquity's autoinstall that cloud-init's schema does not have. */
const AUTOINSTALL_ONLY = /^(identity|storage|early-commands|late-commands|error-commands|interactive-sections|refresh-installer)\s*:/m;

/**
 * The other tool a user-data file is written for, read from its text; null for anything cloud-init handles
 * (a `#cloud-config`, a script, MIME...) or that is none of these.
 */
export function otherToolOfFile(text: string): OtherTool | null {
  const head = text.replace(/^\uFEFF/, '');
  if (sniffContentType(head) !== null || /^(Content-Type|MIME-Version)\s*:/im.test(head.slice(0, 2048))) return null;
  const trimmed = head.trimStart();
  if (trimmed.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      return null;
    }
    const ignition = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>).ignition : undefined;
    if (ignition !== null && typeof ignition === 'object' && typeof (ignition as Record<string, unknown>).version === 'string') {
      return { tool: 'Ignition', message: `an Ignition config (Fedora CoreOS, Flatcar, RHEL CoreOS): Ignition applies it from the initramfs on the first boot; ${UNHANDLED}` };
    }
    return null;
  }
  if (/^variant\s*:\s*["']?(fcos|flatcar|openshift|r4e|fiot)["']?\s*(#.*)?$/m.test(head) && /^version\s*:\s*["']?\d+\.\d+\.\d+/m.test(head)) {
    return { tool: 'Butane', message: `a Butane config: the butane tool turns it into an Ignition config, which is what Fedora CoreOS or Flatcar reads; ${UNHANDLED}` };
  }
  if (/^autoinstall\s*:/m.test(head) || (/^version\s*:\s*1\s*(#.*)?$/m.test(head) && AUTOINSTALL_ONLY.test(head))) {
    return { tool: 'Subiquity (autoinstall)', message: `an autoinstall file for Ubuntu's installer (Subiquity), as the install media carry it; as user-data it needs #cloud-config with autoinstall: under it, else ${UNHANDLED}` };
  }
  return null;
}

const COREOS_MESSAGE =
  'a coreos-cloudinit file (CoreOS Container Linux, Flatcar): coreos: (units, etcd, fleet, update, ...) is that tool\'s, and no module of cloud-init reads it; on a cloud-init image only its cloud-init keys take effect, and Fedora CoreOS reads neither (it takes an Ignition config, made from Butane)';

/**
 * The pitfalls of a plan with the files for another tool named: one `plan-other-tool` per such file (at its
 * start, or at `coreos:` when no module of this cloud-init reads that key) in place of the pitfalls placed
 * in it; `otherTool` when every file is one.
 */
export function withOtherTools(pitfalls: readonly Pitfall[], plan: BootPlan, merged: PyValue | null, locate: Locator | null, files: ReadonlyArray<{ name: string; text: string | undefined }>): { pitfalls: Pitfall[]; otherTool: boolean } {
  const others = new Map<string, Pitfall>();
  const { code, severity } = coded('plan-other-tool');
  const start = (file: string): SourceLocation => ({ file, source: 0, line: 0, character: 0, endLine: 0, endCharacter: 0 });
  for (const { name, text } of files) {
    const found = text === undefined ? null : otherToolOfFile(text);
    if (found) others.set(name, { code, severity, message: `${name} is ${found.message}`, path: '', at: start(name) });
  }
  const origin = merged instanceof PyDict && merged.has('coreos') && !Object.hasOwn(plan.facts.keyModules, 'coreos') ? merged.originOf('coreos') : undefined;
  const at = origin && locate ? locate(origin, 'key') : null;
  if (at && !others.has(at.file)) others.set(at.file, { code, severity, message: `${at.file} is ${COREOS_MESSAGE}`, path: 'coreos', at });
  return {
    pitfalls: [...others.values(), ...pitfalls.filter((p) => !(p.at && others.has(p.at.file)))],
    otherTool: others.size > 0 && files.every((f) => others.has(f.name)),
  };
}
