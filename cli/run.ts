/** `tensor-lens run`: runs a tensor program on the embedded simulator. */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Project } from '../core/project/project';
import { loadPcoreView } from '../core/project/pcoreAdapter';
import { parseDump, parseLoad, SpecError } from '../core/sim/dump';
import { nodeLoadWasm } from '../core/sim/host/nodeWasm';
import { runProgram } from '../core/sim/run';
import { parseArgs, UsageError } from './args';
import { nodeFs } from './nodeFs';

export const RUN_USAGE = `usage: tensor-lens run <program> [--entry NAME] [--arg N]... [--load WHERE=FILE]... [--dump SPACE:WHERE:COUNT:DTYPE[=FILE]]... [--pcore FILE] [--mem-bytes N] [--steps N] [--trace] [--json]
  SPACE is MEM, SCRATCH, PCORE (process page 0) or PCORE@1; WHERE a number (bytes for MEM/SCRATCH, the word address
  pcore*4096+thread*256+offset for PCORE), a C global with optional +bytes, or pcore.thread.class::var / pcore.class::var
  with optional +words; DTYPE one of u8 i8 u16 i16 u32 i32 f32 word12. --load takes raw bytes or .npy into MEM.
  Exit status 1 on a runtime or compile error (printed as file:line:col: error: ...), 2 on bad usage.`;

function num(s: string, what: string): number {
  if (!/^-?(0x[0-9a-f]+|\d+)$/i.test(s)) throw new UsageError(`${what} must be an integer, got "${s}"`);
  return Number(s);
}

export async function runRun(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const args = parseArgs(argv, { flags: ['json', 'trace', 'help'], options: ['entry', 'arg', 'load', 'dump', 'pcore', 'mem-bytes', 'steps'] });
  if (args.flags.has('help')) {
    out(RUN_USAGE);
    return 0;
  }
  if (args.positionals.length !== 1) throw new UsageError('run needs exactly one program');
  const file = resolve(args.positionals[0]);
  if (nodeFs.read(file) === undefined) throw new UsageError(`cannot read ${args.positionals[0]}`);
  let dumps;
  let loads;
  try {
    dumps = (args.options.get('dump') ?? []).map(parseDump);
    loads = (args.options.get('load') ?? []).map((t) => {
      const l = parseLoad(t);
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(readFileSync(resolve(l.file)));
      } catch {
        throw new UsageError(`--load ${t}: cannot read ${l.file}`);
      }
      return { ...l, bytes };
    });
  } catch (e) {
    if (e instanceof SpecError) throw new UsageError(e.message);
    throw e;
  }
  const project = new Project({ fs: nodeFs, loadPcore: loadPcoreView });
  const pc = args.options.get('pcore')?.[0];
  if (pc) {
    if (nodeFs.read(resolve(pc)) === undefined) throw new UsageError(`cannot read PCORE program ${pc}`);
    project.pcoreOverride.set(file, resolve(pc));
  }
  const memBytes = args.options.has('mem-bytes') ? num(args.options.get('mem-bytes')![0], '--mem-bytes') : undefined;
  if (memBytes !== undefined && (memBytes < 65536 || memBytes > 2 ** 31)) throw new UsageError('--mem-bytes must be between 65536 and 2^31');
  const steps = args.options.has('steps') ? num(args.options.get('steps')![0], '--steps') : undefined;
  const r = await runProgram({
    project,
    file,
    entry: args.options.get('entry')?.[0],
    args: (args.options.get('arg') ?? []).map((a) => num(a, '--arg')),
    loads,
    dumps,
    memBytes,
    stepBudget: steps,
    loadWasm: nodeLoadWasm,
    history: false,
    // the steps are kept only when they are printed (a long run then takes no memory per step)
    trace: args.flags.has('json') || args.flags.has('trace'),
  });
  const cwd = process.cwd();
  const rel = (f: string) => (f.startsWith(cwd + '/') ? f.slice(cwd.length + 1) : f);
  for (const d of r.dumps) if (d.file && d.bytes) writeFileSync(resolve(d.file), d.bytes);
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
    if (args.flags.has('trace')) for (const s of r.trace) out(`step ${s.step} ${rel(s.file)}:${s.line} pid ${s.process} ${s.kind}${s.kernel ? ' ' + s.kernel : ''} ${s.elements} el${s.padded ? `, ${s.padded} padded` : ''}${s.skipped ? `, ${s.skipped} skipped` : ''}`);
    for (const d of r.dumps) {
      if (d.file) out(`${d.space}:${d.where}: wrote ${d.file}`);
      else out(`${d.space}:${d.where}:${d.dtype} = ${d.values!.join(' ')}`);
    }
    for (const w of r.warnings) err(`${rel(w.file)}:${w.line}:${w.column}: warning: ${w.message}${w.count > 1 ? ` (${w.count} times)` : ''}`);
    const s = r.summary;
    out(`${r.entry || '(no entry)'}: ${s.statements} tensor statements, ${s.steps} steps, ${s.bytesMoved} bytes moved, ${s.laneOps} lane-ops, ${s.timeMs} ms`);
    if (r.error) {
      err(`${rel(r.error.file)}:${r.error.line}:${r.error.column}: error: ${r.error.message}`);
      for (const f of r.error.stack) err(`    at ${f}`);
    }
  }
  return r.error ? 1 : 0;
}
