/**
 * Loads and dumps of a run configuration and their command-line text (`WHERE=FILE`,
 * `SPACE:WHERE:COUNT:DTYPE[=FILE]`), which `--load`/`--dump` and launch configurations may use.
 */
import { parseDump, parseLoad } from './dump';
import type { DumpConfig, LoadConfig } from './runConfig';

/** A load as its command-line text `WHERE=FILE`. */
export function loadText(l: LoadConfig): string {
  return `${l.where}=${l.file}`;
}

/** A dump as its command-line text `SPACE:WHERE:COUNT:DTYPE[=FILE]` (a buffer's dump: `MEM:name:COUNT:DTYPE`, `*` for a count still to compute). */
export function dumpText(d: DumpConfig): string {
  return `${d.space ?? 'MEM'}:${d.where ?? d.buffer}:${d.count ?? '*'}:${d.dtype}${d.file ? '=' + d.file : ''}`;
}

/** A load given as an object or as its command-line text (`--load`, a launch configuration); throws SpecError. */
export function toLoadConfig(x: string | LoadConfig): LoadConfig {
  if (typeof x !== 'string') return x;
  const l = parseLoad(x);
  return { where: l.where, file: l.file };
}

/** A dump given as an object or as its command-line text (`--dump`, a launch configuration); throws SpecError. */
export function toDumpConfig(x: string | DumpConfig): DumpConfig {
  if (typeof x !== 'string') return x;
  const d = parseDump(x);
  return {
    space: d.space === 'PCORE' && d.process === 1 ? 'PCORE@1' : d.space,
    where: d.where,
    count: d.count,
    dtype: d.dtype,
    ...(d.file !== undefined ? { file: d.file } : {}),
  };
}
