/**
 * 16-byte Core Memory cells (research formats.md part B): a 1-D..4-D tensor listed in storage order
 * (D1..Dn, Dn innermost); each innermost row starts on a fresh cell and is zero-padded to whole cells;
 * multi-byte values are little-endian.
 */
import { CELL_DTYPES, type DType } from '../dtypes';
import { buildTables, mapTables } from '../fast';
import { issue, type Issue } from '../issues';
import {
  type Breakdown,
  checkManyInput,
  emptyBreakdown,
  type ForwardBase,
  type InverseResult,
  type LayoutModel,
  type LayoutSummary,
  type Placement,
  type Regions,
  runsOf,
  type Slot,
  type Step,
  type UnitRef,
} from '../model';
import {
  bytes,
  cdiv,
  CoordError,
  coordProblem,
  hex,
  LayoutError,
  list,
  num,
  percent,
  plural,
  prod,
  ravel,
  rmStrides,
  roundUp,
  safe,
  tuple,
  unravel,
} from '../util';

export const CELL_BYTES = 16;
export const CELL_MAX_RANK = 4;

export interface CellSpec {
  shape: number[];
  /** Dimension names (A, B, C / N, C, H, W), in the order written. */
  names?: (string | undefined)[];
  dtype: DType;
  /** Storage order as logical dim indices, outermost first (default: as written). */
  order?: number[];
  /** Bytes per cell (default 16). */
  cellBytes?: number;
  /** Base byte address; must be on a cell boundary. */
  base?: number;
  /** Accept more than 4 dims (the formula generalises; the document stops at 4). */
  relaxRank?: boolean;
  /** Memory capacity in bytes, when known. */
  capacity?: number;
}

export function validateCells(spec: CellSpec): Issue[] {
  const out: Issue[] = [];
  const info = CELL_DTYPES[spec.dtype];
  if (!info)
    out.push(
      issue(
        'CELL002',
        'error',
        `${spec.dtype} is not a documented Core Memory ` +
          `type${spec.dtype === 'bfloat16' ? ' (bfloat16 is unconfirmed and rejected until it is)' : ''}; supported: int8, int16, float16, float32, int32`,
        '@dtype',
      ),
    );
  const n = spec.shape.length;
  if (n === 0) out.push(issue('CELL001', 'error', 'a cell layout needs 1 to 4 dimensions', '@shape'));
  else if (n > CELL_MAX_RANK && !spec.relaxRank)
    out.push(
      issue(
        'CELL001',
        'error',
        `the Core Memory document covers 1-D to 4-D data; this tensor has ${n} dims (write cells(relax_rank=true) to use the same formula anyway)`,
        '@shape',
        { fixes: [{ title: 'Allow more than 4 dims', field: 'relax_rank', newText: 'true' }] },
      ),
    );
  spec.shape.forEach((s, i) => {
    if (!Number.isInteger(s) || s < 1) out.push(issue('CELL001', 'error', `dimension ${i} is ${s}; sizes must be integers ≥ 1`, '@shape', { index: i }));
  });
  const cell = spec.cellBytes ?? CELL_BYTES;
  if (!Number.isInteger(cell) || cell < 1) out.push(issue('CELL004', 'error', `cell size ${cell}: a cell is a whole number of bytes`, 'cell'));
  else if (info && cell % info.size !== 0)
    out.push(
      issue('CELL004', 'error', `a ${spec.dtype} element (${info.size} B) does not divide a ${cell}-byte cell, so elements would straddle cells`, 'cell'),
    );
  if (spec.order) {
    const ok = spec.order.length === n && [...spec.order].sort((a, b) => a - b).every((v, i) => v === i);
    if (!ok)
      out.push(
        issue(
          'CELL005',
          'error',
          `order must list each of the ${n} dims once (outermost first), ` +
            `e.g. ${list(spec.names?.length === n && spec.names.every((x) => x) ? (spec.names as string[]) : spec.shape.map((_, i) => i))}`,
          'order',
        ),
      );
  }
  if (spec.base !== undefined && Number.isInteger(cell) && cell > 0 && spec.base % cell !== 0) {
    const up = roundUp(spec.base, cell);
    out.push(
      issue('CELL003', 'error', `tensors start on a cell boundary: ${hex(spec.base)} is not a multiple of ${cell} (use ${hex(up)}, cell ${up / cell})`, '@at', {
        fixes: [{ title: `Round up to ${hex(up)}`, field: '@at', newText: hex(up), preferred: true }],
      }),
    );
  }
  // everything reported so far is an error
  if (out.length) return out;
  const m = new CellLayout(spec, true);
  const s = m.summary();
  const rowPad = m.R * cell - m.storageShape[n - 1] * m.size;
  if (rowPad && s.paddingPercent > 50)
    out.push(
      issue(
        'CELL006',
        'warning',
        `each innermost row of ${m.storageShape[n - 1]} × ${m.size} B uses ${plural(m.R, 'cell')} with ${rowPad} zero ` +
          `bytes: ${percent(s.breakdown.padding, s.bytes)} of the ${bytes(s.bytes)} is padding`,
        '@shape',
      ),
    );
  else if (rowPad)
    out.push(
      issue(
        'CELL006',
        'information',
        `each innermost row (${m.storageShape[n - 1]} × ${m.size} B) is padded with ${rowPad} zero bytes to ${plural(m.R, 'cell')}`,
        '@shape',
      ),
    );
  return out;
}

export interface CellForward extends ForwardBase {
  model: 'cells';
  /** Coordinate in storage order. */
  storage: number[];
  /** Innermost row (fixed d1..d(n-1)). */
  row: number;
  /** Cell address (in cells, base included). */
  cell: number;
  /** Byte of the element's LSB inside the cell. */
  byte: number;
  /** Bits [hi:lo] of the element in the 128-bit cell word Σ byte[k]·2^(8k). */
  bits: [number, number];
}

export class CellLayout implements LayoutModel<CellForward> {
  readonly kind = 'cells' as const;
  readonly shape: readonly number[];
  readonly names: readonly (string | undefined)[];
  readonly dtype: DType;
  readonly base: number;
  readonly size: number;
  readonly cellBytes: number;
  /** Elements per cell. */
  readonly E: number;
  /** Cells per innermost row. */
  readonly R: number;
  readonly rows: number;
  readonly totalCells: number;
  readonly order: readonly number[];
  readonly storageShape: readonly number[];
  readonly numel: number;
  readonly capacity?: number;
  private readonly rowStrides: number[];

  constructor(spec: CellSpec, validated = false) {
    if (!validated) {
      const errs = validateCells(spec).filter((i) => i.severity === 'error');
      if (errs.length) throw new LayoutError(errs.map((e) => e.message).join('; '));
    }
    this.shape = [...spec.shape];
    this.names = spec.names ? [...spec.names] : [];
    this.dtype = spec.dtype;
    this.base = spec.base ?? 0;
    this.size = CELL_DTYPES[spec.dtype]!.size;
    this.cellBytes = spec.cellBytes ?? CELL_BYTES;
    this.order = spec.order ? [...spec.order] : spec.shape.map((_, i) => i);
    this.storageShape = this.order.map((i) => spec.shape[i]);
    const n = this.storageShape.length;
    this.E = this.cellBytes / this.size;
    this.R = cdiv(this.storageShape[n - 1] * this.size, this.cellBytes);
    this.rows = prod(this.storageShape, 0, n - 1);
    this.totalCells = safe(this.rows * this.R, 'the cell count');
    safe(this.totalCells * this.cellBytes, 'the byte count');
    this.numel = prod(spec.shape);
    this.capacity = spec.capacity;
    // stride of each logical dim in rows (undefined for the innermost storage dim, which has none)
    const outer = rmStrides(this.storageShape.slice(0, n - 1));
    this.rowStrides = this.shape.map((_, d) => outer[this.order.indexOf(d)]);
  }

  get baseCell(): number {
    return this.base / this.cellBytes;
  }

  /** A coordinate in storage order → the same coordinate in the order the dims are written. */
  private logical(storage: readonly number[]): number[] {
    return this.shape.map((_, d) => storage[this.order.indexOf(d)]);
  }

  private dimName(i: number): string {
    return this.names[i] ?? `d${i}`;
  }

  checkCoord(coord: readonly number[]): string | undefined {
    return coordProblem(coord, this.shape, this.names);
  }

  forward(coord: readonly number[]): CellForward {
    const p = this.checkCoord(coord);
    if (p) throw new CoordError(p);
    const n = this.shape.length;
    const storage = this.order.map((i) => coord[i]);
    // ravel reads as many digits as the shape has: the innermost index is left out
    const row = ravel(storage, this.storageShape.slice(0, n - 1));
    const dn = storage[n - 1];
    const cell = this.baseCell + row * this.R + Math.floor(dn / this.E);
    const byte = (dn % this.E) * this.size;
    const address = cell * this.cellBytes + byte;
    const bits: [number, number] = [8 * byte + 8 * this.size - 1, 8 * byte];
    const permuted = this.order.some((v, i) => v !== i);
    const steps: Step[] = [
      { name: 'coordinate', value: this.names.some((x) => x) ? `(${coord.map((c, i) => `${this.dimName(i)}=${c}`).join(', ')})` : tuple(coord) },
      ...(permuted ? [{ name: 'storage order', value: `(${storage.map((c, k) => `${this.dimName(this.order[k])}=${c}`).join(', ')})` }] : []),
      { name: 'row', value: `${num(row)} (${plural(this.R, 'cell')} per row, ${this.E} elements per cell)` },
      { name: 'cell', value: `${num(cell)} = ${this.baseCell ? `${this.baseCell} + ` : ''}${row}·${this.R} + ⌊${dn}/${this.E}⌋` },
      { name: 'byte in cell', value: `${byte} (bits ${bits[0]}:${bits[1]} of the 128-bit cell, little-endian)` },
      { name: 'address', value: `${hex(address)} = ${this.cellBytes}·${cell} + ${byte}` },
    ];
    return { model: 'cells', coord: [...coord], address, size: this.size, steps, storage, row, cell, byte, bits };
  }

  inverse(address: number): InverseResult {
    const off = address - this.base;
    const steps: Step[] = [];
    const total = this.totalCells * this.cellBytes;
    if (!Number.isInteger(off) || off < 0 || off >= total)
      return {
        model: 'cells',
        address,
        kind: 'outside',
        steps,
        reason: `the tensor occupies ${hex(this.base)}..${hex(this.base + total - 1)} (cells ${this.baseCell}..${this.baseCell + this.totalCells - 1})`,
      };
    const cellIdx = Math.floor(off / this.cellBytes);
    const byte = off % this.cellBytes;
    const row = Math.floor(cellIdx / this.R);
    const k = cellIdx % this.R;
    const j = k * this.E + Math.floor(byte / this.size);
    steps.push({ name: 'cell', value: `${num(this.baseCell + cellIdx)}, byte ${byte}` }, { name: 'row', value: `${num(row)}, cell ${k} of ${this.R} in it` });
    const n = this.shape.length;
    const dn = this.storageShape[n - 1];
    if (j >= dn) return { model: 'cells', address, kind: 'padding', steps, reason: `zero padding after the ${dn} elements of row ${row}` };
    const coord = this.logical([...unravel(row, this.storageShape.slice(0, n - 1)), j]);
    steps.push({ name: 'coordinate', value: tuple(coord) });
    return { model: 'cells', address, kind: 'element', coord, byteInElement: byte % this.size, steps };
  }

  /** Per-dim address tables of forwardMany; undefined past TABLE_LIMIT entries (then built again each call: a sum of the sizes). */
  private tables?: Float64Array[];

  forwardMany(coords: Int32Array, out?: Float64Array): Float64Array {
    const r = this.shape.length;
    const count = checkManyInput(coords, r);
    const res = out ?? new Float64Array(count);
    const inner = this.order[r - 1];
    // A row's R cells are consecutive and its elements packed from the first, so element j of a row is j·size bytes
    // into it (cell ⌊j/E⌋, byte (j mod E)·size, with E·size = cell bytes).
    const rowBytes = this.R * this.cellBytes;
    // Stryker disable next-line AssignmentOperator: without tables (built again each call, or never) the loop below gives the same addresses, only slower
    this.tables ??= buildTables([...this.shape], (d, c) => (d === inner ? c * this.size : c * this.rowStrides[d] * rowBytes));
    // Stryker disable next-line ConditionalExpression,BlockStatement: skipping the tables falls through to the loop below, which gives the same addresses
    if (this.tables) {
      mapTables(this.base, this.tables, coords, res, count);
      return res;
    }
    const shape = Int32Array.from(this.shape);
    const rs = Float64Array.from(this.rowStrides);
    const s = this.size;
    let k = 0;
    for (let i = 0; i < count; i++) {
      let row = 0;
      let dn = 0;
      let bad = false;
      for (let d = 0; d < r; d++) {
        const c = coords[k++];
        if (c < 0 || c >= shape[d]) bad = true;
        if (d === inner) dn = c;
        else row += c * rs[d];
      }
      res[i] = bad ? NaN : this.base + row * rowBytes + dn * s;
    }
    return res;
  }

  summary(): LayoutSummary {
    const n = this.shape.length;
    const total = this.totalCells * this.cellBytes;
    const br: Breakdown = emptyBreakdown();
    br.element = this.numel * this.size;
    br.padding = total - br.element;
    const dn = this.storageShape[n - 1];
    const slots = this.totalCells * this.E;
    const named = this.names.some((x) => x);
    return {
      model: 'cells',
      elements: this.numel,
      slots,
      paddingSlots: slots - this.numel,
      bytes: total,
      breakdown: br,
      paddingPercent: (100 * br.padding) / total,
      blocks: { name: 'cell', count: this.totalCells, bytes: this.cellBytes },
      short: `${bytes(total)} · ${plural(this.totalCells, 'cell')} · ${percent(br.padding, total)} padding`,
      facts: [
        { name: 'dtype', value: `${this.dtype}, ${this.size} B (${CELL_DTYPES[this.dtype]!.encoding}), ${this.E} per ${this.cellBytes}-byte cell` },
        {
          name: 'storage order',
          value: `(${this.order.map((d) => (named ? `${this.dimName(d)}=${this.shape[d]}` : String(this.shape[d]))).join(', ')}), last innermost`,
        },
        {
          name: 'rows',
          value:
            `${num(this.rows)} innermost rows ` +
            `of ${dn} elements → ${plural(this.R, 'cell')} each (${dn * this.size} data + ${this.R * this.cellBytes - dn * this.size} zero bytes)`,
        },
        { name: 'cells', value: `${num(this.totalCells)} = ${num(this.rows)} × ${this.R}, ${bytes(total)}` },
        {
          name: 'address',
          value: `${hex(this.base)}..${hex(this.base + total - 1)} (cells ${num(this.baseCell)}..${num(this.baseCell + this.totalCells - 1)})`,
        },
      ],
    };
  }

  regions(): Regions {
    const dn = this.storageShape[this.shape.length - 1];
    const slot = (_u: number, s: number): Slot => {
      const k = s % this.R;
      const elements = Math.max(0, Math.min(this.E, dn - k * this.E));
      const row = Math.floor(s / this.R);
      const n = this.shape.length;
      const first = this.logical([...unravel(row, this.storageShape.slice(0, n - 1)), k * this.E]);
      return {
        kind: elements === this.E ? 'data' : elements ? 'partial' : 'padding',
        index: this.baseCell + s,
        elements,
        first: elements ? first : undefined,
        label: `cell ${this.baseCell + s}: row ${row}, ${elements}/${this.E} elements`,
      };
    };
    return {
      kind: 'cells',
      unitName: 'memory',
      slotName: 'cell',
      slotBytes: this.cellBytes,
      units: [{ label: 'Core Memory', base: this.base, slots: this.totalCells }],
      slot,
      runs: (u, from = 0, to = this.totalCells) => runsOf((s) => slot(u, s).kind, from, to),
      inner: { name: 'cell', rows: 1, cols: this.E, bytesPerElement: this.size },
    };
  }

  readonly unitKind: UnitRef['kind'] | undefined = undefined;

  unitCount(): number {
    return 1;
  }

  // Stryker disable next-line BlockStatement: an empty body returns undefined too (one address space, no unit to name)
  unitIndex(): number | undefined {
    return undefined;
  }

  unitLabel(): string {
    return 'Core Memory';
  }

  placements(): Placement[] {
    return [{ space: 'cells:core', start: this.base, end: this.base + this.totalCells * this.cellBytes, capacity: this.capacity, what: 'Core Memory' }];
  }

  /** Little-endian bytes of the tensor with zero padding; `values` in logical row-major order. */
  pack(values: ArrayLike<number>): Uint8Array {
    if (values.length !== this.numel) throw new RangeError(`pack: ${values.length} values for ${this.numel} elements`);
    const out = new Uint8Array(this.totalCells * this.cellBytes);
    const dv = new DataView(out.buffer);
    const enc = ENCODINGS[this.dtype]!;
    for (let i = 0; i < values.length; i++) enc.write(dv, this.forward(unravel(i, this.shape)).address - this.base, values[i]);
    return out;
  }

  /** Values of the tensor (logical row-major order) from packed bytes; padding is ignored. With `strict`, non-zero padding throws. */
  unpack(data: Uint8Array, strict = false): number[] {
    const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const enc = ENCODINGS[this.dtype]!;
    const out = Array.from({ length: this.numel }, (_, i) => enc.read(dv, this.forward(unravel(i, this.shape)).address - this.base));
    if (strict) {
      const b = data.findIndex((v, i) => v !== 0 && this.inverse(this.base + i).kind === 'padding');
      if (b !== -1) throw new RangeError(`non-zero padding byte ${hex(data[b])} at offset ${b}`);
    }
    return out;
  }
}

/** IEEE-754 binary16 bits of a number (round to nearest even). */
export function toHalfBits(v: number): number {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  f[0] = v;
  const x = u[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && h & 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++;
  return sign | h;
}

export function fromHalfBits(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 0x1f) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

/** Little-endian reads and writes of the documented Core Memory types (B.2); validation admits no other dtype. */
const ENCODINGS: Partial<Record<DType, { write(dv: DataView, at: number, v: number): void; read(dv: DataView, at: number): number }>> = {
  int8: { write: (dv, at, v) => dv.setInt8(at, v), read: (dv, at) => dv.getInt8(at) },
  int16: { write: (dv, at, v) => dv.setInt16(at, v, true), read: (dv, at) => dv.getInt16(at, true) },
  int32: { write: (dv, at, v) => dv.setInt32(at, v, true), read: (dv, at) => dv.getInt32(at, true) },
  float16: { write: (dv, at, v) => dv.setUint16(at, toHalfBits(v), true), read: (dv, at) => fromHalfBits(dv.getUint16(at, true)) },
  float32: { write: (dv, at, v) => dv.setFloat32(at, v, true), read: (dv, at) => dv.getFloat32(at, true) },
};
