/**
 * Preparing a run from its configuration, the same way for the CLI, the editor's Run (server worker)
 * and the debugger: the program is read exactly as the checker reads it (a Project with the include
 * paths, the dialect and the `.p` beside it or the one named), relative file names start from one
 * folder, buffers and loads are read (images decoded) and dumps parsed. `runProgram` then compiles,
 * places the C globals and the named buffers in MEM, applies the loads and runs.
 */
import { Project, type PcoreLoader } from '../project/project';
import { bufferSpec, dumpSpecOf } from './buffers';
import { parseDump, parseLoad, SpecError, type LoadSpec } from './dump';
import type { WasmLoader } from './host';
import type { RunConfig } from './runConfig';
import { loadText } from './runConfigText';
import type { RunOptions } from './run';

/** What a run needs from where it runs (Node in all three today). */
export interface RunHost {
  /** A file's text (an unsaved editor buffer first), undefined when it cannot be read. */
  readText(path: string): string | undefined;
  /** A file's bytes; throws when it cannot be read. */
  readBytes(path: string): Uint8Array;
  /** `rel` resolved against folder `base` (absolute paths unchanged). */
  resolve(base: string, rel: string): string;
  dirname(path: string): string;
  loadWasm: WasmLoader;
  loadPcore: PcoreLoader;
}

export interface PreparedRun {
  /** The program, absolute. */
  file: string;
  /** The folder relative load and dump files start from. */
  base: string;
  /** For `runProgram` (add budget, progress, history, trace, debug hooks as needed). */
  options: RunOptions;
  /** Where a dump's `file` is written. */
  dumpPath(file: string): string;
}

/**
 * Resolves `config` for a run; `cwd` is the folder a relative program, loads, dumps and include
 * paths start from (default: the program's folder). Throws SpecError for a load that cannot be read,
 * a malformed load, dump or buffer (a file that cannot be read or decoded), or a program or PCORE program that cannot be read.
 */
export function prepareRun(config: RunConfig & { cwd?: string }, host: RunHost): PreparedRun {
  const file = config.cwd ? host.resolve(config.cwd, config.program) : config.program;
  const base = config.cwd ?? host.dirname(file);
  const at = (p: string) => host.resolve(base, p);
  if (host.readText(file) === undefined) throw new SpecError(`cannot read ${config.program}`);
  const project = new Project({
    fs: { read: (p) => host.readText(p) },
    loadPcore: host.loadPcore,
    dialect: config.dialect,
    includePaths: (config.includePaths ?? []).map(at),
  });
  if (config.pcore) {
    const pcore = at(config.pcore);
    if (host.readText(pcore) === undefined) throw new SpecError(`cannot read PCORE program ${config.pcore}`);
    project.pcoreOverride.set(file, pcore);
  }
  const loads = (config.load ?? []).map((l): LoadSpec & { bytes: Uint8Array } => {
    const spec = parseLoad(loadText(l));
    const path = at(spec.file);
    try {
      return { ...spec, bytes: host.readBytes(path) };
    } catch (e) {
      // the host's message says why (a device, a directory, too large, missing); it names the file
      const why = e instanceof Error && e.message ? e.message : `cannot read ${path}`;
      throw new SpecError(`load ${spec.text}: ${why}`);
    }
  });
  // buffers first: a dump of a buffer takes its count from the buffer's size
  const buffers = Object.entries(config.buffers ?? {}).map(([name, b]) => bufferSpec(name, b, (f) => host.readBytes(at(f))));
  const dumps = (config.dump ?? []).map((d) => dumpSpecOf(d, buffers, parseDump));
  const options: RunOptions = {
    project,
    file,
    entry: config.entry,
    args: config.args,
    buffers,
    loads,
    dumps,
    memBytes: config.memBytes,
    stepBudget: config.stepBudget,
    loadWasm: host.loadWasm,
  };
  return { file, base, options, dumpPath: at };
}
