/**
 * The paused program as the Debug Adapter Protocol shows it: stack frames (the C frames of each
 * process, and a transfer being stepped through), their scopes, variables with expandable children,
 * evaluation and assignment. Everything it knows of the program comes from the simulator's debug
 * view (core/sim/debug); variable handles live until the program resumes.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import { pcoreAddr } from '../core/tprog/explain';
import { LIMITS } from '../core/tprog/machineConstants';
import type { MemberInfo } from '../core/tprog/pcoreView';
import {
  normalizer,
  SPACE_NAMES,
  sizeOf,
  type CType,
  type DebugView,
  type ElementAt,
  type EvalScope,
  type FrameRef,
  type StructT,
  type SteppedTransfer,
  type TensorVariable,
  type TransferAt,
  type Where,
} from '../core/sim/debug';
import { baseName, fmtScalar, hex8, memRefOf, spaceRef } from './format';

/** Breakpoint ids and variable handles come from one counter (as DAP clients have always seen them). */
export class Ids {
  private n = 1;
  next(): number {
    return this.n++;
  }
}

/** A transfer being stepped through, while paused between its batches. */
export interface SteppedXfer {
  t: SteppedTransfer;
  at: TransferAt;
}

/** What the target tells the variables about the stop. */
export interface StopState {
  /** The process that stopped. */
  readonly stoppedHart: 0 | 1;
  readonly xfer?: SteppedXfer;
}

export type VarRef =
  | { k: 'locals'; f: FrameRef }
  | { k: 'globals' }
  | { k: 'tensor'; hid: 0 | 1 }
  | { k: 'machine' }
  | { k: 'obj'; t: CType; a: number; expr: string; f?: FrameRef }
  | { k: 'deref'; t: CType; a: number; expr: string; f?: FrameRef }
  | { k: 'list'; items: DebugProtocol.Variable[] }
  | { k: 'pcore'; hid: 0 | 1 }
  | { k: 'xfer' }
  | { k: 'pmem'; hid: 0 | 1; m: MemberInfo; pcore?: number; thread?: number };

/** Frame id of the transfer being stepped through (above the C frames of its process). */
export const XFER_FRAME = 999_999;

export class Variables {
  private handles = new Map<number, VarRef>();

  constructor(
    private readonly view: DebugView,
    private readonly ids: Ids,
    private readonly stop: StopState,
  ) {}

  /** Forgets every handle (the program resumes). */
  clear(): void {
    this.handles.clear();
  }

  ref(handle: number): VarRef | undefined {
    return this.handles.get(handle);
  }

  private handle(r: VarRef): number {
    const id = this.ids.next();
    this.handles.set(id, r);
    return id;
  }

  // ----------------------------------------------------------------- frames

  private frameId(f: FrameRef): number {
    return f.hid * 100_000 + f.i / 3 + 1;
  }

  frameOf(id: number): FrameRef | undefined {
    const x = this.stop.xfer;
    if (id === XFER_FRAME) return x ? this.view.frames(x.at.process)[0] : undefined;
    const hid = (id >= 100_000 ? 1 : 0) as 0 | 1;
    return this.view.frameAt(hid, (id - hid * 100_000 - 1) | 0);
  }

  /** The evaluation scope of a frame id (the stopped process's top frame without one). */
  scopeOf(frameId: number | undefined): EvalScope {
    const f = frameId !== undefined ? this.frameOf(frameId) : this.view.frames(this.stop.stoppedHart)[0];
    return this.view.scopeOf(f);
  }

  stackTrace(a: DebugProtocol.StackTraceArguments): DebugProtocol.StackTraceResponse['body'] {
    const hid = (a.threadId === 2 ? 1 : 0) as 0 | 1;
    const refs: (FrameRef | 'xfer')[] = this.view.frames(hid);
    if (this.stop.xfer && this.stop.xfer.at.process === hid) refs.unshift('xfer');
    const start = a.startFrame ?? 0;
    const levels = a.levels ? a.levels : refs.length;
    const frames = refs.slice(start, start + levels).map((f) => {
      if (f === 'xfer') return this.xferFrame();
      const loc = this.view.frameLoc(f);
      const sf: DebugProtocol.StackFrame = { id: this.frameId(f), name: this.view.frameName(f), line: loc?.line ?? 0, column: loc?.column ?? 0 };
      if (loc && loc.file && !loc.file.startsWith('<')) sf.source = { name: baseName(loc.file), path: loc.file };
      else sf.presentationHint = 'subtle';
      return sf;
    });
    return { stackFrames: frames, totalFrames: refs.length };
  }

  /** The frame of the transfer being stepped through: its progress as the name, at its `>` statement. */
  private xferFrame(): DebugProtocol.StackFrame {
    const { t, at } = this.stop.xfer!;
    return {
      id: XFER_FRAME,
      name: `transfer ${t.done}/${t.total} elements`,
      line: at.loc.line,
      column: at.loc.column,
      source: { name: baseName(at.loc.file), path: at.loc.file },
    };
  }

  scopes(frameId: number): DebugProtocol.ScopesResponse['body'] {
    const f = this.frameOf(frameId);
    const hid = f?.hid ?? this.stop.stoppedHart;
    const scopes: DebugProtocol.Scope[] = [];
    if (frameId === XFER_FRAME && this.stop.xfer)
      scopes.push({ name: 'Transfer', presentationHint: 'locals', variablesReference: this.handle({ k: 'xfer' }), expensive: false });
    if (f) scopes.push({ name: 'Locals', presentationHint: 'locals', variablesReference: this.handle({ k: 'locals', f }), expensive: false });
    scopes.push({ name: 'Globals', variablesReference: this.handle({ k: 'globals' }), expensive: false });
    scopes.push({ name: 'Tensor variables', variablesReference: this.handle({ k: 'tensor', hid }), expensive: false });
    if (this.view.hasPcore) scopes.push({ name: 'PCORE variables', variablesReference: this.handle({ k: 'pcore', hid }), expensive: false });
    scopes.push({ name: 'Machine', presentationHint: 'registers', variablesReference: this.handle({ k: 'machine' }), expensive: false });
    return { scopes };
  }

  // ----------------------------------------------------------------- evaluation

  /** A `$` tensor variable, else a C expression in `s`. */
  evaluate(s: EvalScope, text: string, hex: boolean): DebugProtocol.EvaluateResponse['body'] {
    const expr = text.trim();
    if (!expr) throw new Error('empty expression');
    const tv = /^\$\w+$/.test(expr) ? this.view.tensorVariables(s.f?.hid ?? this.stop.stoppedHart).get(expr) : undefined;
    if (tv) {
      const v = this.tensorVar(expr, tv);
      return { result: v.value, type: v.type, variablesReference: v.variablesReference };
    }
    const { t, value } = this.view.evaluate(s, expr);
    const agg = t.k === 'arr' || t.k === 'struct';
    const v = this.variable('', t, agg ? { a: value } : { v: value }, expr, s.f, hex);
    return {
      result: v.value,
      type: v.type,
      variablesReference: v.variablesReference,
      indexedVariables: v.indexedVariables,
      namedVariables: v.namedVariables,
      memoryReference: v.memoryReference,
    };
  }

  // ----------------------------------------------------------------- variables

  variables(a: DebugProtocol.VariablesArguments): DebugProtocol.Variable[] {
    const r = this.handles.get(a.variablesReference);
    if (!r) return [];
    const hex = !!a.format?.hex;
    switch (r.k) {
      case 'locals': {
        const s = this.view.scopeOf(r.f);
        return this.view.locals(s).map((l) => this.variable(l.name, l.t, l.where, l.name, s.f, hex));
      }
      case 'globals':
        return this.view.globals().map((g) => this.variable(g.name, g.t, { a: g.addr }, g.name.includes('.') ? '' : g.name, undefined, hex));
      case 'tensor':
        return [...this.view.tensorVariables(r.hid)].map(([name, slot]) => this.tensorVar(name, slot));
      case 'machine':
        return this.machineVars();
      case 'list':
        return r.items;
      case 'xfer':
        return this.stop.xfer ? this.xferVars(this.stop.xfer) : [];
      case 'pcore':
      case 'pmem':
        return this.pcoreVars(r, hex);
      case 'obj':
      case 'deref':
        return this.children(r, a.start ?? 0, a.count, hex);
    }
  }

  private variable(name: string, t: CType, w: Where, expr: string, f: FrameRef | undefined, hex = false): DebugProtocol.Variable {
    const view = this.view;
    const mem = view.memory!;
    const v: DebugProtocol.Variable = { name, value: '', type: view.typeName(t), variablesReference: 0 };
    if (expr) v.evaluateName = expr;
    if ('a' in w) v.memoryReference = `MEM:${hex8(w.a)}`;
    try {
      switch (t.k) {
        case 'int':
        case 'float': {
          const x = 'v' in w ? w.v : mem.load(t, w.a);
          v.value = fmtScalar(t, x, hex);
          break;
        }
        case 'ptr': {
          const p = ('v' in w ? w.v : mem.load(t, w.a)) >>> 0;
          const fn = t.to.k === 'fn' ? view.fnAt(p) : undefined;
          if (fn) {
            v.value = `${fn} (${hex8(p)})`;
            break;
          }
          v.value = hex8(p);
          v.memoryReference = `MEM:${hex8(p)}`;
          const to = t.to;
          if (p !== 0 && mem.valid(p, Math.max(1, sizeOf(to)))) {
            if (to.k === 'int' && to.size === 1) v.value += ` "${mem.cstring(p, 48)}"`;
            if (to.k !== 'void' && to.k !== 'fn' && !(to.k === 'struct' && !to.complete)) {
              v.variablesReference = this.handle({ k: 'deref', t: to, a: p, expr, f });
              if (to.k === 'struct') v.namedVariables = to.fields.length;
            }
          }
          break;
        }
        case 'arr': {
          const a = 'a' in w ? w.a : w.v;
          v.memoryReference = `MEM:${hex8(a)}`;
          const n = t.n ?? 0;
          const el = t.of;
          const shown = Math.min(n, 8);
          const items: string[] = [];
          if (el.k === 'int' || el.k === 'float') for (let i = 0; i < shown; i++) items.push(fmtScalar(el, mem.load(el, a + i * sizeOf(el)), hex));
          v.value = el.k === 'int' || el.k === 'float' ? `[${n}] {${items.join(', ')}${n > shown ? ', …' : ''}}` : `[${n}] @ ${hex8(a)}`;
          if (n > 0) {
            v.variablesReference = this.handle({ k: 'obj', t, a, expr, f });
            v.indexedVariables = n;
          }
          break;
        }
        case 'struct': {
          const a = 'a' in w ? w.a : w.v;
          v.memoryReference = `MEM:${hex8(a)}`;
          v.value = this.structPreview(t, a, hex);
          v.variablesReference = this.handle({ k: 'obj', t, a, expr, f });
          v.namedVariables = t.fields.length;
          break;
        }
        case 'fn':
          v.value = view.fnAt('v' in w ? w.v : 0) ?? 'function';
          break;
        case 'void':
          v.value = 'void';
          break;
      }
    } catch (e) {
      v.value = `<${(e as Error).message}>`;
      v.variablesReference = 0;
    }
    return v;
  }

  private structPreview(t: StructT, a: number, hex: boolean): string {
    const mem = this.view.memory!;
    const parts: string[] = [];
    for (const fl of t.fields.slice(0, 6)) {
      const ft = fl.t;
      if (ft.k === 'int' || ft.k === 'float') parts.push(`${fl.name}=${fmtScalar(ft, mem.load(ft, a + fl.off), hex)}`);
      else if (ft.k === 'ptr') parts.push(`${fl.name}=${hex8(mem.load(ft, a + fl.off))}`);
      else parts.push(`${fl.name}={…}`);
    }
    return `{${parts.join(', ')}${t.fields.length > 6 ? ', …' : ''}}`;
  }

  private children(r: VarRef & { k: 'obj' | 'deref' }, start: number, count: number | undefined, hex: boolean): DebugProtocol.Variable[] {
    const t = r.t;
    const paren = /^[\w.[\]]+$/.test(r.expr) ? r.expr : `(${r.expr})`;
    if (t.k === 'struct') {
      const sep = r.k === 'deref' ? '->' : '.';
      return t.fields.map((fl) =>
        this.variable(fl.name || '<anonymous>', fl.t, { a: r.a + fl.off }, r.expr && fl.name ? `${paren}${sep}${fl.name}` : '', r.f, hex),
      );
    }
    if (r.k === 'deref') return [this.variable(`*${r.expr || 'p'}`, t, { a: r.a }, r.expr ? `*${paren}` : '', r.f, hex)];
    if (t.k === 'arr') {
      const n = t.n ?? 0;
      const es = sizeOf(t.of);
      const end = Math.min(n, start + (count ?? Math.min(n, 10_000)));
      const out: DebugProtocol.Variable[] = [];
      for (let i = start; i < end; i++) out.push(this.variable(`[${i}]`, t.of, { a: r.a + i * es }, r.expr ? `${paren}[${i}]` : '', r.f, hex));
      return out;
    }
    return [];
  }

  /** The variable `name` inside container `r`: its type, where it is, its C expression. */
  childTarget(r: VarRef, name: string): { t: CType; w: Where; expr: string; s: EvalScope; slot?: number } | undefined {
    switch (r.k) {
      case 'locals': {
        const s = this.view.scopeOf(r.f);
        const l = this.view.locals(s).find((x) => x.name === name);
        return l ? { t: l.t, w: l.where, expr: name, s, slot: l.slot } : undefined;
      }
      case 'globals': {
        const g = this.view.global(name);
        return g ? { t: g.t, w: { a: g.addr }, expr: name, s: this.scopeOf(undefined) } : undefined;
      }
      case 'obj':
      case 'deref': {
        const s = r.f ? this.view.scopeOf(r.f) : this.scopeOf(undefined);
        const t = r.t;
        if (t.k === 'struct') {
          const fl = t.fields.find((x) => x.name === name);
          return fl ? { t: fl.t, w: { a: r.a + fl.off }, expr: `${r.expr}${r.k === 'deref' ? '->' : '.'}${name}`, s } : undefined;
        }
        if (r.k === 'deref') return { t, w: { a: r.a }, expr: `*${r.expr}`, s };
        const m = /^\[(\d+)\]$/.exec(name);
        if (t.k === 'arr' && m && Number(m[1]) < (t.n ?? 0)) return { t: t.of, w: { a: r.a + Number(m[1]) * sizeOf(t.of) }, expr: `${r.expr}[${m[1]}]`, s };
        return undefined;
      }
    }
    return undefined;
  }

  setVariable(a: DebugProtocol.SetVariableArguments): DebugProtocol.SetVariableResponse['body'] {
    const view = this.view;
    const r = this.handles.get(a.variablesReference);
    const target = r ? this.childTarget(r, a.name) : undefined;
    if (!target) throw new Error(`${a.name}: cannot set this variable`);
    const { t, w, s } = target;
    if (t.k === 'arr' || t.k === 'fn' || t.k === 'void') throw new Error(`${a.name}: cannot assign a value of type ${view.typeName(t)}`);
    const e = view.compile(s.ec, s.stmt?.id ?? 'g', a.value);
    const v = view.guarded(() => e.f(s.fr));
    if (t.k === 'struct') {
      if (e.t !== t) throw new Error(`${a.name}: cannot assign ${view.typeName(e.t)} to ${view.typeName(t)}`);
      if (!('a' in w)) throw new Error('internal: struct without an address');
      view.memory!.copy(w.a, v, sizeOf(t));
    } else {
      if (e.t.k === 'struct' || (e.t.k === 'arr' && t.k !== 'ptr')) throw new Error(`${a.name}: cannot assign ${view.typeName(e.t)} to ${view.typeName(t)}`);
      const norm = normalizer(t);
      const x = norm ? norm(t.k === 'int' ? Math.trunc(v) : v) : v;
      if ('a' in w) view.memory!.store(t, w.a, x);
      else if (target.slot !== undefined) view.setSlot(s, target.slot, x);
    }
    const nv = this.variable(a.name, t, 'a' in w ? w : { v: s.fr[target.slot!] }, target.expr, s.f, !!a.format?.hex);
    return {
      value: nv.value,
      type: nv.type,
      variablesReference: nv.variablesReference,
      indexedVariables: nv.indexedVariables,
      namedVariables: nv.namedVariables,
    };
  }

  // ----------------------------------------------------------------- tensor variables, PCORE variables, the machine, a transfer

  private tensorVar(name: string, s: TensorVariable): DebugProtocol.Variable {
    const d = s.desc;
    const dims = d.levels.map((l) => `${l.label}${l.count !== undefined ? `[${l.count}]` : ''}`).join('');
    const base = d.base === undefined ? '?' : d.space === 'MEM' || d.space === 'SCRATCH' ? hex8(d.base) : String(d.base);
    const value = `${d.written}${d.shared ? ' shared' : ''} @${base} ${d.dtype ?? ''} ${dims} (${d.total ?? '?'} elements)`.replace(/\s+/g, ' ');
    const items: DebugProtocol.Variable[] = [
      { name: 'space', value: d.written, variablesReference: 0 },
      { name: 'base', value: base, variablesReference: 0, memoryReference: d.base !== undefined ? spaceRef(d.space, d.base, d.shared) : undefined },
      { name: 'dtype', value: d.dtype ?? '(default)', variablesReference: 0 },
      { name: 'elements', value: String(d.total ?? '?'), variablesReference: 0 },
    ];
    if (d.member)
      items.push({ name: 'member', value: `${d.member.fullName} (${d.member.type}, word offset ${d.member.offset ?? '?'})`, variablesReference: 0 });
    if (d.pad !== undefined) items.push({ name: 'pad', value: String(d.pad), variablesReference: 0 });
    if (d.repeat) items.push({ name: 'repeat', value: 'true', variablesReference: 0 });
    const levels = d.levels.map((l, i) => ({
      name: `[${i}] ${l.label}`,
      value: `begin ${l.begin ?? '?'}, step ${l.step ?? '?'}, count ${l.count ?? '?'}, stride ${l.stride ?? '?'}${l.checkHigh ? '' : ', unchecked'}`,
      variablesReference: 0,
    }));
    items.push({ name: 'levels', value: dims || '(none)', variablesReference: levels.length ? this.handle({ k: 'list', items: levels }) : 0 });
    items.push({ name: 'defined at', value: `line ${s.info.unit.buf.firstLine + 1}`, variablesReference: 0 });
    return { name, value, type: 'tensor variable', variablesReference: this.handle({ k: 'list', items }), evaluateName: name };
  }

  /**
   * PCORE class variables of a process (its page): each private variable per PCORE and thread, each
   * shared one per PCORE, as arrays of 12-bit words.
   */
  private pcoreVars(r: VarRef & { k: 'pcore' | 'pmem' }, hex: boolean): DebugProtocol.Variable[] {
    if (!this.view.hasPcore) return [];
    const fmt = (w: number) => (hex ? '0x' + (w & 0xfff).toString(16).padStart(3, '0') : String(w));
    if (r.k === 'pcore') {
      return this.view.pcoreMembers().map((mem) => ({
        name: mem.fullName,
        value: `${mem.type} [${mem.len}] ${mem.storage}, word ${mem.offset}`,
        type: mem.type,
        variablesReference: this.handle({ k: 'pmem', hid: r.hid, m: mem }),
        indexedVariables: LIMITS.numPcore,
      }));
    }
    const mem = r.m;
    const shared = mem.storage === 'shared';
    const page = this.view.pageWords(r.hid, shared);
    const leaf = (base: number, name: string): DebugProtocol.Variable => {
      const ws = Array.from(page.subarray(base, base + mem.len));
      const items = ws.map((w, k) => ({ name: `[${k}]`, value: fmt(w), variablesReference: 0 }));
      return {
        name,
        value: `{${ws.slice(0, 8).map(fmt).join(', ')}${ws.length > 8 ? ', …' : ''}}`,
        type: `${mem.type} [${mem.len}]`,
        variablesReference: this.handle({ k: 'list', items }),
        indexedVariables: ws.length,
        memoryReference: `PCORE${r.hid}${shared ? 'S' : ''}:${base * 2}`,
      };
    };
    const off = mem.offset ?? 0;
    if (r.pcore === undefined) {
      const out: DebugProtocol.Variable[] = [];
      for (let p = 0; p < LIMITS.numPcore; p++) {
        if (shared) out.push(leaf(p * LIMITS.pcoreWordsPerProcess + off, `pcore ${p}`));
        else
          out.push({
            name: `pcore ${p}`,
            value: `${LIMITS.numThread} threads`,
            variablesReference: this.handle({ ...r, pcore: p }),
            indexedVariables: LIMITS.numThread,
          });
      }
      return out;
    }
    const out: DebugProtocol.Variable[] = [];
    for (let t = 0; t < LIMITS.numThread; t++) out.push(leaf(r.pcore * LIMITS.pcoreWordsPerProcess + t * LIMITS.privateWords + off, `thread ${t}`));
    return out;
  }

  private machineVars(): DebugProtocol.Variable[] {
    const view = this.view;
    const out: DebugProtocol.Variable[] = [];
    for (const s of SPACE_NAMES) {
      const b = view.memory!.space(s)!;
      const words = b instanceof Int16Array;
      out.push({ name: s, value: `${b.length} ${words ? '12-bit words' : 'bytes'}`, type: 'memory space', variablesReference: 0, memoryReference: s });
    }
    const [g0, g1] = view.kernelParams();
    out.push({ name: '_global[0]', value: String(g0), type: 'kernel parameter register', variablesReference: 0 });
    out.push({ name: '_global[1]', value: String(g1), type: 'kernel parameter register', variablesReference: 0 });
    const trace = view.trace;
    out.push({ name: 'tensor statements executed', value: String(trace.length), variablesReference: 0 });
    const last = trace[trace.length - 1];
    if (last) out.push({ name: 'last tensor statement', value: `#${last.step} line ${last.line} (pid ${last.process}): ${last.text}`, variablesReference: 0 });
    return out;
  }

  /** The Transfer scope: progress, the next batch, the next element of each side, what has been written. */
  private xferVars({ t, at }: SteppedXfer): DebugProtocol.Variable[] {
    const n = t.nextBatch();
    const st = t.stats;
    const v = (name: string, value: string, memoryReference?: string): DebugProtocol.Variable => ({
      name,
      value,
      variablesReference: 0,
      ...(memoryReference ? { memoryReference } : {}),
    });
    const out = [
      v('statement', at.text),
      v('done', `${t.done} of ${t.total} elements`),
      v('next batch', `elements ${t.done}..${t.done + n - 1} (${n})`),
      v('last batch', t.done ? `elements ${t.lastFrom}..${t.done - 1} (${t.done - t.lastFrom})` : '(none yet)'),
      elementVar('destination', t.dstAt(t.done)),
      elementVar('source', t.srcAt(t.done)),
    ];
    const w = st.written;
    const words = w && (w.space.startsWith('PCORE') || w.space === 'SPU');
    out.push(
      w
        ? v(
            'written so far',
            `${w.count} ${words ? 'words' : 'bytes'} within ${w.space} ${words ? w.lo : hex8(w.lo)}..${words ? w.hi : hex8(w.hi)}`,
            memRefOf(w.space, w.lo),
          )
        : v('written so far', 'nothing'),
    );
    out.push(v('padded', String(st.padded)), v('skipped', String(st.skipped)));
    return out;
  }
}

/** The next element of one side of a transfer being stepped through. */
function elementVar(name: string, e: ElementAt): DebugProtocol.Variable {
  let where: string;
  if (e.note === 'constant') where = '(constant)';
  else if (e.note === 'exhausted') where = '(source exhausted: PAD)';
  else if (e.address === undefined) where = name === 'source' ? '(out of bound: PAD)' : '(out of bound: write skipped)';
  else if (e.space.startsWith('PCORE')) where = `${e.space} word ${e.address} ${pcoreAddr(e.address, e.space.endsWith('S'))}`;
  else where = e.space === 'SPU' ? `SPU word ${e.address}` : `${e.space} ${hex8(e.address)}`;
  const v: DebugProtocol.Variable = { name, value: `${e.coord} @ ${where}`, variablesReference: 0 };
  if (e.address !== undefined) v.memoryReference = memRefOf(e.space, e.address);
  return v;
}
