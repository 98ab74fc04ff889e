/**
 * What the inspector's components may use of the controller: the model they show and the services
 * that change it and refresh the page. The controller (inspector.ts) implements this and builds the
 * components; each component takes the part it needs (a Pick of this interface) rather than the
 * controller, so components import this file and never the controller, and imports go one way.
 */
import type { Rpc } from '../common/rpc';
import type { InspectorModel } from './model';
import type { InspectorState } from './state';

export interface InspectorView {
  readonly model: InspectorModel;
  readonly rpc: Rpc;
  /** Renders on the next animation frame (once, however often asked before it). */
  schedule(): void;
  /** Saves the state for the next reload (debounced). */
  save(): void;
  /** A message in the status line (kept there briefly over the cursor's description). */
  say(text: string, warn?: boolean): void;
  /** Describes the cursor's byte in the status line (debounced). */
  announceCursor(): void;
  /** Changes display options: the controls, the saved state and the frame follow. */
  update(p: Partial<InspectorState>): void;
  /** Shows another space (at its start unless `keepPosition`). */
  selectSpace(id: string, keepPosition: boolean): void;
  /** Picks the core/thread of a partition level (null: all), from the top of its window. */
  setPartition(level: number, v: number | null): void;
  /** Bytes per row, keeping the cursor in view. */
  setWidth(w: number): void;
  /** Shows step `s` (clamped); `fromUser` tells the extension. */
  setStep(s: number, fromUser: boolean): void;
  /** The state's core/thread choice changed outside the pickers: show it in them. */
  syncPartitions(): void;
}
