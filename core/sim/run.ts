/**
 * Running a tensor program: compiles its C (host interpreter), loads its PCORE program (kernel
 * interpreter), preloads MEM regions, runs the entry function on the machine, and collects the trace,
 * the requested dumps and any run-time error with its location and C call stack.
 */
import type { Project } from '../project/project';
import type { PcoreView } from '../project/pcoreAdapter';
import { encodeNpy, NpyError, npyLoadBytes } from '../common/npy';
import { Machine } from './machine';
import { SpaceHistory } from './history';
import { TensorExecutor } from './engine/execute';
import { compileProgram, type FunctionInfo, type HostProgram, type WasmLoader } from './host';
import { placeBuffers, resolveArgs, type BufferSpec, type RunBuffer } from './buffers';
import { UnwrittenReads } from './unwrittenReads';
import type { DebugPort } from './host/compile';
import { createPcoreRunner } from './pcore';
import { callRuntime } from './libraryCalls';
import { YIELD_KIND, type StatementRun, type TraceStep } from '../protocol/trace';
import { countStatements, type RunSummary } from './trace';
import { labelled, NPY_OF, readValues, resolveWhere, SpecError, type DumpSpec, type LoadSpec } from './dump';
import { IncludedPrograms } from './included';
import { SPACE_NAMES, spaceBuffer } from './spaces';
import { SimError, type Budget, type HostServices, type RunWarning, type SourceLoc } from './types';

export interface RunOptions {
  project: Project;
  file: string;
  /** Overrides the file's text (an unsaved editor buffer). */
  text?: string;
  entry?: string;
  /** Integers, or `"@name"`/`"@name+bytes"` for the address of a buffer. */
  args?: (number | string)[];
  /** Named buffers, placed in MEM after the C globals (buffers.ts). */
  buffers?: BufferSpec[];
  loads?: (LoadSpec & { bytes: Uint8Array })[];
  dumps?: DumpSpec[];
  memBytes?: number;
  stepBudget?: number;
  loadWasm: WasmLoader;
  /** Cancellation and progress: checked/called every few thousand steps. */
  budget?: Budget;
  onProgress?: (steps: number) => void;
  /** Keep per-step memory history (for the inspector and debugger). Default true. */
  history?: boolean;
  /**
   * Keep the trace (every executed tensor step, for the inspector, the debugger, `--json` and
   * `--trace`). Default true. Without it a run is not limited to `maxTraceSteps` (the step budget
   * still bounds it) and `trace` of the result stays empty; the summary counts the statements.
   */
  trace?: boolean;
  /** Most tensor steps a run records (its trace); one more stops the run. Default DEFAULT_MAX_TRACE_STEPS. */
  maxTraceSteps?: number;
  /** Most bytes of saved pages the memory history may hold; more stops the run. Default DEFAULT_MAX_HISTORY_BYTES. */
  maxHistoryBytes?: number;
  /** A debugger (debug/, through core/sim/debug): compiles stop points in, sees the live machine before the entry runs, and every step and output. */
  debug?: RunDebugHooks;
}

export interface RunDebugHooks {
  port: DebugPort;
  /** Called right before the entry function runs (after compilation, initialisers and loads). */
  attach(parts: {
    host: HostProgram;
    machine: Machine;
    executor: TensorExecutor;
    histories: Map<string, SpaceHistory>;
    trace: TraceStep[];
    entry: string;
    pcore?: PcoreView;
  }): void;
  onStep?(s: TraceStep): void;
  onOutput?(text: string): void;
}

export interface DumpResult {
  space: string;
  where: string;
  dtype: string;
  address: number;
  values?: number[];
  file?: string;
  /** Encoded file contents (.npy when the file name ends with .npy, raw bytes otherwise). */
  bytes?: Uint8Array;
}

export interface RunError {
  file: string;
  line: number;
  column: number;
  message: string;
  kind: string;
  stack: string[];
}

export interface RunResult {
  summary: RunSummary;
  /** What the simulator did not model exactly, once per place and message (with a count), in order of first occurrence. */
  warnings: RunWarning[];
  trace: TraceStep[];
  dumps: DumpResult[];
  error: RunError | null;
  output: string;
  entry: string;
  machine: Machine;
  histories: Map<string, SpaceHistory>;
  host?: HostProgram;
  /** What each `>` transfer and definition did the last time it ran, with how many times (made when called: engine/statementRuns.ts). */
  statements: () => StatementRun[];
  /** The named buffers where they were placed in MEM, in the configuration's order (empty when the run stopped before placing them). */
  buffers: RunBuffer[];
}

export const DEFAULT_STEP_BUDGET = 500_000_000;
/**
 * Resource limits of what a run records (every executed tensor step is kept for the inspector and the
 * debugger): a `>` statement or `ztaTaskYield()` in an endless loop stops here, with a located error,
 * before it takes the machine's memory.
 */
export const DEFAULT_MAX_TRACE_STEPS = 200_000;
export const DEFAULT_MAX_HISTORY_BYTES = 512 * 2 ** 20;
/** Distinct warnings a run keeps (a warning in a loop is counted, not repeated). */
const MAX_WARNINGS = 200;

/** Picks the entry function: `main`, else the only `kernel_*` function, else the only function that is never called. */
export function defaultEntry(names: string[], called: Set<string>): string | undefined {
  if (names.includes('main')) return 'main';
  const kernels = names.filter((n) => n.startsWith('kernel_'));
  if (kernels.length === 1) return kernels[0];
  const roots = names.filter((n) => !called.has(n));
  return roots.length === 1 ? roots[0] : undefined;
}

export async function runProgram(o: RunOptions): Promise<RunResult> {
  const t0 = Date.now();
  const a = o.project.analyze(o.file, o.text);
  if (!a) throw new SimError(`cannot read ${o.file}`, undefined, [], 'compile');
  const m = new Machine({ memBytes: o.memBytes });
  const histories = new Map<string, SpaceHistory>();
  if (o.history !== false) {
    for (const name of SPACE_NAMES) histories.set(name, new SpaceHistory(name, spaceBuffer(m, name)));
  }
  const trace: TraceStep[] = [];
  const keepTrace = o.trace !== false;
  /** Statements run while the trace is not kept. */
  let untraced = 0;
  let output = '';
  const budget: Budget = o.budget ?? { steps: o.stepBudget ?? DEFAULT_STEP_BUDGET, cancelled: false };
  if (o.stepBudget !== undefined) budget.steps = o.stepBudget;
  const startBudget = budget.steps;
  // the PCORE program may come from an included tensor program (decided while the C is compiled)
  const included = new IncludedPrograms(o.project, a, a.pcore as PcoreView | undefined);
  let pcore = included.pcore;
  const warnings = new Map<string, RunWarning>();
  const warn = (message: string, at: SourceLoc | undefined) => {
    const loc = at ?? { file: o.file, line: 1, column: 1 };
    const key = `${loc.file}:${loc.line}:${loc.column}:${message}`;
    const w = warnings.get(key);
    if (w) w.count++;
    else if (warnings.size < MAX_WARNINGS) warnings.set(key, { file: loc.file || o.file, line: loc.line, column: loc.column, message, count: 1 });
  };
  const result: RunResult = {
    summary: { steps: 0, statements: 0, bytesMoved: 0, laneOps: 0, timeMs: 0 },
    warnings: [],
    trace,
    dumps: [],
    error: null,
    output: '',
    entry: o.entry ?? '',
    machine: m,
    histories,
    statements: () => ex?.statementRecords() ?? [],
    buffers: [],
  };
  const unwritten = new UnwrittenReads(m.mem.length);
  const maxTrace = o.maxTraceSteps ?? DEFAULT_MAX_TRACE_STEPS;
  const maxHistory = o.maxHistoryBytes ?? DEFAULT_MAX_HISTORY_BYTES;
  /**
   * After each tensor step: the trace and memory history stay within their limits (the host code that ran the step gives the error its location
   * and C stack).
   */
  const limit = () => {
    if (trace.length >= maxTrace)
      throw new SimError(`stopped after ${trace.length} tensor steps, the most a run records (does the program loop forever?)`, undefined, [], 'budget');
    let kept = 0;
    for (const h of histories.values()) kept += h.bytesKept;
    if (kept > maxHistory)
      throw new SimError(
        `stopped after ${trace.length} tensor steps: the memory history of the run holds more than ${Math.round(maxHistory / 2 ** 20)} MiB (does the ` +
          'program loop forever?)',
        undefined,
        [],
        'budget',
      );
  };
  const fail = (e: unknown) => {
    if (e instanceof SimError) {
      const loc = e.loc ?? { file: o.file, line: 1, column: 1 };
      result.error = { file: loc.file || o.file, line: loc.line, column: loc.column, message: e.message, kind: e.kind, stack: e.stack_ };
    } else if (e instanceof SpecError || e instanceof NpyError) {
      result.error = { file: o.file, line: 1, column: 1, message: e.message, kind: 'usage', stack: [] };
    } else if (e instanceof RangeError) {
      result.error = { file: o.file, line: 1, column: 1, message: e.message, kind: 'fault', stack: [] };
    } else throw e;
  };
  let ex: TensorExecutor | undefined;
  try {
    const compileErr = a.diagnostics.find((d) => d.severity === 'error');
    if (compileErr)
      throw new SimError(
        `the program has errors; fix them first: ${compileErr.message}`,
        { file: o.file, line: compileErr.range.start.line + 1, column: compileErr.range.start.character + 1 },
        [],
        'compile',
      );
    const host = await compileProgram({
      file: o.file,
      text: a.text,
      units: a.units.map((u) => ({ firstLine: u.buf.firstLine, lastLine: u.buf.lastLine })),
      readInclude: (p, from) => {
        const r = o.project.resolveInclude(from, p);
        return r && { file: r.path, text: r.text };
      },
      includedUnits: included.units,
      kernelAddress: (name) => {
        const i = included.kernelNames().indexOf(name);
        return i < 0 ? undefined : (i + 1) << 4;
      },
      loadWasm: o.loadWasm,
      debug: o.debug?.port,
    });
    result.host = host;
    pcore = included.pcore;
    const kernels = included.kernelNames();
    const exec = (ex = new TensorExecutor({
      a,
      included: included.list,
      m,
      pcore,
      runner: pcore ? createPcoreRunner(pcore.program) : undefined,
      budget,
      history: (s) => histories.get(s),
      onStep: (s) => {
        unwritten.step(s);
        if (keepTrace) trace.push(s);
        else if (s.kind !== YIELD_KIND) untraced++;
        if (keepTrace || histories.size) limit();
        if (o.debug?.onStep) o.debug.onStep(s);
        if (o.onProgress && (s.step & 255) === 0) o.onProgress(s.step);
      },
      onCallback: () => undefined,
      print: (t) => {
        output += t;
        o.debug?.onOutput?.(t);
      },
      kernelByAddress: (addr) => kernels[addr - 1],
      warn,
    }));
    const services: HostServices = {
      mem: m.mem,
      alloc: (size, align) => m.alloc(size, align),
      tensor: (unit, scope) => exec.run(unit, scope),
      builtin: (name, args, scope) => callRuntime(name, args, scope),
      print: (t) => {
        output += t;
        o.debug?.onOutput?.(t);
      },
      warn,
      budget,
      ...exec.hostHooks(),
    };
    host.init(services);
    // named buffers after the globals (the stack and the heap are allocated later, above them)
    for (const b of o.buffers ?? [])
      if (host.globals().has(b.name)) throw new SpecError(`buffer ${b.name}: the program has a C global of that name; name the buffer differently`);
    // what the C program's globals, statics and strings hold is initialised (zero or their initialisers)
    unwritten.wrote(0, m.heapEnd);
    result.buffers = placeBuffers(m, o.buffers ?? []);
    result.buffers.forEach((b, i) => unwritten.wrote(b.address, o.buffers![i].data?.length ?? 0));
    /** A C global or a buffer, by name (load and dump WHERE). */
    const named = (n: string) => {
      const b = result.buffers.find((x) => x.name === n);
      return b ? { address: b.address, size: b.bytes } : globalOf(host, n);
    };
    // preloads
    for (const l of o.loads ?? []) {
      const where = labelled(`--load ${l.text}`, () => resolveWhere('MEM', l.where, { global: named, pcore }));
      let data = l.bytes;
      // a .npy file's data bytes as stored (the codec only reads its header)
      if (l.file.toLowerCase().endsWith('.npy')) data = labelled(`--load ${l.text}`, () => npyLoadBytes(l.bytes, l.file));
      if (where.address < 0 || where.address + data.length > m.mem.length)
        throw new SpecError(`--load ${l.text}: ${data.length} bytes at 0x${where.address.toString(16)} do not fit in MEM (${m.mem.length} bytes)`);
      if (where.limit !== undefined && data.length > where.limit)
        throw new SpecError(`--load ${l.text}: ${data.length} bytes are more than ${l.where} holds (${where.limit} bytes)`);
      m.mem.set(data, where.address);
      unwritten.wrote(where.address, data.length);
    }
    const names = host.functions().map((f) => f.name);
    const entry = o.entry ?? defaultEntry(names, new Set(a.c.calls.map((c) => c.name)));
    if (!entry)
      throw new SimError(`no entry function: give one with --entry (functions: ${names.join(', ')})`, { file: o.file, line: 1, column: 1 }, [], 'compile');
    if (!names.includes(entry))
      throw new SimError(`no function named ${entry} (functions: ${names.join(', ')})`, { file: o.file, line: 1, column: 1 }, [], 'compile');
    result.entry = entry;
    const args = resolveArgs(o.args ?? [], result.buffers);
    checkEntryArgs(
      host.functions().find((f) => f.name === entry)!,
      args.length,
    );
    o.debug?.attach({ host, machine: m, executor: exec, histories, trace, entry, pcore });
    // host C writes from here on are journaled in the MEM history (initialisers and loads are the initial state)
    services.memJournal = unwritten.journal(histories.get('MEM')?.journal);
    host.run(entry, args, services);
    // dumps
    for (const d of o.dumps ?? []) {
      const where = labelled(`--dump ${d.text}`, () => resolveWhere(d.space, d.where, { global: named, pcore }));
      const values = labelled(`--dump ${d.text}`, () => readValues(m, d, where.address, where.shared, where.limit));
      const r: DumpResult = { space: d.space === 'PCORE' ? `PCORE@${d.process}` : d.space, where: d.where, dtype: d.dtype, address: where.address };
      if (d.file) {
        r.file = d.file;
        r.bytes = d.file.toLowerCase().endsWith('.npy')
          ? encodeNpy({ dtype: NPY_OF[d.dtype], shape: d.shape ?? [values.length], data: values })
          : rawBytes(values, d.dtype);
      } else r.values = values;
      result.dumps.push(r);
    }
  } catch (e) {
    fail(e);
  }
  // also when the run stopped with an error: what ran before it
  result.summary.bytesMoved = ex?.bytesMoved ?? 0;
  result.summary.laneOps = ex?.laneOps ?? 0;
  result.summary.steps = startBudget - budget.steps;
  result.summary.statements = countStatements(trace) + untraced;
  result.summary.timeMs = Date.now() - t0;
  result.output = output;
  for (const w of unwritten.warnings()) {
    const key = `${w.file}:${w.line}:${w.column}:${w.message}`;
    if (warnings.size < MAX_WARNINGS) warnings.set(key, w);
  }
  result.warnings = [...warnings.values()];
  return result;
}

/**
 * The entry's arguments against its C definition: a missing or extra argument is an error at the definition the run uses (a
 * prototype in a header may come first), with the parameters named, kind `entry-args` (the editor offers to create a run
 * configuration).
 */
function checkEntryArgs(f: FunctionInfo, given: number): void {
  const want = f.params.length;
  if (given === want) return;
  const list = f.params.map((p, i) => p || `#${i + 1}`).join(', ');
  throw new SimError(
    `${f.name}() takes ${want} argument(s) (${list}), ${given} given: give them in the run configuration ("args", e.g. "@input" for a buffer's address)`,
    f.loc,
    [],
    'entry-args',
  );
}

function globalOf(host: HostProgram, name: string): { address: number; size: number } | undefined {
  const g = host.globals().get(name);
  return g && g.address >= 0 ? { address: g.address, size: g.size } : undefined;
}

function rawBytes(values: number[], dtype: string): Uint8Array {
  const el = dtype === 'u8' || dtype === 'i8' ? 1 : dtype === 'u16' || dtype === 'i16' || dtype === 'word12' ? 2 : 4;
  const out = new Uint8Array(values.length * el);
  const dv = new DataView(out.buffer);
  values.forEach((v, i) => {
    if (el === 1) dv.setUint8(i, v & 0xff);
    else if (el === 2) dv.setInt16(2 * i, v, true);
    else if (dtype === 'f32') dv.setFloat32(4 * i, v, true);
    else dv.setInt32(4 * i, v, true);
  });
  return out;
}
