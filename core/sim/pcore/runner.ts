/**
 * PCORE kernel runner: `launch` runs a kernel of an analysed `.p` program for every PCORE and thread of a
 * process page (EXE_LOCKSTEP). Kernels are compiled to closures on first launch (compile/).
 *
 * Hardware model (ztachip HW/src). Every thread has its own program counter (`pc_r`,
 * pcore/instr_fetch.vhd:92); a launch starts all threads of the task mask at once (:591-605); a round-robin
 * arbiter (`PRIORITY_BASED=>FALSE`, :504-506) issues one instruction of one available thread per cycle.
 * A thread has one instruction in flight: its next PC is set when the instruction reaches the 11th stage
 * (branches resolved there, :610-612) and it is available again one cycle later (`proc_delay_c` =
 * 11 − pipeline_latency_c − 1 = 1, :243, ztachip_pkg.vhd:195), so with 16 threads each thread issues
 * once every 16 cycles, in thread order. An instruction reads its memory operands at dispatch
 * (pcore/instr_dispatch2.vhd:166) and its result is written fu_latency_c + 1 = 7 cycles later (:157, :231,
 * ztachip_pkg.vhd:193). A thread number runs in lockstep on all PCOREs, which OR their branch
 * decisions; shared memory is per PCORE.
 *
 * Execution model. Threads of a PCORE run in rounds: in each round every live thread, in thread order,
 * runs one step — a statement or a loop/branch test (flat.ts) — and the shared-memory writes of the round
 * land together at its end (a thread sees its own writes at once). So a thread reads, before their
 * writes land, the words other threads write in the same or a later statement, and sees what they wrote
 * in earlier statements — what kernels such as of1::calc_lucus_kanade (read a window, then write into
 * other threads' windows) rely on. PCOREs run one after another (they share no memory). Kernels that
 * cannot observe the order — no shared word they may read is one they may write (order.ts, static) —
 * take the fast path: each (pcore, thread) runs the whole kernel, thread after thread, same results.
 *
 * Limits: a step is a statement, not a machine instruction, and timing is not modelled. The hardware
 * lets a read see a write of the same instruction by a thread more than ~7 threads earlier, and hides a
 * write of the previous instruction by a thread ~9 or more threads later (16 threads issuing); the model
 * hides all same-step writes and shows all earlier-step ones. Threads at different statements after
 * divergent branches are aligned by step count, not by instruction count. Two threads writing the same
 * shared word in different steps of a fast-path kernel end with the higher thread's value. Divergence
 * across PCOREs is not modelled (each PCORE follows its own branches).
 *
 * Persistent per-thread state (per process page, PCORE and thread): `_VMASK` (reset: all lanes), class `int`
 * registers, class pointer registers and class accumulators. Registers are indexed by the analyzer's
 * register numbers, so classes overlay each other's registers like they overlay memory. Locals are
 * per thread (the interleaved path swaps the kernel's frame per thread).
 */
import type { PcoreProgram } from '../../pcore/model';
import { SimError, type KernelLaunch, type PcoreRunner } from '../types';
import type { PcoreKernel } from '../../pcore/model';
import { Compiler, type StateLayout } from './compile';
import { END, flatten, type FlatCode } from './flat';
import { threadOrderVisible } from './order';
import * as R from './kernelState';

const { Ctx, LANES, NUM_PCORE, NUM_THREAD, PCORE_WORDS, POLL_STEPS, STEP_CHUNK, THREAD_WORDS } = R;

export interface PcoreSimRunner extends PcoreRunner {
  /** Resets the persistent per-thread state (_VMASK = all lanes, registers and accumulators = 0). */
  reset(): void;
  /** Current `_VMASK` of a thread (13-bit signed; -1 = all lanes). */
  vmask(process: 0 | 1, pcore: number, thread: number): number;
  /** Current accumulator lanes of a thread (a copy), starting at accumulator register `lane`. */
  accumulator(process: 0 | 1, pcore: number, thread: number, lane: number, count: number): Int32Array;
}

function maxFinite(a: number, b: number): number {
  return Number.isFinite(b) && b > a ? b : a;
}

export interface PcoreRunnerOptions {
  /**
   * `auto` (default): interleave the threads of kernels that can observe their order (order.ts), run the
   * others thread after thread; `always`/`never` force one way (tests compare the two).
   */
  interleave?: 'auto' | 'always' | 'never';
}

export function createPcoreRunner(program: PcoreProgram, opts: PcoreRunnerOptions = {}): PcoreSimRunner {
  const mode = opts.interleave ?? 'auto';
  let nInt = 0;
  let nPtr = 0;
  let nAcc = 64;
  for (const c of program.classes.values()) {
    nInt = maxFinite(nInt, c.integerCount);
    nPtr = maxFinite(nPtr, c.pointerCount);
    nAcc = maxFinite(nAcc, c.accumulatorLanes);
  }
  nAcc = Math.ceil(nAcc / LANES) * LANES;
  const layout: StateLayout = {
    int0: 1,
    ptr0: 1 + nInt,
    acc0: 1 + nInt + nPtr,
    accLanes: nAcc,
    stride: 1 + nInt + nPtr + nAcc,
  };
  const threads = 2 * NUM_PCORE * NUM_THREAD;
  const M = new Ctx(threads * layout.stride);
  const compiler = new Compiler(program, M, layout);
  // interleaved execution: its own compiler (queued shared writes) and flat code, built on first need
  let slow: Compiler | undefined;
  const flats = new Map<PcoreKernel, FlatCode>();
  const visible = new Map<PcoreKernel, boolean>();
  const base = (process: number, p: number, t: number): number => ((process * NUM_PCORE + p) * NUM_THREAD + t) * layout.stride;

  const reset = (): void => {
    M.S.fill(0);
    for (let i = 0; i < threads; i++) M.S[i * layout.stride] = -1;
  };
  reset();

  const err = (l: KernelLaunch, msg: string): SimError => new SimError(msg, l.at, [], 'fault');

  const launch = (l: KernelLaunch): number => {
    const k = program.kernels.get(l.kernel);
    if (!k) throw err(l, `unknown kernel \`${l.kernel}\` (not a function of ${program.file})`);
    if (!k.isKernel) throw err(l, `\`${l.kernel}\` is not a kernel (declare it with _kernel_)`);
    const np = l.numPcore;
    const nt = l.numThread;
    if (!Number.isInteger(np) || np < 1 || np > NUM_PCORE) throw err(l, `invalid PCORE count ${np} (1..${NUM_PCORE})`);
    if (!Number.isInteger(nt) || nt < 1 || nt > NUM_THREAD) throw err(l, `invalid thread count ${nt} (1..${NUM_THREAD})`);
    if (l.process !== 0 && l.process !== 1) throw err(l, `invalid process ${String(l.process)}`);
    const need = np * PCORE_WORDS;
    if (l.page.priv.length < need || l.page.shared.length < need) throw err(l, `PCORE page too small for ${np} PCORE(s)`);
    if (l.budget.cancelled) throw new SimError('cancelled', l.at, [], 'cancelled');

    let order = visible.get(k);
    if (order === undefined) {
      order = mode === 'auto' ? threadOrderVisible(program, k) : mode === 'always';
      visible.set(k, order);
    }
    let flat: FlatCode | undefined;
    if (order) {
      flat = flats.get(k);
      if (!flat) {
        slow ??= new Compiler(program, M, layout, true);
        flat = flatten(slow, k);
        flats.set(k, flat);
      }
    }
    const u = flat ? flat.unit : compiler.unit(k);
    M.priv = l.page.priv;
    M.shared = l.page.shared;
    M.budget = l.budget;
    M.g0 = l.globals[0] | 0;
    M.g1 = l.globals[1] | 0;
    const steps = l.budget.steps;
    const start = steps > 2 ** 52 ? 2 ** 52 : steps >= 0 ? Math.floor(steps) : 0;
    M.left = start > STEP_CHUNK ? STEP_CHUNK : start;
    M.reserve = start - M.left;
    M.mark = M.left > POLL_STEPS ? M.left - POLL_STEPS : 0;
    M.ops = 0;
    M.fns[0] = k.fullName;
    const proc = l.process;
    try {
      for (let p = 0; p < np; p++) {
        M.pid = p;
        M.cb = p * PCORE_WORDS;
        if (flat) {
          interleave(flat, proc, nt);
          continue;
        }
        for (let t = 0; t < nt; t++) {
          M.tid = t;
          M.pb = M.cb + t * THREAD_WORDS;
          M.so = base(proc, p, t);
          M.depth = 0;
          u.enter();
          u.body();
        }
      }
    } finally {
      M.commit();
      l.budget.steps -= start - M.left - M.reserve;
    }
    return M.ops;
  };

  let frames = new Int32Array(0);
  const pcs = new Int32Array(NUM_THREAD);
  /** Threads of one PCORE in rounds: each runs one step, then the round's shared writes land. */
  const interleave = (code: FlatCode, proc: number, nt: number): void => {
    const { steps, free, unit } = code;
    const fr = unit.fr;
    const n = fr.length;
    if (frames.length < nt * n) frames = new Int32Array(nt * n);
    const enter = (t: number): void => {
      M.tid = t;
      M.pb = M.cb + t * THREAD_WORDS;
      M.so = base(proc, M.pid, t);
      M.depth = 0;
    };
    for (let t = 0; t < nt; t++) {
      enter(t);
      unit.enter();
      let pc = 0;
      while (pc !== END && free[pc] === 1) pc = steps[pc]();
      pcs[t] = pc;
      frames.set(fr, t * n);
    }
    let live = 0;
    for (let t = 0; t < nt; t++) if (pcs[t] !== END) live++;
    while (live > 0) {
      for (let t = 0; t < nt; t++) {
        let pc = pcs[t];
        if (pc === END) continue;
        enter(t);
        const o = t * n;
        for (let i = 0; i < n; i++) fr[i] = frames[o + i];
        M.wOwn = M.wn;
        pc = steps[pc]();
        while (pc !== END && free[pc] === 1) pc = steps[pc]();
        for (let i = 0; i < n; i++) frames[o + i] = fr[i];
        pcs[t] = pc;
        if (pc === END) live--;
      }
      M.commit();
    }
  };

  return {
    launch,
    reset,
    vmask: (process, pcore, thread) => M.S[base(process, pcore, thread)],
    accumulator: (process, pcore, thread, lane, count) => {
      const o = base(process, pcore, thread) + layout.acc0 + lane;
      return M.S.slice(o, o + count);
    },
  };
}
