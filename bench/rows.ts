/** The row every module benchmark returns, and how a standalone run prints them. */
import { pathToFileURL } from 'node:url';

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

/** Runs `bench` and prints its rows when `moduleUrl` (the caller's `import.meta.url`) is the script node was started with. */
export function runIfMain(moduleUrl: string, bench: () => Promise<Row[]>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  bench().then(
    (rows) => {
      printRows(rows);
      process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
    },
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
