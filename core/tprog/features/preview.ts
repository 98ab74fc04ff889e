/** Markdown preview of the transfers of a function (the "Preview transfers" code lens). */
import type { TprogAnalysis } from '../analyze';
import { transferTable, termSummary } from '../explain';
import { mdBlock, mdCode, mdText } from '../../common/markdown';

export function transferPreview(a: TprogAnalysis, fn: string | undefined, rows = 16): { markdown: string; transfers: number } {
  const parts: string[] = [`# Transfers of ${fn ? mdCode(fn) : mdText(a.file.split('/').pop() ?? '')}`];
  let count = 0;
  for (const unit of a.units) {
    for (const info of unit.stmts) {
      if (fn && info.fn !== fn) continue;
      if (info.stmt.kind !== 'transfer') continue;
      count++;
      const line = unit.buf.firstLine + 1;
      const text = unit.buf.text.slice(info.stmt.span.start, info.stmt.span.end);
      parts.push(`## line ${line}\n\n${mdBlock(`> ${text};`)}`);
      if (info.dst) parts.push(`**destination** — ${termSummary(info.dst).join('  \n')}`);
      if (info.src) parts.push(`**source** — ${termSummary(info.src).join('  \n')}`);
      const table = transferTable(info, { limit: rows });
      parts.push(table ? mdBlock(table) : '_element table unavailable: some sizes are only known at run time_');
    }
  }
  if (!count) parts.push('_no transfers_');
  return { markdown: parts.join('\n\n'), transfers: count };
}
