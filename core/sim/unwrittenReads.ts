/**
 * Transfers that read MEM nothing wrote (a forgotten input: the run "succeeds" on zeros), reported as one
 * warning per `>` statement per run: the union of the unwritten ranges it read and how many of its
 * executions read some. What counts as written is WrittenMemory's (written.ts).
 */
import type { TraceStep } from '../protocol/trace';
import type { MemJournal, RunWarning } from './types';
import { WrittenMemory } from './written';

interface Seen {
  file: string;
  line: number;
  column: number;
  lo: number;
  hi: number;
  count: number;
}

const hex = (n: number) => '0x' + n.toString(16);

export class UnwrittenReads {
  private readonly mem: WrittenMemory;
  private readonly seen = new Map<string, Seen>();

  constructor(memBytes: number) {
    this.mem = new WrittenMemory(memBytes);
  }

  /** `bytes` bytes at `address` were written before the run (globals, a buffer's file, a load). */
  wrote(address: number, bytes: number): void {
    if (bytes > 0) this.mem.mark(address, address + bytes - 1);
  }

  /** The journal the C interpreter calls on its first store to a page (see WrittenMemory.journal). */
  journal(inner: MemJournal | undefined): MemJournal {
    return this.mem.journal(inner);
  }

  /** A tensor step: its MEM read is checked before its MEM write counts. */
  step(s: TraceStep): void {
    const r = s.read;
    if (r && r.space === 'MEM' && r.count > 0) {
      const u = this.mem.unwritten(r.lo, r.hi, r.count >= r.hi - r.lo + 1);
      if (u) {
        const key = `${s.file}:${s.line}:${s.column}`;
        const w = this.seen.get(key);
        if (w) {
          w.lo = Math.min(w.lo, u.lo);
          w.hi = Math.max(w.hi, u.hi);
          w.count++;
        } else this.seen.set(key, { file: s.file, line: s.line, column: s.column, lo: u.lo, hi: u.hi, count: 1 });
      }
    }
    const w = s.written;
    if (w && w.space === 'MEM' && w.count > 0) this.mem.mark(w.lo, w.hi);
  }

  /** One warning per statement that read unwritten MEM, in the order first seen. */
  warnings(): RunWarning[] {
    return [...this.seen.values()].map((w) => ({
      file: w.file,
      line: w.line,
      column: w.column,
      message:
        `reads MEM ${hex(w.lo)}..${hex(w.hi)}, which nothing wrote before (no load, buffer file, C store or earlier transfer): ` +
        'a forgotten input? It reads as zeros',
      count: w.count,
    }));
  }
}
