/**
 * Lazy model of a `.csfbin` file for the viewer: random access through a `ByteSource` (positioned reads),
 * so opening a file of any size reads only its header, its pointer count and its pointer section; the
 * entries are read a page at a time when a view asks for them, and the full validation (V1–V15) streams
 * the file in chunks in the background.
 *
 * The fiber table is a list of rows: each fiber f contributes one "fiber" row followed by one row per
 * entry. Fiber f's row is number f + ptr[f], and entry e of fiber f is row f + 1 + e, so a row is mapped
 * back to its fiber by binary search over the (monotone) pointers, never by scanning the entries.
 *
 * Plain TypeScript (no vscode, no Node): the extension host, the browser test harness and the bench use it.
 */
import { DEFAULT_MAX_ORDER, HOST_LITTLE_ENDIAN, elementCount, fiberCoord, fiberCount, formatShape, type CsfHeader, type CsfIssue } from './types';
import { CsfValidator, type CsfValidation } from './validate';

/** Random access to the bytes of a file. `read` may return fewer bytes at the end of the file. */
export interface ByteSource {
  readonly size: number;
  /** How the bytes are reached (`positioned reads`, `in memory`), for diagnostics. */
  readonly kind?: string;
  read(offset: number, length: number): Promise<Uint8Array>;
  close?(): void | Promise<void>;
}

/** A ByteSource over bytes already in memory (the browser build, tests). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.byteLength,
    kind: 'in memory',
    read: async (offset, length) => bytes.subarray(Math.min(offset, bytes.byteLength), Math.min(offset + length, bytes.byteLength)),
  };
}

export type CsfViewRow =
  | { kind: 'fiber'; row: number; fiber: number; coord: number[]; start: number; end: number }
  | { kind: 'entry'; row: number; entry: number; fiber: number; index: number; bits: number; offset: number };

export interface CsfViewOptions {
  maxOrder?: number;
}

/** Largest read `rows` and `hex` serve in one call. */
export const MAX_VIEW_ROWS = 4096;
export const MAX_HEX_BYTES = 1 << 20;

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

/** Little-endian u32 words of `b` (a copy when unaligned or on a big-endian host). */
function words(b: Uint8Array): Uint32Array {
  const n = b.byteLength >>> 2;
  if (HOST_LITTLE_ENDIAN) {
    if (b.byteOffset % 4 === 0) return new Uint32Array(b.buffer, b.byteOffset, n);
    return new Uint32Array(b.slice(0, 4 * n).buffer);
  }
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = u32(b, 4 * i);
  return out;
}

export class CsfView {
  /** Header facts, when the header (order, shape, nnz) could be read and passed V1–V5. */
  header: CsfHeader | undefined;
  entriesOffset = 0;
  pointersOffset = 0;
  /** The F+1 file pointers, when the structure allows a fiber table (V6–V8, V10–V12 hold). */
  pointers: Uint32Array | undefined;
  /** Why there is no fiber table (the first structural problem seen while opening). */
  indexProblem: CsfIssue | undefined;

  private constructor(
    readonly source: ByteSource,
    readonly maxOrder: number,
  ) {}

  get size(): number {
    return this.source.size;
  }

  /** Rows of the fiber table: one per fiber plus one per entry (0 without an index). */
  get rowCount(): number {
    return this.pointers && this.header ? this.header.fibers + this.header.nnz : 0;
  }

  /** Reads the header, the pointer count and the pointers (never the entries). Never throws on bad bytes. */
  static async open(source: ByteSource, opts: CsfViewOptions = {}): Promise<CsfView> {
    const v = new CsfView(source, opts.maxOrder ?? DEFAULT_MAX_ORDER);
    await v.index();
    return v;
  }

  private async index(): Promise<void> {
    const size = this.size;
    const headMax = 8 + 4 * this.maxOrder;
    const head = await this.source.read(0, Math.min(size, headMax));
    const order = head.length >= 4 ? u32(head, 0) : 0;
    const headerLen = 8 + 4 * order;
    const badHead = head.length < 4 || order === 0 || order > this.maxOrder || size < headerLen;
    const shape: number[] = [];
    if (!badHead) for (let k = 0; k < order; k++) shape.push(u32(head, 4 + 4 * k));
    const F = badHead ? undefined : fiberCount(shape);
    if (badHead || F === undefined) {
      // the streaming validator words these header problems exactly as a full validation does
      this.indexProblem = new CsfValidator({ maxOrder: this.maxOrder }).push(head).finish().issues[0];
      return;
    }
    const nnz = u32(head, 4 + 4 * order);
    const total = elementCount(shape);
    this.header = { order, shape, nnz, fibers: F, density: total === 0 ? 0 : nnz / total };
    this.entriesOffset = headerLen;
    this.pointersOffset = headerLen + 8 * nnz + 4;
    const issue = (code: CsfIssue['code'], rule: string, offset: number, length: number, message: string): void => {
      this.indexProblem = { code, rule, severity: 'error', offset, length, message };
    };
    if (size < this.pointersOffset)
      return issue(
        'csf.truncated-entries',
        'V6',
        headerLen,
        size - headerLen,
        `nnz = ${nnz} needs ${8 * nnz + 4} bytes from offset ${headerLen} (${plural(nnz, 'entry', 'entries')} of 8 bytes, then the 4-byte pointer count), ` +
          `found ${plural(size - headerLen, 'byte')}`,
      );
    const P = u32(await this.source.read(this.pointersOffset - 4, 4), 0);
    if (P !== F + 1)
      return issue(
        'csf.pointer-count-mismatch',
        'V7',
        this.pointersOffset - 4,
        4,
        `expected the pointer count P = F + 1 = ${F + 1} (${plural(F, 'fiber')} of shape ${formatShape(shape)} plus the end pointer) ` +
          `after ${plural(nnz, 'entry', 'entries')}, found ${P}`,
      );
    if (size < this.pointersOffset + 4 * P)
      return issue(
        'csf.truncated-pointers',
        'V8',
        this.pointersOffset,
        size - this.pointersOffset,
        `expected ${4 * P} bytes for the ${plural(P, 'pointer')} (u32) at offset ${this.pointersOffset}, found ${plural(size - this.pointersOffset, 'byte')}`,
      );
    const ptr = words(await this.source.read(this.pointersOffset, 4 * P));
    const po = this.pointersOffset;
    if (ptr[0] !== 0) return issue('csf.first-pointer-nonzero', 'V10', po, 4, `ptr[0] must be 0 (pointers count entries from the first one), found ${ptr[0]}`);
    if (ptr[F] !== nnz) return issue('csf.last-pointer-mismatch', 'V11', po + 4 * F, 4, `the end pointer ptr[${F}] must equal nnz = ${nnz}, found ${ptr[F]}`);
    for (let i = 1; i <= F; i++)
      if (ptr[i] < ptr[i - 1])
        return issue(
          'csf.non-monotone-pointers',
          'V12',
          po + 4 * i,
          4,
          `pointers must not decrease: expected ptr[${i}] ≥ ptr[${i - 1}] = ${ptr[i - 1]}, found ${ptr[i]}`,
        );
    this.pointers = ptr;
  }

  /** Row of fiber f's heading. */
  rowOfFiber(f: number): number {
    return f + this.pointers![f];
  }

  /** Row of entry e. */
  rowOfEntry(e: number): number {
    return this.fiberOfEntry(e) + 1 + e;
  }

  /** Fiber holding entry e (the last fiber starting at or before e). */
  fiberOfEntry(e: number): number {
    const p = this.pointers!;
    let lo = 0;
    let hi = this.header!.fibers - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (p[mid] <= e) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Fiber whose heading is at or before row r. */
  private fiberOfRow(r: number): number {
    const p = this.pointers!;
    let lo = 0;
    let hi = this.header!.fibers - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (mid + p[mid] <= r) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Rows [start, start+count) of the fiber table (fewer at the end; none without an index). */
  async rows(start: number, count: number): Promise<CsfViewRow[]> {
    const total = this.rowCount;
    const end = Math.min(total, start + Math.min(count, MAX_VIEW_ROWS));
    if (!this.pointers || start >= end) return [];
    const p = this.pointers;
    const shape = this.header!.shape;
    // entries the rows cover: [e0, e1)
    let f = this.fiberOfRow(start);
    const e0 = start - f - 1 >= p[f] ? start - f - 1 : p[f];
    const fl = this.fiberOfRow(end - 1);
    const e1 = Math.max(e0, end - 1 === fl + p[fl] ? p[fl] : end - 1 - fl);
    const bytes = e1 > e0 ? await this.source.read(this.entriesOffset + 8 * e0, 8 * (e1 - e0)) : new Uint8Array(0);
    const w = words(bytes);
    const out: CsfViewRow[] = [];
    for (let r = start; r < end; r++) {
      while (f + 1 < this.header!.fibers && f + 1 + p[f + 1] <= r) f++;
      const head = f + p[f];
      if (r === head) {
        out.push({ kind: 'fiber', row: r, fiber: f, coord: fiberCoord(shape, f), start: p[f], end: p[f + 1] });
        continue;
      }
      const e = r - f - 1;
      const k = 2 * (e - e0);
      out.push({ kind: 'entry', row: r, entry: e, fiber: f, index: w[k] ?? 0, bits: w[k + 1] ?? 0, offset: this.entriesOffset + 8 * e });
    }
    return out;
  }

  /** Bytes [offset, offset+length) of the file (shorter at its end). */
  async hex(offset: number, length: number): Promise<Uint8Array> {
    const end = Math.min(this.size, offset + Math.min(length, MAX_HEX_BYTES));
    if (offset >= end) return new Uint8Array(0);
    return this.source.read(offset, end - offset);
  }

  /** The row showing byte `offset` (an entry, a pointer's fiber), if any. */
  rowOfOffset(offset: number): number | undefined {
    if (!this.pointers || !this.header) return undefined;
    const { nnz, fibers } = this.header;
    if (offset >= this.entriesOffset && offset < this.entriesOffset + 8 * nnz) return this.rowOfEntry(Math.floor((offset - this.entriesOffset) / 8));
    if (offset >= this.pointersOffset && offset < this.pointersOffset + 4 * (fibers + 1)) {
      const i = Math.floor((offset - this.pointersOffset) / 4);
      return i < fibers ? this.rowOfFiber(i) : undefined;
    }
    return undefined;
  }

  /**
   * Full validation (V1–V15), streaming the file in chunks. `progress` is called after each chunk;
   * `cancelled()` true stops early (the result then says nothing about the rest).
   */
  async validate(
    opts: { maxIssues?: number; chunkBytes?: number; progress?: (checked: number, total: number) => void; cancelled?: () => boolean } = {},
  ): Promise<CsfValidation> {
    const v = new CsfValidator({ maxOrder: this.maxOrder, maxIssues: opts.maxIssues ?? 100 });
    const chunk = Math.max(4096, opts.chunkBytes ?? 4 << 20);
    const size = this.size;
    for (let at = 0; at < size;) {
      if (opts.cancelled?.()) break;
      const b = await this.source.read(at, Math.min(chunk, size - at));
      if (b.byteLength === 0) break;
      v.push(b);
      at += b.byteLength;
      opts.progress?.(at, size);
      // let other work (page requests) in between chunks
      await new Promise<void>((r) => setTimeout(r, 0));
    }
    return v.finish();
  }

  close(): void | Promise<void> {
    return this.source.close?.();
  }
}

/** Density as a percentage, written as the CLI writes it (`50%`, `11.5%`, `0.0012%`). */
export function formatDensity(d: number): string {
  const pct = d > 0 ? d * 100 : 0;
  return `${pct === 0 || pct >= 1 ? Number(pct.toPrecision(3)) : pct.toPrecision(2)}%`;
}
