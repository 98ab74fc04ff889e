/** The row every module benchmark returns, and how a standalone run prints them. */
export interface Row {
  name: string;
  /** e.g. `< 300 ms`, `≥ 100 M el/s`. */
  target: string;
  measured: string;
  /** Measured ÷ target, in the direction the module states. */
  ratio: number;
  pass: boolean;
}

export function printRows(rows: Row[]): void {
  const head = ['benchmark', 'target', 'measured', 'ratio', 'pass'];
  const cells = rows.map((r) => [r.name, r.target, r.measured, r.ratio.toFixed(2), r.pass ? 'yes' : 'NO']);
  const width = head.map((h, k) => Math.max(h.length, ...cells.map((c) => c[k].length)));
  const line = (c: string[]) => c.map((x, k) => x.padEnd(width[k])).join('  ');
  console.log(line(head));
  console.log(width.map((n) => '-'.repeat(n)).join('  '));
  for (const c of cells) console.log(line(c));
}
