/** Values the checker can know: macros (file and included headers), constant C variables, machine constants. */
import { evaluate } from '../cexpr/evaluate';
import type { CContext, CFunction, CVar, MacroDef } from './ccontext';
import { MACHINE } from './machineConstants';

export class ValueScope {
  private readonly macroCache: Map<string, number | undefined>;
  private readonly macros = new Map<string, MacroDef>();
  private readonly globals = new Map<string, CVar>();
  private readonly globalMutated = new Set<string>();
  /**
   * The locals of every function in declaration order, function after function: those of function
   * `f` are `locals[localFrom[f] .. localFrom[f + 1])`. One array for the document, not a map and
   * lists per function (a document has thousands of functions, and every object costs the
   * garbage collector).
   */
  private readonly locals: CVar[];
  private readonly localFrom: Int32Array;

  /**
   * `same`: the scope of a C context this one differs from only by offsets (an edit inside a `>` line
   * moved later text): names resolve alike, so its caches (macro values, function prints, shared
   * resolvers) are taken over instead of being rebuilt.
   */
  constructor(
    readonly ctx: CContext,
    headerMacros: MacroDef[],
    same?: ValueScope,
  ) {
    this.macroCache = same ? same.macroCache : new Map();
    this.fnPrints = same ? same.fnPrints : new Map();
    this.printIntern = same ? same.printIntern : new Map();
    this.shared = same ? same.shared : new Map();
    for (const m of headerMacros) this.macros.set(m.name, m);
    for (const m of ctx.macros) this.macros.set(m.name, m);
    const locals: CVar[] = [];
    const vars = ctx.vars;
    for (let i = 0; i < vars.length; i++) {
      const v = vars[i];
      if (v.fn >= 0) locals.push(v);
      else if (!this.globals.has(v.name)) this.globals.set(v.name, v);
    }
    // declarations come in document order (by function, then offset): sort only when they do not
    if (!inOrder(locals)) locals.sort((x, y) => x.fn - y.fn || x.nameSpan.start - y.nameSpan.start);
    const nf = ctx.functions.length;
    const from = new Int32Array(nf + 1);
    for (let i = 0, f = 0; f <= nf; f++) {
      while (i < locals.length && locals[i].fn < f) i++;
      from[f] = i;
    }
    this.locals = locals;
    this.localFrom = from;
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

  /** The previous answer of `functionAt`: statements are looked up in document order, many per function. */
  private lastFn?: { fn: CFunction; index: number };

  functionAt(offset: number): { fn: CFunction; index: number } | undefined {
    const last = this.lastFn;
    if (last && offset >= last.fn.span.start && offset <= last.fn.span.end) return last;
    const fns = this.ctx.functions;
    let lo = 0;
    let hi = fns.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const f = fns[mid];
      if (offset < f.span.start) hi = mid - 1;
      else if (offset > f.span.end) lo = mid + 1;
      else return (this.lastFn = { fn: f, index: mid });
    }
    return undefined;
  }

  /**
   * How many locals of the function `at` are declared before `offset`: with the same function
   * fingerprint (`functionPrint`) and the same context fingerprint, equal counts resolve every name alike.
   */
  localsBefore(offset: number, at: { index: number } | undefined): number {
    if (!at || at.index + 1 >= this.localFrom.length) return 0;
    const first = this.localFrom[at.index];
    let lo = first;
    let hi = this.localFrom[at.index + 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.locals[mid].nameSpan.start < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo - first;
  }

  private readonly fnPrints: Map<number, string>;
  private readonly printIntern: Map<string, string>;

  /** Everything of a function that names inside it resolve through: its locals and what it assigns. */
  functionPrint(at: { index: number } | undefined): string {
    if (!at) return '';
    let p = this.fnPrints.get(at.index);
    if (p === undefined) {
      const parts: string[] = [];
      const end = at.index + 1 < this.localFrom.length ? this.localFrom[at.index + 1] : 0;
      for (let i = end ? this.localFrom[at.index] : 0; i < end; i++) {
        const v = this.locals[i];
        parts.push(v.name, v.init ?? '-', v.isArray ? '1' : '0', v.type);
      }
      // assigned names in document order: the same function text gives the same order
      parts.push('|');
      const m = this.ctx.mutated.get(at.index);
      if (m) for (const n of m) parts.push(n);
      p = parts.join('\u0001');
      // one string object per distinct print: memo keys then compare by identity, not by content
      const known = this.printIntern.get(p);
      if (known === undefined) this.printIntern.set(p, p);
      else p = known;
      this.fnPrints.set(at.index, p);
    }
    return p;
  }

  /** Everything outside functions that values depend on: macros, globals and which globals are assigned anywhere. */
  globalPrint(): string {
    const parts: string[] = [];
    for (const m of this.ctx.macros) parts.push('M', m.name, m.params ? m.params.join(',') : '-', m.value);
    for (const v of this.ctx.vars) if (v.fn < 0) parts.push('V', v.name, v.init ?? '-', v.isArray ? '1' : '0', v.type);
    parts.push('U', ...[...this.globalMutated].filter((n) => this.globals.has(n)).sort());
    return parts.join('\u0001');
  }

  /** The C variable `name` visible at `offset` (locals before globals). */
  variableAt(name: string, offset: number): CVar | undefined {
    const f = this.functionAt(offset);
    if (f && f.index + 1 < this.localFrom.length) {
      // the last local of that name declared before `offset`
      const first = this.localFrom[f.index];
      for (let i = first + this.localsBefore(offset, f) - 1; i >= first; i--) if (this.locals[i].name === name) return this.locals[i];
    }
    return this.globals.get(name);
  }

  private readonly shared: Map<string, ((name: string) => number | undefined)[]>;

  /**
   * The resolver of a statement at `offset` in function `at`, after `before` of its locals
   * (`localsBefore`): every such offset, in this function or in any with the same `functionPrint`,
   * resolves every name alike, so statements share one resolver, which remembers its answers.
   */
  sharedResolver(offset: number, at: { fn: CFunction; index: number } | undefined, before: number): (name: string) => number | undefined {
    const print = this.functionPrint(at);
    let list = this.shared.get(print);
    if (!list) this.shared.set(print, (list = []));
    let r = list[before];
    if (!r) {
      const inner = this.resolverAt(offset, undefined, at);
      const known = new Map<string, number | undefined>();
      r = (name) => {
        let v = known.get(name);
        if (v === undefined && !known.has(name)) known.set(name, (v = inner(name)));
        return v;
      };
      list[before] = r;
    }
    return r;
  }

  /** A resolver for expressions of a statement at document offset `offset`. */
  resolverAt(offset: number, extra?: Map<string, number>, at?: { fn: CFunction; index: number }): (name: string) => number | undefined {
    const f = at ?? this.functionAt(offset);
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

function inOrder(vars: CVar[]): boolean {
  for (let i = 1; i < vars.length; i++) {
    const a = vars[i - 1];
    const b = vars[i];
    if (b.fn < a.fn || (b.fn === a.fn && b.nameSpan.start < a.nameSpan.start)) return false;
  }
  return true;
}
