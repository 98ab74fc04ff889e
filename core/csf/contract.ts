/**
 * Contraction as the CROSS-mini accelerator computes it (`accel_sim LHS RHS RES`): both operands are
 * contracted along their final dimension, C = tensordot(A, B, axes=(-1, -1)):
 *
 *   C[a0..a(p-2), b0..b(q-2)] = Σ_k A[a0..a(p-2), k] · B[b0..b(q-2), k]
 *
 * Decisions (each reproduces the measured simulator of formats.md, "Contraction semantics … (measured)"):
 * - Shape and order: C has order p + q − 2 and shape A.shape[0..p-2] ++ B.shape[0..q-2], stored row-major,
 *   so element (fiber fA of A, fiber fB of B) is at flat index fA·F_B + fB. The final extents must be equal
 *   (`csf.contract-extent-mismatch`); an order above maxOrder = 10 is refused (`csf.contract-order-too-large`).
 * - Arithmetic: float32 throughout. Each element is one merge-join in ascending index order, the accumulator
 *   starts at +0.0 and every common index does acc = fl32(acc + fl32(a·b)): no FMA, no wider or pairwise
 *   sum. Hence an element is never −0.0, and one with no common index is +0.0. Explicit zeros stored in an
 *   input are ordinary entries (so 0·Inf = NaN applies to them).
 * - NaN bits follow x86 SSE: a NaN operand propagates quieted (bit 22 set); when both operands are NaN the
 *   first one wins (the lhs value for the product, the accumulator for the sum; the PE computes
 *   `accumulator += a.value * b.value`); an invalid operation (Inf − Inf, 0 · Inf) gives the default NaN
 *   0xFFC00000. Subnormals are kept.
 * - Empty-fiber quirk: the fetch unit feeds an empty fiber to the merge-join as one entry (index 0, +0.0),
 *   so C is NaN (not 0) where the other fiber has index 0 holding ±Inf or NaN. On by default
 *   (`emptyFiberQuirk: false` gives the mathematically exact 0).
 * - Output: always dense, like the simulator's result file: all Π shape(C) elements, indices 0..L−1 in
 *   every fiber, explicit +0.0, nnz = Π shape(C), ptr[i] = i·L (L = shape(C)[-1]).
 * - Order-1 operands: the unmodified simulator crashes on them (a log printer reads idx[-1]); with that
 *   printer fixed it computes this same result, which we return with a `csf.contract-order1-operand`
 *   warning. Order 1 × order 1 (a scalar, order 0, which no .csfbin can hold) fails in every build and is
 *   refused (`csf.contract-scalar-result`).
 * - Memory: A, B and C share the 1024-word metadata memory ((2+p+F_A) + (2+q+F_B) + (2+(p+q−2)+F_C)
 *   words) and the 10^7-entry main memory (nnz_A + nnz_B + Π shape(C)); beyond that the simulator's
 *   behaviour is undefined, so it is an error here (`csf.meta-capacity`, `csf.main-capacity`); pass larger
 *   capacities (or Infinity) to compute anyway.
 * - Not modelled: simulated time (no closed form beyond 128 jobs) and its 1,000,000 ns cap, after which the
 *   simulator writes no result.
 *
 * Algorithm: row-by-row (Gustavson). B is regrouped by index k once; for each fiber of A, its entries are
 * taken in ascending k and each multiplies the B entries of column k into a row of accumulators. Every
 * accumulator therefore sees its common indices in ascending order, exactly as the merge-join does, and
 * the work is the number of multiply-adds plus the size of C. `Float32Array` stores round each product and
 * sum once from the exact double result, which equals the f32 operation. NaN results are then recomputed
 * by the bit-level merge-join (`dotFibersExact`) to get their exact bits.
 */
import { AcceleratorMemory, tensorFromMemory, type LoadedTensor } from './memory';
import {
  DEFAULT_MAIN_CAPACITY,
  DEFAULT_MAX_ORDER,
  DEFAULT_META_CAPACITY,
  bitsToF32,
  elementCount,
  exactProduct,
  f32ToBits,
  fiberCount,
  formatShape,
  makeTensor,
  type CsfIssue,
  type CsfTensor,
  type Result,
} from './types';

/** x86's default NaN, produced by invalid operations (Inf − Inf, 0 · Inf). */
export const DEFAULT_NAN_BITS = 0xffc00000;

const isNaNBits = (b: number) => (b & 0x7f800000) === 0x7f800000 && (b & 0x007fffff) !== 0;

/** fl32(a · b) on bit patterns, with x86 SSE NaN rules. */
export function f32MulBits(a: number, b: number): number {
  if (isNaNBits(a)) return (a | 0x00400000) >>> 0;
  if (isNaNBits(b)) return (b | 0x00400000) >>> 0;
  const r = Math.fround(bitsToF32(a) * bitsToF32(b));
  return r !== r ? DEFAULT_NAN_BITS : f32ToBits(r);
}

/** fl32(a + b) on bit patterns, with x86 SSE NaN rules. */
export function f32AddBits(a: number, b: number): number {
  if (isNaNBits(a)) return (a | 0x00400000) >>> 0;
  if (isNaNBits(b)) return (b | 0x00400000) >>> 0;
  const r = Math.fround(bitsToF32(a) + bitsToF32(b));
  return r !== r ? DEFAULT_NAN_BITS : f32ToBits(r);
}

/**
 * One output element, bit-exact, the way a PE computes it: merge-join of fiber fa of A and fiber fb of B in
 * ascending index order, acc = +0.0, acc = fl32(acc + fl32(a·b)) per common index (with the empty-fiber quirk
 * unless disabled). The reference model; `contractCsf` agrees with it bit for bit.
 */
export function dotFibersExact(a: CsfTensor, fa: number, b: CsfTensor, fb: number, emptyFiberQuirk = true): number {
  const ZERO: [Uint32Array, Uint32Array] = [new Uint32Array([0]), new Uint32Array([0])];
  const fiber = (t: CsfTensor, f: number): [Uint32Array, Uint32Array] => {
    const s = t.ptr[f];
    const e = t.ptr[f + 1];
    return s === e && emptyFiberQuirk ? ZERO : [t.indices.subarray(s, e), t.bits.subarray(s, e)];
  };
  const [ia, va] = fiber(a, fa);
  const [ib, vb] = fiber(b, fb);
  let acc = 0;
  let x = 0;
  let y = 0;
  while (x < ia.length && y < ib.length) {
    if (ia[x] === ib[y]) acc = f32AddBits(acc, f32MulBits(va[x++], vb[y++]));
    else if (ia[x] < ib[y]) x++;
    else y++;
  }
  return acc;
}

export interface ContractOptions {
  /** Feed empty fibers as (0, +0.0) like the simulator's fetch unit (default true). */
  emptyFiberQuirk?: boolean;
  /** Largest result order (default 10). */
  maxOrder?: number;
  /** Metadata words shared by A, B and C (default 1024). */
  metaCapacity?: number;
  /** Main-memory entries shared by A, B and C (default 10^7). */
  mainCapacity?: number;
}

export interface ContractionPlan {
  shape: number[];
  fibers: number;
  /** Π shape(C) = F_A · F_B. */
  elements: number;
  warnings: CsfIssue[];
}

/** Largest result this implementation materialises (elements). */
export const MAX_RESULT_ELEMENTS = 2 ** 28;

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

/** Checks that A and B can be contracted and returns C's shape; `metaUsed`/`mainUsed` count words and entries already taken by A and B. */
export function planContraction(
  aShape: readonly number[],
  bShape: readonly number[],
  opts: ContractOptions & { metaUsed?: number; mainUsed?: number; metaNeededForAB?: number; mainNeededForAB?: number } = {},
): Result<ContractionPlan> {
  const err = (code: CsfIssue['code'], message: string): { ok: false; issues: CsfIssue[] } => ({ ok: false, issues: [{ code, severity: 'error', message }] });
  const p = aShape.length;
  const q = bShape.length;
  const ka = aShape[p - 1];
  const kb = bShape[q - 1];
  if (ka !== kb)
    return err(
      'csf.contract-extent-mismatch',
      `the final extents must be equal: lhs shape ${formatShape(aShape)} ends in ${ka}, rhs shape ${formatShape(bShape)} ends in ${kb}`,
    );
  if (p === 1 && q === 1)
    return err(
      'csf.contract-scalar-result',
      `contracting two order-1 tensors (shapes ${formatShape(aShape)} and ${formatShape(bShape)}) gives a scalar (order 0), which a .csfbin file cannot ` +
        'hold; the simulator fails on it too',
    );
  const shape = [...aShape.slice(0, p - 1), ...bShape.slice(0, q - 1)];
  const maxOrder = opts.maxOrder ?? DEFAULT_MAX_ORDER;
  if (shape.length > maxOrder)
    return err(
      'csf.contract-order-too-large',
      `the result would have order ${p} + ${q} − 2 = ${shape.length} (shape ${formatShape(shape)}), more than the maximum ${maxOrder}`,
    );
  const fibers = fiberCount(shape);
  if (fibers === undefined) return err('csf.count-overflow', `the result shape ${formatShape(shape)} has too many fibers`);
  const elements = elementCount(shape);
  const metaCap = opts.metaCapacity ?? DEFAULT_META_CAPACITY;
  const mainCap = opts.mainCapacity ?? DEFAULT_MAIN_CAPACITY;
  const metaC = 2 + shape.length + fibers;
  const metaUsed = opts.metaUsed ?? 0;
  const mainUsed = opts.mainUsed ?? 0;
  if (metaUsed + metaC > metaCap)
    return err(
      'csf.meta-capacity',
      `the result (shape ${formatShape(shape)}, ${plural(fibers, 'fiber')}) needs ${metaC} metadata words after the ${metaUsed} taken by the ` +
        `operands, ${metaUsed + metaC} in all, but the metadata memory holds ${metaCap} words`,
    );
  // the counts in messages are exact (elementCount stops at 2^60)
  const exact = exactProduct(shape);
  if (mainUsed + elements > mainCap)
    return err(
      'csf.main-capacity',
      `the dense result (shape ${formatShape(shape)}) needs ${exact} main-memory entries after the ${mainUsed} taken by the operands, ` +
        `${Number.isSafeInteger(mainUsed) ? BigInt(mainUsed) + exact : mainUsed + elements} in all, but the main memory holds ${mainCap} entries`,
    );
  if (elements > MAX_RESULT_ELEMENTS)
    return err(
      'csf.main-capacity',
      `the dense result (shape ${formatShape(shape)}) has ${exact} elements, more than the ${MAX_RESULT_ELEMENTS} this tool materialises`,
    );
  const warnings: CsfIssue[] = [];
  if (p === 1 || q === 1)
    warnings.push({
      code: 'csf.contract-order1-operand',
      severity: 'warning',
      message:
        `the ${p === 1 ? 'lhs' : 'rhs'} has order 1: the unmodified CROSS-mini simulator crashes on such a pair (SystemC E300, no result file); this ` +
        'is the result it computes with its log printer fixed',
    });
  return { ok: true, shape, fibers, elements, warnings };
}

/** The dense result values of C (row-major, F_A · F_B elements) as f32 bits, and the multiply-adds done. */
export function contractValues(a: CsfTensor, b: CsfTensor, emptyFiberQuirk = true): { out: Float32Array; bits: Uint32Array; multiplyAdds: number } {
  const FA = a.ptr.length - 1;
  const FB = b.ptr.length - 1;
  const K = a.shape[a.shape.length - 1];
  const out = new Float32Array(FA * FB);
  const bits = new Uint32Array(out.buffer);
  if (FA === 0 || FB === 0) return { out, bits, multiplyAdds: 0 };

  // Regroup B by index: column c holds (fiber j, value) for every B entry with that index, j ascending.
  const bPtr = b.ptr;
  const bIdx = b.indices;
  const bVal = b.values;
  const nB = bIdx.length;
  const denseCols = K <= 1 << 24 || K <= 4 * (nB + FB);
  let colOfIndex: Map<number, number> | undefined;
  let ncols: number;
  if (denseCols) ncols = Math.max(K, 1);
  else {
    colOfIndex = new Map<number, number>();
    if (emptyFiberQuirk) colOfIndex.set(0, 0);
    for (let e = 0; e < nB; e++) if (!colOfIndex.has(bIdx[e])) colOfIndex.set(bIdx[e], colOfIndex.size);
    ncols = Math.max(colOfIndex.size, 1);
  }
  const col = (k: number): number => (colOfIndex ? (colOfIndex.get(k) ?? -1) : k);
  const colStart = new Uint32Array(ncols + 1);
  let extra = 0;
  for (let j = 0; j < FB; j++) {
    const s = bPtr[j];
    const e = bPtr[j + 1];
    if (s === e) {
      if (emptyFiberQuirk) {
        colStart[col(0) + 1]++;
        extra++;
      }
    } else for (let x = s; x < e; x++) colStart[col(bIdx[x]) + 1]++;
  }
  for (let c = 0; c < ncols; c++) colStart[c + 1] += colStart[c];
  const fill = colStart.slice(0, ncols);
  const colJ = new Uint32Array(nB + extra);
  const colV = new Float32Array(nB + extra);
  for (let j = 0; j < FB; j++) {
    const s = bPtr[j];
    const e = bPtr[j + 1];
    if (s === e) {
      if (emptyFiberQuirk) {
        const at = fill[col(0)]++;
        colJ[at] = j;
        colV[at] = 0;
      }
    } else
      for (let x = s; x < e; x++) {
        const at = fill[col(bIdx[x])]++;
        colJ[at] = j;
        colV[at] = bVal[x];
      }
  }

  const aPtr = a.ptr;
  const aIdx = a.indices;
  const aVal = a.values;
  let macs = 0;
  const zeroCol = emptyFiberQuirk ? col(0) : -1;
  for (let i = 0; i < FA; i++) {
    const base = i * FB;
    const s = aPtr[i];
    const e = aPtr[i + 1];
    if (s === e) {
      // Empty lhs fiber: the quirk feeds it as (0, +0.0).
      if (zeroCol >= 0) {
        const pe = colStart[zeroCol + 1];
        let p = colStart[zeroCol];
        macs += pe - p;
        for (; p < pe; p++) out[base + colJ[p]] += Math.fround(0 * colV[p]);
      }
    } else
      for (let x = s; x < e; x++) {
        const c = colOfIndex ? col(aIdx[x]) : aIdx[x];
        if (c < 0) continue;
        const av = aVal[x];
        const pe = colStart[c + 1];
        let p = colStart[c];
        macs += pe - p;
        for (; p < pe; p++) out[base + colJ[p]] += Math.fround(av * colV[p]);
      }
    // NaN elements: recompute their exact bits (payloads, default NaN) with the bit-level merge-join.
    for (let j = 0; j < FB; j++) if (out[base + j] !== out[base + j]) bits[base + j] = dotFibersExact(a, i, b, j, emptyFiberQuirk);
  }
  return { out, bits, multiplyAdds: macs };
}

export interface Contraction {
  tensor: CsfTensor;
  /** Products accumulated (common indices over all element pairs, quirk entries included). */
  multiplyAdds: number;
  warnings: CsfIssue[];
}

/** The dense result tensor of shape `shape` from its row-major value bits. */
function denseTensor(shape: number[], bits: Uint32Array): CsfTensor {
  const total = bits.length;
  const L = shape[shape.length - 1];
  const F = fiberCount(shape)!;
  const ptr = new Uint32Array(F + 1);
  for (let r = 0; r <= F; r++) ptr[r] = r * L;
  const indices = new Uint32Array(total);
  for (let r = 0, e = 0; r < F; r++) for (let j = 0; j < L; j++) indices[e++] = j;
  return makeTensor(shape, ptr, indices, bits);
}

/**
 * C = tensordot(A, B, axes=(-1, -1)) as the accelerator computes it, dense (see the decisions above).
 * Capacities are those of a fresh simulator holding A, B and C.
 */
export function contractCsf(a: CsfTensor, b: CsfTensor, opts: ContractOptions = {}): Result<Contraction> {
  const p = a.shape.length;
  const q = b.shape.length;
  const plan = planContraction(a.shape, b.shape, {
    ...opts,
    metaUsed: 2 + p + (a.ptr.length - 1) + 2 + q + (b.ptr.length - 1),
    mainUsed: a.indices.length + b.indices.length,
  });
  if (!plan.ok) return plan;
  const { bits, multiplyAdds } = contractValues(a, b, opts.emptyFiberQuirk ?? true);
  return { ok: true, tensor: denseTensor(plan.shape, bits), multiplyAdds, warnings: plan.warnings };
}

/**
 * Runs the contraction inside the memories, like `Control::contract`: C's metadata goes at the next free
 * metadata word (order, shape, then one pointer per fiber and the end pointer), its fibers are allocated
 * densely, one after another, from the next free main entry, and each element (j, value) is stored at
 * meta[fiber pointer] + j. Returns C as a resident tensor; on error the memories are unchanged.
 */
export function contractInMemory(
  mem: AcceleratorMemory,
  tA: number,
  tB: number,
  opts: Omit<ContractOptions, 'metaCapacity' | 'mainCapacity'> & { name?: string } = {},
): Result<{ tensor: LoadedTensor; multiplyAdds: number; warnings: CsfIssue[] }> {
  const ra = tensorFromMemory(mem, tA);
  if (!ra.ok) return ra;
  const rb = tensorFromMemory(mem, tB);
  if (!rb.ok) return rb;
  const a = ra.tensor;
  const b = rb.tensor;
  const plan = planContraction(a.shape, b.shape, {
    ...opts,
    metaCapacity: mem.metaCapacity,
    mainCapacity: mem.mainCapacity,
    metaUsed: mem.metaTop,
    mainUsed: mem.mainTop,
  });
  if (!plan.ok) return plan;
  const { shape, fibers: F } = plan;
  const n = shape.length;
  const L = shape[n - 1];
  const { bits, multiplyAdds } = contractValues(a, b, opts.emptyFiberQuirk ?? true);
  const tC = mem.allocMeta(2 + n + F);
  mem.setMetaWord(tC, n);
  for (let k = 0; k < n; k++) mem.setMetaWord(tC + 1 + k, shape[k]);
  const mainBase = mem.mainTop;
  for (let f = 0; f < F; f++) {
    const start = mem.allocMain(L);
    mem.setMetaWord(tC + 1 + n + f, start);
    for (let j = 0; j < L; j++) mem.setMainEntry(start + j, j, bits[f * L + j]);
  }
  mem.setMetaWord(tC + 1 + n + F, mem.mainTop);
  const tensor: LoadedTensor = { t: tC, name: opts.name, order: n, shape, fibers: F, nnz: F * L, metaEnd: tC + 2 + n + F, mainBase, mainEnd: mem.mainTop };
  mem.tensors.push(tensor);
  return { ok: true, tensor, multiplyAdds, warnings: plan.warnings };
}
