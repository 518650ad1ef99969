/**
 * Every code a finding or a user-data message can carry, with its severity and what it means, in one
 * typed list: the editor's diagnostics, `--lint`, `--check`, the preview header and `--format report` all
 * show these codes, and every producer takes its code (and severity) from here. A code whose severity
 * depends on where it is found lists that too (`also`); any other severity does not compile.
 */
import type { Severity } from './findings';

interface CodeInfo {
  severity: Severity;
  /** Other severities the code is given, and when. */
  also?: { severity: Severity; when: string };
  summary: string;
}

/** The secret findings' other severity. */
const SECRET_AS_ERROR = { severity: 'error', when: 'with `--fail-on secrets` or the setting cloudConfigMerge.secrets.asErrors' } as const;

export const FINDING_CODES = {
  // The document as cloud-init reads it (lint/analyzeDocument.ts)
  'too-large': { severity: 'warning', summary: 'the file is over maxFileBytes and is not analysed' },
  'limit-exceeded': { severity: 'error', also: { severity: 'warning', when: 'only the schema validation stopped at the limit' }, summary: 'one of our named limits stopped the analysis' },
  'yaml-invalid': { severity: 'error', summary: 'cloud-init cannot load this YAML' },
  'duplicate-key': { severity: 'warning', summary: 'YAML keeps only the last value of a repeated key' },
  'empty-cloud-config': { severity: 'warning', summary: 'a part without configuration is skipped' },
  'root-not-mapping': { severity: 'error', summary: 'the top level is not a mapping' },
  'leftover-merge-type': { severity: 'warning', summary: 'merge_type beside merge_how stays in the data' },
  'confd-merge-how': { severity: 'info', summary: 'what a spec does in a cloud.cfg.d drop-in' },
  'second-header': { severity: 'warning', summary: 'a second #cloud-config line is only a comment' },
  'include-in-body': { severity: 'warning', summary: '#include inside a cloud-config is only a comment' },
  'nested-merge-how': { severity: 'warning', summary: 'merge_how below the top level is plain data' },
  'chef-invalid': { severity: 'error', summary: 'a Chef file that cannot be read' },
  'knockout-no-match': { severity: 'warning', summary: 'a Chef knockout that removes nothing' },
  'knockout-number': { severity: 'warning', summary: 'a Chef knockout that cannot match a number' },
  'knockout-in-mapping': { severity: 'warning', summary: 'a Chef knockout in a mapping is a plain string' },
  // MIME (lint/analyzeDocument.ts)
  'mime-invalid': { severity: 'error', summary: 'cloud-init cannot process this user-data at all' },
  'mime-boundary': { severity: 'error', summary: 'a multipart without a usable boundary' },
  'header-case': { severity: 'warning', summary: 'a merge header in the wrong case is ignored' },
  'gzip-headers-dropped': { severity: 'warning', summary: 'a gzip part loses its merge header' },
  'x-merge-type-ignored': { severity: 'warning', summary: 'X-Merge-Type is shadowed by Merge-Type' },
  'body-overrides-header': { severity: 'info', summary: "the body's spec wins over the header's for the same types" },
  // Merge specs (lint/specLint.ts)
  'spec-rejected': { severity: 'error', summary: 'cloud-init raises on this spec' },
  'empty-spec': { severity: 'info', summary: 'an empty spec: the default applies' },
  'newline-in-spec': { severity: 'error', summary: 'a line break inside a string spec' },
  'plus-in-options': { severity: 'error', summary: "a '+' inside a merger's options" },
  'missing-parentheses': { severity: 'error', summary: 'a merger name without ()' },
  'space-before-paren': { severity: 'error', summary: "a space between a merger name and '('" },
  'unclosed-parenthesis': { severity: 'error', summary: "a '(' without ')'" },
  'trailing-text': { severity: 'error', summary: "text after ')' that cloud-init does not read" },
  'missing-plus': { severity: 'error', summary: "two mergers without '+' between them" },
  'invalid-merger-name': { severity: 'error', summary: 'a merger name cloud-init cannot use' },
  'unknown-option': { severity: 'warning', summary: 'an option the merger does not read' },
  'conflicting-options': { severity: 'warning', summary: 'options of which only one takes effect' },
  'duplicate-option': { severity: 'hint', summary: 'an option given twice' },
  'option-ignored': { severity: 'warning', summary: 'an option the merger ignores' },
  'merge-how-mapping': { severity: 'error', summary: 'merge_how written as a mapping' },
  'merge-how-not-list': { severity: 'error', summary: 'merge_how that is neither a string nor a list' },
  'string-element': { severity: 'error', summary: 'a string in a list-form merge_how' },
  'missing-name': { severity: 'error', summary: 'a list-form merger without a name' },
  'name-not-string': { severity: 'error', summary: 'a merger name that is not a string' },
  'name-not-lowercase': { severity: 'error', summary: 'a merger name cloud-init does not find in that case' },
  'missing-settings': { severity: 'error', summary: 'a list-form merger without settings' },
  'settings-not-list': { severity: 'error', summary: 'settings that are not a list' },
  'settings-is-string': { severity: 'warning', summary: 'settings written as a string (read letter by letter)' },
  'option-not-string': { severity: 'warning', summary: 'an option that is not a string' },
  'extra-key': { severity: 'warning', summary: 'a key of a list-form merger that cloud-init does not read' },
  'unknown-merger': { severity: 'error', summary: 'a merger cloud-init does not have' },
  'duplicate-merger': { severity: 'warning', summary: 'a merger named twice: the first one wins' },
  'no-dict-merger': { severity: 'error', also: { severity: 'warning', when: 'in system config (not a user-data part)' }, summary: 'a spec without dict(): mappings are never merged' },
  'merger-unreachable': { severity: 'warning', summary: 'a merger that dict(replace) never runs' },
  'list-merger-unreachable': { severity: 'warning', summary: 'list() that dict(no_replace) never runs without recurse_list' },
  'str-append-unreachable': { severity: 'warning', summary: 'str(append) that dict(no_replace) never runs without recurse_str' },
  // cloud-init's schema (lint/schemaLint.ts)
  'schema-error': { severity: 'error', also: { severity: 'warning', when: 'in system config (cloud.cfg, a drop-in), which cloud-init never rejects' }, summary: 'cloud-init reports a schema error' },
  'schema-deprecated': { severity: 'warning', summary: 'cloud-init reports a deprecated key or value' },
  'schema-validator-fails': { severity: 'warning', summary: "cloud-init's validator itself raises on this document" },
  // network-config files (lint/networkLint.ts)
  'network-not-validated': { severity: 'info', summary: 'the chosen cloud-init (or netplan host) does not validate this network-config' },
  'network-not-checked': { severity: 'warning', summary: "netplan checks values of this network-config that the model does not: no verdict, so --check does not pass it" },
  'network-boot': { severity: 'info', also: { severity: 'warning', when: 'the boot cannot use the config' }, summary: 'what a first boot does with this network-config' },
  // Secrets in user-data, on the value that writes them (secrets/secretFindings.ts)
  'secret-plaintext-password': { severity: 'warning', also: SECRET_AS_ERROR, summary: 'a plaintext password where cloud-init reads one (or where it expects a hash)' },
  'secret-weak-hash': { severity: 'warning', also: SECRET_AS_ERROR, summary: 'a password hash of a weak scheme (DES, MD5-crypt) or with few SHA-crypt rounds' },
  'secret-private-key': { severity: 'warning', also: SECRET_AS_ERROR, summary: 'a private key (PEM or OpenSSH) in user-data: a file, a command, an SSH host key' },
  'secret-credential': { severity: 'warning', also: SECRET_AS_ERROR, summary: 'a cloud access key or token of a well-known format in user-data' },
  // The merged result of a set, on the part that wrote the value (features/fates.ts, --check's SARIF)
  'merged-schema-error': { severity: 'warning', summary: 'cloud-init reports a schema error in the merged result, for a value this part wrote' },
  'merged-schema-deprecation': { severity: 'info', summary: 'cloud-init reports a deprecation in the merged result, for a value this part wrote' },
  // A NoCloud seed's meta-data (lint/metaDataLint.ts)
  'meta-data-unread': { severity: 'warning', summary: 'meta-data NoCloud reads as empty (not YAML, not a mapping)' },
  'meta-data-ignored-key': { severity: 'warning', summary: 'a misspelt meta-data key NoCloud ignores (instance_id)' },
  'meta-data-default-id': { severity: 'info', summary: "no instance-id: every such instance is 'nocloud'" },
  'meta-data-fails': { severity: 'error', summary: 'NoCloud or a module raises on this meta-data value' },
  'meta-data-not-used': { severity: 'warning', summary: 'NoCloud does not claim the seed (dsmode: disabled, a remote seedfrom)' },
  'meta-data-seedfrom': { severity: 'info', summary: 'the seed is read from the seedfrom path instead' },
  'meta-data-dsmode': { severity: 'warning', summary: 'a dsmode NoCloud rejects (net is used)' },
  'meta-data-hostname': { severity: 'info', summary: 'the hostname NoCloud makes of local-hostname' },
  'meta-data-public-keys': { severity: 'warning', summary: 'public-keys entries that give no key' },
  // The editor (features/diagnostics.ts)
  'too-many-problems': { severity: 'info', summary: 'more problems than are shown' },
  // User-data processing messages (userdata/process.ts, userdata/run.ts)
  'mime-unsplittable': { severity: 'info', summary: 'a multipart cloud-init cannot split' },
  'gzip-failed': { severity: 'warning', summary: 'a gzip payload that does not decompress (fatal by default)' },
  'include-unreachable': { severity: 'warning', summary: 'an #include URL that cannot be read (fatal by default)' },
  'archive-invalid-yaml': { severity: 'warning', summary: 'a #cloud-config-archive that is not valid YAML' },
  'archive-not-a-list': { severity: 'warning', summary: 'a #cloud-config-archive that is not a list' },
  'unhandled-part': { severity: 'warning', summary: 'a part no handler takes' },
  'jinja-not-reproduced': { severity: 'info', summary: 'a template we do not render as cloud-init would' },
  'jinja-failed': { severity: 'warning', summary: 'a template that does not render' },
  'jinja-nondeterministic': { severity: 'info', summary: 'a template whose result changes from boot to boot' },
  'jinja-missing-variable': { severity: 'warning', summary: 'a template variable the instance data lacks' },
  'jinja-no-subhandler': { severity: 'warning', summary: 'a rendered template no handler takes' },
  'part-failed': { severity: 'warning', summary: 'a part the handler fails on' },
  // Jinja templates in the editor (lint/templateLint.ts)
  'jinja-instance-data': { severity: 'warning', summary: 'the chosen instance data cannot be used' },
  'jinja-syntax': { severity: 'error', summary: 'a Jinja syntax error: cloud-init drops the part' },
  'jinja-render-error': { severity: 'error', summary: 'rendering raises: cloud-init drops the part' },
  'jinja-not-checked': { severity: 'info', summary: 'a template construct this tool does not render' },
  'jinja-undefined-variable': { severity: 'warning', summary: 'a variable the instance data lacks' },
  'jinja-rendered-yaml-invalid': { severity: 'error', summary: 'YAML that is invalid only after rendering' },
  'jinja-without-header': { severity: 'info', also: { severity: 'warning', when: 'the name is instance data (a forgotten header)' }, summary: 'template markup in a part cloud-init does not render' },
  // Terraform and Pulumi parts (lint/partFindings.ts)
  'content-type-invalid': { severity: 'warning', summary: 'a content_type cloud-init does not read' },
  'declared-type-overridden': { severity: 'warning', summary: 'a declared type cloud-init replaces by sniffing' },
  'jinja-ignored': { severity: 'warning', summary: 'a template the provider passes unrendered' },
  'merge-type-unused': { severity: 'warning', summary: 'a merge_type on a part that is not merged' },
  'no-handler': { severity: 'warning', summary: 'a part no handler takes' },
  'part-discarded': { severity: 'warning', summary: 'a part cloud-init discards' },
  'part-skipped': { severity: 'error', summary: 'a part cloud-init skips' },
  'text-plain-not-sniffed': { severity: 'warning', summary: 'a text/plain part that is not sniffed' },
  // The boot plan: our own checks of what cloud-init does at boot (plan/pitfalls.ts)
  'plan-owner-created-later': { severity: 'error', summary: 'a file owned by a user or group that cloud-init creates after writing it' },
  'plan-home-before-user': { severity: 'warning', summary: "a file in a home directory written before its user exists" },
  'plan-defer-never-written': { severity: 'error', summary: 'a deferred file where write_files_deferred does not run' },
  'plan-key-not-read': { severity: 'warning', summary: 'a key no module of this image reads' },
  'plan-no-default-user': { severity: 'warning', summary: "users without default: the image's default user is not created" },
  'plan-bootcmd-before-packages': { severity: 'warning', summary: 'bootcmd runs a command that packages installs later' },
  'plan-runcmd-never-run': { severity: 'error', summary: 'runcmd only writes a script that scripts_user never runs' },
  'plan-reboot-early': { severity: 'warning', also: { severity: 'error', when: 'in bootcmd, which runs on every boot' }, summary: 'a reboot before modules that still have work' },
  'plan-once-per-instance': { severity: 'hint', summary: 'a key whose module runs once per instance: edits need a new instance (quiet unless asked for: true of most keys)' },
  'plan-unknown-module': { severity: 'warning', also: { severity: 'info', when: 'the module was removed from this cloud-init' }, summary: 'a module list entry that names no module of this cloud-init' },
  'plan-other-tool': { severity: 'warning', summary: 'a file for another tool (coreos-cloudinit, Ignition, Butane, Subiquity autoinstall), not cloud-init user-data' },
  // Ubuntu autoinstall, as Subiquity reads it (autoinstall/findings.ts)
  'autoinstall-error': { severity: 'error', summary: 'Subiquity raises on this autoinstall config: the first one stops the install' },
  'autoinstall-apply-error': { severity: 'error', summary: 'Subiquity fails later, when it applies this section (storage)' },
  'autoinstall-unknown-key': { severity: 'warning', summary: 'a top-level autoinstall key Subiquity does not know: version 1 drops it with a warning' },
  'autoinstall-key-outside': { severity: 'warning', summary: "an autoinstall key outside 'autoinstall:' that cloud-init also reads: it configures the live installer, not the installed system" },
  'autoinstall-warning': { severity: 'warning', summary: 'Subiquity warns and goes on (storage with both layout and config)' },
  'autoinstall-password-not-hashed': { severity: 'error', summary: 'identity.password is not a crypt hash: Subiquity hands it to chpasswd --encrypted, so the password never works' },
  'autoinstall-late-command-not-in-target': { severity: 'warning', summary: 'a late-command that changes the installer, not the installed system (no curtin in-target, no /target)' },
  'autoinstall-no-cloud-config-header': { severity: 'info', summary: "a top-level 'autoinstall:' without '#cloud-config': read on the install media, ignored as cloud-init user-data" },
  // A run of a set (check/runFindings.ts)
  'set-not-merged': { severity: 'info', summary: "the set does not merge: no value's fate can be told" },
  // --format report (render/reportJson.ts)
  'cloud-config-txt-not-written': { severity: 'error', summary: 'no cloud-config.txt is written' },
  'user-data-failed': { severity: 'error', summary: 'cloud-init raises while processing the user-data: nothing is merged' },
  'over-limit': { severity: 'error', summary: 'one of our named limits stopped the user-data processing' },
} as const satisfies Record<string, CodeInfo>;

export type FindingCode = keyof typeof FINDING_CODES;

type Info<C extends FindingCode> = (typeof FINDING_CODES)[C];
/** The severities a code may have: its own and, where listed, the other one. */
export type SeverityOf<C extends FindingCode> = Info<C>['severity'] | (Info<C> extends { also: { severity: infer S } } ? S : never);

/** The code and its severity, to spread into a finding: `{ ...coded('unknown-option'), span, message }`. */
export function coded<C extends FindingCode>(code: C, severity?: SeverityOf<C>): { code: C; severity: SeverityOf<C> } {
  return { code, severity: severity ?? FINDING_CODES[code].severity };
}

export function severityOf(code: FindingCode): Severity {
  return FINDING_CODES[code].severity;
}
