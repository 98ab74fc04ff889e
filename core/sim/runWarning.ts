/** How a run warning is printed — by the CLI, in the Tensor Lens output channel and in the Debug Console. */
import type { RunWarning } from './types';

/** `file:line:col: warning: message (N times)`. */
export function warningText(w: Omit<RunWarning, 'file'>, file: string): string {
  return `${file}:${w.line}:${w.column}: warning: ${w.message}${w.count > 1 ? ` (${w.count} times)` : ''}`;
}
