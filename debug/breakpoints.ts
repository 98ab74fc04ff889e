/**
 * Breakpoints of the debug target: source breakpoints (on the stop points of a line, with condition,
 * hit condition or log message) and data breakpoints (a C variable or a range of a memory space,
 * caught when a tensor step writes it or, for ranges up to 64 Ki elements, when anything changed it).
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import { sizeOf, type DebugView, type EvalScope } from '../core/sim/debug';
import { samePath } from './format';
import type { Ids, Variables } from './variables';

interface Bp {
  id: number;
  line: number;
  stmts: number[];
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
  hits: number;
}

export interface DataBp {
  id: number;
  space: string;
  lo: number;
  len: number;
  what: string;
  /** Copy of the watched elements (ranges up to 64 Ki elements): changes by C code are caught too. */
  copy?: Uint8Array | Int16Array;
}

export class Breakpoints {
  private bpsByFile = new Map<string, Bp[]>();
  private bpsByStmt = new Map<number, Bp[]>();
  /** Data breakpoints (set as a whole by each `setDataBreakpoints`). */
  data: DataBp[] = [];

  constructor(
    private readonly view: DebugView,
    private readonly ids: Ids,
    private readonly vars: Variables,
    /** Reports a condition that failed to evaluate, and log messages. */
    private readonly output: (text: string, category: 'stderr' | 'console') => void,
  ) {}

  // ----------------------------------------------------------------- source breakpoints

  set(a: DebugProtocol.SetBreakpointsArguments): DebugProtocol.SetBreakpointsResponse['body'] {
    const path = a.source.path ?? '';
    const stmts = this.view.stopPoints;
    for (const bp of this.bpsByFile.get(path) ?? []) for (const id of bp.stmts) this.bpsByStmt.delete(id);
    const mine = stmts.filter((s) => samePath(s.loc.file, path));
    const lines = [...new Set(mine.map((s) => s.loc.line))].sort((x, y) => x - y);
    const out: DebugProtocol.Breakpoint[] = [];
    const bps: Bp[] = [];
    for (const req of a.breakpoints ?? (a.lines ?? []).map((line): DebugProtocol.SourceBreakpoint => ({ line }))) {
      const id = this.ids.next();
      if (lines.length === 0) {
        out.push({ id, verified: false, line: req.line, message: 'no executable code in this file' });
        continue;
      }
      const line = lines.find((l) => l >= req.line) ?? lines[lines.length - 1];
      const ids = mine.filter((s) => s.loc.line === line).map((s) => s.id);
      const bp: Bp = {
        id,
        line,
        stmts: ids,
        condition: req.condition || undefined,
        hitCondition: req.hitCondition || undefined,
        logMessage: req.logMessage || undefined,
        hits: 0,
      };
      if (bp.condition) {
        try {
          for (const s of ids) this.view.compile(stmts[s].ec, s, bp.condition);
        } catch (e) {
          out.push({ id, verified: false, line, message: `condition: ${(e as Error).message}` });
          continue;
        }
      }
      bps.push(bp);
      out.push({ id, verified: true, line, source: { path } });
    }
    this.bpsByFile.set(path, bps);
    for (const bp of bps) {
      for (const s of bp.stmts) {
        let l = this.bpsByStmt.get(s);
        if (!l) this.bpsByStmt.set(s, (l = []));
        l.push(bp);
      }
    }
    this.view.setBreaks(this.bpsByStmt.keys());
    return { breakpoints: out };
  }

  /** At stop point `id` with frame scope `s`: the ids of the breakpoints that stop here (logpoints print instead). */
  check(id: number, s: EvalScope, interpolate: (msg: string, s: EvalScope) => string): number[] | undefined {
    const list = this.bpsByStmt.get(id);
    if (!list) return undefined;
    const ids: number[] = [];
    for (const bp of list) {
      if (bp.condition) {
        try {
          if (!this.view.evalScalar(s, bp.condition)) continue;
        } catch (e) {
          this.output(`breakpoint condition \`${bp.condition}\` at line ${bp.line}: ${(e as Error).message}\n`, 'stderr');
        }
      }
      bp.hits++;
      if (bp.hitCondition && !hitMatches(bp.hitCondition, bp.hits)) continue;
      if (bp.logMessage) {
        this.output(interpolate(bp.logMessage, s) + '\n', 'console');
        continue;
      }
      ids.push(bp.id);
    }
    return ids.length ? ids : undefined;
  }

  // ----------------------------------------------------------------- data breakpoints

  dataInfo(a: DebugProtocol.DataBreakpointInfoArguments): DebugProtocol.DataBreakpointInfoResponse['body'] {
    const none = (why: string) => ({ dataId: null, description: why });
    let target: { space: string; lo: number; len: number; what: string } | undefined;
    const ref = a.variablesReference ? this.vars.ref(a.variablesReference) : undefined;
    if (ref?.k === 'machine') {
      const sp = this.view.memory?.space(a.name);
      if (sp) target = { space: a.name, lo: 0, len: sp.length, what: a.name };
    } else if (ref) {
      const v = this.vars.childTarget(ref, a.name);
      if (!v) return none(`${a.name}: no such variable`);
      if (!('a' in v.w)) return none(`${a.name} is a register local (it has no MEM address)`);
      target = { space: 'MEM', lo: v.w.a, len: Math.max(1, sizeOf(v.t)), what: v.expr };
    } else {
      const m = /^(MEM|SCRATCH|SPU|PCORE[01]S?):(0x[0-9a-f]+|\d+):(0x[0-9a-f]+|\d+)$/i.exec(a.name.trim());
      if (m) target = { space: m[1].toUpperCase(), lo: Number(m[2]), len: Number(m[3]), what: a.name.trim() };
      else {
        const g = this.view.global(a.name);
        if (g && g.addr >= 0) target = { space: 'MEM', lo: g.addr, len: Math.max(1, sizeOf(g.t)), what: g.name };
      }
    }
    if (!target) return none(`${a.name}: cannot watch this`);
    const unit = target.space.startsWith('PCORE') || target.space === 'SPU' ? 'words' : 'bytes';
    return {
      dataId: `${target.space}:${target.lo}:${target.len}:${target.what}`,
      description: `${target.what} (${target.len} ${unit} of ${target.space} at ${target.lo})`,
      accessTypes: ['write'],
      canPersist: true,
    };
  }

  /** Replaces the data breakpoints; true when any has a copy to compare (every statement must then look). */
  setData(a: DebugProtocol.SetDataBreakpointsArguments): { body: DebugProtocol.SetDataBreakpointsResponse['body']; watch: boolean } {
    this.data = [];
    const out: DebugProtocol.Breakpoint[] = [];
    for (const b of a.breakpoints) {
      const id = this.ids.next();
      const m = /^([A-Z0-9]+):(\d+):(\d+):(.*)$/s.exec(b.dataId);
      const buf = m ? this.view.memory?.space(m[1]) : undefined;
      if (!m || !buf) {
        out.push({ id, verified: false, message: `bad data breakpoint ${b.dataId}` });
        continue;
      }
      const d: DataBp = { id, space: m[1], lo: Number(m[2]), len: Number(m[3]), what: m[4] || m[1] };
      if (d.len <= 65536) d.copy = buf.slice(d.lo, d.lo + d.len);
      this.data.push(d);
      out.push({ id, verified: true, message: d.what });
    }
    return { body: { breakpoints: out }, watch: this.data.some((d) => d.copy) };
  }

  /** Updates a data breakpoint's copy; true when the watched elements changed. */
  refresh(d: DataBp): boolean {
    const buf = this.view.memory?.space(d.space);
    if (!buf || !d.copy) return false;
    let changed = false;
    const n = Math.min(d.copy.length, buf.length - d.lo);
    for (let i = 0; i < n; i++) {
      if (d.copy[i] !== buf[d.lo + i]) {
        changed = true;
        d.copy[i] = buf[d.lo + i];
      }
    }
    return changed;
  }

  /** The first data breakpoint whose elements changed since it was last looked at. */
  changed(): DataBp | undefined {
    for (const d of this.data) if (d.copy && this.refresh(d)) return d;
    return undefined;
  }
}

/** `N` (hits ≥ N), `>N`, `>=N`, `<N`, `<=N`, `==N`/`=N`, `%N` (every N-th hit). */
export function hitMatches(cond: string, hits: number): boolean {
  const m = /^\s*(>=|<=|==|=|>|<|%)?\s*(\d+)\s*$/.exec(cond);
  if (!m) return true;
  const n = Number(m[2]);
  switch (m[1]) {
    case '>':
      return hits > n;
    case '>=':
    case undefined:
      return hits >= n;
    case '<':
      return hits < n;
    case '<=':
      return hits <= n;
    case '%':
      return n > 0 && hits % n === 0;
    default:
      return hits === n;
  }
}
