/** How a run warning or error is printed — by the CLI, in the Tensor Lens output channel and in the Debug Console. */
import type { RunWarning } from './types';

/** `file:line:col: warning: message (N times)`. */
export function warningText(w: Omit<RunWarning, 'file'>, file: string): string {
  return `${file}:${w.line}:${w.column}: warning: ${w.message}${w.count > 1 ? ` (${w.count} times)` : ''}`;
}

/**
 * `file:line:col: error: message` — in the output channel with `file` absolute (the file-system path, not a
 * `file://` URI, which VS Code's output links do not split from its `:line:col`), so that it opens at the place.
 */
export function errorText(e: { line: number; column: number; message: string }, file: string): string {
  return `${file}:${e.line}:${e.column}: error: ${e.message}`;
}
