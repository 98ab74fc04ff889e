/** Values the checker can know: macros (file and included headers), constant C variables, machine constants. */
import { evaluate } from '../cexpr/evaluate';
import type { CContext, CFunction, CVar, MacroDef } from './ccontext';
import { MACHINE } from './machine';

export class ValueScope {
  private readonly macroCache = new Map<string, number | undefined>();
  private readonly macros = new Map<string, MacroDef>();
  private readonly globals = new Map<string, CVar>();
  private readonly globalMutated = new Set<string>();
  /** Local variables per function index, by name, in declaration order. */
  private readonly locals = new Map<number, Map<string, CVar[]>>();

  constructor(
    readonly ctx: CContext,
    headerMacros: MacroDef[],
  ) {
    for (const m of headerMacros) this.macros.set(m.name, m);
    for (const m of ctx.macros) this.macros.set(m.name, m);
    for (const v of ctx.vars) {
      if (v.fn < 0) {
        if (!this.globals.has(v.name)) this.globals.set(v.name, v);
        continue;
      }
      let byName = this.locals.get(v.fn);
      if (!byName) this.locals.set(v.fn, (byName = new Map()));
      const list = byName.get(v.name);
      if (list) list.push(v);
      else byName.set(v.name, [v]);
    }
    for (const set of ctx.mutated.values()) for (const n of set) this.globalMutated.add(n);
  }

  macro(name: string): MacroDef | undefined {
    return this.macros.get(name);
  }

  allMacros(): MacroDef[] {
    return [...this.macros.values()];
  }

  macroValue(name: string, depth = 0): number | undefined {
    if (this.macroCache.has(name)) return this.macroCache.get(name);
    const m = this.macros.get(name);
    let v: number | undefined;
    if (m && !m.params && depth < 32) {
      this.macroCache.set(name, undefined); // recursion guard
      v = evaluate(m.value, (n) => this.macroValue(n, depth + 1) ?? (this.macros.has(n) ? undefined : MACHINE[n]));
    } else if (!m) v = MACHINE[name];
    this.macroCache.set(name, v);
    return v;
  }

  functionAt(offset: number): { fn: CFunction; index: number } | undefined {
    const fns = this.ctx.functions;
    let lo = 0;
    let hi = fns.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const f = fns[mid];
      if (offset < f.span.start) hi = mid - 1;
      else if (offset > f.span.end) lo = mid + 1;
      else return { fn: f, index: mid };
    }
    return undefined;
  }

  /** The C variable `name` visible at `offset` (locals before globals). */
  variableAt(name: string, offset: number): CVar | undefined {
    const f = this.functionAt(offset);
    if (f) {
      const list = this.locals.get(f.index)?.get(name);
      if (list) {
        let found: CVar | undefined;
        for (const v of list) if (v.nameSpan.start < offset) found = v;
        if (found) return found;
      }
    }
    return this.globals.get(name);
  }

  /** A resolver for expressions of a statement at document offset `offset`. */
  resolverAt(offset: number, extra?: Map<string, number>): (name: string) => number | undefined {
    const f = this.functionAt(offset);
    const resolve = (name: string, depth: number): number | undefined => {
      if (extra?.has(name)) return extra.get(name);
      const v = this.variableAt(name, offset);
      if (v) {
        if (v.isArray || v.init === undefined || depth > 8) return undefined;
        const mutated = v.fn < 0 ? this.globalMutated.has(name) : this.ctx.mutated.get(f?.index ?? -2)?.has(name);
        if (mutated) return undefined;
        return evaluate(v.init, (n) => resolve(n, depth + 1));
      }
      return this.macroValue(name);
    };
    return (name) => resolve(name, 0);
  }
}
