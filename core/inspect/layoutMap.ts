/**
 * Layout-map descriptions from any layout model (core/layout: strided, Spyre sticks, TT banks/cores
 * with tiles and faces, 16-byte cells, CSR fibers): a grid of cells, one panel per memory unit, one
 * cell per slot (page, stick, cell, entry, element) — or per run of slots when the tensor is large —
 * plus the answers to hover (cell/element → coordinate, address) and locate (coordinate → cell).
 */
import type { LayoutModel, Regions, Slot } from '../layout/model';
import {
  type InnerGrid,
  type LayoutHit,
  type LayoutMap,
  type LayoutPanel,
  type LayoutRegion,
  type RegionKind,
  regionKindCode,
  REGION_KINDS,
} from '../protocol/webview';
import type { LayoutMapProvider } from './host';

export interface LayoutMapOptions {
  id?: string;
  title?: string;
  /** Most cells the picture may have; larger tensors aggregate several slots per cell (default 32768). */
  maxCells?: number;
  /** Cells per row of a panel (default: chosen from the tensor's row length and the aspect). */
  wrap?: number;
  /** Most filled regions listed in the description (the raster paints the rest; default 4096). */
  maxRegions?: number;
}

const KIND_OF_SLOT: Record<Slot['kind'], RegionKind> = { data: 'data', partial: 'partial', padding: 'padding', unused: 'unused' };
const KIND_OF_BYTE: Record<string, RegionKind> = {
  element: 'data',
  padding: 'padding',
  alignment: 'padding',
  unused: 'unused',
  metadata: 'metadata',
  replica: 'replica',
  slack: 'unused',
  gap: 'gap',
  outside: 'none',
};

const hex = (n: number) => '0x' + n.toString(16);
const tuple = (c: readonly number[]) => `(${c.join(', ')})`;

interface Placed extends LayoutPanel {
  cells: number;
}

/** A LayoutMapProvider for a model. Cost is O(cells) slot classifications, never O(elements). */
export function layoutMapFromModel(model: LayoutModel, opts: LayoutMapOptions = {}): LayoutMapProvider {
  const R: Regions = model.regions();
  /** Bytes per slot of unit `u` (metadata words may be narrower than entries). */
  const sbOf = (u: number): number => R.units[u]?.slotBytes ?? R.slotBytes;
  const shape = [...model.shape];
  const numel = shape.reduce((a, b) => a * b, 1);
  const maxCells = opts.maxCells ?? 1 << 15;
  const units = R.units;
  const totalSlots = units.reduce((s, u) => s + u.slots, 0);
  const k = Math.max(1, Math.ceil(totalSlots / maxCells));
  const cellsOf = units.map((u) => Math.ceil(u.slots / k));
  const maxC = Math.max(1, ...cellsOf);
  const sumC = Math.max(
    1,
    cellsOf.reduce((a, b) => a + b, 0),
  );
  const keyOf = (c: readonly number[] | undefined): number => {
    if (!c || numel === 0) return NaN;
    let idx = 0;
    for (let i = 0; i < shape.length; i++) idx = idx * shape[i] + c[i];
    return numel > 1 ? idx / (numel - 1) : 0;
  };
  const unitArg = (u: number): number | undefined => (model.unitKind || units.length > 1 ? u : undefined);
  /** A slot that holds data but no tensor element: ask the model what its first byte is (metadata words). */
  const metaKind = (address: number, u: number): RegionKind | undefined => {
    try {
      const inv = model.inverse(address, unitArg(u));
      return inv.kind === 'metadata' ? 'metadata' : undefined;
    } catch {
      return undefined;
    }
  };

  // ---- panel placement
  const panels: Placed[] = [];
  const coreXY = R.kind === 'cores' ? units.map((u) => /\((\d+)\s*,\s*(\d+)\)/.exec(u.label)) : [];
  if (units.length === 1) {
    const W = opts.wrap ?? chooseWrap(R, cellsOf[0], k);
    panels.push(panel(0, 0, 0, W));
  } else if (R.kind === 'cores') {
    const w = opts.wrap ?? Math.max(1, Math.ceil(Math.sqrt(maxC)));
    const h = Math.max(1, Math.ceil(maxC / w));
    const xy = coreXY.every((m) => m) ? coreXY.map((m) => [Number(m![1]), Number(m![2])]) : undefined;
    const unique = xy && new Set(xy.map(([x, y]) => `${x},${y}`)).size === xy.length;
    const x0 = unique ? Math.min(...xy!.map((p) => p[0])) : 0;
    const y0 = unique ? Math.min(...xy!.map((p) => p[1])) : 0;
    const pc = Math.ceil(Math.sqrt(units.length));
    units.forEach((_, u) => {
      const [gx, gy] = unique ? [xy![u][0] - x0, xy![u][1] - y0] : [u % pc, Math.floor(u / pc)];
      const p = panel(u, gx * (w + 1), gy * (h + 1), w);
      p.h = h;
      panels.push(p);
    });
  } else {
    // banks × pages, and multi-space models: one band per unit, stacked
    const W = opts.wrap ?? (maxC <= 96 ? maxC : Math.max(1, Math.min(maxC, Math.ceil(Math.sqrt(2 * sumC)))));
    let y = 0;
    units.forEach((_, u) => {
      const p = panel(u, 0, y, W);
      panels.push(p);
      y += p.h + (units.length > 1 && k === 1 && maxC <= 96 ? 0 : 1);
    });
  }
  function panel(u: number, x: number, y: number, w: number): Placed {
    const cells = cellsOf[u];
    const ww = Math.max(1, Math.min(w, Math.max(cells, 1)));
    return {
      unit: u,
      label: units[u].label,
      x,
      y,
      w: ww,
      h: Math.max(1, Math.ceil(cells / ww)),
      slots: units[u].slots,
      slotsPerCell: k,
      base: units[u].base,
      cells,
    };
  }
  const cols = Math.max(1, ...panels.map((p) => p.x + p.w));
  const rows = Math.max(1, ...panels.map((p) => p.y + p.h));

  // ---- raster + regions
  const keys = new Float32Array(cols * rows).fill(NaN);
  const kinds = new Uint8Array(cols * rows);
  const regions: LayoutRegion[] = [];
  const fills: LayoutRegion[] = [];
  const maxRegions = opts.maxRegions ?? 4096;
  let tooMany = false;
  for (const p of panels) {
    const u = p.unit;
    const slots = units[u].slots;
    const cellKind = new Uint8Array(p.cells);
    const cellKey = new Float32Array(p.cells).fill(NaN);
    if (k === 1) {
      // one slot() call per cell: kind and first coordinate together
      for (let s = 0; s < slots; s++) {
        const sl = R.slot(u, s);
        let kind = KIND_OF_SLOT[sl.kind];
        if ((kind === 'data' || kind === 'partial') && !sl.first) kind = metaKind(p.base + s * sbOf(u), u) ?? (sl.elements === 0 ? 'metadata' : kind);
        cellKind[s] = regionKindCode(kind);
        if (kind === 'data' || kind === 'partial') cellKey[s] = keyOf(sl.first);
      }
    } else {
      for (let c = 0; c < p.cells; c++) {
        const s0 = c * k;
        const s1 = Math.min(slots, s0 + k) - 1;
        const a = R.slot(u, s0);
        const b = s1 > s0 ? R.slot(u, s1) : a;
        let kind: RegionKind = a.kind === b.kind ? KIND_OF_SLOT[a.kind] : 'mixed';
        if ((kind === 'data' || kind === 'partial') && !a.first && !b.first)
          kind = metaKind(p.base + s0 * sbOf(u), u) ?? (a.elements === 0 ? 'metadata' : kind);
        cellKind[c] = regionKindCode(kind);
        cellKey[c] = kind === 'metadata' ? NaN : keyOf(a.first ?? b.first);
      }
    }
    for (let c = 0; c < p.cells; c++) {
      const at = (p.y + Math.floor(c / p.w)) * cols + p.x + (c % p.w);
      kinds[at] = cellKind[c];
      keys[at] = cellKey[c];
    }
    // frame of the unit
    regions.push({ kind: 'frame', x: p.x, y: p.y, w: p.w, h: p.h, label: p.label, unit: u, addr: { lo: p.base, hi: p.base + slots * sbOf(u) } });
    // runs of equal kind → rectangles
    if (!tooMany) {
      let c = 0;
      while (c < p.cells) {
        let e = c + 1;
        while (e < p.cells && cellKind[e] === cellKind[c]) e++;
        for (const rect of runRects(p, c, e)) {
          fills.push({
            kind: REGION_KINDS[cellKind[c]],
            ...rect,
            label: `${R.slotName}s ${c * k}–${Math.min(slots, e * k) - 1}: ${REGION_KINDS[cellKind[c]]}`,
            colorKey: Number.isNaN(cellKey[c]) ? undefined : cellKey[c],
            padding: cellKind[c] === 3 || undefined,
            addr: { lo: p.base + c * k * sbOf(u), hi: p.base + Math.min(slots, e * k) * sbOf(u) },
            unit: u,
          });
        }
        if (fills.length > maxRegions) {
          tooMany = true;
          break;
        }
        c = e;
      }
    }
    // CSR fibers: consecutive entries sharing all but the last coordinate
    if (R.kind === 'fibers' && k === 1 && u === 0 && slots <= 65536) {
      let start = 0;
      let prefix = '';
      const frames: LayoutRegion[] = [];
      const flush = (end: number) => {
        if (end > start && prefix)
          for (const rect of runRects(p, start, end))
            frames.push({ kind: 'frame', ...rect, label: `fiber ${prefix}`, unit: u, addr: { lo: p.base + start * sbOf(u), hi: p.base + end * sbOf(u) } });
      };
      for (let s = 0; s < slots; s++) {
        const f = R.slot(u, s).first;
        const pre = f ? tuple(f.slice(0, -1)) : '';
        if (pre !== prefix) {
          flush(s);
          start = s;
          prefix = pre;
        }
      }
      flush(slots);
      if (frames.length <= 4096) regions.push(...frames);
    }
  }
  if (!tooMany) regions.unshift(...fills);

  const summary = model.summary();
  const inner: InnerGrid | undefined =
    k === 1 && R.inner && R.inner.rows * R.inner.cols > 1
      ? { name: R.inner.name, rows: R.inner.rows, cols: R.inner.cols, bytesPerElement: R.inner.bytesPerElement, blocks: R.inner.blocks?.map((b) => ({ ...b })) }
      : undefined;
  const map: LayoutMap = {
    id: opts.id ?? `${model.kind}:${shape.join('x')}:${model.dtype}:${model.base}`,
    title: opts.title ?? `${model.kind} ${tuple(shape)} ${model.dtype}`,
    model: model.kind,
    shape,
    dtype: model.dtype,
    summary: summary.short + (k > 1 ? ` · drawn ${k} ${R.slotName}s per cell` : ''),
    slotName: R.slotName,
    slotBytes: R.slotBytes,
    cols,
    rows,
    panels: panels.map(({ cells: _c, ...p }) => p),
    regions,
    raster: { keys: keys.buffer, kinds: kinds.buffer },
    inner,
    colorLegend: `logical row-major index of the ${k > 1 ? 'first element of each cell' : `${R.slotName}'s first element`}`,
    facts: summary.facts.slice(0, 16).map((f) => ({ name: f.name, value: f.value })),
  };

  // ---- queries
  const panelAt = (x: number, y: number) => panels.find((p) => x >= p.x && x < p.x + p.w && y >= p.y && y < p.y + p.h);
  const innerOffset = (r: number, c: number): number => {
    const g = R.inner!;
    for (const b of g.blocks ?? [])
      if (r >= b.row && r < b.row + b.rows && c >= b.col && c < b.col + b.cols) return b.offset + (r - b.row) * b.cols + (c - b.col);
    return r * g.cols + c;
  };
  const innerPos = (e: number): { innerRow: number; innerCol: number } => {
    const g = R.inner!;
    for (const b of g.blocks ?? [])
      if (e >= b.offset && e < b.offset + b.rows * b.cols)
        return { innerRow: b.row + Math.floor((e - b.offset) / b.cols), innerCol: b.col + ((e - b.offset) % b.cols) };
    return { innerRow: Math.floor(e / g.cols), innerCol: e % g.cols };
  };
  const inverseLines = (address: number, u: number) => {
    const inv = model.inverse(address, unitArg(u));
    const lines: string[] = [];
    if (inv.coord)
      lines.push(`${inv.kind === 'replica' ? 'replica of ' : ''}element ${tuple(inv.coord)}${inv.byteInElement ? ` byte ${inv.byteInElement}` : ''}`);
    else lines.push(inv.kind === 'outside' ? 'not part of the tensor' : inv.kind);
    if (inv.reason) lines.push(inv.reason);
    return { inv, lines };
  };

  const query = (x: number, y: number, innerRow?: number, innerCol?: number): LayoutHit => {
    const p = panelAt(x, y);
    if (!p) return { kind: 'none', lines: ['(empty)'], x, y };
    const c = (y - p.y) * p.w + (x - p.x);
    const u = p.unit;
    const s0 = c * k;
    if (s0 >= p.slots) return { kind: 'none', lines: [`${p.label}: past the last ${R.slotName}`], x, y, unit: u, unitLabel: p.label };
    if (k > 1) {
      const s1 = Math.min(p.slots, s0 + k) - 1;
      const a = R.slot(u, s0);
      const lines = [
        `${p.label} · ${R.slotName}s ${s0}–${s1} (${k} per cell)`,
        a.label,
        `address ${hex(p.base + s0 * sbOf(u))}–${hex(p.base + (s1 + 1) * sbOf(u) - 1)}`,
      ];
      return {
        kind: REGION_KINDS[kinds[y * cols + x]] as RegionKind,
        lines,
        coord: a.first,
        address: p.base + s0 * sbOf(u),
        unit: u,
        unitLabel: p.label,
        x,
        y,
      };
    }
    const slot = R.slot(u, s0);
    const slotAddr = p.base + s0 * sbOf(u);
    if (R.inner && inner && innerRow !== undefined && innerCol !== undefined) {
      const e = innerOffset(innerRow, innerCol);
      const address = slotAddr + Math.floor(e * R.inner.bytesPerElement);
      const { inv, lines } = inverseLines(address, u);
      return {
        kind: inv.kind === 'element' ? 'element' : (KIND_OF_BYTE[inv.kind] ?? 'none'),
        lines: [`${p.label} · ${R.slotName} ${s0} · ${R.inner.name} row ${innerRow}, col ${innerCol}`, ...lines, `address ${hex(address)}`],
        coord: inv.coord,
        address,
        unit: u,
        unitLabel: p.label,
        x,
        y,
        innerRow,
        innerCol,
      };
    }
    const lines = [`${p.label} · ${R.slotName} ${s0}`, slot.label, `address ${hex(slotAddr)}–${hex(slotAddr + sbOf(u) - 1)}`];
    let coord = slot.first;
    if (!R.inner || !inner) {
      // a slot is one element (or entry): ask the model exactly
      const { inv, lines: l } = inverseLines(slotAddr, u);
      if (inv.coord) coord = inv.coord;
      lines.push(...l.filter((t) => !lines.includes(t)));
    } else if (coord) lines.push(`first element ${tuple(coord)}`);
    return { kind: KIND_OF_SLOT[slot.kind], lines, coord, address: slotAddr, unit: u, unitLabel: p.label, x, y };
  };

  const hitFor = (address: number, u: number, coord?: number[]): LayoutHit | null => {
    const p = panels.find((q) => q.unit === u);
    if (!p) return null;
    const rel = address - p.base;
    if (!Number.isFinite(rel) || rel < 0 || rel >= p.slots * sbOf(u)) return null;
    const s = Math.floor(rel / sbOf(u));
    const c = Math.floor(s / k);
    const x = p.x + (c % p.w);
    const y = p.y + Math.floor(c / p.w);
    const hit: LayoutHit = { kind: 'element', lines: [], address, unit: u, unitLabel: p.label, x, y, coord };
    if (inner && R.inner) {
      const e = Math.floor((rel - s * sbOf(u)) / R.inner.bytesPerElement);
      Object.assign(hit, innerPos(e));
    }
    const { inv, lines } = inverseLines(address, u);
    hit.coord = coord ?? inv.coord;
    hit.kind = coord || inv.kind === 'element' ? 'element' : (KIND_OF_BYTE[inv.kind] ?? 'none');
    hit.lines = [
      `${p.label} · ${R.slotName} ${s}${hit.innerRow !== undefined ? ` · row ${hit.innerRow}, col ${hit.innerCol}` : ''}`,
      ...lines,
      `address ${hex(address)}`,
    ];
    return hit;
  };

  const locate = (q: { coord?: number[]; address?: number; unit?: number }): LayoutHit | null => {
    if (q.coord) {
      if (model.checkCoord(q.coord)) return null;
      const f = model.forward(q.coord);
      if (!Number.isFinite(f.address)) return null;
      return hitFor(f.address, f.unit?.index ?? 0, [...q.coord]);
    }
    if (q.address !== undefined) return hitFor(q.address, q.unit ?? 0);
    return null;
  };

  const detail = (x: number, y: number, w: number, h: number) => {
    const g = inner;
    const per = g ? g.rows * g.cols : 1;
    const outKeys = new Float32Array(w * h * per).fill(NaN);
    const outKinds = new Uint8Array(w * h * per);
    if (!g || !R.inner) return { keys: outKeys, kinds: outKinds };
    for (let cy = 0; cy < h; cy++) {
      for (let cx = 0; cx < w; cx++) {
        const gx = x + cx;
        const gy = y + cy;
        const p = panelAt(gx, gy);
        if (!p) continue;
        const s = (gy - p.y) * p.w + (gx - p.x);
        if (s >= p.slots) continue;
        const slotAddr = p.base + s * sbOf(p.unit);
        const o = (cy * w + cx) * per;
        for (let r = 0; r < g.rows; r++) {
          for (let c = 0; c < g.cols; c++) {
            const e = innerOffset(r, c);
            const inv = model.inverse(slotAddr + Math.floor(e * R.inner.bytesPerElement), unitArg(p.unit));
            const i = o + r * g.cols + c;
            const kd = inv.kind === 'element' ? 'data' : (KIND_OF_BYTE[inv.kind] ?? 'none');
            outKinds[i] = regionKindCode(kd);
            if (inv.coord && (inv.kind === 'element' || inv.kind === 'replica')) outKeys[i] = keyOf(inv.coord);
          }
        }
      }
    }
    return { keys: outKeys, kinds: outKinds };
  };

  return { map, query, locate, detail };
}

/** Rectangles covering cells [from, to) of a panel filled row by row (≤ 3: head, body, tail). */
function runRects(p: { x: number; y: number; w: number }, from: number, to: number): { x: number; y: number; w: number; h: number }[] {
  const out: { x: number; y: number; w: number; h: number }[] = [];
  let c = from;
  const r0 = Math.floor(c / p.w);
  if (c % p.w !== 0) {
    const e = Math.min(to, (r0 + 1) * p.w);
    out.push({ x: p.x + (c % p.w), y: p.y + r0, w: e - c, h: 1 });
    c = e;
  }
  const full = Math.floor((to - c) / p.w);
  if (full > 0) {
    out.push({ x: p.x, y: p.y + Math.floor(c / p.w), w: p.w, h: full });
    c += full * p.w;
  }
  if (c < to) out.push({ x: p.x, y: p.y + Math.floor(c / p.w), w: to - c, h: 1 });
  return out;
}

/** Cells per row for a single-unit picture: a multiple of the tensor's row period when there is one. */
function chooseWrap(R: Regions, cells: number, k: number): number {
  const ideal = Math.max(1, Math.ceil(Math.sqrt(2 * cells)));
  const small = cells <= 64 ? Math.max(1, cells) : ideal;
  if (k !== 1) return ideal;
  // period: the dims that change from slot 0 to the next slot with elements are the "row" dims; the
  // first slot where another dim changes starts the next row (cells: 2 per row, Spyre: sticks per row…)
  const f0 = R.slot(0, 0).first;
  if (!f0 || f0.length < 2) return small;
  const limit = Math.min(cells, 4096);
  let inner: boolean[] | undefined;
  for (let s = 1; s < limit; s++) {
    const f = R.slot(0, s).first;
    if (!f) continue;
    if (!inner) {
      inner = f.map((v, d) => v !== f0[d]);
      continue;
    }
    if (f.some((v, d) => v !== f0[d] && !inner![d])) {
      const P = s;
      if (P > 512 || P >= cells) return small;
      return P >= ideal ? P : P * Math.max(1, Math.round(ideal / P));
    }
  }
  return small;
}
