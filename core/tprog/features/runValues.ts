/**
 * Hovers and inlay hints with the values of a real run: what a `>` statement did the last time it ran (or
 * as of a debugger stop) — element counts, each side's resolved ranges and addresses, the pairing table,
 * how many times it ran. Real kernels leave most sizes to run time (`req->w`, loop variables), where the
 * static hover says `?`; these sections stand beside the static form, marked as run-time values.
 *
 * The records come from the simulator (core/sim/engine/statementRuns.ts) through the language server, which
 * keeps the last run's and the current debugger stop's (server/src/runValues.ts). A record belongs to the
 * statement that starts at its file, line and column and has its text: an edited statement, or one that
 * moved, has none (its old values would describe other code).
 */
import type { StatementRun, RunSide } from '../../protocol/trace';
import { byteAddress } from '../../common/address';
import { mdBlock } from '../../common/markdown';
import type { StmtInfo, TprogAnalysis } from '../analyze';
import { pcoreAddr } from '../explain';

/** The run values the editor shows now: the last run's, or those of a debugger stop. */
export interface RunValues {
  /** The hover's heading: `last run`, `last run, before your edits`, `at this stop`, … */
  label: string;
  /** The inlay hint's short tag: `run`, `at this stop`, … */
  tag: string;
  /** The record of the statement of `file` that starts at `line`:`column` (1-based), when it ran. */
  at(file: string, line: number, column: number): StatementRun | undefined;
}

/** The record of statement `info` of `a`, when it ran and its text is still the text that ran. */
export function runRecordOf(a: TprogAnalysis, info: StmtInfo, run: RunValues | undefined): StatementRun | undefined {
  if (!run) return undefined;
  const start = info.stmt.span.start;
  const p = a.lines.position(a.docSpan(info.unit, { start, end: start }).start);
  const r = run.at(a.file, p.line + 1, p.character + 1);
  return r && r.text === info.unit.buf.text.slice(start, info.stmt.span.end) ? r : undefined;
}

const count = (n: number) => n.toLocaleString('en-US');
const times = (n: number) => (n === 1 ? 'once' : `${count(n)} times`);

/** `3×400` (outermost first), or `1` for a term without levels. */
function runShape(s: RunSide): string {
  return s.levels.map((l) => String(l.count)).join('×') || '1';
}

function address(s: RunSide, a: number): string {
  return s.space.startsWith('PCORE') ? pcoreAddr(a) : byteAddress(a);
}

function sideLines(s: RunSide): string {
  const lines = [...s.summary];
  const out = (o: boolean | undefined) => (o ? ' (outside the bounds: not accessed)' : '');
  if (s.first !== undefined && s.last !== undefined)
    lines.push(`first element at ${address(s, s.first)}${out(s.firstOut)}, last at ${address(s, s.last)}${out(s.lastOut)}`);
  return lines.join('  \n');
}

/** The hover section of a statement's run values (Markdown), to follow the static hover of its `<=` or `:=`. */
export function runHover(r: StatementRun, label: string): string {
  const shape = r.dst ?? r.src;
  const head = r.running
    ? `**${label}** — running now, execution ${count(r.runs)} (trace step ${r.step}, pid ${r.process}): **${count(r.running.done)}** of ` +
      `${count(r.running.total)} elements moved so far${r.dst && r.dst.levels.length > 1 ? ` (${runShape(r.dst)})` : ''}, ${count(r.padded)} padded, ` +
      `${count(r.skipped)} skipped`
    : r.kind === 'define'
      ? `**${label}** — defined ${times(r.runs)}; the last time (trace step ${r.step}, pid ${r.process}): a descriptor of ` +
        `**${count(shape?.elements ?? 0)}** elements${shape && shape.levels.length > 1 ? ` (${runShape(shape)})` : ''}`
      : `**${label}** — ran ${times(r.runs)}; the last time (trace step ${r.step}, pid ${r.process}): **${count(r.elements)}** elements` +
        `${r.dst && r.dst.levels.length > 1 ? ` (${runShape(r.dst)})` : ''}, ${count(r.padded)} padded, ${count(r.skipped)} skipped`;
  const parts = ['---', head];
  if (r.kind === 'define') {
    if (r.src) parts.push(`descriptor — ${sideLines(r.src)}`);
  } else {
    if (r.dst) parts.push(`destination — ${sideLines(r.dst)}`);
    if (r.src) parts.push(`source — ${sideLines(r.src)}`);
  }
  if (r.table) parts.push(mdBlock(r.table));
  return parts.join('\n\n');
}

/** The hover section of one side (`dst` or `src`) of a statement as it last ran. */
export function runSideHover(r: StatementRun, which: 'dst' | 'src', label: string): string | undefined {
  const s = r[which];
  if (!s) return undefined;
  return `---\n\n**${label}** (ran ${times(r.runs)}; the last time, trace step ${r.step}):  \n${sideLines(s)}`;
}

/** The inlay hint of a statement's run values: `⟨run: 1,200 elements, 3×400⟩`. */
export function runInlay(r: StatementRun, tag: string): { label: string; tooltip: string } | undefined {
  const s = r.kind === 'define' ? r.src : r.dst;
  if (!s) return undefined;
  const n = r.kind === 'define' ? s.elements : r.elements;
  const shape = s.levels.length > 1 ? `, ${runShape(s)}` : '';
  if (r.running)
    return {
      label: `⟨${tag}: ${count(r.running.done)}/${count(r.running.total)} elements${shape}⟩`,
      tooltip:
        `running now (execution ${count(r.runs)}, trace step ${r.step}, pid ${r.process}): ` +
        `${count(r.running.done)} of ${count(r.running.total)} elements moved so far`,
    };
  return {
    label: `⟨${tag}: ${r.kind === 'define' ? '≔ ' : ''}${count(n)} elements${shape}⟩`,
    tooltip:
      `${r.kind === 'define' ? 'defined' : 'ran'} ${times(r.runs)}; the last time (trace step ${r.step}, pid ${r.process}): ` +
      `${r.kind === 'define' ? 'a descriptor of' : 'moved'} ${count(n)} elements` +
      `${s.dtype ? ` of ${s.dtype}` : ''}${r.padded ? `, ${count(r.padded)} padded` : ''}${r.skipped ? `, ${count(r.skipped)} skipped` : ''}; iteration ` +
      `order outermost first: ${s.levels.map((l) => `${l.label} ${l.begin}:${l.end}${l.step === 1 ? '' : ` step ${l.step}`}`).join(', ')}`,
  };
}
