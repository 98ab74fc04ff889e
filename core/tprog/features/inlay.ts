/** Inlay hints: element count and shape moved by each transfer, at the end of its statement. */
import type { InlayHintItem } from '../../common/featureResults';
import type { TprogAnalysis } from '../analyze';
import { bufToDoc } from '../lines';
import { shapeText } from '../explain';
import { runInlay, runRecordOf, type RunValues } from './runValues';

/** Hints for statements that end within [startLine, endLine]; where a size is known only at run time, `run`'s values (the last run, a debugger stop). */
export function inlayHints(a: TprogAnalysis, startLine: number, endLine: number, run?: RunValues): InlayHintItem[] {
  const out: InlayHintItem[] = [];
  for (const unit of a.units) {
    if (unit.buf.lastLine < startLine || unit.buf.firstLine > endLine) continue;
    for (const info of unit.stmts) {
      const s = info.stmt;
      if (s.kind !== 'transfer' && s.kind !== 'vardef') continue;
      const d = s.kind === 'transfer' ? info.dst?.desc : info.src?.desc;
      if (!d || d.space === 'GLOBAL' || d.space === 'VAR') continue;
      const n = d.total;
      const end = bufToDoc(unit.buf, s.span.end + 1);
      if (n === undefined) {
        const ran = runRecordOf(a, info, run);
        const hint = ran && runInlay(ran, run!.tag);
        if (hint) out.push({ position: a.lines.position(end), ...hint });
        continue;
      }
      const type = d.dtype ?? d.dtypeText ?? info.src?.desc.dtype ?? '';
      const shape = d.levels.length > 1 ? ` (${shapeText(d)})` : '';
      const label = `${s.kind === 'vardef' ? '≔ ' : ''}${n.toLocaleString('en-US')} × ${type}${shape}`;
      out.push({
        position: a.lines.position(end),
        label,
        tooltip:
          `${s.kind === 'vardef' ? 'descriptor of' : 'transfer of'} ${n} elements; iteration order outermost ` +
          `first: ${d.levels.map((l) => l.label).join(', ')}`,
      });
    }
  }
  return out;
}
