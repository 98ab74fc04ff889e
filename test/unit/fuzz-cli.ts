/**
 * The `cli` fuzz kind: the command line's main() in-process with odd arguments — numbers in every
 * spelling (negative hex among them) for map's --coord/--address/--device/--bank/--core, csf's options —
 * and `check DIR` over a temporary tree holding special files: a FIFO, a link to /dev/zero, a symbolic
 * link loop, a dangling link, a folder linked to its parent. main() must return an exit code (never
 * throw) within the time bound; a FIFO read that blocks shows up as a hang.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { main } from '../../cli/main';
import { numberTextArb, ROOT, type CheckOptions, type Violation } from './fuzz-harness';

export interface CliInput {
  path: string;
  /** The arguments, JSON (the runner shows `text`). */
  text: string;
}

let tree: string | undefined;
/** The temporary tree `check DIR` reads (made once per worker). */
export function specialTree(): string {
  if (tree) return tree;
  const d = mkdtempSync(join(tmpdir(), 'tl-fuzz-cli-'));
  mkdirSync(join(d, 'sub'));
  writeFileSync(join(d, 'ok.m'), readFileSync(join(ROOT, 'examples', 'guide', 'transfers.m')));
  writeFileSync(join(d, 's.tlayout'), readFileSync(join(ROOT, 'examples', 'layouts', 'strided.tlayout')));
  writeFileSync(join(d, 'A.csfbin'), readFileSync(join(ROOT, 'examples', 'layouts', 'A.csfbin')));
  const link = (to: string, at: string) => {
    try {
      symlinkSync(to, join(d, at));
    } catch {
      /* no symbolic links here (Windows without the right): the kind still runs */
    }
  };
  link(join(d, 'loop2.m'), 'loop1.m');
  link(join(d, 'loop1.m'), 'loop2.m');
  link(join(d, 'gone.m'), 'dangling.m');
  link('/dev/zero', 'zero.m');
  link('/dev/zero', 'zero.csfbin');
  link(d, join('sub', 'up'));
  if (process.platform !== 'win32')
    try {
      execFileSync('mkfifo', [join(d, 'fifo.m')]);
    } catch {
      /* no mkfifo */
    }
  tree = d;
  return d;
}

export const cliInputArb = (): fc.Arbitrary<CliInput> => {
  const n = numberTextArb;
  const spec = fc.constantFrom('s.tlayout', 'A.csfbin', 'zero.csfbin', 'loop1.m', 'fifo.m', 'missing.tlayout');
  const coord = fc.array(n, { minLength: 1, maxLength: 4 }).map((a) => a.join(','));
  const args = fc.oneof(
    fc.tuple(spec, fc.constantFrom('--address', '--coord', '--device'), fc.oneof(n, coord)).map(([f, k, v]) => ['map', `@/${f}`, k, v]),
    fc.tuple(n, fc.constantFrom('--bank', '--core', '--space'), n).map(([a, k, v]) => ['map', '@/s.tlayout', '--address', a, k, v]),
    fc.tuple(fc.constantFrom('--base', '--main', '--meta', '--at', '--count'), n).map(([k, v]) => ['csf', 'show', '@/A.csfbin', k, v]),
    fc.constantFrom(['check', '@'], ['check', '@/sub'], ['check', '@/zero.m'], ['check', '@/loop1.m'], ['check', '@/dangling.m'], ['check', '@', '--json']),
    fc.array(fc.oneof(n, fc.constantFrom('check', 'map', 'csf', '--json', '@', '--', '-')), { maxLength: 6 }),
  );
  return args.map((a) => ({ path: 'argv', text: JSON.stringify(a) }));
};

/** Runs main() on one argument list (`@` stands for the special tree); what went wrong (empty = fine). */
export async function checkCli(input: CliInput, opts: CheckOptions = {}): Promise<Violation[]> {
  const d = specialTree();
  const argv = (JSON.parse(input.text) as string[]).map((a) => (a.startsWith('@') ? d + a.slice(1) : a));
  const v: Violation[] = [];
  const t0 = performance.now();
  opts.onStart?.('main');
  let code: number | undefined;
  let printed = 0;
  const io = { out: (s: string) => void (printed += s.length), err: (s: string) => void (printed += s.length) };
  try {
    code = await main(argv, io);
  } catch (e) {
    v.push({ where: 'main', problem: `threw: ${(e as Error)?.stack ?? e}` });
  }
  const ms = performance.now() - t0;
  opts.onCall?.('main', ms);
  if (code !== undefined && !(Number.isInteger(code) && code >= 0 && code <= 3)) v.push({ where: 'main', problem: `exit code ${code}` });
  if (ms > (opts.limitMs ?? 2000)) v.push({ where: 'main', problem: `took ${ms.toFixed(0)} ms` });
  if (printed > 64 * 1024 * 1024) v.push({ where: 'main', problem: `printed ${printed} characters` });
  return v;
}
