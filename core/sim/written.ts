/**
 * Which MEM bytes something wrote — a load, a buffer's file, the C code, an earlier transfer — so that a
 * transfer reading bytes nothing wrote (a forgotten input: it silently reads zeros) is reported.
 *
 * One bit per byte, kept per 4 KiB page and only for pages partly written; a page that is wholly written,
 * or that the C code stored into anywhere, is marked whole (`done`). C stores are seen through the MEM
 * write journal the interpreter already checks on every store (one flag per page: the first store to a
 * page calls `mark`), so they cost nothing after the first store to each page. That makes C writes
 * page-grained: a transfer reading bytes of a page the C code wrote is never reported (no false warnings
 * on C-initialised data), at the cost of missing a forgotten input that shares a page with C data.
 */
import type { MemJournal } from './types';

const PAGE_SHIFT = 12;
const PAGE = 1 << PAGE_SHIFT;

export class WrittenMemory {
  /** 1 = every byte of the page counts as written. */
  private readonly done: Uint8Array;
  /** Bit i of the page's bitmap = byte i of the page was written; absent = none of it. */
  private readonly bits: (Uint8Array | undefined)[];

  constructor(readonly size: number) {
    const pages = Math.ceil(size / PAGE);
    this.done = new Uint8Array(pages);
    this.bits = new Array(pages);
  }

  /** Bytes [lo, hi] were written. */
  mark(lo: number, hi: number): void {
    lo = Math.max(0, lo);
    hi = Math.min(this.size - 1, hi);
    for (let p = lo >>> PAGE_SHIFT; p <= hi >>> PAGE_SHIFT; p++) {
      if (this.done[p]) continue;
      const base = p << PAGE_SHIFT;
      const a = Math.max(lo, base) - base;
      const b = Math.min(hi, base + PAGE - 1) - base;
      if (a === 0 && b === PAGE - 1) {
        this.done[p] = 1;
        this.bits[p] = undefined;
        continue;
      }
      const bits = (this.bits[p] ??= new Uint8Array(PAGE >>> 3));
      setBits(bits, a, b);
      if (full(bits)) {
        this.done[p] = 1;
        this.bits[p] = undefined;
      }
    }
  }

  /** Every byte of the pages covering [lo, hi] was written (the C code stored there). */
  markPages(lo: number, hi: number): void {
    for (let p = Math.max(0, lo) >>> PAGE_SHIFT; p <= Math.min(this.size - 1, hi) >>> PAGE_SHIFT; p++) {
      this.done[p] = 1;
      this.bits[p] = undefined;
    }
  }

  /**
   * The bytes of [lo, hi] nothing wrote: the first and last of them and how many; undefined when all were
   * written. `dense`: every byte of [lo, hi] is read; otherwise (a strided read, known only by its bounds)
   * only a range nothing at all wrote is reported.
   */
  unwritten(lo: number, hi: number, dense: boolean): { lo: number; hi: number; bytes: number } | undefined {
    let first = -1;
    let last = -1;
    let bytes = 0;
    for (let p = lo >>> PAGE_SHIFT; p <= hi >>> PAGE_SHIFT; p++) {
      if (this.done[p]) {
        if (!dense) return undefined;
        continue;
      }
      const base = p << PAGE_SHIFT;
      const a = Math.max(lo, base) - base;
      const b = Math.min(hi, base + PAGE - 1) - base;
      const bits = this.bits[p];
      if (!bits) {
        if (first < 0) first = base + a;
        last = base + b;
        bytes += b - a + 1;
        continue;
      }
      for (let i = a; i <= b; i++) {
        // whole bytes of the bitmap at a time where they are aligned
        if ((i & 7) === 0 && i + 7 <= b) {
          const v = bits[i >>> 3];
          if (v === 0xff) {
            if (!dense) return undefined;
            i += 7;
            continue;
          }
          if (v === 0) {
            if (first < 0) first = base + i;
            last = base + i + 7;
            bytes += 8;
            i += 7;
            continue;
          }
        }
        if (bits[i >>> 3] & (1 << (i & 7))) {
          if (!dense) return undefined;
        } else {
          if (first < 0) first = base + i;
          last = base + i;
          bytes++;
        }
      }
    }
    return bytes ? { lo: first, hi: last, bytes } : undefined;
  }

  /**
   * A MEM journal that marks the pages the C code stores into (and passes the call on to `inner`, the
   * run's memory history, when there is one). Without `inner` each page's flag is set once marked, so
   * later stores to the page cost nothing.
   */
  journal(inner: MemJournal | undefined): MemJournal {
    if (inner) {
      if (inner.shift !== PAGE_SHIFT) throw new Error(`internal: MEM journal pages of 2^${inner.shift} bytes`);
      return {
        flags: inner.flags,
        shift: PAGE_SHIFT,
        mark: (from, to) => {
          this.markPages(from, to);
          inner.mark(from, to);
        },
      };
    }
    const flags = new Uint8Array((this.size >>> PAGE_SHIFT) + 1);
    flags[flags.length - 1] = 1; // past the end: never marked
    return {
      flags,
      shift: PAGE_SHIFT,
      mark: (from, to) => {
        this.markPages(from, to);
        for (let p = Math.max(0, from) >>> PAGE_SHIFT; p <= to >>> PAGE_SHIFT && p < flags.length; p++) flags[p] = 1;
      },
    };
  }
}

function setBits(bits: Uint8Array, a: number, b: number): void {
  for (let i = a; i <= b; i++) {
    if ((i & 7) === 0 && i + 7 <= b) {
      bits[i >>> 3] = 0xff;
      i += 7;
    } else bits[i >>> 3] |= 1 << (i & 7);
  }
}

function full(bits: Uint8Array): boolean {
  for (let i = 0; i < bits.length; i++) if (bits[i] !== 0xff) return false;
  return true;
}
