/**
 * Snapshot comparison: which bytes differ between two images of a memory, as byte-exact ranges. In Node
 * equal 4 KiB blocks are skipped with memcmp (Buffer#compare), elsewhere a 32-bit word scan; a 64 MiB
 * pair with scattered changes takes about as long as one memcmp of it.
 */

const BLOCK = 4096;
const SUB = 128;

interface NodeBufferLike {
  compare(target: NodeBufferLike, targetStart: number, targetEnd: number, sourceStart: number, sourceEnd: number): number;
}

export interface DiffResult {
  /** Changed byte ranges as pairs [start, end) in ascending order (flattened: s0, e0, s1, e1, …). */
  ranges: Uint32Array;
  /** Number of ranges (ranges.length / 2). */
  count: number;
  /** Changed bytes in total. */
  bytes: number;
  /** True when more than `maxRanges` ranges existed: the last range then extends to the last difference. */
  truncated: boolean;
}

/**
 * Differences between `a` and `b` over their common length (a longer tail counts as changed).
 * Ranges closer than `mergeGap` bytes are joined (0 = exact).
 */
export function diffBuffers(a: Uint8Array, b: Uint8Array, opts: { maxRanges?: number; mergeGap?: number } = {}): DiffResult {
  const n = Math.min(a.length, b.length);
  const maxRanges = opts.maxRanges ?? 1 << 20;
  const gap = opts.mergeGap ?? 0;
  let out = new Uint32Array(64);
  let count = 0;
  let bytes = 0;
  let truncated = false;
  let openStart = -1;
  let openEnd = -1;
  const flush = () => {
    if (openStart < 0) return;
    if (count >= maxRanges) {
      truncated = true;
      out[2 * (count - 1) + 1] = openEnd;
    } else {
      if (2 * count + 2 > out.length) {
        const grown = new Uint32Array(out.length * 2);
        grown.set(out);
        out = grown;
      }
      out[2 * count] = openStart;
      out[2 * count + 1] = openEnd;
      count++;
    }
    openStart = -1;
  };
  const addByte = (i: number) => {
    bytes++;
    if (openStart >= 0 && i <= openEnd + gap) {
      openEnd = i + 1;
      return;
    }
    flush();
    openStart = i;
    openEnd = i + 1;
  };
  const cmpBytes = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (a[i] !== b[i]) addByte(i);
  };

  // Node: skip equal 4 KiB blocks with memcmp (Buffer#compare), then scan the differing ones.
  const NodeBuffer = (globalThis as unknown as { Buffer?: { from(ab: ArrayBufferLike, off: number, len: number): NodeBufferLike } }).Buffer;
  if (NodeBuffer && n >= 1 << 16) {
    const A = NodeBuffer.from(a.buffer, a.byteOffset, n);
    const B = NodeBuffer.from(b.buffer, b.byteOffset, n);
    for (let o = 0; o < n; o += BLOCK) {
      const e = Math.min(n, o + BLOCK);
      if (A.compare(B, o, e, o, e) === 0) continue;
      for (let s = o; s < e; s += SUB) {
        const se = Math.min(e, s + SUB);
        if (A.compare(B, s, se, s, se) !== 0) cmpBytes(s, se);
      }
    }
  } else if ((a.byteOffset & 3) === (b.byteOffset & 3) && n >= 64) {
    // word-aligned scan when both views start on the same 4-byte phase
    const phaseA = a.byteOffset & 3;
    const head = Math.min(n, (4 - phaseA) & 3);
    cmpBytes(0, head);
    const words = (n - head) >>> 2;
    const wa = new Int32Array(a.buffer, a.byteOffset + head, words);
    const wb = new Int32Array(b.buffer, b.byteOffset + head, words);
    let w = 0;
    while (w < words) {
      // tight scan for the next differing word
      while (w < words && wa[w] === wb[w]) w++;
      if (w >= words) break;
      const base = head + 4 * w;
      for (let k = 0; k < 4; k++) if (a[base + k] !== b[base + k]) addByte(base + k);
      w++;
    }
    cmpBytes(head + 4 * words, n);
  } else {
    cmpBytes(0, n);
  }
  if (a.length !== b.length) {
    const end = Math.max(a.length, b.length);
    for (let i = n; i < end; i++) addByte(i);
  }
  flush();
  return { ranges: out.subarray(0, 2 * count), count, bytes, truncated };
}

/** Marks in `out[i]` (1/0) whether byte i differs; for the few hundred bytes on screen. */
export function changedMask(a: Uint8Array, b: Uint8Array, out = new Uint8Array(Math.min(a.length, b.length))): Uint8Array {
  const n = Math.min(a.length, b.length, out.length);
  for (let i = 0; i < n; i++) out[i] = a[i] !== b[i] ? 1 : 0;
  return out;
}

/** Whether offset `x` falls in one of the ranges (binary search). */
export function inRanges(r: DiffResult, x: number): boolean {
  let lo = 0;
  let hi = r.count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (r.ranges[2 * mid + 1] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo < r.count && r.ranges[2 * lo] <= x;
}
