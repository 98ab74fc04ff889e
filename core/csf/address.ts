/**
 * Coordinate ↔ address mapping for `.csfbin` tensors, in the accelerator's memories (§A.7) and in files.
 *
 * For a tensor at tensor pointer t with order n:
 *   fiber f        = row-major number of the leading coordinates (c0..c(n-2))
 *   pointer word   = t + 1 + n + f                  (metadata address; byte 4·word in the image)
 *   fiber range    = [meta[t+1+n+f], meta[t+1+n+f+1])  (main-memory entries)
 *   entry          = the entry of that range whose index is c(n-1) (binary search; absent means 0)
 *   main byte      = 8·entry (index field), 8·entry + 4 (value field)
 * For a dense tensor such as the accelerator's result C the entry is simply meta[pointer word] + c(n-1),
 * which is how `Control::contract` computes its store address.
 */
import type { CsfFile } from './codec';
import type { AcceleratorMemory, LoadedTensor } from './memory';
import { fiberCoord, fiberOfCoord, formatShape, type CsfIssue, type Result } from './types';

/** Where an element of a resident tensor lives. */
export interface ElementLocation {
  t: number;
  coord: number[];
  fiber: number;
  leading: number[];
  /** Metadata word holding the fiber's start pointer, and its byte offset in the metadata image. */
  fiberPointerAddr: number;
  fiberPointerByte: number;
  /** The fiber's main-memory entries [fiberStart, fiberEnd). */
  fiberStart: number;
  fiberEnd: number;
  /** Whether the element is stored (an absent element is 0). */
  present: boolean;
  /** Main address of its entry; when absent, the address where it would be inserted. */
  entry: number;
  entryInFiber: number;
  /** Byte offset of the entry's index field in the main image (the value is 4 bytes further). */
  mainByte: number;
  value: number;
  bits: number;
}

const bad = (code: CsfIssue['code'], message: string): { ok: false; issues: CsfIssue[] } => ({ ok: false, issues: [{ code, severity: 'error', message }] });

function residentOrError(mem: AcceleratorMemory, t: number): LoadedTensor | { ok: false; issues: CsfIssue[] } {
  return (
    mem.tensorAt(t) ??
    bad('csf.bad-address', `no tensor is loaded at metadata address ${t} (tensor pointers: ${mem.tensors.map((x) => x.t).join(', ') || 'none'})`)
  );
}

/** Binary search of index j among main entries [lo, hi): the entry, or ~insertion point when absent. */
function searchMain(mem: AcceleratorMemory, lo: number, hi: number, j: number): number {
  let a = lo;
  let b = hi - 1;
  while (a <= b) {
    const m = Math.floor((a + b) / 2);
    const idx = mem.mainIndex(m);
    if (idx === j) return m;
    if (idx < j) a = m + 1;
    else b = m - 1;
  }
  return ~a;
}

/** Element (c0..c(n-1)) of the tensor at t → fiber, pointer word, entry and byte addresses. */
export function locateElement(mem: AcceleratorMemory, t: number, coord: readonly number[]): Result<{ location: ElementLocation }> {
  const r = residentOrError(mem, t);
  if ('ok' in r) return r;
  const n = r.order;
  if (coord.length !== n) return bad('csf.bad-coordinate', `the tensor at ${t} has order ${n}, ${coord.length} coordinates given`);
  const leading = coord.slice(0, n - 1);
  const f = fiberOfCoord(r.shape, leading);
  const j = coord[n - 1];
  if (f < 0 || !Number.isInteger(j) || j < 0 || j >= r.shape[n - 1])
    return bad('csf.bad-coordinate', `coordinates [${coord.join(', ')}] are outside the shape ${formatShape(r.shape)}`);
  const pa = t + 1 + n + f;
  const start = mem.metaWord(pa);
  const end = mem.metaWord(pa + 1);
  const hit = searchMain(mem, start, end, j);
  const present = hit >= 0;
  const entry = present ? hit : ~hit;
  return {
    ok: true,
    location: {
      t,
      coord: [...coord],
      fiber: f,
      leading,
      fiberPointerAddr: pa,
      fiberPointerByte: 4 * pa,
      fiberStart: start,
      fiberEnd: end,
      present,
      entry,
      entryInFiber: entry - start,
      mainByte: 8 * entry,
      value: present ? mem.mainValue(entry) : 0,
      bits: present ? mem.mainBits(entry) : 0,
    },
  };
}

/** What a main-memory entry holds. */
export interface MainAddressInfo {
  bank: 'main';
  address: number;
  /** Byte within the entry (0–3 index field, 4–7 value field). */
  byteInEntry: number;
  field: 'index' | 'value';
  /** The owning tensor (undefined for free memory). */
  tensor?: LoadedTensor;
  fiber?: number;
  leading?: number[];
  entryInFiber?: number;
  /** Full coordinates (undefined when the index is not a valid coordinate, e.g. an unwritten slot). */
  coord?: number[];
  index: number;
  value: number;
  bits: number;
}

/** What a metadata word holds. */
export interface MetaAddressInfo {
  bank: 'meta';
  address: number;
  byteInWord: number;
  tensor?: LoadedTensor;
  role: 'order' | 'shape' | 'fiber-pointer' | 'end-pointer' | 'free';
  /** For `shape`: which mode. */
  mode?: number;
  /** For `fiber-pointer`: which fiber and its leading coordinates. */
  fiber?: number;
  leading?: number[];
  value: number;
}

/** Main entry address → owning tensor, fiber, coordinates and contents. */
export function resolveMainAddress(mem: AcceleratorMemory, address: number, byteInEntry = 0): MainAddressInfo {
  const info: MainAddressInfo = {
    bank: 'main',
    address,
    byteInEntry,
    field: byteInEntry < 4 ? 'index' : 'value',
    index: mem.mainIndex(address),
    value: mem.mainValue(address),
    bits: mem.mainBits(address),
  };
  const r = mem.tensorOfMain(address);
  if (!r) return info;
  info.tensor = r;
  const p0 = r.t + 1 + r.order;
  let lo = 0;
  let hi = r.fibers - 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    if (mem.metaWord(p0 + mid) <= address) lo = mid;
    else hi = mid - 1;
  }
  info.fiber = lo;
  info.leading = fiberCoord(r.shape, lo);
  info.entryInFiber = address - mem.metaWord(p0 + lo);
  if (info.index < r.shape[r.order - 1]) info.coord = [...info.leading, info.index];
  return info;
}

/** Metadata word address → owning tensor and the word's role. */
export function resolveMetaAddress(mem: AcceleratorMemory, address: number, byteInWord = 0): MetaAddressInfo {
  const info: MetaAddressInfo = { bank: 'meta', address, byteInWord, role: 'free', value: mem.metaWord(address) };
  const r = mem.tensorOfMeta(address);
  if (!r) return info;
  info.tensor = r;
  const d = address - r.t;
  if (d === 0) info.role = 'order';
  else if (d <= r.order) {
    info.role = 'shape';
    info.mode = d - 1;
  } else if (d - 1 - r.order < r.fibers) {
    info.role = 'fiber-pointer';
    info.fiber = d - 1 - r.order;
    info.leading = fiberCoord(r.shape, info.fiber);
  } else info.role = 'end-pointer';
  return info;
}

/** A byte offset in either bank's image → what it belongs to. */
export function resolveByte(mem: AcceleratorMemory, bank: 'main' | 'meta', byte: number): MainAddressInfo | MetaAddressInfo {
  return bank === 'main' ? resolveMainAddress(mem, Math.floor(byte / 8), byte % 8) : resolveMetaAddress(mem, Math.floor(byte / 4), byte % 4);
}

/** Where an element lives in a file: its fiber, entry (or insertion point) and byte offset. */
export interface FileElementLocation {
  fiber: number;
  leading: number[];
  /** Byte offset of the fiber's start pointer. */
  pointerOffset: number;
  present: boolean;
  entry: number;
  /** Byte offset of the entry's index field (the value is 4 bytes further). */
  offset: number;
  value: number;
}

/** Element → file position (throws RangeError for coordinates outside the shape). */
export function locateInFile(file: CsfFile, coord: readonly number[]): FileElementLocation {
  const e = file.find(coord);
  const n = file.order;
  const leading = coord.slice(0, n - 1);
  const f = fiberOfCoord(file.shape, leading);
  let entry = e;
  if (e < 0) {
    // insertion point: first entry of the fiber with a larger index
    const [s, end] = file.fiberRange(f);
    entry = end;
    for (let x = s; x < end; x++)
      if (file.entryIndex(x) > coord[n - 1]) {
        entry = x;
        break;
      }
  }
  return {
    fiber: f,
    leading,
    pointerOffset: file.pointerOffset(f),
    present: e >= 0,
    entry,
    offset: file.entryOffset(entry),
    value: e >= 0 ? file.entryValue(e) : 0,
  };
}

/** What a byte of a file is. */
export type FileByteInfo =
  | { section: 'order' }
  | { section: 'shape'; mode: number }
  | { section: 'nnz' }
  | { section: 'entry'; entry: number; field: 'index' | 'value'; fiber: number; leading: number[]; coord?: number[] }
  | { section: 'pointer-count' }
  | { section: 'pointer'; pointer: number; fiber?: number; leading?: number[]; end: boolean }
  | { section: 'trailing' };

/** Byte offset of a (structurally valid) file → the field it belongs to. */
export function describeFileOffset(file: CsfFile, offset: number): FileByteInfo {
  const n = file.order;
  if (offset < 4) return { section: 'order' };
  if (offset < 4 + 4 * n) return { section: 'shape', mode: Math.floor((offset - 4) / 4) };
  if (offset < file.entriesOffset) return { section: 'nnz' };
  if (offset < file.pointersOffset - 4) {
    const entry = Math.floor((offset - file.entriesOffset) / 8);
    const fiber = file.fiberOfEntry(entry);
    const leading = fiberCoord(file.shape, fiber);
    const idx = file.entryIndex(entry);
    return {
      section: 'entry',
      entry,
      field: (offset - file.entriesOffset) % 8 < 4 ? 'index' : 'value',
      fiber,
      leading,
      coord: idx < file.shape[n - 1] ? [...leading, idx] : undefined,
    };
  }
  if (offset < file.pointersOffset) return { section: 'pointer-count' };
  if (offset < file.byteLength) {
    const pointer = Math.floor((offset - file.pointersOffset) / 4);
    const end = pointer === file.fibers;
    return end ? { section: 'pointer', pointer, end } : { section: 'pointer', pointer, fiber: pointer, leading: fiberCoord(file.shape, pointer), end };
  }
  return { section: 'trailing' };
}
