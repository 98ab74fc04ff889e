/**
 * Where a run's data is, for the memory inspector to list and to open on: its dumps, named buffers,
 * loads and the `@buffer` arguments of its entry as regions of the inspector's spaces; the run
 * configuration's `views` and a debugger variable as pictures (TensorView). Locations are resolved the
 * way the simulator resolves them (a byte address, a C global or a buffer with optional `+bytes`); what
 * cannot be placed (a PCORE variable by name, a numeric load of unknown size) is left out and said so.
 */
import type { ElemType, Region, RunBuffer, TensorView } from '../protocol/webview';
import type { ViewConfig } from '../sim/runConfig';
import { ELEM_BYTES } from './decode';

export interface RunGlobal {
  name: string;
  address: number;
  size: number;
}

/** A dump as the run result carries it (`address`, `count` and `shape` when the simulator reports them). */
export interface RunDump {
  space: string;
  where: string;
  dtype: string;
  values?: number[];
  file?: string;
  address?: number;
  count?: number;
  shape?: number[];
}

/** A view of the run configuration's `views` (its schema: core/sim/runConfig.ts). */
export type ConfigView = ViewConfig;

export interface RunPlaces {
  dumps?: RunDump[];
  buffers?: RunBuffer[];
  globals?: RunGlobal[];
  /** The run configuration's loads (`WHERE=FILE` text or objects) and entry arguments. */
  load?: (string | { where: string; file: string })[];
  args?: (number | string)[];
}

/** The inspector's element type of a dump dtype (`word12` → `w12`). */
export function elemTypeOf(dtype: string | undefined): ElemType | undefined {
  if (!dtype) return undefined;
  if (dtype === 'word12') return 'w12';
  return (['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f32', 'w12', 'f16', 'bf16'] as const).find((t) => t === dtype);
}

const baseName = (p: string) => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

/** A MEM location: a byte address, or a buffer / C global with optional `+bytes`; its size when it names one. */
export function resolveMemWhere(where: string, p: RunPlaces): { offset: number; bytes?: number; name: string } | undefined {
  const w = where.trim();
  if (/^(0x[0-9a-f]+|\d+)$/i.test(w)) return { offset: Number(w), name: w };
  const m = /^@?([A-Za-z_][\w.]*)\s*(?:\+\s*(0x[0-9a-f]+|\d+))?$/i.exec(w);
  if (!m) return undefined;
  const plus = m[2] ? Number(m[2]) : 0;
  const b = p.buffers?.find((x) => x.name === m[1]);
  if (b) return { offset: b.address + plus, bytes: Math.max(0, b.bytes - plus), name: w };
  const g = p.globals?.find((x) => x.name === m[1]);
  if (g) return { offset: g.address + plus, bytes: Math.max(0, g.size - plus), name: w };
  return undefined;
}

/**
 * The regions of a run, dumps first (a fresh inspector starts at the first), then buffers, loads, and the entry's
 * arguments that are addresses: `@buffer`, or a number inside one of those regions or a C global.
 */
export function runRegions(p: RunPlaces): { regions: Region[]; unplaced: string[] } {
  const regions: Region[] = [];
  const unplaced: string[] = [];
  for (const d of p.dumps ?? []) {
    const dtype = elemTypeOf(d.dtype);
    if (d.space !== 'MEM' || !dtype) {
      unplaced.push(`dump ${d.space}:${d.where}`);
      continue;
    }
    const at = d.address !== undefined ? { offset: d.address, bytes: undefined } : resolveMemWhere(d.where, p);
    const count = d.count ?? d.values?.length ?? (d.shape ? d.shape.reduce((a, b) => a * b, 1) : undefined);
    const bytes = count !== undefined ? count * ELEM_BYTES[dtype] : at?.bytes;
    if (!at || bytes === undefined) {
      unplaced.push(`dump ${d.space}:${d.where}`);
      continue;
    }
    regions.push({ kind: 'dump', name: d.file ? `${d.where} → ${baseName(d.file)}` : d.where, space: 'MEM', offset: at.offset, bytes, dtype, shape: d.shape });
  }
  for (const b of p.buffers ?? []) regions.push({ kind: 'buffer', name: b.name, space: 'MEM', offset: b.address, bytes: b.bytes });
  for (const l of p.load ?? []) {
    const spec = typeof l === 'string' ? { where: l.slice(0, l.indexOf('=')), file: l.slice(l.indexOf('=') + 1) } : l;
    const at = resolveMemWhere(spec.where, p);
    if (!at || at.bytes === undefined) {
      unplaced.push(`load ${spec.where}`);
      continue;
    }
    regions.push({ kind: 'load', name: `${spec.where} ← ${baseName(spec.file)}`, space: 'MEM', offset: at.offset, bytes: at.bytes });
  }
  const known = [...regions, ...(p.globals ?? []).map((g) => ({ name: g.name, offset: g.address, bytes: g.size }))];
  (p.args ?? []).forEach((a, i) => {
    if (typeof a !== 'string') {
      // a number is an address where it falls inside something the run knows (a buffer, a load, a dump, a C global):
      // ztachip entries take their buffers as unsigned int addresses; other numbers (sizes, flags) are not listed
      const r = Number.isInteger(a) ? known.find((k) => a >= k.offset && a < k.offset + k.bytes) : undefined;
      if (r) regions.push({ kind: 'argument', name: `arg ${i}: 0x${a.toString(16)} (in ${r.name})`, space: 'MEM', offset: a, bytes: r.offset + r.bytes - a });
      return;
    }
    const at = resolveMemWhere(a, p);
    if (at && at.bytes !== undefined) regions.push({ kind: 'argument', name: `arg ${i}: ${a}`, space: 'MEM', offset: at.offset, bytes: at.bytes });
    else unplaced.push(`argument ${i} ${a}`);
  });
  return { regions, unplaced };
}

/** The run configuration's views as pictures; a location that names nothing is an error naming the view. */
export function configViews(views: readonly ConfigView[], p: RunPlaces): { views: TensorView[]; problems: string[] } {
  const out: TensorView[] = [];
  const problems: string[] = [];
  views.forEach((v, i) => {
    const at = resolveMemWhere(v.where, p);
    const dtype = elemTypeOf(v.dtype);
    const bytes = v.bytes ?? at?.bytes;
    if (!at || bytes === undefined) {
      problems.push(`views[${i}]: "${v.where}" is not a buffer, a C global or an address with a size ("bytes")`);
      return;
    }
    out.push({
      label: v.label ?? v.where,
      space: 'MEM',
      offset: at.offset,
      bytes,
      mode: v.as ?? (dtype && dtype !== 'u8' ? 'heatmap' : 'image'),
      ...(v.format ? { format: v.format } : {}),
      ...(dtype ? { dtype } : {}),
      ...(v.shape ? { shape: v.shape } : {}),
      ...(v.width ? { width: v.width } : {}),
      ...(v.height ? { height: v.height } : {}),
      ...(v.slice ? { slice: v.slice } : {}),
    });
  });
  return { views: out, problems };
}

// ---------------------------------------------------------------------------------------------
// Debugger variables

/** A DAP memory reference `SPACE` or `SPACE:BYTES` (hex or decimal; PCORE spaces count 2 bytes per word). */
export function parseMemoryReference(ref: string): { space: string; offset: number } | undefined {
  const m = /^\s*([A-Z][A-Z0-9]*)(?::\s*(0x[0-9a-f]+|\d+))?\s*$/i.exec(ref);
  if (!m) return undefined;
  const space = m[1].toUpperCase() === 'PCORE' ? 'PCORE0' : m[1].toUpperCase();
  return { space, offset: m[2] ? Number(m[2]) : 0 };
}

const C_TYPES: [RegExp, ElemType][] = [
  [/^(unsigned char|uint8_t|u8|bool|_Bool)$/, 'u8'],
  [/^(signed char|char|int8_t|i8)$/, 'i8'],
  [/^(unsigned short|unsigned short int|uint16_t)$/, 'u16'],
  [/^(short|short int|signed short|int16_t)$/, 'i16'],
  [/^(unsigned|unsigned int|uint32_t|unsigned long|size_t)$/, 'u32'],
  [/^(int|signed|signed int|int32_t|long|long int)$/, 'i32'],
  [/^float$/, 'f32'],
];

/** Element type and array dimensions of a C type as the debugger prints it (`uint8_t [3][20][20]`, `float [16]`, `int16_t *`). */
export function cArrayType(type: string | undefined): { dtype?: ElemType; dims: number[] } {
  if (!type) return { dims: [] };
  const dims = [...type.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  const base = type
    .replace(/\[.*$/, '')
    .replace(/\*/g, '')
    .replace(/\b(const|volatile|static)\b/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const hit = C_TYPES.find(([re]) => re.test(base));
  return { dtype: hit?.[1], dims };
}

/** Bytes a debugger variable's picture reads when its type gives no array size. */
export const DEFAULT_VIEW_BYTES = 4096;

/**
 * The picture of a debugger variable with a memory reference: its C array type gives the element type and
 * shape (an image needs u8 elements; anything else is a heatmap), else the space's words (PCORE: 12-bit)
 * or bytes, DEFAULT_VIEW_BYTES of them.
 */
export function viewOfVariable(v: { name: string; type?: string; memoryReference?: string }, mode: 'image' | 'heatmap', rowBytes = 64): TensorView | undefined {
  const ref = v.memoryReference ? parseMemoryReference(v.memoryReference) : undefined;
  if (!ref) return undefined;
  const t = cArrayType(v.type);
  const words = ref.space.startsWith('PCORE') || ref.space === 'SPU';
  const dtype: ElemType = t.dtype ?? (words ? 'w12' : 'u8');
  const eb = ELEM_BYTES[dtype];
  const bytes = t.dims.length ? t.dims.reduce((a, b) => a * b, 1) * eb : DEFAULT_VIEW_BYTES;
  const shape = t.dims.length >= 2 ? t.dims : undefined;
  const width = t.dims.length === 1 ? Math.min(t.dims[0], Math.max(1, Math.floor(rowBytes / eb))) : shape ? undefined : Math.max(1, Math.floor(rowBytes / eb));
  const base = { label: v.name, space: ref.space, offset: ref.offset, bytes };
  if (mode === 'image') return { ...base, mode, ...(shape ? { shape } : { format: 'grey' as const, width, height: Math.max(1, Math.floor(bytes / width!)) }) };
  return { ...base, mode, dtype, ...(shape ? { shape } : { width }) };
}
