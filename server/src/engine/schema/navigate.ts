/**
 * The schema as a map of the document, for hover and completion: which subschemas describe the value at a
 * path (every `oneOf`/`anyOf`/`allOf` alternative and `$ref` followed), which keys an object may have, its
 * enum values and types, and the deprecation notes cloud-init prints for them. Facts only: the words
 * shown are cloud-init's own messages and the schema's types.
 */
import { schemaData, type SchemaVersion } from './data';
import { networkSchemaOf, type NetworkSchemaSource } from './networkData';

/** Whose schema: a cloud-config schema (by version) or a network-config one (networkData.ts). */
export type SchemaSource = SchemaVersion | NetworkSchemaSource;

function rootOf(source: SchemaSource): SchemaNode {
  return source.startsWith('network:') ? networkSchemaOf(source as NetworkSchemaSource) : schemaData(source as SchemaVersion).schema;
}
import type { SchemaNode } from './pyjsonschema';

/** A path segment: a mapping key, or `[]` for "an item of this list". */
export type NavSegment = string | { item: true };

export interface SchemaView {
  /** Every subschema that may describe the value (alternatives flattened). */
  nodes: SchemaNode[];
  /** The cloud-config module (`$defs` entry, e.g. `cc_apt_configure`) the top-level key belongs to. */
  module?: string;
  /** The subschemas the key itself names (before alternatives are followed). */
  direct: SchemaNode[];
  /** `$ref` resolution in this version's schema. */
  resolve?: (ref: string) => SchemaNode | undefined;
}

function resolveRef(root: SchemaNode, ref: string): SchemaNode | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, unknown> | undefined)?.[part];
  }
  return node && typeof node === 'object' ? (node as SchemaNode) : undefined;
}

/** The node and all the alternatives it stands for. */
function expand(root: SchemaNode, node: SchemaNode, out: SchemaNode[], seen: Set<SchemaNode>, depth = 0): void {
  if (seen.has(node) || depth > 20) return;
  seen.add(node);
  out.push(node);
  if (typeof node.$ref === 'string') {
    const target = resolveRef(root, node.$ref);
    if (target) expand(root, target, out, seen, depth + 1);
  }
  for (const k of ['allOf', 'anyOf', 'oneOf']) {
    const list = node[k];
    if (Array.isArray(list)) for (const sub of list) if (sub && typeof sub === 'object') expand(root, sub as SchemaNode, out, seen, depth + 1);
  }
}

function expanded(root: SchemaNode, nodes: SchemaNode[]): SchemaNode[] {
  const out: SchemaNode[] = [];
  const seen = new Set<SchemaNode>();
  for (const n of nodes) expand(root, n, out, seen);
  return out;
}

/** The root's modules: top-level key -> `$defs` name. */
function moduleOfTopLevel(version: SchemaSource): Map<string, string> {
  const cached = moduleMaps.get(version);
  if (cached) return cached;
  const root = rootOf(version);
  const map = new Map<string, string>();
  for (const part of (root.allOf as SchemaNode[] | undefined) ?? []) {
    const ref = typeof part.$ref === 'string' ? part.$ref : '';
    const name = ref.replace(/^#\/\$defs\//, '');
    const mod = resolveRef(root, ref);
    if (!mod) continue;
    for (const n of expanded(root, [mod])) for (const key of Object.keys(n.properties ?? {})) if (!map.has(key)) map.set(key, name);
  }
  moduleMaps.set(version, map);
  return map;
}
const moduleMaps = new Map<SchemaSource, Map<string, string>>();

const rootViews = new Map<SchemaSource, SchemaNode[]>();
/** Views by path, per version: completion asks for every key of a mapping at once. */
const viewCache = new Map<string, SchemaView>();

export function schemaAt(version: SchemaSource, path: NavSegment[]): SchemaView {
  const id = version + '\0' + JSON.stringify(path);
  const cached = viewCache.get(id);
  if (cached) return cached;
  const view = computeSchemaAt(version, path);
  if (viewCache.size > 5000) viewCache.clear();
  viewCache.set(id, view);
  return view;
}

function computeSchemaAt(version: SchemaSource, path: NavSegment[]): SchemaView {
  const root = rootOf(version);
  let rootNodes = rootViews.get(version);
  if (!rootNodes) rootViews.set(version, (rootNodes = expanded(root, [root])));
  let nodes = rootNodes;
  let direct: SchemaNode[] = [root];
  let module: string | undefined;
  path.forEach((seg, i) => {
    const next: SchemaNode[] = [];
    for (const n of nodes) {
      if (typeof seg === 'string') {
        const props = (n.properties ?? {}) as Record<string, SchemaNode>;
        if (Object.prototype.hasOwnProperty.call(props, seg)) next.push(props[seg]);
        else {
          let matched = false;
          for (const [pattern, sub] of Object.entries((n.patternProperties ?? {}) as Record<string, SchemaNode>)) {
            try {
              if (new RegExp(pattern, 'u').test(seg)) {
                next.push(sub);
                matched = true;
              }
            } catch {
              /* a pattern JS cannot read: skip it */
            }
          }
          if (!matched && n.additionalProperties && typeof n.additionalProperties === 'object') next.push(n.additionalProperties as SchemaNode);
        }
      } else if (n.items && typeof n.items === 'object' && !Array.isArray(n.items)) next.push(n.items as SchemaNode);
      else if (Array.isArray(n.items)) next.push(...(n.items as SchemaNode[]));
    }
    if (i === 0 && typeof seg === 'string') module = moduleOfTopLevel(version).get(seg);
    nodes = expanded(root, next);
    direct = next;
  });
  return { nodes, module, direct, resolve: (ref: string) => resolveRef(root, ref) };
}

export interface KeyInfo {
  key: string;
  view: SchemaView;
  deprecated: boolean;
}

/** The keys the schema names for an object at this view, in schema order. */
export function keysOf(version: SchemaSource, view: SchemaView, path: NavSegment[]): KeyInfo[] {
  const seen = new Set<string>();
  const out: KeyInfo[] = [];
  for (const n of view.nodes) {
    for (const key of Object.keys(n.properties ?? {})) {
      if (seen.has(key)) continue;
      seen.add(key);
      const sub = schemaAt(version, [...path, key]);
      out.push({ key, view: sub, deprecated: isDeprecated(sub) });
    }
  }
  return out;
}

/** Deprecated as a whole (not merely one deprecated alternative among valid ones). */
export function isDeprecated(view: SchemaView): boolean {
  // What always applies to the key: its own schema, what it `$ref`s and every `allOf` part (`ca-certs` is
  // `allOf: [{$ref: ...}, {deprecated: true}]`); a deprecated `oneOf`/`anyOf` alternative is only one choice.
  const seen = new Set<SchemaNode>();
  const always = (n: SchemaNode, depth: number): boolean => {
    if (seen.has(n) || depth > 20) return false;
    seen.add(n);
    if (n.deprecated) return true;
    if (typeof n.$ref === 'string' && n.$ref.startsWith('#/')) {
      const target = view.resolve?.(n.$ref);
      if (target && always(target, depth + 1)) return true;
    }
    return Array.isArray(n.allOf) && (n.allOf as SchemaNode[]).some((x) => x && typeof x === 'object' && always(x, depth + 1));
  };
  return view.direct.some((n) => always(n, 0));
}

/** The notes cloud-init prints for this key (deprecated / changed), trimmed. */
export function notesOf(view: SchemaView): string[] {
  const out: string[] = [];
  for (const n of view.nodes) {
    for (const k of ['x-deprecatedMessage', 'x-changedMessage']) {
      const m = n[k];
      if (typeof m === 'string' && !out.includes(m.trim())) out.push(m.trim());
    }
  }
  return out;
}

export function enumValues(view: SchemaView): unknown[] {
  const out: unknown[] = [];
  for (const n of view.nodes) {
    if (Array.isArray(n.enum)) for (const v of n.enum) if (!out.some((x) => JSON.stringify(x) === JSON.stringify(v))) out.push(v);
    const types = typeof n.type === 'string' ? [n.type] : Array.isArray(n.type) ? n.type : [];
    if (types.includes('boolean') && !n.enum) for (const b of [true, false]) if (!out.includes(b)) out.push(b);
  }
  return out;
}

/** Lists of lists are named this deep (`array of array of string`); deeper, `array`. */
const TYPE_DEPTH = 4;

/**
 * The value's types in words, one per alternative, joined with ` | `: `string`, `null`, `array of string`,
 * `array of (string | object (users_groups.user))`; an object the schema defines under `$defs` is named
 * by its definition, so two kinds of object read as two names, not as `object | object`.
 */
export function describeTypes(view: SchemaView): string {
  const words: string[] = [];
  for (const node of view.direct) for (const w of typeWords(node, view.resolve, 0, new Set())) if (!words.includes(w)) words.push(w);
  return words.join(' | ');
}

function typeWords(node: SchemaNode, resolve: SchemaView['resolve'], depth: number, seen: Set<SchemaNode>, name?: string): string[] {
  if (seen.has(node) || depth > TYPE_DEPTH) return [];
  const inside = new Set(seen).add(node);
  const words: string[] = [];
  const add = (w: string) => {
    if (!words.includes(w)) words.push(w);
  };
  const ref = typeof node.$ref === 'string' ? node.$ref : undefined;
  const defName = ref?.startsWith('#/$defs/') ? decodeURIComponent(ref.slice('#/$defs/'.length)) : undefined;
  const own = typeof node.type === 'string' ? [node.type] : Array.isArray(node.type) ? (node.type as unknown[]).filter((t): t is string => typeof t === 'string') : [];
  for (const t of own) {
    if (t === 'array') add(arrayWords(node, resolve, depth, inside));
    else if (t === 'object' && (defName ?? name)) add(`object (${defName ?? name})`);
    else add(t);
  }
  // A reference stands for its definition's types, unless the node names its own (then it only names the object).
  const target = ref && !own.length ? resolve?.(ref) : undefined;
  if (target) for (const w of typeWords(target, resolve, depth, inside, defName)) add(w);
  for (const k of ['allOf', 'anyOf', 'oneOf']) {
    const list = node[k];
    if (Array.isArray(list)) for (const sub of list) if (sub && typeof sub === 'object') for (const w of typeWords(sub as SchemaNode, resolve, depth, inside, name)) add(w);
  }
  return words;
}

function arrayWords(node: SchemaNode, resolve: SchemaView['resolve'], depth: number, seen: Set<SchemaNode>): string {
  const items = node.items;
  if (!items || typeof items !== 'object' || Array.isArray(items)) return 'array';
  const inner = typeWords(items as SchemaNode, resolve, depth + 1, seen);
  if (!inner.length) return 'array';
  return inner.length === 1 ? `array of ${inner[0]}` : `array of (${inner.join(' | ')})`;
}
