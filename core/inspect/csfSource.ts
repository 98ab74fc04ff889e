/**
 * An inspector data source over the CROSS-mini accelerator's two memory banks after loading `.csfbin`
 * tensors (core/csf/memory.ts, formats.md §A.7): the main-memory bank (8-byte entries: u32 index, f32
 * value; addressed in entries) and the metadata bank (u32 words; addressed in words). Each resident
 * tensor is shown as overlays: its entries in main memory, and its order/shape words and fiber pointers
 * in the metadata bank.
 */
import { AcceleratorMemory, loadCsf, type LoadedTensor } from '../csf/memory';
import { formatShape, type CsfIssue, type Result } from '../csf/types';
import type { Overlay } from '../protocol/webview';
import { bufferSpace, createSource, type SpaceData } from './simSource';
import type { InspectorSource, Resolved } from './host';

export const CSF_MAIN_SPACE = 'csf:main';
export const CSF_META_SPACE = 'csf:meta';

export interface CsfLoadOptions {
  /** Name of the tensor (the file's base name). */
  name: string;
  /** Main-memory entry address of the tensor's first entry (default 0). */
  mainBase?: number;
  /** Metadata word address of the tensor pointer (default 0). */
  metaBase?: number;
  mainCapacity?: number;
  metaCapacity?: number;
}

/**
 * Loads one file into fresh memories with the bump allocators first moved to the given bases (as if
 * `metaBase` words and `mainBase` entries were already taken). Capacity limits and invalid files are
 * errors (with the validator's byte offsets); nothing throws.
 */
export function loadCsfAt(bytes: Uint8Array, o: CsfLoadOptions): Result<{ mem: AcceleratorMemory; tensor: LoadedTensor }> {
  const mem = new AcceleratorMemory({ mainCapacity: o.mainCapacity, metaCapacity: o.metaCapacity });
  const mainBase = o.mainBase ?? 0;
  const metaBase = o.metaBase ?? 0;
  const bad = (message: string): { ok: false; issues: CsfIssue[] } => ({ ok: false, issues: [{ code: 'csf.bad-address', severity: 'error', message }] });
  if (!Number.isSafeInteger(mainBase) || mainBase < 0) return bad(`the main-memory base must be a whole number ≥ 0, found ${mainBase}`);
  if (!Number.isSafeInteger(metaBase) || metaBase < 0) return bad(`the metadata base must be a whole number ≥ 0, found ${metaBase}`);
  const room = mem.checkCapacity(metaBase, mainBase, `placing ${o.name} at metadata word ${metaBase} and main entry ${mainBase}`);
  if (room) return { ok: false, issues: [room] };
  mem.allocMeta(metaBase);
  mem.allocMain(mainBase);
  const r = loadCsf(mem, bytes, { name: o.name });
  if (!r.ok) return r;
  return { ok: true, mem, tensor: r.tensor };
}

/** Overlays of the resident tensors in one bank. */
export function csfOverlays(mem: AcceleratorMemory, space: string): Overlay[] {
  const out: Overlay[] = [];
  mem.tensors.forEach((t, k) => {
    const name = t.name ?? `tensor@${t.t}`;
    const color = (2 * k) % 8;
    const what = `order ${t.order}, shape ${formatShape(t.shape)}, ${t.fibers} fibers, nnz ${t.nnz}`;
    if (space === CSF_MAIN_SPACE) {
      if (t.nnz > 0)
        out.push({
          id: `${name}:entries`,
          name: `${name} entries`,
          space,
          offset: 8 * t.mainBase,
          length: 8 * t.nnz,
          kind: 'tensor',
          color,
          detail: `entries ${t.mainBase}..${t.mainEnd - 1} (u32 index, f32 value each) of ${what}`,
        });
    } else if (space === CSF_META_SPACE) {
      out.push({
        id: `${name}:header`,
        name: `${name} order+shape`,
        space,
        offset: 4 * t.t,
        length: 4 * (1 + t.order),
        kind: 'tensor',
        type: 'u32',
        elemBytes: 4,
        color,
        detail: `tensor pointer ${t.t}: order then shape (${what})`,
      });
      out.push({
        id: `${name}:pointers`,
        name: `${name} fiber pointers`,
        space,
        offset: 4 * (t.t + 1 + t.order),
        length: 4 * (t.fibers + 1),
        kind: 'tensor',
        type: 'u32',
        elemBytes: 4,
        shape: [t.fibers + 1],
        color: color + 1,
        detail: `main-memory address of each fiber's first entry (file pointer + ${t.mainBase}), then the end pointer`,
      });
    }
  });
  return out;
}

export interface CsfSourceOptions {
  title: string;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  save?: (name: string, bytes: Uint8Array) => Promise<string | undefined> | string | undefined;
}

/** An InspectorSource with two spaces: `csf:main` (main-memory bank) and `csf:meta` (metadata bank). */
export function createCsfSource(mem: AcceleratorMemory, o: CsfSourceOptions): InspectorSource {
  const group = 'CROSS-mini accelerator';
  const spaces: SpaceData[] = [
    bufferSpace(CSF_MAIN_SPACE, 'main memory (entries)', mem.mainImage(), {
      group,
      unitBytes: 8,
      defaultType: 'u32',
      description: `main-memory bank: entry a at bytes 8a..8a+7 (u32 index, f32 value); ${mem.mainTop} of ${mem.mainCapacity} entries used`,
    }),
    bufferSpace(CSF_META_SPACE, 'metadata memory', mem.metaImage(), {
      group,
      unitBytes: 4,
      defaultType: 'u32',
      description: `metadata bank: word a at bytes 4a..4a+3 (u32); ${mem.metaTop} of ${mem.metaCapacity} words used`,
    }),
  ];
  const first = mem.tensors[0];
  const resolve = (text: string): Resolved | undefined => {
    // `fiber N` / `ptr N` → the fiber's pointer word; `entry N` → main entry N (absolute address)
    const m = /^\s*(fiber|ptr|entry)\s*\[?\s*(\d+)\s*\]?\s*$/i.exec(text);
    if (!m || !first) {
      const want = text.trim().toLowerCase();
      const o = [...csfOverlays(mem, CSF_MAIN_SPACE), ...csfOverlays(mem, CSF_META_SPACE)].find(
        (x) => x.name.toLowerCase() === want || x.id.toLowerCase() === want,
      );
      return o ? { space: o.space, offset: o.offset, length: o.length, label: o.name } : undefined;
    }
    const n = Number(m[2]);
    if (m[1].toLowerCase() === 'entry') return n < mem.mainTop ? { space: CSF_MAIN_SPACE, offset: 8 * n, length: 8, label: `main entry ${n}` } : undefined;
    const t = first;
    if (n > t.fibers) return undefined;
    return { space: CSF_META_SPACE, offset: 4 * (t.t + 1 + t.order + n), length: 4, label: `${t.name ?? 'tensor'} pointer of fiber ${n}` };
  };
  return createSource({
    title: o.title,
    spaces,
    overlays: (space) => csfOverlays(mem, space),
    resolve,
    initial: () => (first ? { space: CSF_MAIN_SPACE, offset: 8 * first.mainBase, length: 8 * first.nnz } : { space: CSF_MAIN_SPACE, offset: 0 }),
    log: o.log,
    save: o.save ? (name, bytes) => o.save!(name, bytes) : undefined,
  });
}
