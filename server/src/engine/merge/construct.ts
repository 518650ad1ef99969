/**
 * Turning a parsed spec into a root merger, as `mergers.construct` does:
 * every name is resolved first (one unknown name aborts the whole spec),
 * then the mergers are built in order with their options.
 */
import { PyValue, pyClassName } from '../py/values';
import { pyStrRepr } from '../py/repr';
import { ParsedMerger, SpecError } from '../spec/parse';
import { DictMerger } from './dictMerger';
import { ListMerger } from './listMerger';
import { RootMerger, TypeMerger } from './root';
import { StrMerger } from './strMerger';
import { MergeTracer } from './trace';

export type MergerFactory = (root: RootMerger, options: PyValue) => TypeMerger;

/** The merger modules a stock cloud-init has, by module name. */
export const BUILTIN_MERGERS: ReadonlyMap<string, MergerFactory> = new Map<string, MergerFactory>([
  ['m_dict', (root, options) => new DictMerger(root, options)],
  ['m_list', (root, options) => new ListMerger(root, options)],
  ['m_str', (root, options) => new StrMerger(root, options)],
]);

const PACKAGE = 'cloudinit.mergers';

export interface ConstructOptions {
  tracer?: MergeTracer;
  /** Extra merger modules (custom mergers), by module name `m_<name>`. */
  modules?: ReadonlyMap<string, MergerFactory>;
  /** Python frames a merge may use before cloud-init's RecursionError (default: the part handler's). */
  pythonFrames?: number;
  /** Copies the caller owns, which merges may change in place (RootMerger.ownedCopies). */
  ownedCopies?: WeakSet<object>;
}

/** The module name cloud-init looks up for a merger name, or throws like `construct`. */
export function moduleNameFor(entry: ParsedMerger): string {
  const name = entry.name;
  if (typeof name !== 'string') {
    throw new SpecError('AttributeError', `${pyStrRepr(pyClassName(name))} object has no attribute 'startswith'`, 'construct', entry.nameSpan ?? entry.span);
  }
  return name.startsWith('m_') ? name : 'm_' + name;
}

export function resolveMergerModule(entry: ParsedMerger, modules: ReadonlyMap<string, MergerFactory>): MergerFactory {
  const moduleName = moduleNameFor(entry);
  const factory = modules.get(moduleName);
  if (factory) return factory;
  const span = entry.nameSpan ?? entry.span;
  const fullName = `${PACKAGE}.${moduleName}`;
  const dot = moduleName.indexOf('.');
  if (dot >= 0) {
    // importlib imports the parent first: a known parent is not a package.
    const parent = `${PACKAGE}.${moduleName.slice(0, dot)}`;
    const message = modules.has(moduleName.slice(0, dot))
      ? `__path__ attribute not found on ${pyStrRepr(parent)} while trying to find ${pyStrRepr(fullName)}`
      : `No module named ${pyStrRepr(parent)}`;
    throw new SpecError('ModuleNotFoundError', message, 'construct', span);
  }
  throw new SpecError(
    'ImportError',
    `Could not find merger module named ${pyStrRepr(moduleName)} with attribute 'Merger' (searched [${pyStrRepr(fullName)}])`,
    'construct',
    span,
  );
}

export function constructMergers(parsed: ParsedMerger[], options: ConstructOptions = {}): RootMerger {
  const modules = options.modules ? new Map([...BUILTIN_MERGERS, ...options.modules]) : BUILTIN_MERGERS;
  const factories = parsed.map((entry) => resolveMergerModule(entry, modules));
  const root = new RootMerger(options.tracer, options.pythonFrames);
  root.ownedCopies = options.ownedCopies;
  parsed.forEach((entry, i) => {
    try {
      root.mergers.push(factories[i](root, entry.options));
    } catch (e) {
      if (e instanceof SpecError) throw e;
      const pyType = (e as { pyType?: SpecError['pyType'] }).pyType ?? 'Exception';
      throw new SpecError(pyType, (e as Error).message, 'construct', entry.span);
    }
  });
  return root;
}
