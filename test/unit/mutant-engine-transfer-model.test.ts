/**
 * runTransfer (core/sim/engine/transfer.ts) against an independent model of a transfer (helpers/mutant-transfer.ts,
 * written from research §6.2.3, §6.3 and §6.4), on seeded random sides of every kind: MEM/SCRATCH/PCORE/SPU
 * destinations, MEM/SCRATCH/PCORE/constant sources, the three types (and mixed ones), dense and gathered levels,
 * clipped and unchecked indices, buffer limits, partial last rows, PAD, REPEAT, REMAP, multicast and sides one
 * element past their space. Each case runs three ways that must give the model's memory: a whole transfer (which
 * takes the contiguous copy, the run-based path or the element path, whichever applies), the same as one range
 * (the element-by-element path the debugger uses) and as two ranges. Mutation testing showed the fast paths' answers
 * were pinned only where a program happened to reach them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Machine } from '../../core/sim/machine';
import { SimError } from '../../core/sim/types';
import { SpaceHistory } from '../../core/sim/history';
import { runTransfer, type SideSpace, type TransferRange } from '../../core/sim/engine/transfer';
import type { DataType } from '../../core/tprog/machineConstants';
import { mulberry32 } from '../helpers/rng';
import { mkSide, modelTransfer, scramble, snapshot, spaceOf, type Lv, type SideSpec } from './helpers/mutant-transfer';

const MEM = 1 << 16;
const SIZES: Record<SideSpace, number> = { MEM, SCRATCH: 32768, PCORE: 8 * 4096, SPU: 1024, PROG: 0, CONST: 0 };

type Snap = ReturnType<typeof snapshot>;
type Space = keyof Snap;

/** The buffers of a machine by the names `snapshot` gives them. */
function buffers(m: Machine): Record<Space, Uint8Array | Int16Array> {
  return { mem: m.mem, scratch: m.scratch, p0: m.pages[0].priv, p0s: m.pages[0].shared, p1: m.pages[1].priv, p1s: m.pages[1].shared, spu: m.spu };
}

/** The buffer a side reads or writes. */
function bufferOf(s: SideSpec, process: 0 | 1): Space | undefined {
  if (s.space === 'MEM') return 'mem';
  if (s.space === 'SCRATCH') return 'scratch';
  if (s.space === 'SPU') return 'spu';
  if (s.space === 'PCORE') return `p${process}${s.shared ? 's' : ''}` as Space;
  return undefined;
}

/** Puts the buffers back as they were (only those a case uses: copying every page for every case is slow). */
function restore(m: Machine, s: Snap, which: Space[]): void {
  const b = buffers(m);
  for (const k of which) b[k].set(s[k] as never);
}

function assertSameMemory(a: Machine, b: Machine, which: Space[], what: string): void {
  const x = buffers(a);
  const y = buffers(b);
  for (const k of which) {
    const p = x[k];
    const q = y[k];
    // compared natively (fast); on a difference, the first differing element is named
    if (Buffer.from(p.buffer, p.byteOffset, p.byteLength).equals(Buffer.from(q.buffer, q.byteOffset, q.byteLength))) continue;
    let i = 0;
    while (p[i] === q[i]) i++;
    assert.fail(`${what}: ${k}[${i}] is ${p[i]}, the model has ${q[i]}`);
  }
}

interface Case {
  dst: SideSpec;
  src: SideSpec;
  pad: number;
  repeat: boolean;
  process: 0 | 1;
}

const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[(rnd() * xs.length) | 0];
const int = (rnd: () => number, lo: number, hi: number) => lo + ((rnd() * (hi - lo + 1)) | 0);

/** Levels: dense row-major (every index valid, one block), or gathered with clipped, stepped and unchecked indices. */
function levels(rnd: () => number, dense: boolean): Lv[] {
  const n = int(rnd, 1, 3);
  const counts = [...Array(n)].map(() => int(rnd, 1, 6));
  if (dense) {
    const out: Lv[] = [];
    let stride = 1;
    for (let q = n - 1; q >= 0; q--) {
      out.unshift({ begin: 0, count: counts[q], stride, size: counts[q] });
      stride *= counts[q];
    }
    // a single index (count 1) in an outer dimension: still one block
    if (n > 1 && rnd() < 0.3) out[0] = { begin: 1, count: 1, stride: out[0].stride, size: 3 };
    return out;
  }
  // sometimes strides of 0 (one element again and again) or below 0 (decreasing locations), behind a single index
  // whose offset keeps every valid location at or above the base (the walker's locations below 0 are invalid ones)
  const down = rnd() < 0.25;
  const out: Lv[] = counts.map((count) => {
    const size = rnd() < 0.15 ? undefined : int(rnd, 1, 7);
    const stride = down ? int(rnd, -3, 1) : int(rnd, 1, 9);
    return { begin: int(rnd, -2, 3), step: int(rnd, 1, 3), count, stride, size, checkHigh: rnd() < 0.8 };
  });
  if (down) out.unshift({ begin: 1, count: 1, stride: out.reduce((o, l) => o + Math.max(0, -maxIndex(l) * l.stride), 0), size: 2 });
  return out;
}

const maxIndex = (l: Lv) => Math.max(0, l.begin + (l.count - 1) * (l.step ?? 1));

/** Highest element location a side's levels reach (valid or not), from the base. */
function extent(ls: Lv[]): number {
  return ls.reduce((e, l) => e + Math.max(0, maxIndex(l) * l.stride), 0);
}

function sideFor(rnd: () => number, space: SideSpace, dtype: DataType, half: 0 | 1, asDst: boolean): SideSpec {
  if (space === 'CONST') return { space, dtype, constValue: int(rnd, -70000, 70000) };
  const dense = rnd() < 0.45;
  const ls = levels(rnd, dense);
  const word = space === 'PCORE' || space === 'SPU';
  const el = word ? 1 : dtype === 'INT16' ? 2 : 1;
  const room = SIZES[space] / 2 - (extent(ls) + 1) * el - 8;
  const s: SideSpec = { space, dtype, levels: ls };
  if (space === 'SPU') s.base = 0;
  else {
    let base = half * (SIZES[space] / 2) + int(rnd, 0, Math.min(room, 3000));
    if (!word && el === 2 && rnd() < 0.85) base &= ~1;
    s.base = base;
  }
  // REMAP applies on the PCORE side only (§6.4.3): written on another side, it must change nothing
  if (rnd() < 0.25) s.remap = int(rnd, -1, 3);
  if (space === 'PCORE') {
    if (rnd() < 0.3) s.shared = true;
    if (asDst && rnd() < 0.2 && s.base! + extent(ls) < 4096) s.mcast = pick(rnd, [[0, 4096], [0, 3 * 4096, 7 * 4096], [0]]);
  }
  if (!word && !dense && rnd() < 0.15) s.bufLimit = int(rnd, 0, 40);
  if (!word && ls.length >= 2 && rnd() < 0.15) {
    const rows = ls[0].size ?? 4;
    s.partial = { rowLevelDim: 0, colLevelDim: 1, rows, lastRow: int(rnd, 0, 4) };
    ls[0].size ??= rows;
  }
  return s;
}

/** Moves a side so that its last element is one past the end of its space, or (MEM/SCRATCH/PCORE) its first one before 0. */
function pastTheEnd(s: SideSpec, low: boolean): void {
  const word = s.space === 'PCORE' || s.space === 'SPU';
  const el = word ? 1 : s.dtype === 'INT16' ? 2 : 1;
  s.levels = [{ begin: 0, count: 3, stride: 1, size: 8 }];
  delete s.bufLimit;
  delete s.partial;
  delete s.mcast;
  // SPU has no base: its elements start at word 0
  if (s.space === 'SPU') s.levels[0].begin = SIZES.SPU - 2;
  else s.base = low ? -el : SIZES[s.space] - 2 * el;
}

function genCase(rnd: () => number): Case {
  const dSpace = pick(rnd, ['MEM', 'MEM', 'SCRATCH', 'PCORE', 'PCORE', 'SPU'] as const);
  const sSpace = pick(rnd, ['MEM', 'MEM', 'SCRATCH', 'PCORE', 'CONST'] as const);
  const dtype = pick(rnd, ['UINT8', 'INT8', 'INT16'] as const);
  const sType = rnd() < 0.15 ? pick(rnd, ['UINT8', 'INT8', 'INT16'] as const) : dtype;
  const dst = sideFor(rnd, dSpace, dtype, 0, true);
  const src = sideFor(rnd, sSpace, sType, 1, false);
  const r = rnd();
  if (r < 0.06 && src.space !== 'CONST') pastTheEnd(src, rnd() < 0.4);
  else if (r < 0.12) pastTheEnd(dst, rnd() < 0.4);
  return { dst, src, pad: int(rnd, -300, 300), repeat: rnd() < 0.3, process: rnd() < 0.5 ? 0 : 1 };
}

test('whole transfers, one range and two ranges give the model’s memory, statistics and history (600 seeded cases)', () => {
  const rnd = mulberry32(0x7a11);
  const a = new Machine({ memBytes: MEM });
  const b = new Machine({ memBytes: MEM });
  scramble(a, 0x5eed);
  const before = snapshot(a);
  restore(b, before, Object.keys(before) as Space[]);
  const faults = { dst: 0, src: 0 };
  for (let k = 0; k < 600; k++) {
    const c = genCase(rnd);
    const what = `case ${k} ${JSON.stringify(c)}`;
    const dBuf = bufferOf(c.dst, c.process)!;
    const which = [...new Set([dBuf, bufferOf(c.src, c.process)].filter((x): x is Space => x !== undefined))];
    restore(b, before, which);
    const exp = modelTransfer(b, c.process, c.dst, c.src, c.pad, c.repeat);
    const total = c.dst.levels!.reduce((p, l) => p * l.count, 1);
    const cut = int(rnd, 1, Math.max(1, total - 1));
    const ranges: Record<string, TransferRange[] | undefined> = {
      whole: undefined,
      'one range': [{ from: 0, to: total }],
      'two ranges': [
        { from: 0, to: cut },
        { from: cut, to: total },
      ],
    };
    for (const [how, parts] of Object.entries(ranges)) {
      restore(a, before, which);
      // the destination's history, under the name the transfer asks for (PCORE1S, SCRATCH, …)
      const h = new SpaceHistory(spaceOf(c.dst, c.process), buffers(a)[dBuf]);
      const touched: [number, number][] = [];
      const save = h.touch.bind(h);
      h.touch = (from, to) => {
        touched.push([from, to]);
        save(from, to);
      };
      const ctx = { m: a, process: c.process, history: (name: string) => (name === h.name ? h : undefined) };
      const run = () =>
        parts
          ? parts.map((r) => runTransfer(ctx, mkSide(c.dst), mkSide(c.src), c.pad, c.repeat, r))
          : [runTransfer(ctx, mkSide(c.dst), mkSide(c.src), c.pad, c.repeat)];
      if (exp.fault) {
        assert.throws(run, (e: unknown) => e instanceof SimError && e.side === exp.fault, `${what} (${how}) faults on ${exp.fault}`);
        continue;
      }
      const st = run();
      if (st.length === 1) assert.deepEqual(st[0], exp.stats, `${what} (${how})`);
      else {
        const { elements, padded, skipped } = exp.stats!;
        const sum = (f: 'elements' | 'padded' | 'skipped') => st.reduce((n, x) => n + x[f], 0);
        assert.deepEqual({ elements: sum('elements'), padded: sum('padded'), skipped: sum('skipped') }, { elements, padded, skipped }, `${what} (${how})`);
      }
      assertSameMemory(a, b, which, `${what} (${how})`);
      // every page written was saved first: the history gives back the memory before the transfer
      // and no more than the written range is saved (a transfer's pages are copied before it writes them)
      const w = st.reduce<{ lo: number; hi: number } | undefined>(
        (u, x) => (!x.written ? u : { lo: Math.min(u?.lo ?? Infinity, x.written.lo), hi: Math.max(u?.hi ?? -Infinity, x.written.hi) }),
        undefined,
      );
      for (const [from, to] of touched)
        if (from <= to) assert.ok(w && from >= w.lo && to <= w.hi, `${what} (${how}): touched ${from}..${to}, wrote ${JSON.stringify(w)}`);
      h.commit(0);
      const old = h.read(0, h.buf.length, -1);
      const want = before[dBuf];
      assert.ok(
        Buffer.from(old.buffer, old.byteOffset, old.byteLength).equals(Buffer.from(want.buffer, want.byteOffset, want.byteLength)),
        `${what} (${how}): history`,
      );
    }
    if (exp.fault) faults[exp.fault]++;
  }
  // the generator reaches faults on both sides, not only clean transfers
  assert.ok(faults.dst >= 15 && faults.src >= 15, JSON.stringify(faults));
});
