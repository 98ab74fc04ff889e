/** Test helpers: analyse a tensor program (with an optional PCORE program) through the real engine. */
import { analyzeTprog, type StmtInfo, type TprogAnalysis } from '../../core/tprog/analyze';
import { enumerate } from '../../core/tprog/descriptor';
import { loadPcoreView } from '../../core/project/pcoreAdapter';
import type { Dialect } from '../../core/tprog/analyze';

export function analyze(text: string, pcore?: string, dialect: Dialect = 'auto'): TprogAnalysis {
  return analyzeTprog(text, { file: '/t/x.m', pcore: pcore === undefined ? undefined : loadPcoreView(pcore, '/t/x.p'), dialect });
}

/** The statements of a program, in order. */
export function stmts(a: TprogAnalysis): StmtInfo[] {
  return a.units.flatMap((u) => u.stmts);
}

export interface Pair {
  dst: number[];
  src: number[] | undefined;
  srcValid: boolean;
  dstValid: boolean;
}

/** Element pairs of a transfer in engine order (index values per level; MEM indices in dimension order). */
export function pairs(info: StmtInfo): Pair[] {
  const dd = info.dst!.desc;
  const sd = info.src!.desc;
  const D = enumerate(dd, dd.total ?? 0);
  const S = sd.total === undefined ? [] : enumerate(sd, sd.total);
  const natural = (levels: typeof sd.levels, idx: number[]) =>
    sd.space === 'MEM' || sd.space === 'SCRATCH'
      ? levels
          .map((l, k) => ({ d: l.dim, v: idx[k] }))
          .sort((x, y) => x.d - y.d)
          .map((x) => x.v)
      : idx;
  return D.map((d, n) => ({ dst: d.idx, src: S[n] ? natural(sd.levels, S[n].idx) : undefined, srcValid: S[n]?.valid ?? false, dstValid: d.valid }));
}

export function codes(a: TprogAnalysis): string[] {
  return a.diagnostics.map((d) => d.code);
}

export function errorsOf(a: TprogAnalysis) {
  return a.diagnostics.filter((d) => d.severity === 'error');
}
