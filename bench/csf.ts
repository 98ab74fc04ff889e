/**
 * `.csfbin` benchmarks: chunked validation + indexing of a generated 100 MB file, lazy open of the same
 * file, and a contraction of two tensors with 10^6 non-zeros each.
 * Run standalone with `npx tsx bench/csf.ts`; `benchCsf()` returns the rows for a combined report.
 */
import { CsfValidator, contractCsf, makeTensor, openCsf, type CsfTensor } from '../core/csf/index';
import { runIfMain, type Row } from './rows';

export type { Row } from './rows';

/** A deterministic xorshift generator. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

/** Fibers of sorted distinct indices: fiber f gets `len(f)` entries spread over [0, K) with jitter. */
function fill(F: number, K: number, len: (f: number) => number, rnd: () => number, put: (e: number, idx: number, value: number) => void): Uint32Array {
  const ptr = new Uint32Array(F + 1);
  let e = 0;
  for (let f = 0; f < F; f++) {
    ptr[f] = e;
    const L = len(f);
    const gap = Math.floor(K / L);
    for (let x = 0; x < L; x++) put(e++, Math.floor((x * K) / L) + Math.floor(rnd() * gap), Math.fround(rnd() * 2 - 1));
  }
  ptr[F] = e;
  return ptr;
}

/** A valid `.csfbin` of about `bytes` bytes: shape [F, K], entries spread evenly over the fibers. */
export function generateCsfFile(bytes: number, F = 100_000, K = 4096, seed = 1): Uint8Array {
  const nnz = Math.floor((bytes - 24 - 4 * F) / 8);
  const size = 24 + 8 * nnz + 4 * F; // 16 + 4·order + 8·nnz + 4·F
  const out = new Uint8Array(size);
  const w = new Uint32Array(out.buffer);
  const fw = new Float32Array(out.buffer);
  w[0] = 2;
  w[1] = F;
  w[2] = K;
  w[3] = nnz;
  const q = Math.floor(nnz / F);
  const r = nnz % F;
  const ptr = fill(
    F,
    K,
    (f) => q + (f < r ? 1 : 0),
    rng(seed),
    (e, idx, v) => {
      w[4 + 2 * e] = idx;
      fw[5 + 2 * e] = v;
    },
  );
  w[4 + 2 * nnz] = F + 1;
  w.set(ptr, 5 + 2 * nnz);
  return out;
}

/** An in-memory tensor [F, K] with `perFiber` entries in every fiber. */
export function generateTensor(F: number, K: number, perFiber: number, seed: number): CsfTensor {
  const indices = new Uint32Array(F * perFiber);
  const bits = new Uint32Array(F * perFiber);
  const values = new Float32Array(bits.buffer);
  const ptr = fill(
    F,
    K,
    () => perFiber,
    rng(seed),
    (e, idx, v) => {
      indices[e] = idx;
      values[e] = v;
    },
  );
  return makeTensor([F, K], ptr, indices, bits);
}

function best(runs: number, fn: () => void): number {
  let t = Infinity;
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    fn();
    t = Math.min(t, performance.now() - t0);
  }
  return t;
}

export async function benchCsf(): Promise<Row[]> {
  const rows: Row[] = [];
  const MB = 1e6;
  const file = generateCsfFile(100 * MB);

  // 1. validate (all rules) + index (keep the pointers), fed in 1 MiB chunks
  const chunk = 1 << 20;
  let ok = false;
  const tv = best(3, () => {
    const v = new CsfValidator({ keepPointers: true });
    for (let o = 0; o < file.length; o += chunk) v.push(file.subarray(o, o + chunk));
    const r = v.finish();
    ok = r.ok && r.pointers?.length === 100_001;
  });
  if (!ok) throw new Error('bench: the generated file does not validate');
  const mbps = file.length / MB / (tv / 1000);
  rows.push({
    name: 'csf validate+index 100 MB (1 MiB chunks)',
    target: '≥ 300 MB/s',
    measured: `${mbps.toFixed(0)} MB/s`,
    ratio: mbps / 300,
    pass: mbps >= 300,
  });

  // 2. lazy open: header + pointer scan, entries untouched
  const to = best(5, () => {
    const r = openCsf(file);
    if (!r.ok || r.file.fiberLength(99_999) === 0) throw new Error('bench: open failed');
  });
  rows.push({ name: 'csf open (lazy index) 100 MB', target: '≤ 50 ms', measured: `${to.toFixed(1)} ms`, ratio: 50 / to, pass: to <= 50 });

  // 3. contraction: A, B = [1000, 4000] with 1000 entries per fiber (10^6 nnz each), C = 1000 × 1000 dense
  const a = generateTensor(1000, 4000, 1000, 2);
  const b = generateTensor(1000, 4000, 1000, 3);
  let macs = 0;
  const tc = best(2, () => {
    const r = contractCsf(a, b, { metaCapacity: Infinity, mainCapacity: Infinity });
    if (!r.ok) throw new Error('bench: contraction failed');
    macs = r.multiplyAdds;
  });
  const rate = macs / (tc / 1000);
  rows.push({
    name: `csf contract 10^6 × 10^6 nnz (${(macs / 1e6).toFixed(0)} M multiply-adds)`,
    target: '≥ 10 M multiply-adds/s',
    measured: `${(rate / 1e6).toFixed(0)} M/s (${tc.toFixed(0)} ms)`,
    ratio: rate / 1e7,
    pass: rate >= 1e7,
  });
  return rows;
}

runIfMain(import.meta.url, benchCsf);
