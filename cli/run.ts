/** `tensor-lens run`: runs a tensor program on the embedded simulator. */
import { writeFileSync } from 'node:fs';
import { SpecError } from '../core/sim/dump';
import { prepareRun, type PreparedRun } from '../core/sim/prepare';
import { toDumpConfig, toLoadConfig } from '../core/sim/runConfigText';
import { nodeRunHost } from '../node/runHost';
import { runProgram } from '../core/sim/run';
import { warningText } from '../core/sim/runWarning';
import { DIALECTS, type Dialect, type RunConfig } from '../core/sim/runConfig';
import { parseArgs, UsageError, type Parsed } from './args';
import { MAX_MEM_BYTES, MIN_MEM_BYTES } from '../core/sim/spaces';

export const RUN_USAGE = [
  'usage: tensor-lens run <program> [--entry NAME] [--arg N]... [--load WHERE=FILE]... [--dump SPACE:WHERE:COUNT:DTYPE[=FILE]]... ' +
    '[--include DIR]... [--dialect auto|ztachip|guide] [--pcore FILE] [--mem-bytes N] [--steps N] [--trace] [--json]',
  '  SPACE is MEM, SCRATCH, PCORE (process page 0) or PCORE@1; WHERE a number (bytes for MEM/SCRATCH, the word address',
  '  pcore*4096+thread*256+offset for PCORE), a C global with optional +bytes, or pcore.thread.class::var / pcore.class::var',
  '  with optional +words; DTYPE one of u8 i8 u16 i16 u32 i32 f32 word12. --load takes raw bytes or .npy into MEM.',
  '  --include and --dialect read the program as `tensor-lens check` does with them.',
  '  Exit status 1 on a runtime or compile error (printed as file:line:col: error: ...), 2 on bad usage.',
].join('\n');

function num(s: string, what: string): number {
  if (!/^-?(0x[0-9a-f]+|\d+)$/i.test(s)) throw new UsageError(`${what} must be an integer, got "${s}"`);
  return Number(s);
}

/** The run configuration the options say (files relative to the current folder). */
export function runConfigOf(args: Parsed): RunConfig {
  if (args.positionals.length !== 1) throw new UsageError('run needs exactly one program');
  const one = (name: string) => args.options.get(name)?.[0];
  const dialect = one('dialect');
  if (dialect !== undefined && !(DIALECTS as readonly string[]).includes(dialect))
    throw new UsageError(`--dialect must be auto, ztachip or guide (got ${dialect})`);
  const memBytes = one('mem-bytes') !== undefined ? num(one('mem-bytes')!, '--mem-bytes') : undefined;
  if (memBytes !== undefined && (memBytes < MIN_MEM_BYTES || memBytes > MAX_MEM_BYTES))
    throw new UsageError(`--mem-bytes must be between ${MIN_MEM_BYTES} and 2^31`);
  try {
    return {
      program: args.positionals[0],
      entry: one('entry'),
      args: (args.options.get('arg') ?? []).map((a) => num(a, '--arg')),
      load: (args.options.get('load') ?? []).map(toLoadConfig),
      dump: (args.options.get('dump') ?? []).map(toDumpConfig),
      includePaths: args.options.get('include') ?? [],
      dialect: dialect as Dialect | undefined,
      pcore: one('pcore'),
      memBytes,
      stepBudget: one('steps') !== undefined ? num(one('steps')!, '--steps') : undefined,
    };
  } catch (e) {
    throw e instanceof SpecError ? new UsageError(e.message) : e;
  }
}

export async function runRun(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const args = parseArgs(argv, {
    flags: ['json', 'trace', 'help'],
    options: ['entry', 'arg', 'load', 'dump', 'include', 'dialect', 'pcore', 'mem-bytes', 'steps'],
  });
  if (args.flags.has('help')) {
    out(RUN_USAGE);
    return 0;
  }
  const config = runConfigOf(args);
  let prepared: PreparedRun;
  try {
    prepared = prepareRun({ ...config, cwd: process.cwd() }, nodeRunHost());
  } catch (e) {
    throw e instanceof SpecError ? new UsageError(e.message) : e;
  }
  const r = await runProgram({
    ...prepared.options,
    history: false,
    // the steps are kept only when they are printed (a long run then takes no memory per step)
    trace: args.flags.has('json') || args.flags.has('trace'),
  });
  const cwd = process.cwd();
  const rel = (f: string) => (f.startsWith(cwd + '/') ? f.slice(cwd.length + 1) : f);
  for (const d of r.dumps) if (d.file && d.bytes) writeFileSync(prepared.dumpPath(d.file), d.bytes);
  if (args.flags.has('json')) {
    out(
      JSON.stringify(
        {
          summary: r.summary,
          warnings: r.warnings.map((w) => ({ ...w, file: rel(w.file) })),
          entry: r.entry,
          trace: r.trace,
          dumps: r.dumps.filter((d) => !d.file).map((d) => ({ space: d.space, where: d.where, dtype: d.dtype, values: d.values })),
          files: r.dumps.filter((d) => d.file).map((d) => d.file),
          output: r.output,
          error: r.error ? { file: rel(r.error.file), line: r.error.line, column: r.error.column, message: r.error.message, stack: r.error.stack } : null,
        },
        null,
        2,
      ),
    );
  } else {
    if (r.output) out(r.output.replace(/\n$/, ''));
    if (args.flags.has('trace'))
      for (const s of r.trace)
        out(
          `step ${s.step} ${rel(s.file)}:${s.line} pid ${s.process} ${s.kind}${s.kernel ? ' ' + s.kernel : ''} ${s.elements} ` +
            `el${s.padded ? `, ${s.padded} padded` : ''}${s.skipped ? `, ${s.skipped} skipped` : ''}`,
        );
    for (const d of r.dumps) {
      if (d.file) out(`${d.space}:${d.where}: wrote ${d.file}`);
      else out(`${d.space}:${d.where}:${d.dtype} = ${d.values!.join(' ')}`);
    }
    for (const w of r.warnings) err(warningText(w, rel(w.file)));
    const s = r.summary;
    out(`${r.entry || '(no entry)'}: ${s.statements} tensor statements, ${s.steps} steps, ${s.bytesMoved} bytes moved, ${s.laneOps} lane-ops, ${s.timeMs} ms`);
    if (r.error) {
      err(`${rel(r.error.file)}:${r.error.line}:${r.error.column}: error: ${r.error.message}`);
      for (const f of r.error.stack) err(`    at ${f}`);
    }
  }
  return r.error ? 1 : 0;
}
