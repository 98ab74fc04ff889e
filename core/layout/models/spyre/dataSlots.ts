/** stride_map layouts: the dim_map a stride_map is a tiling of, and the count of device slots holding real elements. */
import { prod } from '../../util';

/**
 * stride_map → the dim_map it is a tiling of (A.7.1 run backwards), or undefined when it is not one.
 * Device dims are matched right to left against each host dim's running stride (plain or clamped
 * form); ties are resolved by backtracking, and every host dim must get the capacity it needs.
 */
export function reconstructDimMap(ds: readonly number[], sm: readonly number[], hs: readonly number[], strides: readonly number[]): number[] | undefined {
  if (sm.some((s, j) => s === 0 && ds[j] > 1)) return undefined;
  const n = ds.length;
  // every entry is written on the way down before the capacity check reads it
  const dm: number[] = [];
  const running = [...strides];
  const capacity = (d: number) => ds.reduce((p, s, k) => (dm[k] === d ? p * s : p), 1);
  let steps = 0;
  const go = (j: number): boolean => {
    if (++steps > 10000) return false;
    if (j < 0) return hs.every((size, d) => capacity(d) >= size);
    if (ds[j] === 1 || sm[j] === -1) {
      // a −1 entry over more than one slot is a sparse stick, and only the stick may be one
      if (ds[j] > 1 && j !== n - 1) return false;
      dm[j] = -1;
      return go(j - 1);
    }
    // a positive entry only (0 over one slot was taken above, and no running stride matches an entry below −1: validation
    // rejects negative host strides)
    for (const d of hs.keys()) {
      if (hs[d] <= 1) continue;
      const run = running[d];
      if (run !== sm[j] && Math.min(run, strides[d] * hs[d]) !== sm[j]) continue;
      dm[j] = d;
      running[d] = run * ds[j];
      if (go(j - 1)) return true;
      running[d] = run;
    }
    return false;
  };
  return go(n - 1) ? dm : undefined;
}

export function reconstruct(ds: number[], sm: number[], hs: number[], strides: number[]): number[] | undefined {
  return reconstructDimMap(ds, sm, hs, strides);
}

/** Slots the enumeration visits: the product of the device dims with a positive stride (a size-1 dim multiplies by 1). */
export function activeSlots(ds: number[], sm: number[]): number {
  return ds.reduce((p, s, j) => (sm[j] > 0 ? p * s : p), 1);
}

const countCache = new Map<string, number>();

/** Number of device slots that hold a distinct real host element (broadcast and −1 dims at 0). Cached. */
export function countDataSlots(ds: number[], sm: number[], hs: number[], strides: number[]): number {
  const key = `${ds}|${sm}|${hs}|${strides}`;
  const hit = countCache.get(key);
  if (hit !== undefined) return hit;
  const n = countDataSlotsUncached(ds, sm, hs, strides);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the bound only limits memory; any cache size gives the same answers
  if (countCache.size >= 64) countCache.delete(countCache.keys().next().value!);
  countCache.set(key, n);
  return n;
}

/** countDataSlots without the cache (the enumeration itself; exported so its answers can be tested call by call). */
export function countDataSlotsUncached(ds: number[], sm: number[], hs: number[], strides: number[]): number {
  const act = ds.map((_, j) => j).filter((j) => sm[j] > 0 && ds[j] > 1);
  const size = act.map((j) => ds[j]);
  const total = prod(size);
  // greedy orders, computed once
  const dOrder = [...act].sort((a, b) => sm[b] - sm[a] || b - a);
  const hOrder = hs
    .map((_, i) => i)
    .filter((i) => strides[i] > 0 && hs[i] > 1)
    .sort((a, b) => strides[b] - strides[a] || b - a);
  // Stryker disable next-line ArrayDeclaration: only the entries of active dims are read, and each is written first
  const x = new Array<number>(ds.length).fill(0);
  // the greedy decomposition of r, one dim at a time: the device position must be x itself (no alias), the host one in range
  let r = 0;
  const canonical = (j: number): boolean => {
    const q = Math.floor(r / sm[j]);
    r -= q * sm[j];
    return q === x[j];
  };
  const inHost = (d: number): boolean => {
    const q = Math.floor(r / strides[d]);
    r -= q * strides[d];
    return q < hs[d];
  };
  let count = 0;
  for (let i = 0; i < total; i++) {
    let rem = i;
    let h = 0;
    for (let k = act.length - 1; k >= 0; k--) {
      const v = rem % size[k];
      x[act[k]] = v;
      h += v * sm[act[k]];
      rem = Math.floor(rem / size[k]);
    }
    // (when every digit of the device position is x's, nothing of h is left over)
    r = h;
    if (!dOrder.every(canonical)) continue;
    r = h;
    if (hOrder.every(inHost) && r === 0) count++;
  }
  return count;
}
