/**
 * Run-time state shared by the compiled closures of one program: simulated MEM, the two harts
 * (call stacks and MEM stacks), the step budget, faults with their C call stack.
 */
import { SimError, type Budget, type HostScope, type HostServices, type MemJournal, type SourceLoc } from '../types';
import type { CType } from './ctypes';

/**
 * Completion of statement closures: these three objects for break/continue/return; anything else
 * (numbers: an expression statement is its expression's closure) completes normally.
 */
export interface Ctl {
  readonly ctl: 'break' | 'continue' | 'return';
}
export const BRK: Ctl = { ctl: 'break' };
export const CONT: Ctl = { ctl: 'continue' };
export const RET: Ctl = { ctl: 'return' };

/** A function activation: [0] MEM frame base, [1] return value (or struct return buffer), [2..] slots. */
export type Frame = number[];
export type EF = (fr: Frame) => number;
export type SF = (fr: Frame) => unknown;
export type GSF = (fr: Frame) => Generator<void, unknown, void>;
/** A hoisted step of generator code (a call that may yield, and what must run around it). */
export type GStep = (fr: Frame) => Generator<void, void, void>;

export interface LocalInfo {
  name: string;
  type: CType;
  /** JS slot index (register local) or MEM offset from the frame base. */
  slot?: number;
  offset?: number;
  /** Source line range (1-based) of the declaring block. */
  fromLine: number;
  toLine: number;
}

/** One compiled version (plain or generator) of a C function. */
export interface FnCode {
  /** C function name (stack traces). */
  name: string;
  /** Generator version (inside ztaDualHartExecute). */
  gen: boolean;
  nslots: number;
  proto: Frame;
  frameSize: number;
  locals: LocalInfo[];
}

export interface FnRec {
  name: string;
  id: number;
  addr: number;
  type: import('./ctypes').FnT;
  loc: SourceLoc;
  /** Has a C body. */
  hasBody: boolean;
  mayYield: boolean;
  plain?: FnCode & { run(nf: Frame, site: SourceLoc | undefined): number };
  gen?: FnCode & { run(nf: Frame, site: SourceLoc | undefined): Generator<void, number, void> };
  /** Interpreter built-in (memcpy, printf, ztaDualHartExecute...). */
  builtin?: Builtin;
  /** Normalisers of the declared parameter types (calls through pointers). */
  argNorm: ((v: number) => number)[];
}

export type Builtin = (args: number[], site: SourceLoc, fr: Frame) => number;

export interface Hart {
  id: 0 | 1;
  /** Triples: FnCode (the running version), call site (undefined for the entry), frame; `n` entries are live. */
  calls: unknown[];
  n: number;
  /** MEM stack (grows down); `top` 0 = not allocated yet. */
  sp: number;
  lo: number;
  top: number;
}

export const FN_BASE = 0xfff00000;
export const FN_STRIDE = 16;

export function fmtLoc(l: SourceLoc | undefined): string {
  return l ? `${l.file}:${l.line}:${l.column}` : '?';
}

export function newHart(id: 0 | 1): Hart {
  return { id, calls: [], n: 0, sp: 0, lo: 0, top: 0 };
}

export class Runtime {
  mem: Uint8Array = new Uint8Array(0);
  dv: DataView = new DataView(new ArrayBuffer(0));
  size = 0;
  /** Accesses below this address fault as null-pointer dereferences. */
  lo = 16;
  b: Budget = { steps: Number.MAX_SAFE_INTEGER, cancelled: false };
  mark = 0;
  sv!: HostServices;
  main: Hart = newHart(0);
  second: Hart = newHart(1);
  cur: Hart = this.main;
  inDual = false;
  fns: FnRec[] = [];
  maxCalls = 3 * 1000;
  stackBytes = 256 * 1024;
  /**
   * MEM write journal flags, one per 4 KiB page: a store to a page whose flag is 0 calls `wrote` first
   * (the page history saves the page). All 1 when no journal is attached.
   */
  jf: Uint8Array = new Uint8Array(0);
  private journal?: MemJournal;

  constructor(nullGuard: number, maxDepth: number, stackBytes: number) {
    this.lo = nullGuard;
    this.maxCalls = 3 * maxDepth;
    this.stackBytes = stackBytes;
  }

  attach(sv: HostServices): void {
    this.sv = sv;
    if (sv.mem !== this.mem) {
      this.mem = sv.mem;
      this.dv = new DataView(sv.mem.buffer, sv.mem.byteOffset, sv.mem.byteLength);
      this.size = sv.mem.length;
    }
    if (sv.memJournal !== this.journal || (!sv.memJournal && this.jf.length !== (this.size >>> 12) + 1)) {
      const j = sv.memJournal;
      if (j && j.shift !== 12) throw new SimError(`internal: MEM journal pages of 2^${j.shift} bytes (the interpreter checks 4 KiB pages)`);
      this.journal = j;
      this.jf = j ? j.flags : new Uint8Array((this.size >>> 12) + 1).fill(1);
    }
    this.b = sv.budget;
    if (!(this.b.steps <= Number.MAX_SAFE_INTEGER)) this.b.steps = Number.MAX_SAFE_INTEGER;
    this.mark = Math.max(0, this.b.steps - 65536);
  }

  /** Budget slow path: called when `--steps < mark`. */
  tick(loc: SourceLoc | undefined): void {
    const b = this.b;
    if (b.steps < 0) {
      b.steps = 0;
      throw this.err('step budget exhausted', loc, 'budget');
    }
    if (b.cancelled) throw this.err('cancelled', loc, 'cancelled');
    this.mark = Math.max(0, b.steps - 65536);
  }

  /** The C call stack, innermost first, with `loc` as the position in the innermost function. */
  stack(loc: SourceLoc | undefined, h: Hart = this.cur): string[] {
    const c = h.calls;
    const out: string[] = [];
    let where = loc;
    for (let i = h.n - 3; i >= 0; i -= 3) {
      out.push(`${(c[i] as FnCode).name} (${fmtLoc(where)})`);
      where = c[i + 1] as SourceLoc | undefined;
    }
    return out;
  }

  err(msg: string, loc: SourceLoc | undefined, kind: SimError['kind'] = 'fault'): SimError {
    return new SimError(msg, loc, this.stack(loc), kind);
  }

  fault(msg: string, loc: SourceLoc | undefined, kind: SimError['kind'] = 'fault'): never {
    throw this.err(msg, loc, kind);
  }

  badAddr(a: number, n: number, loc: SourceLoc, what: 'read' | 'write'): never {
    const hex = '0x' + (a >>> 0).toString(16).padStart(8, '0');
    if (a >= 0 && a < this.lo) this.fault(`null pointer dereference: ${n}-byte ${what} at address ${hex}`, loc);
    this.fault(`bad MEM address: ${n}-byte ${what} at ${hex} (MEM is 0x0..0x${this.size.toString(16)})`, loc);
  }

  check(a: number, n: number, loc: SourceLoc, what: 'read' | 'write'): void {
    if (a < this.lo || a + n > this.size || a !== a) this.badAddr(a, n, loc, what);
  }

  fnAt(addr: number): FnRec | undefined {
    const i = (addr >>> 0) - FN_BASE;
    if (i < 0 || i % FN_STRIDE !== 0) return undefined;
    return this.fns[i / FN_STRIDE];
  }

  /** Reserves the MEM stack of a hart (once per attached MEM). */
  allocStack(h: Hart, loc: SourceLoc | undefined): void {
    const base = this.sv.alloc(this.stackBytes, 16);
    if (!(base >= 0 && base + this.stackBytes <= this.size))
      this.fault(`cannot allocate a ${this.stackBytes}-byte C stack in MEM (alloc returned ${base})`, loc);
    h.lo = base;
    h.top = base + this.stackBytes;
    h.sp = h.top;
  }

  /** Reads a NUL-terminated string from MEM. */
  cstr(a: number, loc: SourceLoc, max = 1 << 20): string {
    let s = '';
    for (let i = 0; i < max; i++) {
      if (a + i < this.lo || a + i >= this.size) this.badAddr(a + i, 1, loc, 'read');
      const c = this.mem[a + i];
      if (c === 0) return decodeLatin(s);
      s += String.fromCharCode(c);
    }
    return decodeLatin(s);
  }

  memcpy(dst: number, src: number, n: number, loc: SourceLoc): void {
    if (n <= 0) return;
    this.check(src, n, loc, 'read');
    this.check(dst, n, loc, 'write');
    this.journal?.mark(dst, dst + n - 1);
    this.mem.copyWithin(dst, src, src + n);
  }

  /** Journals a store of `n` bytes at `a` (called before the store when a page flag is 0). */
  wrote(a: number, n: number): void {
    this.journal?.mark(a, a + n - 1);
  }

  /** Journals a bulk write of `n` bytes at `a` (fills, string copies): call before writing. */
  writing(a: number, n: number): void {
    if (n > 0) this.journal?.mark(a, a + n - 1);
  }

  /** The running hart as a scope for services outside a `>` statement (no C evaluation), at `loc`. */
  scopeAt(loc: SourceLoc): HostScope {
    const h = this.cur;
    return { eval: () => this.fault('scope.eval is not available here', loc), process: h.id, stack: () => this.stack(loc, h), at: loc };
  }

  private mmioAt(a: number, n: number): boolean {
    const io = this.sv?.mmio;
    return !!io && a >= io.base && a + n <= io.base + io.size;
  }

  /** A store that failed the MEM bounds check: a memory-mapped register when the services map it, else a fault. */
  storeOutside(a: number, n: number, v: number, loc: SourceLoc): void {
    if (!this.mmioAt(a, n)) this.badAddr(a, n, loc, 'write');
    try {
      this.sv.mmio!.store(a >>> 0, n, v, loc, this.scopeAt(loc));
    } catch (e) {
      throw this.adopt(e, loc);
    }
  }

  /** A load that failed the MEM bounds check: a memory-mapped register when the services map it, else a fault. */
  loadOutside(a: number, n: number, loc: SourceLoc): number {
    if (!this.mmioAt(a, n)) this.badAddr(a, n, loc, 'read');
    try {
      return this.sv.mmio!.load(a >>> 0, n, loc, this.scopeAt(loc));
    } catch (e) {
      throw this.adopt(e, loc);
    }
  }

  /** Reports a hart switch at `ztaTaskYield()` (inside ztaDualHartExecute) to the services. */
  yielded(loc: SourceLoc): void {
    const f = this.sv?.onYield;
    if (!f) return;
    try {
      f(loc, this.scopeAt(loc));
    } catch (e) {
      throw this.adopt(e, loc);
    }
  }

  /** A SimError from a service gets the location and C call stack of the C code that called it. */
  private adopt(e: unknown, loc: SourceLoc): unknown {
    if (e instanceof SimError) {
      if (!e.loc) e.loc = loc;
      if (!e.stack_.length) e.stack_ = this.stack(loc);
    }
    return e;
  }
}

/** Bytes held in a latin-1 JS string → text (UTF-8 decoded when valid). */
function decodeLatin(s: string): string {
  if (!/[^\x00-\x7f]/.test(s)) return s;
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return s;
  }
}
