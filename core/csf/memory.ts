/**
 * The accelerator's two memory banks and the tensor load/unload algorithms (formats.md §A.7).
 *
 * - Main (tensor element) memory: one word per entry, addressed in entries. Byte image: entry a occupies
 *   bytes [8a, 8a+8): u32 index, then f32 value, little-endian, exactly like a file entry.
 * - Metadata memory: u32 words, addressed in words. Byte image: word a occupies bytes [4a, 4a+4).
 *
 * Both banks have a bump allocator starting at 0 (`append_idx` in the simulator). A tensor loaded at
 * metadata address t ("the tensor pointer") occupies
 *   meta[t] = order n, meta[t+1..t+n] = shape, meta[t+1+n+i] = main address of fiber i (i = 0..F-1),
 *   meta[t+1+n+F] = main address one past the last fiber,
 * and its entries occupy main[mainBase .. mainBase+nnz), all fibers contiguous and in row-major order.
 * Loading adds `mainBase` to every file pointer, the end pointer included.
 */
import { CsfFile } from './codec';
import {
  DEFAULT_MAIN_CAPACITY,
  DEFAULT_MAX_ORDER,
  DEFAULT_META_CAPACITY,
  HOST_LITTLE_ENDIAN,
  U32_MAX,
  fiberCount,
  formatShape,
  type CsfIssue,
  type CsfTensor,
  type Result,
  makeTensor,
} from './types';
import { validateCsf, type ValidateOptions } from './validate';

export interface MemoryOptions {
  /** Metadata words (default 1024, the simulator's `Control::metadata`). */
  metaCapacity?: number;
  /** Main-memory entries (default 10,000,000, the simulator's `MEMORY_SIZE`). */
  mainCapacity?: number;
}

/** A tensor resident in the memories. */
export interface LoadedTensor {
  /** Tensor pointer: metadata address of its `order` word. */
  t: number;
  name?: string;
  order: number;
  shape: number[];
  fibers: number;
  nnz: number;
  /** One past its last metadata word: t + 2 + n + F. */
  metaEnd: number;
  /** Main address of its first entry, and one past its last. */
  mainBase: number;
  mainEnd: number;
}

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

/** Main memory and metadata memory with their bump allocators. Images grow on demand up to the capacities. */
export class AcceleratorMemory {
  readonly metaCapacity: number;
  readonly mainCapacity: number;
  /** Next free metadata word / main entry (the allocators' `append_idx`). */
  metaTop = 0;
  mainTop = 0;
  /** Tensors in load order (so in increasing `t` and `mainBase`). */
  readonly tensors: LoadedTensor[] = [];
  private meta: Uint8Array;
  private main: Uint8Array;
  private metaDv: DataView;
  private mainDv: DataView;

  constructor(opts: MemoryOptions = {}) {
    this.metaCapacity = opts.metaCapacity ?? DEFAULT_META_CAPACITY;
    this.mainCapacity = opts.mainCapacity ?? DEFAULT_MAIN_CAPACITY;
    this.meta = new Uint8Array(4 * Math.min(this.metaCapacity, 1024));
    this.main = new Uint8Array(8 * Math.min(this.mainCapacity, 1024));
    this.metaDv = new DataView(this.meta.buffer);
    this.mainDv = new DataView(this.main.buffer);
  }

  private growMeta(words: number): void {
    if (4 * words <= this.meta.length) return;
    const next = new Uint8Array(4 * Math.min(this.metaCapacity, Math.max(words, (this.meta.length / 4) * 2)));
    next.set(this.meta);
    this.meta = next;
    this.metaDv = new DataView(next.buffer);
  }

  private growMain(entries: number): void {
    if (8 * entries <= this.main.length) return;
    const next = new Uint8Array(8 * Math.min(this.mainCapacity, Math.max(entries, (this.main.length / 8) * 2)));
    next.set(this.main);
    this.main = next;
    this.mainDv = new DataView(next.buffer);
  }

  /** Capacity check for allocating `metaWords` and `mainEntries` more; undefined when they fit. */
  checkCapacity(metaWords: number, mainEntries: number, what: string): CsfIssue | undefined {
    if (this.metaTop + metaWords > this.metaCapacity)
      return {
        code: 'csf.meta-capacity',
        severity: 'error',
        message:
          `${what} needs ${plural(metaWords, 'metadata word')} at ${this.metaTop}..${this.metaTop + metaWords - 1}, but the metadata memory ` +
          `holds ${this.metaCapacity} words (${plural(this.metaCapacity - this.metaTop, 'word')} free)`,
      };
    if (this.mainTop + mainEntries > this.mainCapacity)
      return {
        code: 'csf.main-capacity',
        severity: 'error',
        message:
          `${what} needs ${plural(mainEntries, 'main-memory entry', 'main-memory entries')} at ` +
          `${this.mainTop}..${this.mainTop + mainEntries - 1}, but the main memory holds ${this.mainCapacity} entries ` +
          `(${this.mainCapacity - this.mainTop} free)`,
      };
    if (this.mainTop + mainEntries > U32_MAX)
      return {
        code: 'csf.pointer-overflow',
        severity: 'error',
        message: `${what} would end at main address ${this.mainTop + mainEntries}, which does not fit a 32-bit pointer`,
      };
    return undefined;
  }

  /** Bump-allocates metadata words; returns the first address. Call `checkCapacity` first. */
  allocMeta(words: number): number {
    const a = this.metaTop;
    this.growMeta(a + words);
    this.metaTop += words;
    return a;
  }

  /** Bump-allocates main entries (`Mem::allocate_fiber`); returns the first address. */
  allocMain(entries: number): number {
    const a = this.mainTop;
    this.growMain(a + entries);
    this.mainTop += entries;
    return a;
  }

  metaWord(addr: number): number {
    return addr < this.metaTop ? this.metaDv.getUint32(4 * addr, true) : 0;
  }

  setMetaWord(addr: number, w: number): void {
    this.metaDv.setUint32(4 * addr, w >>> 0, true);
  }

  mainIndex(addr: number): number {
    return addr < this.mainTop ? this.mainDv.getUint32(8 * addr, true) : 0;
  }

  mainBits(addr: number): number {
    return addr < this.mainTop ? this.mainDv.getUint32(8 * addr + 4, true) : 0;
  }

  mainValue(addr: number): number {
    return addr < this.mainTop ? this.mainDv.getFloat32(8 * addr + 4, true) : 0;
  }

  setMainEntry(addr: number, index: number, bits: number): void {
    this.mainDv.setUint32(8 * addr, index >>> 0, true);
    this.mainDv.setUint32(8 * addr + 4, bits >>> 0, true);
  }

  /** Copies raw entry bytes (8 per entry, file layout) to main address `addr`. */
  writeMainBytes(addr: number, bytes: Uint8Array): void {
    this.main.set(bytes, 8 * addr);
  }

  /** Byte image of the used metadata words [0, metaTop): 4 bytes a word, little-endian. */
  metaImage(): Uint8Array {
    return this.meta.subarray(0, 4 * this.metaTop);
  }

  /** Byte image of the used main entries [0, mainTop): 8 bytes an entry (u32 index, f32 value), little-endian. */
  mainImage(): Uint8Array {
    return this.main.subarray(0, 8 * this.mainTop);
  }

  /** Word view of the metadata image (host byte order, i.e. little-endian on every current engine). */
  metaWords(): Uint32Array {
    return new Uint32Array(this.meta.buffer, 0, this.metaTop);
  }

  /** Word view of the main image: words 2a and 2a+1 are entry a's index and value bits. */
  mainWords(): Uint32Array {
    return new Uint32Array(this.main.buffer, 0, 2 * this.mainTop);
  }

  /** The same main image as f32 (element 2a+1 is entry a's value). */
  mainFloats(): Float32Array {
    return new Float32Array(this.main.buffer, 0, 2 * this.mainTop);
  }

  /** The resident tensor whose tensor pointer is t. */
  tensorAt(t: number): LoadedTensor | undefined {
    return this.tensors.find((x) => x.t === t);
  }

  /** The resident tensor owning metadata word `addr`. */
  tensorOfMeta(addr: number): LoadedTensor | undefined {
    return findOwner(
      this.tensors,
      addr,
      (x) => x.t,
      (x) => x.metaEnd,
    );
  }

  /** The resident tensor owning main entry `addr`. */
  tensorOfMain(addr: number): LoadedTensor | undefined {
    return findOwner(
      this.tensors,
      addr,
      (x) => x.mainBase,
      (x) => x.mainEnd,
    );
  }
}

function findOwner(list: LoadedTensor[], addr: number, lo: (x: LoadedTensor) => number, hi: (x: LoadedTensor) => number): LoadedTensor | undefined {
  let a = 0;
  let b = list.length - 1;
  while (a <= b) {
    const m = (a + b) >> 1;
    if (addr < lo(list[m])) b = m - 1;
    else if (addr >= hi(list[m])) a = m + 1;
    else return list[m];
  }
  return undefined;
}

export interface LoadOptions extends ValidateOptions {
  name?: string;
}

/**
 * Loads a tensor after the ones already resident (`Control::append_tensor_file`), from file bytes (fully
 * validated first), an opened `CsfFile` or an in-memory tensor. Capacity limits are errors; on any error the
 * memories are unchanged.
 */
export function loadCsf(mem: AcceleratorMemory, src: Uint8Array | CsfFile | CsfTensor, opts: LoadOptions = {}): Result<{ tensor: LoadedTensor }> {
  let shape: number[];
  let nnz: number;
  let F: number;
  let file: CsfFile | undefined;
  let tensor: CsfTensor | undefined;
  if (src instanceof Uint8Array) {
    const v = validateCsf(src, { maxOrder: opts.maxOrder ?? DEFAULT_MAX_ORDER, allowTrailing: opts.allowTrailing });
    if (!v.ok || !v.header) return { ok: false, issues: v.issues };
    file = new CsfFile(src, v.header);
  } else if (src instanceof CsfFile) file = src;
  else tensor = src;
  if (file) {
    shape = [...file.shape];
    nnz = file.nnz;
    F = file.fibers;
  } else {
    shape = [...tensor!.shape];
    nnz = tensor!.indices.length;
    F = tensor!.ptr.length - 1;
    if (fiberCount(shape) !== F)
      return { ok: false, issues: [{ code: 'csf.bad-tensor', severity: 'error', message: `shape ${formatShape(shape)} does not have ${F} fibers` }] };
  }
  const n = shape.length;
  const what = `loading ${opts.name ?? 'the tensor'} (order ${n}, shape ${formatShape(shape)}, ${plural(F, 'fiber')}, nnz ${nnz})`;
  const full = mem.checkCapacity(2 + n + F, nnz, what);
  if (full) return { ok: false, issues: [full] };
  const t = mem.allocMeta(2 + n + F);
  const mainBase = mem.allocMain(nnz);
  mem.setMetaWord(t, n);
  for (let k = 0; k < n; k++) mem.setMetaWord(t + 1 + k, shape[k]);
  const p0 = t + 1 + n;
  if (file) {
    mem.writeMainBytes(mainBase, file.bytes.subarray(file.entriesOffset, file.entriesOffset + 8 * nnz));
    for (let i = 0; i <= F; i++) mem.setMetaWord(p0 + i, file.pointer(i) + mainBase);
  } else {
    const { indices, bits, ptr } = tensor!;
    for (let e = 0; e < nnz; e++) mem.setMainEntry(mainBase + e, indices[e], bits[e]);
    for (let i = 0; i <= F; i++) mem.setMetaWord(p0 + i, ptr[i] + mainBase);
  }
  const loaded: LoadedTensor = { t, name: opts.name, order: n, shape, fibers: F, nnz, metaEnd: t + 2 + n + F, mainBase, mainEnd: mainBase + nnz };
  mem.tensors.push(loaded);
  return { ok: true, tensor: loaded };
}

/** Reads the tensor at tensor pointer t from the metadata (order, shape, pointers) and checks it is well-formed. */
export function readTensorMeta(mem: AcceleratorMemory, t: number): Result<{ order: number; shape: number[]; fibers: number; base: number; end: number }> {
  const bad = (message: string): { ok: false; issues: CsfIssue[] } => ({ ok: false, issues: [{ code: 'csf.bad-address', severity: 'error', message }] });
  if (!Number.isInteger(t) || t < 0 || t >= mem.metaTop) return bad(`metadata address ${t} is outside the used metadata 0..${mem.metaTop - 1}`);
  const n = mem.metaWord(t);
  if (n < 1 || t + 1 + n > mem.metaTop) return bad(`metadata word ${t} holds ${n}, which is not the order of a resident tensor`);
  const shape: number[] = [];
  for (let k = 0; k < n; k++) shape.push(mem.metaWord(t + 1 + k));
  const F = fiberCount(shape);
  if (F === undefined || t + 2 + n + F > mem.metaTop) return bad(`the tensor at ${t} (shape ${formatShape(shape)}) would extend past the used metadata`);
  const p0 = t + 1 + n;
  const base = mem.metaWord(p0);
  const end = mem.metaWord(p0 + F);
  let prev = base;
  for (let i = 1; i <= F; i++) {
    const p = mem.metaWord(p0 + i);
    if (p < prev) return bad(`the fiber pointers of the tensor at ${t} decrease at metadata word ${p0 + i}`);
    prev = p;
  }
  if (end > mem.mainTop) return bad(`the tensor at ${t} ends at main address ${end}, past the used main memory (${mem.mainTop})`);
  return { ok: true, order: n, shape, fibers: F, base, end };
}

/**
 * Unloads the tensor at t as `.csfbin` bytes (`Control::extract_tensor_file`, with its nnz fixed to
 * end − base instead of Π shape, so sparse tensors come out right). Pointers are rebased to the first fiber.
 */
export function extractCsf(mem: AcceleratorMemory, t: number): Result<{ bytes: Uint8Array }> {
  const m = readTensorMeta(mem, t);
  if (!m.ok) return m;
  const { order: n, shape, fibers: F, base, end } = m;
  const nnz = end - base;
  const out = new Uint8Array(16 + 4 * n + 8 * nnz + 4 * F);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, n, true);
  for (let k = 0; k < n; k++) dv.setUint32(4 + 4 * k, shape[k], true);
  dv.setUint32(4 + 4 * n, nnz, true);
  out.set(mem.mainImage().subarray(8 * base, 8 * end), 8 + 4 * n);
  const po = 8 + 4 * n + 8 * nnz;
  dv.setUint32(po, F + 1, true);
  for (let i = 0; i <= F; i++) dv.setUint32(po + 4 + 4 * i, mem.metaWord(t + 1 + n + i) - base, true);
  return { ok: true, bytes: out };
}

/** Copies the tensor at t out of the memories as an in-memory tensor (pointers rebased to 0). */
export function tensorFromMemory(mem: AcceleratorMemory, t: number): Result<{ tensor: CsfTensor }> {
  const m = readTensorMeta(mem, t);
  if (!m.ok) return m;
  const { order: n, shape, fibers: F, base, end } = m;
  const nnz = end - base;
  const ptr = new Uint32Array(F + 1);
  for (let i = 0; i <= F; i++) ptr[i] = mem.metaWord(t + 1 + n + i) - base;
  const indices = new Uint32Array(nnz);
  const bits = new Uint32Array(nnz);
  if (HOST_LITTLE_ENDIAN) {
    const w = mem.mainWords();
    for (let e = 0, a = 2 * base; e < nnz; e++, a += 2) {
      indices[e] = w[a];
      bits[e] = w[a + 1];
    }
  } else
    for (let e = 0; e < nnz; e++) {
      indices[e] = mem.mainIndex(base + e);
      bits[e] = mem.mainBits(base + e);
    }
  return { ok: true, tensor: makeTensor(shape, ptr, indices, bits) };
}
