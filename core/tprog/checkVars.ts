/** The tensor variables (`$name`) of a document: definitions, uses and the compiler's limits on them. */
import type { Span } from './ast';
import type { Emit, StmtInfo, TensorVarDef, TprogAnalysis, Unit } from './analysis';
import { LIMITS } from './machineConstants';

/** Tensor-variable table with brace-depth scoping, as the compiler keeps it. */
export class VarTable {
  private entries: { name: string; depth: number; defined: boolean; def?: TensorVarDef }[] = [];
  constructor(private readonly a: TprogAnalysis) {}

  enterUnit(unit: Unit): void {
    const d = unit.buf.minDepthBefore;
    for (let i = 0; i < this.entries.length; i++) if (this.entries[i]?.depth > d) this.entries[i] = undefined as never;
  }

  private find(name: string) {
    return this.entries.findIndex((e) => e && e.name === name);
  }

  private alloc(name: string, depth: number): number {
    const free = this.entries.findIndex((e) => !e);
    const e = { name, depth, defined: false };
    if (free >= 0) {
      this.entries[free] = e;
      return free;
    }
    this.entries.push(e);
    return this.entries.length - 1;
  }

  declare(name: string, depth: number): number {
    const i = this.find(name);
    return i >= 0 ? i : this.alloc(name, depth);
  }

  define(info: StmtInfo, name: string, span: Span, emit: Emit, hasPlaceholder: boolean): void {
    let i = this.find(name);
    if (i < 0) i = this.alloc(name, info.unit.buf.depth);
    const def = { name, info, range: this.a.rangeOf(info.unit, span), slot: i, hasPlaceholder };
    this.entries[i].defined = true;
    this.entries[i].def = def;
    this.a.varDefs.push(def);
    if (i >= LIMITS.maxTensorVars)
      emit(
        span,
        'error',
        'tprog.too-many-vars',
        `Invalid MCORE variable: ${name} would need tensor-variable slot ${i + 1}, but a process has only ${LIMITS.maxTensorVars} live \`:=\` variables ` +
          '(close a scope or reuse a name)',
      );
    let alive = 0;
    for (const e of this.entries) if (e) alive++;
    if (alive > LIMITS.maxVarNames) emit(span, 'error', 'tprog.too-many-vars', 'Too many variables defined: more than 16 `$` names are alive at once');
  }

  use(info: StmtInfo, name: string, span: Span, emit: Emit) {
    const i = this.find(name);
    const e = i >= 0 ? this.entries[i] : undefined;
    const range = this.a.rangeOf(info.unit, span);
    this.a.varUses.push({ name, range, def: e?.def, info });
    if (!e || !e.defined) {
      const earlier = this.a.varDefs.find((d) => d.name === name);
      emit(
        span,
        'error',
        'tprog.undefined-var',
        earlier
          ? `Variable has not been defined: ${name} was defined in a scope that has closed (declare it with \`> VAR ${name};\` in the enclosing block)`
          : `Variable has not been defined: ${name} has no \`${name} := ...\` before this use`,
      );
    }
    return e?.def;
  }
}
