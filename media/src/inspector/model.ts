/**
 * What the memory inspector shows, kept in one place: the saved view state (space, position, display
 * options), the spaces and step records the extension sent, the tensors of the shown space, the
 * highlight and search marks, and the page cache that holds the bytes. Data plus the queries derived
 * from it (window, selection, addresses); the controller (inspector.ts) fills and changes it, the
 * components read it, and navigation moves the cursor and marks in it.
 */
import { partitionWindow, type Region, type RunBuffer, type SpaceInfo, type TensorView } from '../../../core/protocol/webview';
import type { TraceStep } from '../../../core/protocol/trace';
import { addressDigits } from '../../../core/inspect/decode';
import { OverlayIndex } from './overlays';
import type { PageCache } from './pages';
import type { InspectorState } from './state';

export class InspectorModel {
  spaces: SpaceInfo[] = [];
  /** The space shown; unset until the extension's hello names the spaces. */
  info!: SpaceInfo;
  totalSteps = 0;
  readonly stepRecs: TraceStep[] = [];
  /** The tensors of the shown space. */
  readonly overlays = new OverlayIndex();
  /** Bytes highlighted at the extension's request (a term hovered in the editor) or by Read/Written. */
  hl: { lo: number; hi: number; label?: string } | undefined;
  /** The last search match. */
  match: { lo: number; hi: number } | undefined;
  /** The first hello was answered (until then frames do not count as first paint). */
  ready = false;
  /** The run's regions to jump to and view (buffers, loads, dumps, pointer arguments), in the host's order. */
  regions: Region[] = [];
  /** The run configuration's pictures (the first opens at the start; all are offered in the Views pane). */
  views: TensorView[] = [];

  constructor(
    readonly st: InspectorState,
    readonly cache: PageCache,
  ) {}

  /** The host's regions, with the named buffers it did not list itself (in MEM). */
  setRegions(regions: Region[] | undefined, buffers: RunBuffer[] | undefined): void {
    const list = [...(regions ?? [])];
    for (const b of buffers ?? [])
      if (!list.some((r) => r.kind === 'buffer' && r.name === b.name))
        list.push({ kind: 'buffer', name: b.name, space: 'MEM', offset: b.address, bytes: b.bytes });
    this.regions = list;
  }

  /** The record of step `s` (the current one by default), once the step records have loaded. */
  stepRec(s = this.st.step): TraceStep | undefined {
    return s >= 0 ? this.stepRecs[s] : undefined;
  }

  /** The selected bytes [lo, hi) (the cursor byte when nothing is selected). */
  selection(): { lo: number; hi: number } {
    const st = this.st;
    const a = st.anchor ?? st.cursor;
    return { lo: Math.min(a, st.cursor), hi: Math.max(a, st.cursor) + 1 };
  }

  /** The byte window shown (whole space, or the selected core/thread). */
  window(): { offset: number; length: number } {
    return partitionWindow(
      this.info,
      this.st.part.map((x) => (x === null ? undefined : x)),
    );
  }

  fmtAddr(offset: number): string {
    const a = (this.info.base ?? 0) + Math.floor(offset / this.info.unitBytes);
    return '0x' + a.toString(16);
  }

  addrDigits(): number {
    return addressDigits((this.info.base ?? 0) + this.info.bytes / this.info.unitBytes);
  }
}
