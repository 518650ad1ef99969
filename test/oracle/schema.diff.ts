/**
 * Differential test of cloud-init's schema validation (server/src/engine/schema) against the real
 * cloud-init's validator, on both supported versions.
 *
 *   node out/test/oracle/schema.diff.js [--cases N] [--merged M] [--seed S] [--version V[,V...]] [--sampled N] [--verbose]
 *
 * For each version, N documents are generated from that version's own schema data (seeded): every
 * module's keys with values of the right and of wrong types, enum values and near misses, deprecated
 * keys and values, unknown and misspelt keys at every level, nested lists and mappings, formats (uri,
 * date) and patterns, plus a fixed set of YAML-specific cases (`!!binary`, timestamps, octal and
 * sexagesimal ints, non-string keys, a document that is not a mapping, broken YAML). Each is validated by
 * cloud-init (test/oracle/schema_driver.py: the oracle's `--mode schema` of one file, one process per
 * version) and by validateCloudConfigText; compared are the verdict, the (path, message) pairs of errors
 * and of deprecations in order, whether the YAML failed to load, whether the document is not a mapping,
 * and whether cloud-init's validator itself raised.
 *
 * Then M merged sets per version (`--merged M`, default 300): two or three such documents, some with a
 * `merge_how`, some parts broken (unloadable YAML, a top level that is not a mapping), merged as user-data
 * by cloud-init and by this engine; the cloud-config.txt each writes is validated as `cloud-init schema
 * --system` does (upstream lists the parts it ignored as "Ignored invalid user-data" errors).
 *
 * Accepted differences (applied to cloud-init's answer before comparing, and counted in the summary):
 *  - `oneOf` with several valid alternatives prints the repr() of those schemas, `description` and
 *    `default` included (`reporting.<name>: 'v' is valid under each of {...}`, since its alternatives do
 *    not say `type: object`): the schema data has no prose, so our message is cloud-init's without those
 *    entries. Everything else in the message is compared.
 * Where cloud-init's validator raises (a non-string key meets a `patternProperties` regex or is sorted
 * with string keys), this engine throws a PyError of the same class: compared as "raised".
 */
import { CLOUDINIT_TREES } from './cloudinitTrees';
import { resolve } from 'node:path';
import { validateCloudConfigText } from '../../server/src/engine/schema/validate';
import { runUserData } from '../../server/src/engine/userdata/run';
import { readBackOf } from '../../server/src/engine/outcome/mergedSchema';
import type { PyValue } from '../../server/src/engine/py/values';
import { schemaData, type SchemaVersion } from '../../server/src/engine/schema/data';
import type { SchemaNode } from '../../server/src/engine/schema/pyjsonschema';
import { Rng } from './generate';
import { LineOracle } from './lineOracle';
import { runPerVersion } from './perVersion';

type Answer = {
  valid?: boolean;
  errors?: Array<[string, string]>;
  deprecations?: Array<[string, string]>;
  yaml_error?: boolean;
  not_a_dict?: boolean;
  raised?: string;
};

const PATHS: Readonly<Record<SchemaVersion, string>> = CLOUDINIT_TREES;

/**
 * The merged cloud-config.txt of some parts, as this engine writes it (differential-tested in
 * differential.ts), and the value the product validates for it: read back from the merge result where
 * the dump allows (outcome/mergedSchema readBackOf), as the preview, the set's diagnostics and --check do.
 */
function mergedText(parts: string[], version: SchemaVersion): { text: string; loaded?: { value: PyValue } } {
  const run = runUserData(parts.map((p, i) => ({ name: `part${i}`, bytes: Buffer.from(p, 'utf8') })), { version });
  return run.fatal ? { text: '' } : { text: run.cloudConfigTxt, loaded: readBackOf(run) };
}

function ours(text: string, version: SchemaVersion, loaded?: { value: PyValue }): Answer {
  const r = validateCloudConfigText(text, version, loaded ? { spans: false, loaded } : {});
  if (r.crash) return { raised: r.crash.pyType };
  return {
    valid: r.valid,
    errors: r.errors.map((e) => [e.path, e.message]),
    deprecations: r.deprecations.map((e) => [e.path, e.message]),
    yaml_error: r.yamlError !== null,
    not_a_dict: r.notADict,
  };
}

const PY_STR = String.raw`(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")`;
const PROSE = new RegExp(String.raw`, '(?:description|default)': (?:${PY_STR}|True|False|None|-?\d+(?:\.\d+)?|\[\])|'(?:description|default)': (?:${PY_STR}|True|False|None|-?\d+(?:\.\d+)?|\[\]), `, 'g');
let proseRemoved = 0;

/**
 * cloud-init's answer with the one accepted difference applied: in "is valid under each of" messages
 * (the repr of schemas), the `description` and `default` entries are removed, as the schema data has no
 * prose. Counted, and printed at the end.
 */
function theirs(a: Answer): Answer {
  if (a.raised) return { raised: a.raised };
  const errors = a.errors?.map(([p, m]): [string, string] => {
    if (!m.includes(' is valid under each of ')) return [p, m];
    const stripped = m.replace(PROSE, '');
    if (stripped !== m) proseRemoved++;
    return [p, stripped];
  });
  return { valid: a.valid, errors, deprecations: a.deprecations, yaml_error: a.yaml_error, not_a_dict: a.not_a_dict };
}

// ---------------------------------------------------------------------------
// Generation from the schema data

const WRONG: unknown[] = [5, 'text', true, false, null, [1, 'a'], { k: 'v' }, 1.5, 0, 'yes', [], {}, -3, '0644', [[1]]];
const STRINGS = ['a', 'ubuntu', 'http://example.com/x', 'not a uri', '2024-01-31', '2024-13-01', '10G', '1.5M', '+5', 'a:b', 'rsa_private', 'ed25519_public', 'dsa_public', '', 'x y', 'root', 'ALL=(ALL) NOPASSWD:ALL', 'now', 'off', 'template', 'a,b', 'a-b_c'];

export class Gen {
  constructor(
    private readonly r: Rng,
    private readonly root: SchemaNode,
  ) {}

  resolve(node: SchemaNode): SchemaNode {
    let n = node;
    for (let i = 0; i < 10 && typeof n.$ref === 'string'; i++) {
      const target = n.$ref.replace(/^#\//, '').split('/').reduce<unknown>((acc, p) => (acc as Record<string, unknown>)[p], this.root) as SchemaNode;
      const { $ref: _ref, ...rest } = n;
      n = { ...target, ...rest };
    }
    return n;
  }

  /** All top-level properties, from the modules' $defs. */
  topLevel(): Array<[string, SchemaNode]> {
    const out: Array<[string, SchemaNode]> = [];
    for (const part of (this.root.allOf as SchemaNode[]) ?? []) {
      const mod = this.resolve(part);
      for (const [k, v] of Object.entries((mod.properties ?? {}) as Record<string, SchemaNode>)) out.push([k, v]);
    }
    for (const [k, v] of Object.entries((this.root.properties ?? {}) as Record<string, SchemaNode>)) out.push([k, v]);
    return out;
  }

  misspell(key: string): string {
    const r = this.r;
    switch (r.int(4)) {
      case 0:
        return key.length > 1 ? key.slice(0, -1) : key + 'x';
      case 1:
        return key.includes('_') ? key.replace('_', '-') : key.replace('-', '_') + (key.includes('-') ? '' : 's');
      case 2:
        return key.toUpperCase();
      default:
        return r.pick(['bogus', 'package', 'user', 'run_cmd', 'extra_key', 'zzz']);
    }
  }

  value(node: SchemaNode | boolean | undefined, depth: number): unknown {
    const r = this.r;
    if (node === undefined || node === true || node === false || depth > 6) return r.pick(WRONG);
    if (r.chance(0.08)) return r.pick(WRONG);
    const n = this.resolve(node);
    const alts = (n.oneOf ?? n.anyOf) as SchemaNode[] | undefined;
    if (alts && r.chance(0.85)) {
      const base = { ...n };
      delete base.oneOf;
      delete base.anyOf;
      return this.value({ ...base, ...this.resolve(r.pick(alts)) }, depth);
    }
    if (Array.isArray(n.allOf) && r.chance(0.5)) return this.value({ ...n, allOf: undefined, ...this.resolve(r.pick(n.allOf as SchemaNode[])) }, depth);
    if (Array.isArray(n.enum)) return r.chance(0.9) ? r.pick(n.enum as unknown[]) : r.pick(['bogus', 5, true, null]);
    let type = n.type as string | string[] | undefined;
    if (Array.isArray(type)) type = r.pick(type);
    if (!type) type = n.properties || n.patternProperties ? 'object' : n.items ? 'array' : r.pick(['string', 'integer', 'boolean', 'object', 'array', 'null']);
    switch (type) {
      case 'object':
        return this.object(n, depth);
      case 'array': {
        const count = r.chance(0.1) ? 0 : 1 + r.int(3);
        const items = n.items as SchemaNode | SchemaNode[] | undefined;
        return Array.from({ length: count }, (_, i) => this.value(Array.isArray(items) ? items[i] : items, depth + 1));
      }
      case 'string':
        if (n.format === 'uri') return r.pick(['http://example.com/a', 'https://x.org', 'ftp://u@h:21/p?q#f', 'not a uri', 'file:///etc/x', '/relative', 'http://[::1]/']);
        if (n.format === 'date') return r.pick(['2024-01-31', '2024-13-01', '20240131', '2024-W05-3', '2024-02-30', 'tomorrow']);
        return r.pick(STRINGS);
      case 'integer':
        return r.pick([0, 1, 5, 100, 644, -1, 1000]);
      case 'number':
        return r.pick([0, 1.5, 3, -2.5]);
      case 'boolean':
        return r.chance(0.5);
      case 'null':
        return null;
      default:
        return r.pick(WRONG);
    }
  }

  object(n: SchemaNode, depth: number): Record<string, unknown> {
    const r = this.r;
    const out: Record<string, unknown> = {};
    const props = Object.entries((n.properties ?? {}) as Record<string, SchemaNode>);
    for (const req of (n.required as string[] | undefined) ?? []) if (r.chance(0.9)) out[req] = undefined;
    for (const [k] of r.some(props, Math.min(4, props.length))) out[k] = undefined;
    for (const k of Object.keys(out)) out[k] = this.value(((n.properties ?? {}) as Record<string, SchemaNode>)[k], depth + 1);
    const pats = Object.entries((n.patternProperties ?? {}) as Record<string, SchemaNode>);
    if (pats.length && r.chance(0.6)) {
      const [pat, sub] = r.pick(pats);
      const key = r.pick(pat.includes('(') ? ['rsa_private', 'ed25519_public', 'dsa_public', 'bad_key'] : ['alpha', 'b-c', 'x y', 'k1']);
      out[key] = this.value(sub, depth + 1);
    }
    if (r.chance(0.12)) {
      const base = props.length ? r.pick(props)[0] : 'key';
      out[this.misspell(base)] = this.value(undefined, depth + 1);
    }
    if (!props.length && !pats.length && n.additionalProperties && typeof n.additionalProperties === 'object' && r.chance(0.7)) {
      out[r.pick(['one', 'two'])] = this.value(n.additionalProperties as SchemaNode, depth + 1);
    }
    return out;
  }

  document(): Record<string, unknown> {
    const r = this.r;
    const top = this.topLevel();
    const doc: Record<string, unknown> = {};
    const count = 1 + r.int(4);
    for (let i = 0; i < count; i++) {
      const [k, v] = r.pick(top);
      doc[k] = this.value(v, 0);
    }
    if (r.chance(0.15)) doc[this.misspell(r.pick(top)[0])] = this.value(undefined, 0);
    return doc;
  }
}

/** Flow YAML (JSON, which PyYAML reads as YAML) or block YAML for a generated document. */
export function render(doc: unknown, r: Rng): string {
  if (r.chance(0.5)) return '#cloud-config\n' + JSON.stringify(doc, null, r.chance(0.5) ? 1 : undefined) + '\n';
  return '#cloud-config\n' + block(doc, 0) + '\n';
}

function scalar(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return '[]';
  if (typeof v === 'object') return '{}';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function block(v: unknown, indent: number): string {
  const pad = ' '.repeat(indent);
  if (Array.isArray(v)) {
    if (!v.length) return '[]';
    return v.map((x) => `${pad}- ` + (isCollection(x) ? '\n' + block(x, indent + 2) : scalar(x))).join('\n');
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v);
    if (!entries.length) return '{}';
    return entries.map(([k, x]) => `${pad}${JSON.stringify(k)}:` + (isCollection(x) ? '\n' + block(x, indent + 2) : ' ' + scalar(x))).join('\n');
  }
  return scalar(v);
}

function isCollection(x: unknown): boolean {
  return (Array.isArray(x) && x.length > 0) || (!!x && typeof x === 'object' && !Array.isArray(x) && Object.keys(x).length > 0);
}

/** YAML-specific cases: values JSON cannot write, documents that are not mappings, broken YAML. */
const FIXED = [
  '#cloud-config\nwrite_files:\n- path: /x\n  content: !!binary |\n    aGVsbG8=\n  permissions: 0644\n',
  '#cloud-config\nwrite_files:\n- path: /x\n  permissions: 0o644\n  owner: 1:2\n',
  '#cloud-config\nruncmd:\n- 2024-01-01\n- [ls, 2024-01-01 10:00:00]\n',
  '#cloud-config\n1: a\nhostname: h\n',
  '#cloud-config\nnull: x\n',
  '#cloud-config\n- a\n- b\n',
  '#cloud-config\njust a string\n',
  '#cloud-config\n',
  '#cloud-config\nruncmd: [a, b\n',
  '#cloud-config\npackages: !!set {curl: null}\n',
  '#cloud-config\nusers: !!omap [a: 1]\n',
  '#cloud-config\nssh_keys: {rsa_private: a, 5: b}\n',
  '#cloud-config\nbootcmd: [[echo, 5], 5, "x"]\nbogus: 1\nother: 2\n',
  '#cloud-config\nhostname: 12345678901234567890123\nfqdn: 1.0e+3\n',
  '#cloud-config\nsnap:\n  commands: {"00": a, "01": [b, 1]}\n',
  '#cloud-config\napt:\n  sources:\n    s1: {source: "deb x", keyid: 5}\n',
  "#cloud-config\nuser: {name: a, sudo: false, groups: {wheel: null}}\n",
  '#cloud-config\nchpasswd: {list: "a:b\\nc:d", expire: "yes"}\n',
  '#cloud-config\npower_state: {mode: reboot, delay: "+5", condition: "true"}\n',
  '#cloud-config\nresize_rootfs: noblock\ngrowpart: {mode: false}\n',
  '#cloud-config\nubuntu_advantage: {token: x}\n',
  '#cloud-config\nansible: {pull: {url: "http://x", playbook_name: p}}\n',
  '#cloud-config\nrh_subscription: {activation-key: a, org: 1}\n',
  '#cloud-config\nmerge_how: [{name: list, settings: [append]}]\n',
  '#cloud-config\n"k\'q": 1\n',
];

// ---------------------------------------------------------------------------

async function runVersion(version: SchemaVersion, cases: number, merged: number, seed: number, verbose: boolean): Promise<number> {
  const oracle = new LineOracle('/usr/bin/python3', [resolve(__dirname, '../../../test/oracle/schema_driver.py')], {
    env: { ...process.env, CLOUDINIT_PATH: PATHS[version] },
  });
  const r = new Rng(seed);
  const gen = new Gen(r, schemaData(version).schema);
  const texts: string[] = [...FIXED];
  for (let i = 0; i < cases; i++) texts.push(render(gen.document(), r));
  const mergedSets: string[][] = [];
  for (let i = 0; i < merged; i++) {
    const parts = Array.from({ length: 2 + r.int(2) }, () => {
      if (r.chance(0.08)) return r.pick(['#cloud-config\nruncmd: [a, b\n', '#cloud-config\n- not a mapping\n', '#cloud-config\nbad: "unclosed\n']);
      const doc = gen.document();
      if (r.chance(0.4)) doc.merge_how = r.pick(['list(append)+dict(recurse_array)+str()', 'dict(no_replace,recurse_list)+list(append)', 'dict()+list()']);
      return render(doc, r);
    });
    mergedSets.push(parts);
  }
  const started = Date.now();
  const answers = await Promise.all([
    ...texts.map((text) => oracle.ask<Answer>({ text })),
    ...mergedSets.map((parts) => oracle.ask<Answer>({ parts })),
  ]);
  const mergedRuns = mergedSets.map((parts) => mergedText(parts, version));
  texts.push(...mergedRuns.map((m) => m.text));
  const readBack = mergedRuns.filter((m) => m.loaded).length;
  const pyMs = Date.now() - started;
  oracle.close();
  let mismatches = 0;
  proseRemoved = 0;
  let invalid = 0;
  let withDeprecations = 0;
  let errorsSeen = 0;
  let ignoredParts = 0;
  let deprecationsSeen = 0;
  const t0 = Date.now();
  const ourAnswers = texts.map((t, i) => ours(t, version, i >= texts.length - merged ? mergedRuns[i - (texts.length - merged)].loaded : undefined));
  const ourMs = Date.now() - t0;
  texts.forEach((text, i) => {
    const a = JSON.stringify(theirs(answers[i]));
    const b = JSON.stringify(ourAnswers[i]);
    if (answers[i].valid === false) invalid++;
    if (answers[i].deprecations?.length) withDeprecations++;
    errorsSeen += answers[i].errors?.length ?? 0;
    ignoredParts += answers[i].errors?.filter(([p]) => p.startsWith('format-l')).length ?? 0;
    deprecationsSeen += answers[i].deprecations?.length ?? 0;
    if (a !== b) {
      mismatches++;
      if (mismatches <= 5 || verbose) console.error(`--- ${version} case ${i} differs\n${text}\ncloud-init: ${a}\nours:       ${b}\n`);
    }
  });
  console.log(
    `${version}: ${texts.length - merged} documents and ${merged} merged sets (${readBack} read back without parsing; ${invalid} invalid, ${withDeprecations} with deprecations; ${errorsSeen} errors, ${deprecationsSeen} deprecations in all, ${ignoredParts} "Ignored invalid user-data"), ` +
      `${mismatches} differences (${proseRemoved} messages compared without schema prose); cloud-init ${pyMs} ms, ours ${ourMs} ms`,
  );
  return mismatches;
}

if (require.main === module) void runPerVersion({ cases: 1500, seed: 12 }, (version, a) => runVersion(version, a.cases, a.scale(Number(a.opt('--merged', '300'))), a.seed, a.verbose));
