import type { Diagnostic, Severity } from '../common/diagnostic';
import type { LineIndex } from '../common/lineIndex';

/** A diagnostic located by string offsets (converted to a Range at the end of the analysis). */
export interface OffsetDiagnostic {
  start: number;
  end: number;
  severity: Severity;
  code: string;
  message: string;
}

/** Upper bound on reported diagnostics: keeps garbage input cheap. */
export const MAX_DIAGNOSTICS = 500;

export class DiagnosticSink {
  readonly items: OffsetDiagnostic[] = [];
  private dropped = 0;

  add(start: number, end: number, severity: Severity, code: string, message: string): OffsetDiagnostic | undefined {
    if (this.items.length >= MAX_DIAGNOSTICS) {
      this.dropped++;
      return undefined;
    }
    if (end < start) end = start;
    const d: OffsetDiagnostic = { start, end, severity, code, message };
    this.items.push(d);
    return d;
  }

  error(start: number, end: number, code: string, message: string): void {
    this.add(start, end, 'error', code, message);
  }

  warning(start: number, end: number, code: string, message: string): void {
    this.add(start, end, 'warning', code, message);
  }

  get droppedCount(): number {
    return this.dropped;
  }
}

export function toDiagnostics(items: readonly OffsetDiagnostic[], index: LineIndex, dropped: number): Diagnostic[] {
  const sorted = items.slice().sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const d of sorted) {
    const key = `${d.start}:${d.end}:${d.code}:${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ range: index.range(d.start, d.end), severity: d.severity, code: d.code, message: d.message });
  }
  if (dropped > 0) {
    out.push({
      range: index.range(0, 0),
      severity: 'information',
      code: 'pcore.too-many-diagnostics',
      message: `${dropped} more diagnostics were not reported`,
    });
  }
  return out;
}
