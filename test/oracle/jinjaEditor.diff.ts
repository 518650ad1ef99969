/**
 * Differential test of the editor's Jinja help (server/src/engine/template/) against the real
 * thing: cloud-init's templater + Jinja2 under /usr/bin/python3 (22.4.2, and current cloud-init
 * when /opt/cloudinit-upstream exists), with every shipped instance-data sample:
 *  - completion: every path the completion offers (followed down to a few levels, as a user would
 *    accept items one after another) renders, alone in `{{ }}`, to what the hover says cloud-init
 *    writes, and is never undefined;
 *  - hover verdicts on mistyped paths: the same undefined text, or the same exception and message;
 *  - the quick fix of a misspelt path repairs it up to the step it changes (cloud-init finds that);
 *  - diagnostics' verdicts on whole templates: syntax errors (and their line), the errors that drop
 *    the part, the undefined variables (names), and YAML that only breaks once rendered;
 *  - without instance data: every path the completion offers (`v1` and its standardized keys) is defined
 *    with every sample, and each misspelt `v1` key the diagnostics flag is undefined with every sample;
 *  - the schema errors of the rendered cloud-config (test/oracle/schema_driver.py validates the text
 *    the real templater rendered).
 *
 *   node out/test/oracle/jinjaEditor.diff.js [--max-paths N]
 *
 * Exits 1 on the first mismatch.
 */
import { existsSync } from 'node:fs';
import { CLOUDINIT_TREES, installed, type CloudInitVersion } from './cloudinitTrees';
import { FULL_VERSIONS, selectedVersions } from './perVersion';
import { atLeast } from '../../server/src/engine/version/versions';
import { startJinjaOracle } from './jinjaOracle';
import { resolve } from 'node:path';
import { LineOracle } from './lineOracle';
import { nameCompletions, pathCompletions } from '../../server/src/engine/template/assist';
import { NO_INSTANCE_DATA, standardVariables, templateVariables, type InstanceDataChoice, type PathStep } from '../../server/src/engine/template/instanceData';
import { expressionVerdict, templateFindings, type ExpressionVerdict } from '../../server/src/engine/lint/templateLint';
import { SAMPLE_NAMES, sampleInstanceData } from '../../server/src/engine/template/samples';
import type { Finding } from '../../server/src/engine/findings/findings';


const HANDLE = String.raw`
def handle(req):
    data = json.loads(req["data"])
    variables = convert_jinja_instance_data(data, decode_paths=data.get("base64-encoded-keys", []), include_key_aliases=True)
    try:
        text = render_string(req["payload"], variables)
    except (UndefinedError, TypeError, SecurityError) as e:
        return {"ok": False, "reason": "dropped", "exception": type(e).__name__, "message": str(e)}
    except TemplateSyntaxError as e:
        return {"ok": False, "reason": "syntax", "exception": type(e).__name__, "message": e.message, "lineno": e.lineno}
    except Exception as e:
        return {"ok": False, "reason": "runtime", "exception": type(e).__name__, "message": str(e)}
    out = {"ok": True, "text": text, "missingVariables": missing_variables(text)}
    try:
        yaml.safe_load(text)
    except yaml.YAMLError as e:
        out["yamlError"] = str(getattr(e, "problem", e))
    return out
`;

type Theirs =
  | { ok: true; text: string; missingVariables: string[]; yamlError?: string }
  | { ok: false; reason: 'dropped' | 'syntax' | 'runtime' | 'oracle-crash'; exception?: string; message: string; lineno?: number };

const HEADER = '## template: jinja\n';

/** Paths a user gets to by accepting completion items, breadth first, with what they type. */
function completedPaths(variables: Record<string, unknown>, maxPaths: number): string[] {
  const out: string[] = [];
  const queue: Array<{ root: string; steps: PathStep[]; text: string }> = [];
  for (const n of nameCompletions(variables)) if (!n.global) queue.push({ root: n.name, steps: [], text: n.name });
  while (queue.length && out.length < maxPaths) {
    const at = queue.shift()!;
    out.push(at.text);
    if (at.steps.length >= 5) continue;
    for (const c of pathCompletions(variables, at.root, at.steps)) {
      const step: PathStep = c.form === 'attr' ? { kind: 'attr', name: c.key } : { kind: 'item', key: c.key };
      const text = c.form === 'attr' ? `${at.text}.${c.key}` : `${at.text}['${c.key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
      queue.push({ root: at.root, steps: [...at.steps, step], text });
    }
  }
  return out;
}

/** Mistakes users make: hovers must say what cloud-init does with them. */
const MISTYPED = ['v1.regoin', 'v1.local-hostname', 'ds.meta-data', 'ds.meta_data.nope', 'nope', 'nope.deeper', "ds['meta_data']['nope']", 'v1.public_ssh_keys[7]', 'merged_cfg.system_info.distro', 'sys_info.dist[0]', 'v2.anything', 'v1.items'];

/** Misspellings a quick fix should repair. */
const MISSPELT = ['v1.local_hostnme', 'v1.regoin', 'local_hostnme', 'ds.meta_data.hostnam', "ds.meta_data['public-kyes']", 'ds.meta_data.placment', 'v1.cloudname', 'merged_cfg.datasource_lst', 'sys_info.distt', 'ds.dynamc', 'v1.instanceid', 'ds.meta_dta.hostname', 'dss.meta_data', 'v1s.region', 'merged_cfg.sytem_info.distro'];

/** Whole templates: each checks one verdict of the diagnostics. */
const TEMPLATES = [
  '#cloud-config\nhostname: {{ v1.local_hostname }}\nregion: {{ v1.region }}\n',
  '#cloud-config\nhostname: {{ v1.local_hostnme }}\nfqdn: {{ ds.meta_data.hostname_x }}\n',
  '#cloud-config\na: 1\nb: {% if v1.region %}x\n',
  '#cloud-config\nruncmd:\n  - echo {{ v1.cloud_name | upper }}\n  - echo {{ v1.nope | default("none") }}\n{% for k in v1.public_ssh_keys %}\n  - echo {{ k }}\n{% endfor %}\n',
  '#cloud-config\nx: {{ nope.deeper }}\n',
  '#cloud-config\nx: {{ v1.local-hostname }}\n',
  '#cloud-config\nkeys: {{ v1.public_ssh_keys }}: x\nok: 1\n',
  '#cloud-config\nlist:\n- a\n  {{ v1.region }}: b\n',
  '#cloud-config\nx: {{ v1.region }\n',
  '#cloud-config\n{% set n = namespace(c=0) %}{% for k in ds %}{% set n.c = n.c + 1 %}{% endfor %}count: {{ n.c }}\n',
  '#cloud-config\nx: {{ 1 / 0 }}\n',
  '#cloud-config\nhosts: {{ merged_cfg.datasource_list | join(", ") }}\nzone: "{{ v1.availability_zone }}"\n',
  // A misspelt name directly followed by text: cloud-init's warning lists it with that text (`regoin"`).
  '#cloud-config\nfqdn: {{ v1.local_hostnme }}.example.internal\nmotd: "region {{ v1.regoin }}"\nok: {{ v1.region }}.x\n',
];

/**
 * Templates checked without instance data: each `v1` path in them is flagged exactly when cloud-init finds it
 * undefined, with every sample (the keys are the same on every cloud).
 */
const NO_DATA_TEMPLATES = [
  '#cloud-config\nfqdn: {{ v1.local_hostnme }}.example.internal\nmotd: "region {{ v1.regoin }}"\n',
  "#cloud-config\nhostname: {{ v1.local_hostname }}\nzone: {{ v1['availability-zone'] }}\nid: {{ v1.instanceid }}\nname: {{ v1.cloudname | upper }}\n",
  '#cloud-config\nx: {{ v1.distro }}-{{ v1.distro_versoin }}\ny: {{ ds.meta_data.anything }}\n',
];

/** Templates whose rendered cloud-config has schema errors, reported at the template lines. */
const SCHEMA_TEMPLATES = [
  '#cloud-config\nhostname: {{ v1.local_hostname }}\nruncmd: {{ v1.region }}\npackage_update: "{{ v1.cloud_name }}"\n',
  '#cloud-config\nusers:\n{% for key in v1.public_ssh_keys %}\n  - name: admin\n    ssh_authorized_keys: {{ key }}\n{% endfor %}\n  - default\nntp:\n  enabled: {{ v1.platform }}\n',
  '#cloud-config\nwrite_files:\n  - path: /etc/zone\n    content: {{ v1.availability_zone }}\n    permissions: {{ 420 }}\n',
];

function ourVerdictText(v: ExpressionVerdict): string {
  switch (v.kind) {
    case 'value':
      return `value ${JSON.stringify(v.text)}`;
    case 'missing':
      return `missing ${JSON.stringify(v.text)}`;
    case 'error':
      return `error ${v.exception}: ${v.message}`;
    case 'unknown':
      return `unknown ${v.message}`;
  }
}

function theirVerdictText(t: Theirs): string {
  if (!t.ok) return t.reason === 'dropped' ? `error ${t.exception}: ${t.message}` : `${t.reason} ${t.exception ?? ''}: ${t.message}`;
  return t.missingVariables.length ? `missing ${JSON.stringify(t.text)}` : `value ${JSON.stringify(t.text)}`;
}

/** The diagnostics' verdicts in the oracle's terms. */
function ourTemplateVerdict(payload: string, findings: Finding[]): string {
  const parts: string[] = [];
  const line = (f: Finding) => payload.slice(0, f.span.start).split('\n').length - 1;
  const syntax = findings.find((f) => f.code === 'jinja-syntax');
  if (syntax) parts.push(`syntax at line ${line(syntax)}`);
  if (findings.some((f) => f.code === 'jinja-render-error')) parts.push('dropped or failed');
  const undefinedNames = findings.filter((f) => f.code === 'jinja-undefined-variable').map((f) => /CI_MISSING_JINJA_VAR\/(\S+?)`? here/.exec(f.message)?.[1] ?? '?');
  if (undefinedNames.length) parts.push(`undefined ${[...new Set(undefinedNames)].sort().join(',')}`);
  if (findings.some((f) => f.code === 'jinja-rendered-yaml-invalid')) parts.push('yaml invalid');
  return parts.join('; ') || 'clean';
}

/**
 * cloud-init lists each undefined as the run of characters up to the next space it printed (`regoin"` for
 * `"{{ v1.regoin }}"`): each is named by the longest of `names` it starts with, or kept whole.
 */
function listedNames(missing: readonly string[], names: readonly string[]): string[] {
  return missing.map((m) => names.filter((n) => m.startsWith(n)).sort((a, b) => b.length - a.length)[0] ?? m);
}

function theirTemplateVerdict(t: Theirs, version: CloudInitVersion, ourNames: readonly string[] = []): string {
  // Jinja counts lines after the header line; from 24.4 (not 23.4) cloud-init adds one for the header.
  if (!t.ok) return t.reason === 'syntax' ? `syntax at line ${(t.lineno ?? 0) - (atLeast(version, '24.4') ? 1 : 0)}` : 'dropped or failed';
  const parts: string[] = [];
  if (t.missingVariables.length) parts.push(`undefined ${[...new Set(listedNames(t.missingVariables, ourNames))].sort().join(',')}`);
  if (t.yamlError) parts.push('yaml invalid');
  return parts.join('; ') || 'clean';
}

/** The names our undefined-variable findings give (what cloud-init writes after CI_MISSING_JINJA_VAR/). */
function ourUndefinedNames(findings: Finding[]): string[] {
  return findings.filter((f) => f.code === 'jinja-undefined-variable').map((f) => /CI_MISSING_JINJA_VAR\/(\S+?)`? (?:here|and)/.exec(f.message)?.[1] ?? '?');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--max-paths');
  const maxPathsFull = at >= 0 ? Number(args[at + 1]) : 250;
  if (!existsSync('/usr/bin/python3') || !existsSync(CLOUDINIT_TREES['22.4'])) {
    console.error('jinja editor oracle: /usr/bin/python3 or the cloud-init tree is missing; skipping');
    return;
  }
  // 22.4 and current in full; 23.4, 24.4 and 25.1 on a quarter of the paths.
  const versions = selectedVersions(args.includes('--version') ? args[args.indexOf('--version') + 1] : '');
  const missing = versions.filter((v) => !installed(v));
  if (missing.length) {
    console.error(`jinja editor oracle: cloud-init ${missing.join(', ')} not installed (bash ../shared/oracle/setup.sh --version V)`);
    process.exitCode = 1;
    return;
  }
  const counts = { paths: 0, mistyped: 0, fixes: 0, templates: 0, schema: 0, standard: 0 };
  for (const version of versions) {
    const maxPaths = FULL_VERSIONS.includes(version) ? maxPathsFull : Math.ceil(maxPathsFull / 4);
    const started = Date.now();
    const env = { ...process.env };
    delete env.PYTHONPATH;
    const oracle = startJinjaOracle(version, HANDLE, env);
    const ask = (payload: string, data: string) => oracle.ask<Theirs>({ payload, data });
    const schemaOracle = new LineOracle('/usr/bin/python3', [resolve(__dirname, '../../../test/oracle/schema_driver.py')], {
      env: { ...process.env, CLOUDINIT_PATH: CLOUDINIT_TREES[version] },
      timeoutMs: 60000,
    });
    try {
      for (const sample of SAMPLE_NAMES) {
        const value = sampleInstanceData(sample, version);
        const data = JSON.stringify(value);
        const choice: InstanceDataChoice = { label: `sample ${sample}`, data: value };
        const context = { instanceData: choice, version };
        const variables = templateVariables(choice);
        if (!variables) throw new Error(`sample ${sample} does not load`);
        const mismatch = (what: string, ours: string, theirs: string) => {
          console.error(`MISMATCH (cloud-init ${version}, sample ${sample}) ${what}\n  ours:   ${ours}\n  python: ${theirs}`);
          process.exitCode = 1;
        };
        for (const path of completedPaths(variables, maxPaths)) {
          counts.paths++;
          const ours = expressionVerdict(path, context);
          const theirs = await ask(`${HEADER}{{ ${path} }}`, data);
          if (ours.kind !== 'value' || ourVerdictText(ours) !== theirVerdictText(theirs)) return mismatch(`completed path ${path}`, ourVerdictText(ours), theirVerdictText(theirs));
        }
        for (const path of MISTYPED) {
          const verdict = expressionVerdict(path, context);
          // A bound method prints its memory address: the hover says so, there is nothing to compare.
          if (verdict.kind === 'unknown') continue;
          counts.mistyped++;
          const ours = ourVerdictText(verdict);
          const theirs = theirVerdictText(await ask(`${HEADER}{{ ${path} }}`, data));
          if (ours !== theirs) return mismatch(`hover on ${path}`, ours, theirs);
        }
        for (const template of SCHEMA_TEMPLATES) {
          counts.schema++;
          const payload = HEADER + template;
          const ours = templateFindings(payload, { ...context, schema: true })
            .filter((f) => f.code === 'schema-error')
            .map((f) => f.message.replace(`Rendered with ${choice.label}: `, ''))
            .sort();
          const rendered = await ask(payload, data);
          if (!rendered.ok) return mismatch(`schema template ${JSON.stringify(template)}`, ours.join(' | '), theirVerdictText(rendered));
          const validated = await schemaOracle.ask<{ errors?: Array<[string, string]>; raised?: string }>({ text: rendered.text });
          const theirs = (validated.errors ?? []).map(([path, message]) => `${path}: ${message}`).sort();
          if (ours.join(' | ') !== theirs.join(' | ')) return mismatch(`schema of rendered ${JSON.stringify(template)}`, ours.join(' | '), theirs.join(' | '));
        }
        for (const path of MISSPELT) {
          // The quick fix on a misspelt path must lead to a path cloud-init finds.
          const payload = `${HEADER}#cloud-config\nx: {{ ${path} }}\n`;
          const fix = templateFindings(payload, context).find((f) => f.code === 'jinja-undefined-variable' || f.code === 'jinja-render-error')?.fixes?.[0];
          if (!fix) continue;
          counts.fixes++;
          const edit = fix.edits[0];
          // The path up to the repaired step (what follows may still be missing in this sample).
          const exprStart = payload.indexOf(path);
          const repaired = payload.slice(exprStart, edit.span.start) + edit.newText;
          const theirs = await ask(`${HEADER}{{ ${repaired} }}`, data);
          if (!theirs.ok || theirs.missingVariables.length) return mismatch(`quick fix of ${path} (${fix.title})`, `${repaired} defined`, theirVerdictText(theirs));
        }
        for (const template of TEMPLATES) {
          counts.templates++;
          const payload = HEADER + template;
          const findings = templateFindings(payload, context);
          const ours = ourTemplateVerdict(payload, findings);
          const theirs = theirTemplateVerdict(await ask(payload, data), version, ourUndefinedNames(findings));
          if (ours !== theirs) return mismatch(`template ${JSON.stringify(template)}`, ours, theirs);
        }
        // Without instance data: what completion offers is defined on this cloud, and each misspelt v1 key the
        // diagnostics flag is undefined here too, with the name cloud-init prints.
        const standard = standardVariables(version);
        for (const path of completedPaths(standard, maxPaths)) {
          counts.standard++;
          const theirs = await ask(`${HEADER}{{ ${path} }}`, data);
          if (!theirs.ok || theirs.missingVariables.length) return mismatch(`path ${path} completed without instance data`, 'defined on every cloud', theirVerdictText(theirs));
        }
        for (const template of NO_DATA_TEMPLATES) {
          const payload = HEADER + template;
          const flagged = new Set(templateFindings(payload, { instanceData: NO_INSTANCE_DATA, version }).filter((f) => f.code === 'jinja-undefined-variable').map((f) => payload.slice(f.span.start, f.span.end)));
          // Each v1 path of the template, alone: undefined on this cloud exactly when it is flagged.
          for (const path of new Set(payload.match(/\bv1(?:\.\w+|\[[^\]]*\])/g) ?? [])) {
            counts.standard++;
            const theirs = await ask(`${HEADER}{{ ${path} }}`, data);
            const missing = !theirs.ok || theirs.missingVariables.length > 0;
            if (missing !== flagged.has(path)) return mismatch(`${path} in ${JSON.stringify(template)} without instance data`, flagged.has(path) ? 'flagged' : 'not flagged', theirVerdictText(theirs));
          }
        }
      }
    } finally {
      oracle.close();
      schemaOracle.close();
    }
    console.log(`(cloud-init ${version}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  console.log(`jinja editor oracle: cloud-init ${versions.join(', ')}, samples ${SAMPLE_NAMES.join(', ')}: all agree`, counts);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
