/**
 * Host C interpreter of tensor programs: compiles the C of a `.m` file (with its `>` statements
 * replaced by calls into the tensor engine) and runs its functions against simulated MEM.
 *
 *   const prog = await compileProgram({ file, text, units, readInclude, kernelAddress, loadWasm });
 *   prog.run('kernel_test', [], services);
 */
import { SimError, type HostServices, type HostValue, type SourceLoc } from '../types';
import { Compiler, type CompilerOptions, type FrameView } from './compile';
import { alignOf, sizeOf, typeName } from './ctypes';
import { newHart } from './hostState';
import { cParser, type WasmLoader } from './syntax';

export type { FrameView } from './compile';
export type { WasmLoader, WasmSources } from './syntax';
export type { IncludeReader } from './preprocess';

export interface CompileOptions extends CompilerOptions {
  /**
   * Provides web-tree-sitter's runtime wasm and tree-sitter-c's wasm (bytes or paths). Node:
   * `nodeLoadWasm` from `node/wasm.ts`; a browser worker fetches the two files.
   */
  loadWasm: WasmLoader;
}

export interface GlobalInfo {
  /** MEM address (-1 until the program is attached to a machine by `init`/`run`). */
  address: number;
  /** C type, e.g. `int16_t [2048]`. */
  type: string;
  size: number;
  /** Static locals are named `function.name`. */
  isStatic: boolean;
  loc: SourceLoc;
}

export interface FunctionInfo {
  name: string;
  /** Where the function is defined (not a prototype before it). */
  loc: SourceLoc;
  /** Runs inside ztaDualHartExecute as a generator (reaches ztaTaskYield). */
  mayYield: boolean;
  params: string[];
  /** Locals of the plain version: register slot or MEM frame offset (for a debugger). */
  locals: { name: string; type: string; slot?: number; offset?: number; fromLine: number }[];
}

export interface HostProgram {
  /** Runs C function `entry` (attaching to `services` first when needed); returns its value (0 for void). */
  run(entry: string, args: HostValue[], services: HostServices): HostValue;
  /** Allocates globals, statics and string literals in `services.mem` and applies initialisers. */
  init(services: HostServices): void;
  /** Globals and statics by name (addresses valid after `init`/`run`). */
  globals(): Map<string, GlobalInfo>;
  functions(): FunctionInfo[];
  /**
   * Problems found while compiling (unsupported constructs, unknown names, syntax errors inside
   * function bodies). They do not stop compilation: the code raises them when it is reached.
   */
  readonly problems: readonly SimError[];
  /** Active C frames of the running hart, innermost first (valid during a service call). */
  frames(): FrameView[];
  /** `$cls::kernel` names used by the C code. */
  readonly kernels: readonly string[];
}

export async function compileProgram(opts: CompileOptions): Promise<HostProgram> {
  const parser = await cParser(opts.loadWasm);
  const c = new Compiler(parser, opts);
  c.compileProgram();
  return new Program(c);
}

class Program implements HostProgram {
  private attached?: HostServices;
  constructor(private c: Compiler) {}

  get problems(): readonly SimError[] {
    return this.c.problems;
  }

  get kernels(): readonly string[] {
    return this.c.pp.kernels;
  }

  init(services: HostServices): void {
    const c = this.c;
    const rt = c.rt;
    rt.attach(services);
    this.attached = services;
    rt.main = newHart(0);
    rt.second = newHart(1);
    rt.cur = rt.main;
    rt.inDual = false;
    for (const g of c.gvars) {
      const size = Math.max(1, sizeOf(g.t));
      let a: number;
      try {
        a = services.alloc(size, Math.max(1, alignOf(g.t)));
      } catch (e) {
        if (e instanceof SimError) throw new SimError(`cannot allocate ${g.name} (${size} bytes): ${e.message}`, g.loc, [], 'fault');
        throw e;
      }
      if (!(a >= 0 && a + size <= rt.size)) throw new SimError(`cannot allocate ${g.name} (${size} bytes) in MEM (alloc returned ${a})`, g.loc, [], 'fault');
      g.addr = a;
      rt.mem.fill(0, a, a + size);
    }
    c.allocStrings();
    for (const g of c.gvars) if (g.init) g.init([0, 0]);
  }

  run(entry: string, args: HostValue[], services: HostServices): HostValue {
    const c = this.c;
    const rt = c.rt;
    if (this.attached !== services) this.init(services);
    else rt.attach(services);
    const f = c.fns.get(entry);
    if (!f || !f.hasBody) throw new SimError(`no C function '${entry}' in ${c.src === undefined ? '' : this.fileName()}`, undefined, [], 'compile');
    rt.cur = rt.main;
    rt.main.n = 0;
    if (rt.main.top !== 0) rt.main.sp = rt.main.top;
    rt.inDual = false;
    const p = c.plainOf(f);
    const nf = c.frameFor(f, p, args, f.loc);
    try {
      return p.run(nf, undefined);
    } catch (e) {
      if (e instanceof RangeError && /call stack/i.test(e.message))
        throw new SimError('stack overflow: host recursion limit reached (lower maxCallDepth)', f.loc, [], 'fault');
      throw e;
    } finally {
      rt.cur = rt.main;
      rt.inDual = false;
    }
  }

  private fileName(): string {
    return this.c.src.loc({ type: '', named: true, start: 0, end: 0, field: null, kids: [], missing: false, id: 0 }).file;
  }

  globals(): Map<string, GlobalInfo> {
    const m = new Map<string, GlobalInfo>();
    for (const g of this.c.gvars) m.set(g.name, { address: g.addr, type: typeName(g.t), size: sizeOf(g.t), isStatic: g.isStatic, loc: g.loc });
    return m;
  }

  functions(): FunctionInfo[] {
    const out: FunctionInfo[] = [];
    for (const [f, d] of this.c.defs) {
      const p = this.c.plainOf(f);
      out.push({
        name: f.name,
        loc: d.loc,
        mayYield: f.mayYield,
        params: d.params.map((x) => x.name ?? ''),
        locals: p.locals.map((l) => ({ name: l.name, type: typeName(l.type), slot: l.slot, offset: l.offset, fromLine: l.fromLine })),
      });
    }
    return out;
  }

  frames(): FrameView[] {
    return this.c.frames();
  }
}
