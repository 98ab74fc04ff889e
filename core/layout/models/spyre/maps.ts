/** Spyre's host ↔ device correspondence (research layouts.md A.5 – A.7): default layout, dim_map, stride_map. */
import { cdiv, LayoutError, list, rmStrides, tuple } from '../../util';

/** Default ("generic stick") layout, A.5. Throws LayoutError for an incompatible dim order. */
export function spyreDefaultLayout(hostSize: readonly number[], eps: number, dimOrder?: readonly number[]): { deviceSize: number[]; dimMap: number[] } {
  const r = hostSize.length;
  if (r === 0 && (!dimOrder || dimOrder.length === 0)) return { deviceSize: [1, eps], dimMap: [-1, -1] };
  const o = dimOrder ? [...dimOrder] : hostSize.map((_, i) => i);
  const k = o.length;
  if (!(k === r || (k === r + 1 && o[k - 1] === -1))) throw new LayoutError('Incompatible host_size and dim_order');
  // rank 1 gives [o0, o0]: the slice is then empty
  const dimMap = [...o.slice(1), o[0], o[k - 1]];
  const stick = o[k - 1];
  const sparse = stick === -1;
  const deviceSize = dimMap.map((d, j) => {
    if (j === dimMap.length - 1) return eps;
    if (d === stick) return sparse ? 1 : cdiv(hostSize[stick], eps);
    return hostSize[d];
  });
  return { deviceSize, dimMap };
}

/** dim_map → stride_map (A.7.1). With `clamp`, the running product stops at `hostStride·hostSize` (newest runtime). */
export function dimMapToStrideMap(
  ds: readonly number[],
  dm: readonly number[],
  hostSize: readonly number[],
  hostStrides: readonly number[],
  clamp = false,
): number[] {
  const out = ds.map(() => -1);
  const running = hostSize.map((_, d) => hostStrides[d]);
  for (let j = ds.length - 1; j >= 0; j--) {
    const d = dm[j];
    if (d === -1 || hostSize[d] === 1) continue;
    out[j] = clamp ? Math.min(running[d], hostStrides[d] * hostSize[d]) : running[d];
    running[d] *= ds[j];
  }
  return out;
}

/** stride_map → dim_map, the heuristic of `spyre_mem.cpp::get_dim_map` (A.7.2). */
export function strideMapToDimMap(ds: readonly number[], sm: readonly number[], hostSize: readonly number[], hostStrides: readonly number[]): number[] {
  const n = ds.length;
  const dm = ds.map((s, j) => {
    if (s <= 1) return -1;
    // an entry −1 or 0 is below every host stride (host strides are ≥ 0, SPY020), so it finds no host dim
    let best = -1;
    for (let i = 0; i < hostSize.length; i++) {
      if (hostSize[i] <= 1 || hostStrides[i] === 0 || hostStrides[i] > sm[j]) continue;
      if (best < 0 || hostStrides[i] > hostStrides[best]) best = i;
    }
    return best;
  });
  // (for n ≤ 2, dm[n − 3] is undefined)
  if (dm[n - 3] === -1) dm[n - 3] = dm[n - 1];
  else if (n === 2 && dm[0] === -1) dm[0] = dm[1];
  return dm;
}

/** Device coordinate → host coordinate and validity (A.6.1). */
export function devToHost(
  x: readonly number[],
  ds: readonly number[],
  dm: readonly number[],
  hostSize: readonly number[],
): { h: number[]; valid: boolean; reason?: string } {
  const r = hostSize.length;
  const h = new Array<number>(r).fill(0);
  const radix = new Array<number>(r).fill(1);
  let reason: string | undefined;
  for (let j = ds.length - 1; j >= 0; j--) {
    const d = dm[j];
    if (d === -1) {
      if (x[j] !== 0) reason ??= `device dim ${j} is synthetic (dim_map −1): only coordinate 0 holds data, this is ${x[j]}`;
      continue;
    }
    h[d] += x[j] * radix[d];
    radix[d] *= ds[j];
  }
  if (!reason)
    hostSize.forEach((size, d) => {
      if (h[d] >= size) reason = `host dim ${d} would be ${h[d]}, beyond its size ${size}`;
    });
  return { h, valid: !reason, reason };
}

/** Host coordinate → device coordinate (A.6.2); `rest` non-zero means the coordinate does not fit. */
export function hostToDev(hc: readonly number[], ds: readonly number[], dm: readonly number[]): { x: number[]; fits: boolean } {
  const x = new Array<number>(ds.length).fill(0);
  const rem = [...hc];
  for (let j = ds.length - 1; j >= 0; j--) {
    const d = dm[j];
    if (d === -1) continue;
    x[j] = rem[d] % ds[j];
    rem[d] = Math.floor(rem[d] / ds[j]);
  }
  return { x, fits: rem.every((v) => v === 0) };
}

/** The dims `greedy` takes digits from, largest stride first (equal strides: the inner dim first); the others stay 0. */
export function greedyOrder(size: readonly number[], stride: readonly number[]): number[] {
  return size
    .map((_, i) => i)
    .filter((i) => stride[i] > 0 && size[i] > 1)
    .sort((a, b) => stride[b] - stride[a] || b - a);
}

/**
 * Greedy mixed-radix decomposition in decreasing-stride order (A.7.3); null when `h` is not representable. `order`
 * is `greedyOrder(size, stride)`, passed by callers that split many offsets over the same dims.
 */
export function greedy(h: number, size: readonly number[], stride: readonly number[], order: readonly number[] = greedyOrder(size, stride)): number[] | null {
  const x = new Array<number>(size.length).fill(0);
  let rem = h;
  for (const i of order) {
    const q = Math.floor(rem / stride[i]);
    if (q >= size[i]) return null;
    x[i] = q;
    rem -= q * stride[i];
  }
  return rem === 0 ? x : null;
}

/** Host offset of a device coordinate under a stride_map (−1 and 0 entries contribute nothing). */
export function strideMapOffset(x: readonly number[], sm: readonly number[]): number {
  return x.reduce((h, v, j) => h + v * Math.max(0, sm[j]), 0);
}

export type SlotClass = { kind: 'element' | 'replica'; h: number; host: number[] } | { kind: 'padding'; reason: string; h?: number };

/** isDataSlot (A.7.3), extended to say why a slot is padding and whether it is a broadcast replica. */
export function classifySlot(
  x: readonly number[],
  ds: readonly number[],
  sm: readonly number[],
  hostSize: readonly number[],
  hostStrides: readonly number[],
): SlotClass {
  // (a device dim of size 1 has only coordinate 0: x is in range)
  const j = x.findIndex((v, k) => v !== 0 && sm[k] === -1);
  if (j >= 0) return { kind: 'padding', reason: `device dim ${j} carries no host data (stride_map −1): only coordinate 0 is used, this is ${x[j]}` };
  const h = strideMapOffset(x, sm);
  const back = greedy(h, ds, sm);
  // (greedy leaves a size-1 dim at 0, where x is too)
  if (!back || ds.some((_, j) => sm[j] > 0 && back[j] !== x[j]))
    return {
      kind: 'padding',
      h,
      reason: back ? `host offset ${h} is already stored at device ${tuple(back)} (this slot aliases it)` : `host offset ${h} has no canonical device position`,
    };
  const host = greedy(h, hostSize, hostStrides);
  if (!host) return { kind: 'padding', h, reason: `host offset ${h} is not an element of the host tensor ${list(hostSize)}` };
  const replica = ds.some((_, j) => sm[j] === 0 && x[j] !== 0);
  return { kind: replica ? 'replica' : 'element', h, host };
}

export const contiguousStrides = rmStrides;

/** The layout written out, as `spyre(...)` text. */
export function spyreLayoutText(ds: readonly number[], dm: readonly number[]): string {
  return `spyre(device_size=${list(ds)}, dim_map=${list(dm)})`;
}
