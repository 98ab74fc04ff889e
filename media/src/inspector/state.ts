/**
 * What an inspector panel remembers across reloads (VS Code's webview state): the space, position and
 * display options the user chose. Saved debounced on every change; restored by the constructor.
 */
import type { ElemType } from '../../../core/protocol/webview';
import type { Radix } from '../../../core/inspect/decode';

export interface InspectorState {
  v: 1;
  space: string;
  part: (number | null)[];
  top: number;
  cursor: number;
  anchor: number | null;
  type: ElemType;
  bigEndian: boolean;
  radix: Radix;
  width: number;
  ascii: boolean;
  step: number;
  since: number | null;
  findText: string;
  findMode: string;
}

/** The saved state when it is of this version, else a fresh one (first space, top, step chosen by the host). */
export function restoreState(saved: InspectorState | undefined): InspectorState {
  return saved && saved.v === 1
    ? saved
    : {
        v: 1,
        space: '',
        part: [],
        top: 0,
        cursor: 0,
        anchor: null,
        type: 'u8',
        bigEndian: false,
        radix: 'hex',
        width: 16,
        ascii: true,
        step: -1,
        since: null,
        findText: '',
        findMode: 'hex',
      };
}
