/**
 * The interface every layout model implements (PyTorch strided, Spyre, TT-Metalium, 16-byte cells,
 * fibered sparse). Addresses are byte addresses held in plain numbers; models refuse to build when a
 * byte count would pass 2^53, so every number here is exact.
 */

export type ModelKind = 'strided' | 'spyre' | 'tt' | 'cells' | 'sparse';

/** One named intermediate value of a mapping, in the order the mapping computes it. */
export interface Step {
  name: string;
  value: string;
}

/** The memory unit an address belongs to, for models with several (banks, cores, memory spaces). */
export interface UnitRef {
  kind: 'bank' | 'core' | 'space';
  /** Index into the model's unit list (bank number, index of the core in the shard core list, space index). */
  index: number;
  label: string;
}

export interface ForwardBase {
  model: ModelKind;
  coord: number[];
  /** Byte address of the element's first (lowest) byte. For TT it is the address inside the bank or core. */
  address: number;
  unit?: UnitRef;
  /** Bytes the element occupies at `address` (a bfloat4_b element is half a byte: 0.5). */
  size: number;
  steps: Step[];
}

/**
 * What a byte of reserved memory holds. The `breakdown` of a summary counts bytes by these kinds and
 * adds up to `bytes`.
 * - element:   bytes of a real tensor element (or a stored sparse entry);
 * - padding:   element slots that hold no tensor element (stick/tile/cell/edge-shard padding, Spyre synthetic slots);
 * - alignment: bytes that round a page up to the bank alignment;
 * - unused:    space reserved in lockstep in a bank or core that received nothing there;
 * - metadata:  block-float shared exponents, sparse metadata words;
 * - replica:   Spyre broadcast (stride 0) copies of an element;
 * - slack:     allocation beyond the device layout (Spyre allocates max(device, host) bytes);
 * - gap:       strided storage between elements that the view does not use.
 */
export type ByteKind = 'element' | 'padding' | 'alignment' | 'unused' | 'metadata' | 'replica' | 'slack' | 'gap';
export const BYTE_KINDS: readonly ByteKind[] = ['element', 'padding', 'alignment', 'unused', 'metadata', 'replica', 'slack', 'gap'];

export type Breakdown = Record<ByteKind, number>;

export const emptyBreakdown = (): Breakdown => ({ element: 0, padding: 0, alignment: 0, unused: 0, metadata: 0, replica: 0, slack: 0, gap: 0 });

export interface InverseResult {
  model: ModelKind;
  address: number;
  unit?: UnitRef;
  /** `outside`: the address is not part of this tensor's reservation. */
  kind: ByteKind | 'outside';
  /** Tensor coordinate when `kind` is `element` (or `replica`: the element it copies). */
  coord?: number[];
  /** Byte inside the element (0 = lowest address; little-endian: the least significant byte). */
  byteInElement?: number;
  /** Why the byte is padding / outside, in words. */
  reason?: string;
  steps: Step[];
}

/** Pages (or other slots) held by a run of units: `pages` each for units `from..to` (inclusive). */
export interface UnitGroup {
  from: number;
  to: number;
  pages: number;
}

export interface UnitsSummary {
  kind: 'bank' | 'core';
  /** Units that reserve space (all banks for interleaved, the grid's cores for sharded). */
  count: number;
  /** Units that hold at least one real page. */
  used: number;
  bytesPerUnit: number;
  /** Real pages per unit, grouped (omitted when it would take too long to compute). */
  pages?: UnitGroup[];
  slotsPerUnit: number;
}

export interface LayoutSummary {
  model: ModelKind;
  /** Logical elements (product of the shape). */
  elements: number;
  /** Element slots the layout provides (real + padding; replicas not included). */
  slots: number;
  /** Slots that hold no element: `slots - elements` for dense layouts. */
  paddingSlots: number;
  /** Total bytes reserved (sum of `breakdown`). */
  bytes: number;
  breakdown: Breakdown;
  /** 100 · padding / (element + padding). */
  paddingPercent: number;
  units?: UnitsSummary;
  /** Pages / sticks / cells / entries: the model's allocation unit and how many there are. */
  blocks?: { name: string; count: number; bytes: number };
  /** A short one-line label (inlay hints). */
  short: string;
  /** Facts for hovers and the CLI, in display order. */
  facts: Step[];
}

/** What one slot (page, stick, cell, entry) of a region holds. */
export interface Slot {
  kind: 'data' | 'partial' | 'padding' | 'unused';
  /** Page id / stick index / cell index / entry index. */
  index?: number;
  /** Real elements in the slot. */
  elements: number;
  label: string;
  /** First tensor coordinate stored in the slot. */
  first?: number[];
}

/** A run of consecutive slots with the same kind in one unit. */
export interface Run {
  from: number;
  to: number;
  kind: Slot['kind'];
}

export interface RegionUnit {
  label: string;
  /** Address of the unit's slot 0. */
  base: number;
  slots: number;
  /** Bytes per slot of this unit when it differs from `Regions.slotBytes` (e.g. 4-byte metadata words). */
  slotBytes?: number;
}

/** Inner structure of one slot (for drawing one tile, one stick, one cell). */
export interface InnerGrid {
  name: string;
  rows: number;
  cols: number;
  /** Sub-blocks (faces of a tile), row-major, with the element offset where each starts. */
  blocks?: { row: number; col: number; rows: number; cols: number; offset: number; label: string }[];
  bytesPerElement: number;
}

/**
 * A picture-ready description of where a tensor lives: units (banks, cores, one lane) × slots.
 * Slots are classified lazily, so a tensor of 2^30 elements needs no per-element objects.
 */
export interface Regions {
  kind: 'banks' | 'cores' | 'sticks' | 'cells' | 'storage' | 'fibers';
  unitName: string;
  slotName: string;
  slotBytes: number;
  units: RegionUnit[];
  slot(unit: number, slot: number): Slot;
  /** Runs of equal kind over slots [from, to) of a unit. Long uniform stretches cost one run. */
  runs(unit: number, from?: number, to?: number): Generator<Run>;
  inner?: InnerGrid;
}

export interface LayoutModel<F extends ForwardBase = ForwardBase> {
  readonly kind: ModelKind;
  readonly shape: readonly number[];
  readonly dtype: string;
  /** Base byte address of the tensor (for TT: the buffer address, the same in every bank/core). */
  readonly base: number;
  /** Problem with a coordinate (rank, range), or undefined. */
  checkCoord(coord: readonly number[]): string | undefined;
  summary(): LayoutSummary;
  /** Maps a tensor coordinate; throws CoordError for a bad coordinate. */
  forward(coord: readonly number[]): F;
  /** What the byte at `address` (in `unit`, for banked/cored/multi-space models) holds. */
  inverse(address: number, unit?: number): InverseResult;
  /**
   * Maps `coords.length / rank` coordinates packed row by row. Returns byte addresses (NaN for a
   * coordinate out of range); `units`, when given, receives the bank/core index of each.
   */
  forwardMany(coords: Int32Array, out?: Float64Array, units?: Int32Array): Float64Array;
  regions(): Regions;
  /** Memory units, for address queries: none (single address space), banks, cores or spaces. */
  readonly unitKind?: UnitRef['kind'];
  unitCount(): number;
  unitLabel(i: number): string;
  /** Parses a unit written by a user (`2`, `(1,0)`, `meta`); undefined when it names none. */
  unitIndex?(text: string | number[]): number | undefined;
  /** Byte ranges the tensor reserves, for overlap and capacity checks. */
  placements(): Placement[];
}

/** A reserved byte range in one memory space, in some or all of its units. */
export interface Placement {
  space: string;
  /** Unit ids ('bank 3', 'core 1,0'); undefined = every unit of the space. */
  units?: string[];
  start: number;
  end: number;
  /** Capacity of one unit of the space, when known. */
  capacity?: number;
  what: string;
}

/** Runs helper for models that can classify a slot quickly. */
export function* runsOf(slot: (s: number) => Slot['kind'], from: number, to: number): Generator<Run> {
  if (from >= to) return;
  let start = from;
  let kind = slot(from);
  for (let s = from + 1; s < to; s++) {
    const k = slot(s);
    if (k !== kind) {
      yield { from: start, to: s, kind };
      start = s;
      kind = k;
    }
  }
  yield { from: start, to, kind };
}

export function checkManyInput(coords: Int32Array, rank: number): number {
  if (rank === 0) return coords.length === 0 ? 1 : coords.length;
  if (coords.length % rank !== 0) throw new RangeError(`forwardMany: ${coords.length} values is not a whole number of ${rank}-D coordinates`);
  return coords.length / rank;
}
