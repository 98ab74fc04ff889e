/**
 * What a run leaves in the Problems panel: its run-time error at the faulting place (with the C call
 * stack) and its warnings (what the simulator did not model exactly) at theirs, as Warning diagnostics.
 * They stay until the document changes or the next run.
 */
import type { Diagnostic } from '../../core/common/diagnostic';
import type { RunWarning } from '../../core/sim/types';
import { pathToUri } from './uri';

export interface RunOutcome {
  error: { file: string; line: number; column: number; message: string; kind: string; stack: string[] } | null;
  warnings?: RunWarning[];
  cancelled?: boolean;
}

/** Diagnostics by document URI; `lineLength(uri, line)` (0-based line) is the length of an open document's line, if known. */
export function runDiagnosticsOf(r: RunOutcome, lineLength: (uri: string, line: number) => number | undefined): Map<string, Diagnostic[]> {
  const out = new Map<string, Diagnostic[]>();
  const add = (file: string, line1: number, column1: number, d: Omit<Diagnostic, 'range'>) => {
    const uri = pathToUri(file);
    const line = Math.max(0, line1 - 1);
    const start = Math.max(0, column1 - 1);
    // to the end of the line, at least one character
    const end = Math.max(lineLength(uri, line) ?? column1, start + 1);
    const list = out.get(uri) ?? [];
    list.push({ ...d, range: { start: { line, character: start }, end: { line, character: end } } });
    out.set(uri, list);
  };
  if (r.cancelled) return out;
  const e = r.error;
  if (e && e.kind !== 'cancelled')
    add(e.file, e.line, e.column, {
      severity: 'error',
      code: `run.${e.kind}`,
      message: `Run: ${e.message}${e.stack.length ? `\n${e.stack.map((f) => '  at ' + f).join('\n')}` : ''}`,
    });
  for (const w of r.warnings ?? [])
    add(w.file, w.line, w.column, { severity: 'warning', code: 'run.warning', message: `Run: ${w.message}${w.count > 1 ? ` (${w.count} times)` : ''}` });
  return out;
}
