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
  const dm = new Array<number>(n).fill(-1);
  const running = [...strides];
  let steps = 0;
  const go = (j: number): boolean => {
    if (++steps > 10000) return false;
    if (j < 0) {
      for (let d = 0; d < hs.length; d++) {
        if (hs[d] <= 1) continue;
        let cap = 1;
        for (let k = 0; k < n; k++) if (dm[k] === d) cap *= ds[k];
        if (cap < hs[d]) return false;
      }
      return true;
    }
    if (ds[j] === 1 || sm[j] === -1) {
      if (sm[j] === -1 && ds[j] > 1 && j !== n - 1) return false;
      dm[j] = -1;
      return go(j - 1);
    }
    if (sm[j] <= 0) return false;
    for (let d = 0; d < hs.length; d++) {
      if (hs[d] <= 1) continue;
      const run = running[d];
      if (run !== sm[j] && Math.min(run, strides[d] * hs[d]) !== sm[j]) continue;
      dm[j] = d;
      running[d] = run * ds[j];
      if (go(j - 1)) return true;
      running[d] = run;
      dm[j] = -1;
    }
    return false;
  };
  return go(n - 1) ? dm : undefined;
}

export function reconstruct(ds: number[], sm: number[], hs: number[], strides: number[]): number[] | undefined {
  return reconstructDimMap(ds, sm, hs, strides);
}

export function activeSlots(ds: number[], sm: number[]): number {
  let p = 1;
  for (let j = 0; j < ds.length; j++) if (sm[j] > 0 && ds[j] > 1) p *= ds[j];
  return p;
}

const countCache = new Map<string, number>();

/** Number of device slots that hold a distinct real host element (broadcast and −1 dims at 0). Cached. */
export function countDataSlots(ds: number[], sm: number[], hs: number[], strides: number[]): number {
  const key = `${ds}|${sm}|${hs}|${strides}`;
  const hit = countCache.get(key);
  if (hit !== undefined) return hit;
  const n = countDataSlotsUncached(ds, sm, hs, strides);
  if (countCache.size >= 64) countCache.delete(countCache.keys().next().value!);
  countCache.set(key, n);
  return n;
}

function countDataSlotsUncached(ds: number[], sm: number[], hs: number[], strides: number[]): number {
  const act = ds.map((_, j) => j).filter((j) => sm[j] > 0 && ds[j] > 1);
  const size = act.map((j) => ds[j]);
  const total = prod(size);
  // greedy orders, computed once
  const dOrder = [...act].sort((a, b) => sm[b] - sm[a] || b - a);
  const hOrder = hs
    .map((_, i) => i)
    .filter((i) => strides[i] > 0 && hs[i] > 1)
    .sort((a, b) => strides[b] - strides[a] || b - a);
  const x = new Array<number>(ds.length).fill(0);
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
    // canonical device position of h must be x itself
    let r = h;
    let ok = true;
    for (const j of dOrder) {
      const q = Math.floor(r / sm[j]);
      if (q >= ds[j] || q !== x[j]) {
        ok = false;
        break;
      }
      r -= q * sm[j];
    }
    if (!ok || r !== 0) continue;
    // and h a real host element
    r = h;
    for (const d of hOrder) {
      const q = Math.floor(r / strides[d]);
      if (q >= hs[d]) {
        ok = false;
        break;
      }
      r -= q * strides[d];
    }
    if (ok && r === 0) count++;
  }
  return count;
}
