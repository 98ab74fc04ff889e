/**
 * IBM Spyre (`SpyreTensorLayout`): 128-byte sticks, `device_size` row-major in device memory, host↔device
 * correspondence by `dim_map` (v1) or `stride_map` (v2). Research layouts.md part A.
 */
import { type DType, HOST_BYTES, spyreDtype, type SpyreDtypeInfo } from '../../dtypes';
import { buildTables, mapTables } from '../../fast';
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
} from '../../model';
import { bytes, cdiv, CoordError, coordProblem, LayoutError, list, num, percent, plural, prod, rmStrides, safe, tuple, unravel } from '../../util';
import { activeSlots, reconstruct } from './dataSlots';
import { classifySlot, devToHost, dimMapToStrideMap, greedy, greedyOrder, hostToDev, type SlotClass, spyreDefaultLayout } from './maps';
import { SPYRE_ENUM_LIMIT, SPYRE_MEMORY, type SpyreLayoutSpec, type SpyreSpec, STICK_BYTES } from './spec';
import { validateSpyre } from './validate';

export interface SpyreForward extends ForwardBase {
  model: 'spyre';
  /** Host offset in elements (Σ coord·hostStride). */
  hostOffset: number;
  device: number[];
  /** Element offset in device memory (Σ device·devStride). */
  elemOffset: number;
  byteOffset: number;
  stick: number;
  /** Element slot inside the stick (undefined when the element arrangement is not STANDARD). */
  slot?: number;
  /** Byte inside the stick. */
  stickByte?: number;
}

export class SpyreLayout implements LayoutModel<SpyreForward> {
  readonly kind = 'spyre' as const;
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly base: number;
  readonly info: SpyreDtypeInfo;
  readonly eps: number;
  readonly bpe: number;
  readonly deviceSize: readonly number[];
  /** dim_map: given, default, or reconstructed from an equivalent stride_map; undefined = stride_map mapping. */
  readonly dimMap?: readonly number[];
  readonly strideMap: readonly number[];
  readonly hostStrides: readonly number[];
  readonly devStrides: readonly number[];
  readonly sparse: boolean;
  readonly standard: boolean;
  readonly arrangement: string;
  readonly layoutKind: SpyreLayoutSpec['kind'];
  readonly deviceBytes: number;
  readonly allocBytes: number;
  readonly numel: number;
  readonly memory: number;
  /** greedyOrder of the stride_map: the device dims a host offset is split along (stride_map mapping). */
  private readonly smOrder: readonly number[];
  /** Copies of each element: the product of the broadcast (stride_map 0) device dims. */
  private replicaFactor: number;
  // forwardMany tables (dim_map mode): digits of each host dim, innermost first
  private readonly dgStart: Int32Array;
  private readonly dgSize: Int32Array;
  private readonly dgStride: Float64Array;

  constructor(spec: SpyreSpec) {
    const errors = validateSpyre(spec).filter((i) => i.severity === 'error');
    if (errors.length) throw new LayoutError(errors.map((e) => e.message).join('; '));
    this.info = spyreDtype(spec.dtype)!;
    this.eps = this.info.eps;
    this.bpe = this.info.bytes;
    this.shape = [...spec.shape];
    this.dtype = spec.dtype;
    this.base = spec.base ?? 0;
    this.memory = spec.memory ?? SPYRE_MEMORY;
    this.hostStrides = spec.hostStrides ? [...spec.hostStrides] : rmStrides(spec.shape);
    const ea = spec.elementArrangement ?? 'STANDARD';
    // `ElementArrangement.FP32_TO_DL16` and `fp32_to_dl16` name the same arrangement
    this.arrangement = ea.slice(ea.lastIndexOf('.') + 1).toUpperCase();
    this.standard = this.arrangement === 'STANDARD';
    this.layoutKind = spec.layout.kind;
    const L = spec.layout;
    if (L.kind === 'default') {
      const d = spyreDefaultLayout(spec.shape, this.eps, L.dimOrder);
      this.deviceSize = d.deviceSize;
      this.dimMap = d.dimMap;
    } else if (L.kind === 'dim_map') {
      this.deviceSize = [...L.deviceSize];
      this.dimMap = [...L.dimMap];
    } else {
      this.deviceSize = [...L.deviceSize];
      this.dimMap = reconstruct([...L.deviceSize], L.strideMap, [...spec.shape], [...this.hostStrides]);
    }
    const ds = this.deviceSize;
    const n = ds.length;
    this.strideMap = L.kind === 'stride_map' ? [...L.strideMap] : dimMapToStrideMap(ds, this.dimMap!, this.shape, this.hostStrides);
    this.devStrides = rmStrides(ds);
    this.smOrder = greedyOrder(ds, this.strideMap);
    this.sparse = this.dimMap ? this.dimMap[n - 1] === -1 : false;
    this.numel = safe(prod(spec.shape), 'the element count');
    this.deviceBytes = safe(STICK_BYTES * prod(ds, 0, n - 1), 'the device size in bytes');
    this.allocBytes = Math.max(this.deviceBytes, this.numel * HOST_BYTES[spec.dtype]);
    // Every host element has exactly one data slot: validation refuses a stride_map that misses or aliases one
    // (SPY010), and a dim_map reaches each by construction. Broadcast dims multiply them into replicas.
    const dimMap = this.dimMap;
    this.replicaFactor = dimMap ? 1 : prod(ds.filter((_, j) => this.strideMap[j] === 0));
    // digits for the fast path: the device dims of each host dim, innermost first
    const digits = this.shape.map((_, d) => [...ds.keys()].filter((j) => dimMap?.[j] === d).reverse());
    this.dgStart = new Int32Array(this.shape.length + 1);
    digits.forEach((js, d) => (this.dgStart[d + 1] = this.dgStart[d] + js.length));
    this.dgSize = Int32Array.from(digits.flat(), (j) => ds[j]);
    this.dgStride = Float64Array.from(digits.flat(), (j) => this.devStrides[j] * this.bpe);
  }

  checkCoord(coord: readonly number[]): string | undefined {
    return coordProblem(coord, this.shape);
  }

  hostOffset(coord: readonly number[]): number {
    let h = 0;
    for (let d = 0; d < coord.length; d++) h += coord[d] * this.hostStrides[d];
    return h;
  }

  /** Host coordinate → device coordinate. */
  toDevice(coord: readonly number[]): number[] {
    if (this.dimMap) return hostToDev(coord, this.deviceSize, this.dimMap).x;
    const x = greedy(this.hostOffset(coord), this.deviceSize, this.strideMap, this.smOrder);
    if (!x) throw new CoordError(`host element ${tuple(coord)} has no device position under this stride_map`);
    return x;
  }

  /** Device coordinate → host element, padding or replica. */
  fromDevice(x: readonly number[]): SlotClass {
    if (this.dimMap) {
      const r = devToHost(x, this.deviceSize, this.dimMap, this.shape);
      return r.valid ? { kind: 'element', h: this.hostOffset(r.h), host: r.h } : { kind: 'padding', reason: r.reason! };
    }
    return classifySlot(x, this.deviceSize, this.strideMap, this.shape, this.hostStrides);
  }

  forward(coord: readonly number[]): SpyreForward {
    const p = this.checkCoord(coord);
    if (p) throw new CoordError(p);
    const device = this.toDevice(coord);
    const elemOffset = this.elemOffset(device);
    const byteOffset = elemOffset * this.bpe;
    const stick = Math.floor(elemOffset / this.eps);
    const slot = this.standard ? elemOffset % this.eps : undefined;
    const stickByte = slot === undefined ? undefined : slot * this.bpe;
    const address = this.standard ? this.base + byteOffset : this.base + stick * STICK_BYTES;
    const hostOffset = this.hostOffset(coord);
    const steps: Step[] = [
      { name: 'host coordinate', value: tuple(coord) },
      ...(this.dimMap ? [] : [{ name: 'host offset (Σ coord·host stride)', value: num(hostOffset) }]),
      { name: 'device coordinate', value: tuple(device) },
      { name: 'element offset (Σ device·device stride)', value: num(elemOffset) },
      { name: 'stick', value: `${num(stick)} (128 B each)` },
      { name: 'offset in stick', value: slot === undefined ? `unspecified (${this.arrangement})` : `slot ${slot}, byte ${stickByte}` },
      { name: 'byte offset', value: num(this.standard ? byteOffset : stick * STICK_BYTES) },
      { name: 'address', value: `0x${address.toString(16)}` },
    ];
    return { model: 'spyre', coord: [...coord], address, size: this.bpe, steps, hostOffset, device, elemOffset, byteOffset, stick, slot, stickByte };
  }

  inverse(address: number): InverseResult {
    const off = address - this.base;
    const steps: Step[] = [{ name: 'byte offset', value: num(off) }];
    if (off < 0 || off >= this.allocBytes || !Number.isInteger(off))
      return {
        model: 'spyre',
        address,
        kind: 'outside',
        steps,
        reason: `the tensor occupies 0x${this.base.toString(16)}..0x${(this.base + this.allocBytes - 1).toString(16)}`,
      };
    if (off >= this.deviceBytes)
      return {
        model: 'spyre',
        address,
        kind: 'slack',
        steps,
        reason: `allocation beyond the ${bytes(this.deviceBytes)} device layout (allocation = max(device, host) = ${bytes(this.allocBytes)})`,
      };
    const stick = Math.floor(off / STICK_BYTES);
    steps.push({ name: 'stick', value: `${num(stick)}, byte ${off % STICK_BYTES} in it` });
    if (!this.standard) {
      steps.push({ name: 'offset in stick', value: `unspecified (${this.arrangement})` });
      return { model: 'spyre', address, kind: 'element', steps, reason: `the order inside a stick is hardware-defined for ${this.arrangement}` };
    }
    const elem = Math.floor(off / this.bpe);
    const device = unravel(elem, this.deviceSize);
    steps.push(
      { name: 'slot in stick', value: String(elem % this.eps) },
      { name: 'element offset', value: num(elem) },
      { name: 'device coordinate', value: tuple(device) },
    );
    const c = this.fromDevice(device);
    if (c.kind === 'padding') return { model: 'spyre', address, kind: 'padding', steps, reason: c.reason };
    if (!this.dimMap) steps.push({ name: 'host offset', value: num(c.h) });
    steps.push({ name: 'host coordinate', value: tuple(c.host) });
    return {
      model: 'spyre',
      address,
      kind: c.kind,
      coord: c.host,
      byteInElement: off % this.bpe,
      steps,
      reason: c.kind === 'replica' ? 'broadcast copy (stride_map 0)' : undefined,
    };
  }

  /** Device coordinate → address and what it holds (the `probe NAME device[...]` form). */
  deviceProbe(x: readonly number[]): InverseResult {
    const p = coordProblem(x, this.deviceSize);
    if (p) throw new CoordError(p.replace('the tensor has', 'the device layout has'));
    return this.inverse(this.base + this.elemOffset(x) * this.bpe);
  }

  /** Element offset of a device coordinate: Σ device·device stride (A.6.3). */
  private elemOffset(x: readonly number[]): number {
    return x.reduce((s, v, j) => s + v * this.devStrides[j], 0);
  }

  forwardMany(coords: Int32Array, out?: Float64Array): Float64Array {
    const r = this.shape.length;
    const count = checkManyInput(coords, r);
    const res = out ?? new Float64Array(count);
    // Stryker disable next-line ConditionalExpression: forward() gives the addresses the tables give, only slower
    if (!this.dimMap || !this.standard) {
      // one coordinate array for the batch (only the address of each answer is kept)
      // Stryker disable next-line ArrayDeclaration: the length only preallocates; every entry is written below
      const c = new Array<number>(r);
      for (let i = 0; i < count; i++) {
        for (let d = 0; d < r; d++) c[d] = coords[i * r + d];
        res[i] = this.checkCoord(c) ? NaN : this.forward(c).address;
      }
      return res;
    }
    // Stryker disable next-line AssignmentOperator: without tables (built again each call, or never) the loop below gives the same addresses, only slower
    this.tables ??= buildTables([...this.shape], (d, c) => {
      let a = 0;
      let rem = c;
      for (let g = this.dgStart[d]; g < this.dgStart[d + 1]; g++) {
        const q = rem % this.dgSize[g];
        a += q * this.dgStride[g];
        rem = (rem - q) / this.dgSize[g];
      }
      return a;
    });
    // Stryker disable next-line ConditionalExpression,BlockStatement: skipping the tables falls through to the loop below, which gives the same addresses
    if (this.tables) {
      mapTables(this.base, this.tables, coords, res, count);
      return res;
    }
    const shape = Int32Array.from(this.shape);
    const st = this.dgStart;
    const sz = this.dgSize;
    const sd = this.dgStride;
    const base = this.base;
    let k = 0;
    for (let i = 0; i < count; i++) {
      let a = base;
      let bad = false;
      for (let d = 0; d < r; d++) {
        let c = coords[k++];
        if (c < 0 || c >= shape[d]) bad = true;
        const e = st[d + 1];
        for (let g = st[d]; g < e; g++) {
          const s = sz[g];
          const q = c % s;
          a += q * sd[g];
          c = ((c - q) / s) | 0;
        }
      }
      res[i] = bad ? NaN : a;
    }
    return res;
  }

  /** Per-dim address tables of forwardMany; undefined past TABLE_LIMIT entries (then built again each call: a sum of the sizes). */
  private tables?: Float64Array[];

  /**
   * Sticks holding at least one element, and partially filled sticks: closed form for a dim_map (the element
   * arrangement only permutes slots inside a stick, A.6.3); for a stride_map that is no tiling, by placing every host
   * element (each has exactly one data slot once validation has enumerated them; `data` and `partial` are left out
   * when it could not, past SPYRE_ENUM_LIMIT slots).
   */
  stickCounts(): { sticks: number; data?: number; partial?: number } {
    const n = this.deviceSize.length;
    const sticks = prod(this.deviceSize, 0, n - 1);
    if (!this.dimMap) {
      if (activeSlots([...this.deviceSize], [...this.strideMap]) > SPYRE_ENUM_LIMIT) return { sticks };
      const fill = new Int32Array(sticks);
      for (let i = 0; i < this.numel; i++) fill[Math.floor(this.elemOffset(this.toDevice(unravel(i, this.shape))) / this.eps)]++;
      return { sticks, data: fill.filter((e) => e > 0).length, partial: fill.filter((e) => e > 0 && e < this.eps).length };
    }
    const s = this.dimMap[n - 1];
    if (s === -1) return { sticks, data: this.numel, partial: this.numel };
    let other = 1;
    for (let d = 0; d < this.shape.length; d++) if (d !== s) other *= this.shape[d];
    const sz = this.shape[s];
    return { sticks, data: other * cdiv(sz, this.eps), partial: sz % this.eps ? other : 0 };
  }

  summary(): LayoutSummary {
    const slotsAll = prod(this.deviceSize);
    const data = this.numel;
    const replica = data * (this.replicaFactor - 1);
    const slots = slotsAll - replica;
    const br: Breakdown = emptyBreakdown();
    br.element = data * this.bpe;
    br.replica = replica * this.bpe;
    br.padding = (slotsAll - data - replica) * this.bpe;
    br.slack = this.allocBytes - this.deviceBytes;
    const sc = this.stickCounts();
    const paddingPercent = slots ? (100 * (slots - data)) / slots : 0;
    const facts: Step[] = [
      { name: 'dtype', value: `${this.dtype} → ${this.info.device}, ${this.eps} elements per 128-byte stick` },
      { name: 'host size', value: list(this.shape) + (this.layoutKind === 'stride_map' ? `, strides ${list(this.hostStrides)}` : '') },
      { name: 'device_size', value: list(this.deviceSize) },
      ...(this.dimMap && this.layoutKind !== 'stride_map' ? [{ name: 'dim_map', value: list(this.dimMap) }] : []),
      { name: 'stride_map', value: list(this.strideMap) },
      { name: 'device strides', value: list(this.devStrides) },
      {
        name: 'sticks',
        value:
          sc.data === undefined
            ? `${num(sc.sticks)} (not counted: over ${num(SPYRE_ENUM_LIMIT)} slots to enumerate)`
            : `${num(sc.sticks)} (${num(sc.data)} with data${sc.partial ? `, ${num(sc.partial)} partly filled` : ''})`,
      },
      { name: 'device bytes', value: `${bytes(this.deviceBytes)} (${num(this.deviceBytes)} B)` },
      { name: 'allocation', value: `${bytes(this.allocBytes)} = max(device ${bytes(this.deviceBytes)}, host ${bytes(this.numel * HOST_BYTES[this.dtype])})` },
      {
        name: 'utilisation',
        value:
          `${num(data)} of ${num(slotsAll)} slots (${percent(data, slotsAll)})` +
          `${replica ? `, ${num(replica)} broadcast replicas` : ''}${this.sparse ? ', sparse' : ''}`,
      },
      { name: 'address range', value: `0x${this.base.toString(16)}..0x${(this.base + this.allocBytes - 1).toString(16)}` },
    ];
    return {
      model: 'spyre',
      elements: this.numel,
      slots,
      paddingSlots: slots - data,
      bytes: this.allocBytes,
      breakdown: br,
      paddingPercent,
      blocks: { name: 'stick', count: sc.sticks, bytes: STICK_BYTES },
      short: `${bytes(this.allocBytes)} · ${plural(sc.sticks, 'stick')} · ${percent(slots - data, slots)} padding${this.sparse ? ' · sparse' : ''}`,
      facts,
    };
  }

  /** Stick `s`: how many real elements it holds. */
  stickFill(s: number): { elements: number; first?: number[] } {
    const n = this.deviceSize.length;
    const prefix = unravel(s, this.deviceSize.slice(0, n - 1));
    // A dim_map fixes which elements a stick holds whatever their order inside it (A.6.3): from the host coordinate of
    // slot 0 on, along the stick's host dim (one element in a sparse stick); none when slot 0 is outside the tensor.
    // Stryker disable next-line ConditionalExpression,BlockStatement: the slot-by-slot count below gives the same answer (this is its fast path)
    if (this.dimMap) {
      const r = devToHost([...prefix, 0], this.deviceSize, this.dimMap, this.shape);
      const sd = this.dimMap[n - 1];
      if (!r.valid) return { elements: 0 };
      return { elements: sd === -1 ? 1 : Math.min(this.eps, this.shape[sd] - r.h[sd]), first: r.h };
    }
    const held = Array.from({ length: this.eps }, (_, i) => this.fromDevice([...prefix, i])).flatMap((c) => (c.kind === 'element' ? [c.host] : []));
    return { elements: held.length, first: held[0] };
  }

  regions(): Regions {
    const sticks = prod(this.deviceSize, 0, this.deviceSize.length - 1);
    const slot = (_u: number, s: number): Slot => {
      const f = this.stickFill(s);
      const kind: Slot['kind'] = f.elements === 0 ? 'padding' : f.elements === this.eps ? 'data' : 'partial';
      return {
        kind,
        index: s,
        elements: f.elements,
        first: f.first,
        label: `stick ${s}: ${f.elements}/${this.eps} elements${f.first ? `, first ${tuple(f.first)}` : ''}`,
      };
    };
    return {
      kind: 'sticks',
      unitName: 'device memory',
      slotName: 'stick',
      slotBytes: STICK_BYTES,
      units: [{ label: 'device memory', base: this.base, slots: sticks }],
      slot,
      runs: (u, from = 0, to = sticks) => runsOf((s) => slot(u, s).kind, from, to),
      inner: { name: 'stick', rows: 1, cols: this.eps, bytesPerElement: this.bpe },
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
    return 'device memory';
  }

  placements(): Placement[] {
    return [{ space: 'spyre:device', start: this.base, end: this.base + this.allocBytes, capacity: this.memory, what: 'device memory' }];
  }
}
