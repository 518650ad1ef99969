/** The `str` merger (spec §2.4): only `append` is read; otherwise the new value replaces. */
import { PyValue, pyClassName } from '../py/values';
import { PyError } from '../py/errors';
import { pyContains } from './pyops';
import { RootMerger, TypeMerger } from './root';
import { MergeContext } from './trace';

export class StrMerger implements TypeMerger {
  readonly name = 'str';
  readonly handles = new Set(['str', 'unicode']);
  readonly append: boolean;

  constructor(
    private readonly root: RootMerger,
    options: PyValue,
  ) {
    this.append = pyContains(options, 'append');
  }

  describe(): string {
    return `StringMerger: (append=${this.append ? 'True' : 'False'})`;
  }

  settings(): Record<string, string | boolean> {
    return { method: this.append ? 'append' : 'replace' };
  }

  merge(_typeName: string, old: PyValue, value: PyValue, ctx: MergeContext): PyValue {
    if (!this.append) {
      this.root.tracer?.event({ kind: 'replaced', path: ctx.path, old, value, oldOrigin: ctx.oldOrigin, origin: ctx.newOrigin, reason: 'str() replaces the string' });
      return value;
    }
    if (typeof value !== 'string') {
      throw new PyError('TypeError', `can only concatenate str (not "${pyClassName(value)}") to str`);
    }
    this.root.tracer?.event({ kind: 'concatenated', path: ctx.path, old: old as string, value, origin: ctx.newOrigin });
    return (old as string) + value;
  }
}
