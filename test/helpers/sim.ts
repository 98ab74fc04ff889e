/** Runs the `>` statements of a program in order on a fresh machine, with C values given by the test. */
import { evaluate } from '../../core/cexpr/evaluate';
import { SpaceHistory } from '../../core/sim/history';
import { Machine } from '../../core/sim/machine';
import { TensorExecutor } from '../../core/sim/engine/execute';
import type { TraceStep } from '../../core/protocol/trace';
import type { TprogAnalysis } from '../../core/tprog/analyze';
import type { PcoreRunner } from '../../core/sim/types';

export interface StaticRun {
  m: Machine;
  steps: TraceStep[];
  ex: TensorExecutor;
  histories: Map<string, SpaceHistory>;
}

export function runStatic(
  a: TprogAnalysis,
  vars: Record<string, number>,
  opts: { process?: 0 | 1; runner?: PcoreRunner; m?: Machine; prepare?: (m: Machine) => void } = {},
): StaticRun {
  const m = opts.m ?? new Machine({ memBytes: 1 << 20 });
  opts.prepare?.(m);
  const steps: TraceStep[] = [];
  const histories = new Map<string, SpaceHistory>([
    ['MEM', new SpaceHistory('MEM', m.mem)],
    ['SCRATCH', new SpaceHistory('SCRATCH', m.scratch)],
    ['PCORE0', new SpaceHistory('PCORE0', m.pages[0].priv)],
    ['PCORE0S', new SpaceHistory('PCORE0S', m.pages[0].shared)],
    ['PCORE1', new SpaceHistory('PCORE1', m.pages[1].priv)],
    ['PCORE1S', new SpaceHistory('PCORE1S', m.pages[1].shared)],
    ['SPU', new SpaceHistory('SPU', m.spu)],
  ]);
  const ex = new TensorExecutor({
    a,
    m,
    pcore: a.pcore,
    runner: opts.runner,
    budget: { steps: 1e9, cancelled: false },
    history: (s) => histories.get(s),
    onStep: (s) => steps.push(s),
    onCallback: () => {},
    print: () => {},
    kernelByAddress: () => undefined,
  });
  a.units.forEach((u, i) => {
    const resolve = (n: string) => (n in vars ? vars[n] : u.stmts[0]?.resolve(n));
    ex.run(i, {
      process: opts.process ?? 0,
      stack: () => ['test'],
      eval: (t) => {
        const v = evaluate(t, resolve);
        if (v === undefined) throw new Error(`test scope cannot evaluate ${t}`);
        return v;
      },
    });
  });
  return { m, steps, ex, histories };
}

export function writeI16(m: Machine, addr: number, values: number[]): void {
  values.forEach((v, i) => {
    m.mem[addr + 2 * i] = v & 0xff;
    m.mem[addr + 2 * i + 1] = (v >> 8) & 0xff;
  });
}

export function readI16(buf: Uint8Array, addr: number, n: number): number[] {
  return [...Array(n).keys()].map((i) => ((buf[addr + 2 * i] | (buf[addr + 2 * i + 1] << 8)) << 16) >> 16);
}
