/** `tensor-lens run`: runs a tensor program on the embedded simulator. */
import { resolve } from 'node:path';
import { NpyError, npyLoadBytes } from '../core/common/npy';
import { SpecError } from '../core/sim/dump';
import { prepareRun, type PreparedRun, type RunHost } from '../core/sim/prepare';
import { dumpText, loadText, toDumpConfig, toLoadConfig } from '../core/sim/runConfigText';
import { FileError, writeFileBytes } from '../node/files';
import { RunInputs } from '../node/runInputs';
import { nodeRunHost } from '../node/runHost';
import { runProgram } from '../core/sim/run';
import { errorText, warningText } from '../core/sim/runWarning';
import {
  BUFFER_ARG,
  BUFFER_CHANNELS,
  BUFFER_LAYOUTS,
  BUFFER_NAME,
  DIALECTS,
  MAX_BUFFER_ALIGN,
  type BufferConfig,
  type Dialect,
  type RunConfig,
} from '../core/sim/runConfig';
import { bufferText } from '../core/sim/buffers';
import { parseArgs, parseInteger, UsageError, type Parsed } from './args';
import { MAX_MEM_BYTES, MIN_MEM_BYTES } from '../core/sim/spaces';

export const RUN_USAGE = [
  'usage: tensor-lens run <program> [--entry NAME] [--arg N|@NAME]... [--buffer NAME=FILE|BYTES[,align=N][,layout=L][,channels=C]]... ' +
    '[--load WHERE=FILE]... [--dump SPACE:WHERE:COUNT:DTYPE[=FILE]]... ' +
    '[--include DIR]... [--dialect auto|ztachip|guide] [--pcore FILE] [--mem-bytes N] [--steps N] [--trace] [--json]',
  '  SPACE is MEM, SCRATCH, PCORE (process page 0) or PCORE@1; WHERE a number (bytes for MEM/SCRATCH, the word address',
  '  pcore*4096+thread*256+offset for PCORE), a C global with optional +bytes, or pcore.thread.class::var / pcore.class::var',
  '  with optional +words; DTYPE one of u8 i8 u16 i16 u32 i32 f32 word12. --load takes raw bytes or .npy into MEM.',
  '  --buffer places a named MEM buffer (raw, .npy, or a .png/.bmp image; or BYTES zero bytes) where nothing else lives;',
  '  --arg @NAME passes its address, and WHERE may name it. Images: layout planar|interleaved, channels rgb|bgr|grey.',
  '  --include and --dialect read the program as `tensor-lens check` does with them.',
  '  Exit status 1 on a runtime or compile error (printed as file:line:col: error: ...), 2 on bad usage.',
].join('\n');

/** `--arg`: a C int or unsigned int. */
const ARG_MIN = -(2 ** 31);
const ARG_MAX = 2 ** 32 - 1;

/** The run configuration the options say (files relative to the current folder). */
export function runConfigOf(args: Parsed): RunConfig {
  if (args.positionals.length !== 1) throw new UsageError('run needs exactly one program');
  const one = (name: string) => args.options.get(name)?.[0];
  const dialect = one('dialect');
  if (dialect !== undefined && !(DIALECTS as readonly string[]).includes(dialect))
    throw new UsageError(`--dialect must be auto, ztachip or guide (got ${dialect})`);
  const memBytes = one('mem-bytes') !== undefined ? parseInteger(one('mem-bytes')!, '--mem-bytes', MIN_MEM_BYTES, MAX_MEM_BYTES) : undefined;
  try {
    return {
      program: args.positionals[0],
      entry: one('entry'),
      args: (args.options.get('arg') ?? []).map((a) => (a.startsWith('@') ? bufferArg(a) : parseInteger(a, '--arg', ARG_MIN, ARG_MAX))),
      buffers: buffersOf(args.options.get('buffer') ?? []),
      load: (args.options.get('load') ?? []).map(toLoadConfig),
      dump: (args.options.get('dump') ?? []).map(toDumpConfig),
      includePaths: args.options.get('include') ?? [],
      dialect: dialect as Dialect | undefined,
      pcore: one('pcore'),
      memBytes,
      stepBudget: one('steps') !== undefined ? parseInteger(one('steps')!, '--steps', 1, Number.MAX_SAFE_INTEGER) : undefined,
    };
  } catch (e) {
    throw e instanceof SpecError ? new UsageError(e.message) : e;
  }
}

/** `--arg @name` / `@name+bytes`: checked here, resolved once the buffers are placed. */
function bufferArg(a: string): string {
  if (!new RegExp(BUFFER_ARG).test(a)) throw new UsageError(`--arg ${a}: expected an integer, @NAME or @NAME+BYTES`);
  return a;
}

/** `--buffer NAME=FILE|BYTES` with optional `,align=N`, `,layout=planar|interleaved`, `,channels=rgb|bgr|grey`, `,bytes=N` (after a file). */
export function buffersOf(texts: string[]): Record<string, BufferConfig> {
  const out: Record<string, BufferConfig> = {};
  for (const text of texts) {
    const what = `--buffer ${text}`;
    const eq = text.indexOf('=');
    if (eq <= 0 || eq === text.length - 1) throw new UsageError(`${what}: expected NAME=FILE or NAME=BYTES`);
    const name = text.slice(0, eq);
    if (!new RegExp(BUFFER_NAME).test(name)) throw new UsageError(`${what}: NAME must be letters, digits and _, not starting with a digit`);
    if (Object.hasOwn(out, name)) throw new UsageError(`${what}: buffer ${name} is given twice`);
    let value = text.slice(eq + 1);
    const b: BufferConfig = {};
    // options from the end, so that a file name may hold commas
    for (let m; (m = /,(align|layout|channels|bytes)=([^,]*)$/.exec(value)); value = value.slice(0, m.index)) {
      const [, key, v] = m;
      if (key in b) throw new UsageError(`${what}: ${key} is given twice`);
      if (key === 'align') b.align = parseInteger(v, `${what}: align`, 1, MAX_BUFFER_ALIGN);
      else if (key === 'bytes') b.bytes = parseInteger(v, `${what}: bytes`, 1, MAX_MEM_BYTES);
      else if (key === 'layout') {
        if (!(BUFFER_LAYOUTS as readonly string[]).includes(v)) throw new UsageError(`${what}: layout must be ${BUFFER_LAYOUTS.join(' or ')} (got ${v})`);
        b.layout = v as BufferConfig['layout'];
      } else {
        if (!(BUFFER_CHANNELS as readonly string[]).includes(v)) throw new UsageError(`${what}: channels must be ${BUFFER_CHANNELS.join(', ')} (got ${v})`);
        b.channels = v as BufferConfig['channels'];
      }
    }
    if (/^(0x[0-9a-f]+|\d+)$/i.test(value)) {
      if (b.bytes !== undefined) throw new UsageError(`${what}: give the size once`);
      b.bytes = parseInteger(value, `${what}: BYTES`, 1, MAX_MEM_BYTES);
    } else if (value) b.file = value;
    else throw new UsageError(`${what}: expected NAME=FILE or NAME=BYTES`);
    out[name] = b;
  }
  return out;
}

export async function runRun(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  try {
    return await run(argv, out, err);
  } catch (e) {
    if (e instanceof UsageError) e.usage ??= RUN_USAGE;
    throw e;
  }
}

async function run(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const args = parseArgs(argv, {
    flags: ['json', 'trace', 'help'],
    options: ['entry', 'dialect', 'pcore', 'mem-bytes', 'steps'],
    repeatable: ['arg', 'buffer', 'load', 'dump', 'include'],
  });
  if (args.flags.has('help')) {
    out(RUN_USAGE);
    return 0;
  }
  const config = runConfigOf(args);
  const cwd = process.cwd();
  // Every file the run reads (program, headers, .p, loads), by real path: no dump may be written over one of them.
  const inputs = new RunInputs();
  const node = nodeRunHost();
  // Loads are read here, once, through the one file reader: a file that cannot be read (a device, too large) or a .npy that cannot
  // be loaded is a usage error naming --load and the file, before anything runs.
  const loaded = new Map<string, Uint8Array>();
  for (const l of config.load ?? []) {
    const path = resolve(cwd, l.file);
    let bytes: Uint8Array;
    try {
      bytes = node.readBytes(path);
      if (l.file.toLowerCase().endsWith('.npy')) npyLoadBytes(bytes, l.file);
    } catch (e) {
      if (e instanceof FileError || e instanceof NpyError) throw new UsageError(`--load ${loadText(l)}: ${e.message}`);
      throw e;
    }
    loaded.set(path, bytes);
  }
  const host: RunHost = inputs.track({ ...node, readBytes: (p) => loaded.get(p) ?? node.readBytes(p) });
  let prepared: PreparedRun;
  try {
    prepared = prepareRun({ ...config, cwd }, host);
  } catch (e) {
    throw e instanceof SpecError ? new UsageError(e.message) : e;
  }
  /** Refuses a dump whose file is one of the run's inputs (compared by real path). */
  const checkDumps = () => {
    for (const d of config.dump ?? []) {
      const why = d.file ? inputs.refusal(prepared.dumpPath(d.file), d.file) : undefined;
      if (why) throw new UsageError(`--dump ${dumpText(d)}: ${why}`);
    }
  };
  checkDumps();
  const r = await runProgram({
    ...prepared.options,
    history: false,
    // the steps are kept only when they are printed (a long run then takes no memory per step)
    trace: args.flags.has('json') || args.flags.has('trace'),
  });
  const rel = (f: string) => (f.startsWith(cwd + '/') ? f.slice(cwd.length + 1) : f);
  // a load or dump that names no global, or does not fit it, is bad usage (exit 2), found only once the program is compiled
  if (r.error?.kind === 'usage' && !args.flags.has('json')) throw new UsageError(r.error.message);
  // headers read while compiling are inputs too
  checkDumps();
  let writeError: string | undefined;
  r.dumps.forEach((d, i) => {
    if (d.file && d.bytes && !writeError)
      try {
        writeFileBytes(prepared.dumpPath(d.file), d.bytes);
      } catch (e) {
        if (!(e instanceof FileError)) throw e;
        // the dumps come back in the order given
        writeError = `--dump ${config.dump?.[i] ? dumpText(config.dump[i]) : d.file}: ${e.message}`;
      }
  });
  if (writeError && !r.error) r.error = { file: '', line: 0, column: 0, message: writeError, kind: 'io', stack: [] };
  if (args.flags.has('json')) {
    out(
      JSON.stringify(
        {
          summary: r.summary,
          warnings: r.warnings.map((w) => ({ ...w, file: rel(w.file) })),
          entry: r.entry,
          buffers: r.buffers,
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
    for (const b of r.buffers) out(bufferText(b));
    for (const d of r.dumps) {
      if (d.file) out(`${d.space}:${d.where}: wrote ${d.file}`);
      else out(`${d.space}:${d.where}:${d.dtype} = ${d.values!.join(' ')}`);
    }
    for (const w of r.warnings) err(warningText(w, rel(w.file)));
    const s = r.summary;
    out(`${r.entry || '(no entry)'}: ${s.statements} tensor statements, ${s.steps} steps, ${s.bytesMoved} bytes moved, ${s.laneOps} lane-ops, ${s.timeMs} ms`);
    if (r.error?.kind === 'io') err(`tensor-lens: ${r.error.message}`);
    else if (r.error) {
      err(errorText(r.error, rel(r.error.file)));
      for (const f of r.error.stack) err(`    at ${f}`);
    }
  }
  return r.error?.kind === 'usage' ? 2 : r.error ? 1 : 0;
}
