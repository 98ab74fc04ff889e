/**
 * The regions the Views pane and the jump list offer: the run configuration's views, the run's listed regions (named buffers, loads,
 * dumps, pointer arguments: the extension's hello), the tensors, variables and C globals of the shown
 * space, the `>` term highlighted from the editor, what the selected step wrote and read, and the hex
 * selection; and the first picture of a region (image when its shape reads as one).
 */
import { touchedBytes, type ElemType, type TensorView } from '../../../../core/protocol/webview';
import { ELEM_BYTES } from '../../../../core/inspect/decode';
import type { InspectorModel } from '../model';

export interface RegionChoice {
  label: string;
  name: string;
  kind: string;
  space: string;
  offset: number;
  bytes: number;
  dtype?: ElemType;
  shape?: number[];
  /** A configured picture: shown as it is given. */
  view?: TensorView;
}

const KIND_LABEL: Record<string, string> = { buffer: 'buffer', load: 'load', dump: 'dump', argument: 'argument', global: 'global' };

/** The run's listed regions, then the shown space's overlays, then the hex selection. */
export function regionChoices(m: InspectorModel): RegionChoice[] {
  const out: RegionChoice[] = m.views.map((v) => ({
    label: `view ${v.label}`,
    name: v.label,
    kind: 'view',
    space: v.space,
    offset: v.offset,
    bytes: v.bytes,
    view: v,
  }));
  out.push(...m.regions.map((r) => ({ ...r, label: `${KIND_LABEL[r.kind] ?? r.kind} ${r.name}` })));
  const seen = new Set(out.map((c) => `${c.space}:${c.offset}:${c.bytes}`));
  for (const o of m.overlays.list) {
    if (o.length <= 0 || seen.has(`${o.space}:${o.offset}:${o.length}`)) continue;
    seen.add(`${o.space}:${o.offset}:${o.length}`);
    const dense = !o.strides;
    out.push({
      label: `${o.kind} ${o.name}`,
      name: o.name,
      kind: o.kind,
      space: o.space,
      offset: o.offset,
      bytes: o.length,
      dtype: o.type,
      shape: dense ? o.shape : undefined,
    });
  }
  // the term highlighted from the editor (the cursor on a > term), and what the selected step wrote and read
  if (m.info && m.hl && m.hl.hi > m.hl.lo)
    out.push({
      label: `term ${m.hl.label ?? ''}`.trim(),
      name: m.hl.label ?? 'term',
      kind: 'term',
      space: m.info.id,
      offset: m.hl.lo,
      bytes: m.hl.hi - m.hl.lo,
    });
  const rec = m.stepRec();
  for (const [what, t] of [
    ['written', rec?.written],
    ['read', rec?.read],
  ] as const) {
    const info = t && m.spaces.find((s) => s.id === t.space);
    if (!t || !info) continue;
    const r = touchedBytes(t, info.unitBytes);
    out.push({ label: `${what} by step ${rec!.step}`, name: `step ${rec!.step} ${what}`, kind: 'step', space: info.id, offset: r.lo, bytes: r.hi - r.lo });
  }
  if (m.info && m.st.anchor !== null) {
    const s = m.selection();
    out.push({ label: `selection (${s.hi - s.lo} bytes)`, name: 'selection', kind: 'selection', space: m.info.id, offset: s.lo, bytes: s.hi - s.lo });
  }
  return out;
}

/** Whether a shape reads as an image: [h, w], [c, h, w] or [h, w, c] with 1 or 3 channels. */
function imageShape(shape: readonly number[] | undefined): boolean {
  if (!shape) return false;
  if (shape.length === 2) return true;
  return shape.length === 3 && (shape[0] === 3 || shape[2] === 3 || shape[0] === 1 || shape[2] === 1);
}

/** The first picture of a region: an image of u8 data whose shape reads as one, else a heatmap (rows of the grid's width when it has no shape). */
export function viewOfRegion(c: Omit<RegionChoice, 'label'> & { label?: string }, m: InspectorModel): TensorView {
  const label = c.name;
  const dtype = c.dtype ?? 'u8';
  if (dtype === 'u8' && imageShape(c.shape)) return { label, space: c.space, offset: c.offset, bytes: c.bytes, mode: 'image', shape: c.shape };
  const width = Math.max(1, Math.floor(m.st.width / ELEM_BYTES[dtype]));
  return {
    label,
    space: c.space,
    offset: c.offset,
    bytes: c.bytes,
    mode: 'heatmap',
    dtype,
    ...(c.shape && c.shape.length ? { shape: c.shape } : { width }),
  };
}

/** Sizes typed in a control (`3,200,200`, `3×200×200`, `3 200 200`): non-negative integers ≥ `min`; a clear error naming the control otherwise. */
export function parseSizes(text: string, what: string, min: number): number[] {
  const t = text.trim();
  if (!t) return [];
  const parts = t.split(/\s*[,×*]\s*|\s+|(?<=\d)x(?=\d)/i).filter(Boolean);
  return parts.map((p, i) => {
    if (!/^\d+$/.test(p) || Number(p) < min || Number(p) > 1 << 24)
      throw new Error(`${what}: "${p}" (item ${i + 1} of "${t}") is not ${min > 0 ? 'a size' : 'an index'} (an integer${min > 0 ? ' ≥ 1' : ' ≥ 0'})`);
    return Number(p);
  });
}
