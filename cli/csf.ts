/** `tensor-lens csf`: inspect, validate, convert and contract `.csfbin` sparse tensor files. */
import { existsSync } from 'node:fs';
import {
  AcceleratorMemory,
  CsfError,
  CsfValidator,
  contractInMemory,
  csfToDense,
  denseToCsf,
  encodeCsf,
  extractCsf,
  formatF32,
  formatShape,
  loadCsf,
  openCsf,
  parseCsf,
  readNpy,
  writeNpy,
  type CsfHeader,
  type CsfIssue,
  type LoadedTensor,
} from '../core/csf/index';
import { FileError, pathKind, readFileBytes, readFileChunks, realPath, writeFileBytes } from '../node/files';
import { parseArgs, withUsage, parseInteger, UsageError } from './args';

export const CSF_USAGE = `usage: tensor-lens csf <command> ...
  csf show <file.csfbin> [--json] [--fibers N]   header, sections, validity and the first N fibers (default 16)
  csf validate <file.csfbin> [--json] [--all] [--allow-trailing] [--drop-empty-sentinel] [--max-order N]
                                                  strict check of every rule (first error only unless --all)
  csf from-npy <in.npy> <out.csfbin> [--keep-zeros]   float32 '<f4' C-order array → .csfbin (zeros dropped)
  csf to-npy <in.csfbin> <out.npy>                .csfbin → dense float32 .npy
  csf contract <lhs.csfbin> <rhs.csfbin> <out.csfbin> [--json] [--exact] [--meta-capacity N] [--main-capacity N]
                                                  C = tensordot(lhs, rhs, axes=(-1, -1)) as the CROSS-mini accelerator
                                                  computes it (dense result; --exact: no empty-fiber quirk)
  Errors are printed as \`file: offset N: error: message\`.
  Exit status: 0 on success, 1 when an input is invalid (or an output cannot be written), 2 on bad usage.`;

const CHUNK = 1 << 20;
/** `csf validate` streams a file in constant memory: it takes files up to 64 GiB (the other commands read at most 256 MiB). */
const MAX_VALIDATE_BYTES = 64 * 1024 ** 3;

/** Prints an issue as `file: offset N: severity: message [code]`. */
function formatIssue(file: string, x: CsfIssue): string {
  return `${file}: ${x.offset !== undefined ? `offset ${x.offset}: ` : ''}${x.severity}: ${x.message} [${x.code}]`;
}

function jsonIssue(x: CsfIssue) {
  return { code: x.code, rule: x.rule, severity: x.severity, offset: x.offset, length: x.length, message: x.message };
}

function density(h: CsfHeader): string {
  const pct = h.density * 100;
  return `${pct === 0 || pct >= 1 ? Number(pct.toPrecision(3)) : pct.toPrecision(2)}%`;
}

function describe(h: CsfHeader): string {
  return `order ${h.order}, shape ${formatShape(h.shape)}, nnz ${h.nnz}, ${h.fibers} fiber${h.fibers === 1 ? '' : 's'}, density ${density(h)}`;
}

function needFile(path: string): void {
  const kind = pathKind(path);
  if (kind === undefined) throw new UsageError(`no such file: ${path}`);
  if (kind !== 'a regular file') throw new UsageError(`not a regular file: ${path} is ${kind}`);
}

/** An input's bytes through the one file reader (regular files, at most 256 MiB); a file it refuses is bad usage. */
function readInput(path: string): Uint8Array {
  needFile(path);
  try {
    return readFileBytes(path);
  } catch (e) {
    throw e instanceof FileError ? new UsageError(e.message) : e;
  }
}

/** Refuses an output that is one of the command's inputs (by real path): it would be overwritten before (or while) it is read. */
function notAnInput(dst: string, inputs: string[]): void {
  if (!existsSync(dst)) return;
  const real = realPath(dst);
  const same = inputs.find((i) => realPath(i) === real);
  if (same !== undefined) throw new UsageError(`the output ${dst} is the input ${same}; write to another file`);
}

function positiveInt(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (v === 'Infinity' || v === 'inf') return Infinity;
  return parseInteger(v, `--${name}`, 0, Number.MAX_SAFE_INTEGER);
}

function write(path: string, bytes: Uint8Array, out: (s: string) => void): boolean {
  try {
    writeFileBytes(path, bytes);
    return true;
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    out(`${path}: error: ${e.message}`);
    return false;
  }
}

/** Entry of `tensor-lens csf …`; returns the exit status. Throws `UsageError` on bad usage. */
export function runCsf(argv: string[], out: (s: string) => void): number {
  return withUsage(CSF_USAGE, () => csf(argv, out));
}

function csf(argv: string[], out: (s: string) => void): number {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'show':
      return show(rest, out);
    case 'validate':
      return validate(rest, out);
    case 'from-npy':
      return fromNpy(rest, out);
    case 'to-npy':
      return toNpy(rest, out);
    case 'contract':
      return contract(rest, out);
    case 'help':
    case '--help':
    case '-h':
      out(CSF_USAGE);
      return 0;
    default:
      throw new UsageError(cmd ? `unknown csf command: ${cmd}` : 'csf needs a command: show, validate, from-npy, to-npy or contract');
  }
}

function validate(argv: string[], out: (s: string) => void): number {
  const args = parseArgs(argv, { flags: ['json', 'all', 'allow-trailing', 'drop-empty-sentinel'], options: ['max-order'] });
  if (args.positionals.length !== 1)
    throw new UsageError('usage: csf validate <file.csfbin> [--json] [--all] [--allow-trailing] [--drop-empty-sentinel] [--max-order N]');
  const file = args.positionals[0];
  needFile(file);
  const v = new CsfValidator({
    maxOrder: positiveInt(args.options.get('max-order')?.[0], 'max-order'),
    allowTrailing: args.flags.has('allow-trailing'),
    dropEmptySentinel: args.flags.has('drop-empty-sentinel'),
    maxIssues: args.flags.has('all') ? 100 : 1,
  });
  // Streamed in chunks: large files are checked in constant memory (plus the fiber pointers); regular files only.
  try {
    readFileChunks(file, (chunk) => v.push(chunk), MAX_VALIDATE_BYTES, CHUNK);
  } catch (e) {
    throw e instanceof FileError ? new UsageError(e.message) : e;
  }
  const r = v.finish();
  if (args.flags.has('json')) out(JSON.stringify({ file, valid: r.ok, bytes: r.bytes, header: r.header, issues: r.issues.map(jsonIssue) }, null, 2));
  else {
    for (const x of r.issues) out(formatIssue(file, x));
    if (r.ok) out(`${file}: ok: ${describe(r.header!)} (${r.bytes} bytes)`);
  }
  return r.ok ? 0 : 1;
}

function show(argv: string[], out: (s: string) => void): number {
  const args = parseArgs(argv, { flags: ['json'], options: ['fibers'] });
  if (args.positionals.length !== 1) throw new UsageError('usage: csf show <file.csfbin> [--json] [--fibers N]');
  const path = args.positionals[0];
  const maxFibers = positiveInt(args.options.get('fibers')?.[0], 'fibers') ?? 16;
  const bytes = readInput(path);
  const json = args.flags.has('json');
  const opened = openCsf(bytes);
  if (!opened.ok) {
    if (json) out(JSON.stringify({ file: path, bytes: bytes.length, valid: false, issues: opened.issues.map(jsonIssue) }, null, 2));
    else for (const x of opened.issues) out(formatIssue(path, x));
    return 1;
  }
  const f = opened.file;
  const full = f.validate({ maxIssues: 20 });
  const MAX_ENTRIES = 16;
  const fibers: { fiber: number; coord: number[]; start: number; end: number; entries: [number, string][] }[] = [];
  for (let k = 0; k < Math.min(f.fibers, maxFibers); k++) {
    const fb = f.fiber(k);
    const entries: [number, string][] = [];
    for (let e = 0; e < Math.min(fb.indices.length, MAX_ENTRIES); e++) entries.push([fb.indices[e], formatF32(fb.values[e])]);
    fibers.push({ fiber: k, coord: fb.coord, start: fb.start, end: fb.end, entries });
  }
  const sections = {
    header: [0, f.entriesOffset - 1],
    entries: [f.entriesOffset, f.pointersOffset - 5],
    pointerCount: [f.pointersOffset - 4, f.pointersOffset - 1],
    pointers: [f.pointersOffset, f.byteLength - 1],
  };
  if (json) {
    out(
      JSON.stringify(
        {
          file: path,
          bytes: bytes.length,
          valid: full.ok,
          header: { order: f.order, shape: f.shape, nnz: f.nnz, fibers: f.fibers, density: f.density },
          sections,
          issues: full.issues.map(jsonIssue),
          fibersShown: fibers.map((x) => ({ fiber: x.fiber, coord: x.coord, start: x.start, end: x.end, entries: x.entries.map(([i, v]) => [i, Number(v)]) })),
        },
        null,
        2,
      ),
    );
    return full.ok ? 0 : 1;
  }
  out(`${path}: ${bytes.length} bytes, ${full.ok ? 'valid' : 'INVALID'}`);
  out(`  ${describe(f)}`);
  const range = ([a, b]: number[]) => (b < a ? 'none' : a === b ? `${a}` : `${a}..${b}`);
  out(
    `  bytes: header ${range(sections.header)}, entries ${range(sections.entries)}, pointer count ${range(sections.pointerCount)}, ` +
      `pointers ${range(sections.pointers)}`,
  );
  for (const x of fibers) {
    const n = x.end - x.start;
    const list = x.entries.map(([i, v]) => `${i}: ${v}`).join(', ') + (n > x.entries.length ? `, … (${n - x.entries.length} more)` : '');
    out(
      `  fiber ${x.fiber} x[${[...x.coord, ':'].join(', ')}] ` +
        ` ${n === 0 ? 'empty' : `${n} entr${n === 1 ? 'y' : 'ies'} (${x.start}..${x.end - 1})${list ? ': ' + list : ''}`}`,
    );
  }
  if (f.fibers > fibers.length) out(`  … ${f.fibers - fibers.length} more fibers (--fibers N shows more)`);
  for (const x of full.issues) out(formatIssue(path, x));
  return full.ok ? 0 : 1;
}

function fromNpy(argv: string[], out: (s: string) => void): number {
  const args = parseArgs(argv, { flags: ['keep-zeros'], options: [] });
  if (args.positionals.length !== 2) throw new UsageError('usage: csf from-npy <in.npy> <out.csfbin> [--keep-zeros]');
  const [src, dst] = args.positionals;
  const input = readInput(src);
  notAnInput(dst, [src]);
  const r = readNpy(input);
  if (!r.ok) {
    for (const x of r.issues) out(formatIssue(src, x));
    return 1;
  }
  let bytes: Uint8Array;
  let header: CsfHeader;
  try {
    const t = denseToCsf(r.data, r.shape, { keepZeros: args.flags.has('keep-zeros') });
    bytes = encodeCsf(t);
    header = { order: t.shape.length, shape: t.shape, nnz: t.indices.length, fibers: t.ptr.length - 1, density: t.indices.length / Math.max(1, r.data.length) };
    if (r.data.length === 0) header.density = 0;
  } catch (e) {
    if (e instanceof CsfError) {
      out(formatIssue(src, e.issue));
      return 1;
    }
    throw e;
  }
  if (!write(dst, bytes, out)) return 1;
  out(`${dst}: wrote ${bytes.length} bytes: ${describe(header)}`);
  return 0;
}

function toNpy(argv: string[], out: (s: string) => void): number {
  const args = parseArgs(argv, { flags: [], options: [] });
  if (args.positionals.length !== 2) throw new UsageError('usage: csf to-npy <in.csfbin> <out.npy>');
  const [src, dst] = args.positionals;
  const input = readInput(src);
  notAnInput(dst, [src]);
  const r = parseCsf(input);
  if (!r.ok) {
    for (const x of r.issues) out(formatIssue(src, x));
    return 1;
  }
  let bytes: Uint8Array;
  try {
    bytes = writeNpy(r.tensor.shape, csfToDense(r.tensor));
  } catch (e) {
    if (e instanceof CsfError) {
      out(formatIssue(src, e.issue));
      return 1;
    }
    throw e;
  }
  if (!write(dst, bytes, out)) return 1;
  out(`${dst}: wrote ${bytes.length} bytes: float32 array of shape ${formatShape(r.tensor.shape)}`);
  return 0;
}

function contract(argv: string[], out: (s: string) => void): number {
  const args = parseArgs(argv, { flags: ['json', 'exact'], options: ['meta-capacity', 'main-capacity'] });
  if (args.positionals.length !== 3)
    throw new UsageError('usage: csf contract <lhs.csfbin> <rhs.csfbin> <out.csfbin> [--json] [--exact] [--meta-capacity N] [--main-capacity N]');
  const [lhs, rhs, dst] = args.positionals;
  needFile(lhs);
  needFile(rhs);
  notAnInput(dst, [lhs, rhs]);
  const mem = new AcceleratorMemory({
    metaCapacity: positiveInt(args.options.get('meta-capacity')?.[0], 'meta-capacity'),
    mainCapacity: positiveInt(args.options.get('main-capacity')?.[0], 'main-capacity'),
  });
  const json = args.flags.has('json');
  const loaded: LoadedTensor[] = [];
  for (const [path, name] of [
    [lhs, 'lhs'],
    [rhs, 'rhs'],
  ]) {
    const r = loadCsf(mem, readInput(path), { name });
    if (!r.ok) {
      for (const x of r.issues) out(formatIssue(path, x));
      return 1;
    }
    loaded.push(r.tensor);
  }
  const c = contractInMemory(mem, loaded[0].t, loaded[1].t, { emptyFiberQuirk: !args.flags.has('exact'), name: 'result' });
  if (!c.ok) {
    for (const x of c.issues) out(formatIssue(`${lhs} × ${rhs}`, x));
    return 1;
  }
  const x = extractCsf(mem, c.tensor.t);
  if (!x.ok) {
    for (const i of x.issues) out(formatIssue(dst, i));
    return 1;
  }
  if (!write(dst, x.bytes, out)) return 1;
  const place = (t: LoadedTensor) => ({
    t: t.t,
    order: t.order,
    shape: t.shape,
    nnz: t.nnz,
    fibers: t.fibers,
    meta: [t.t, t.metaEnd - 1],
    main: [t.mainBase, t.mainEnd - 1],
  });
  if (json) {
    out(
      JSON.stringify(
        {
          lhs: { file: lhs, ...place(loaded[0]) },
          rhs: { file: rhs, ...place(loaded[1]) },
          result: { file: dst, bytes: x.bytes.length, ...place(c.tensor) },
          multiplyAdds: c.multiplyAdds,
          warnings: c.warnings.map(jsonIssue),
        },
        null,
        2,
      ),
    );
    return 0;
  }
  for (const w of c.warnings) out(formatIssue(`${lhs} × ${rhs}`, w));
  const words = (t: LoadedTensor) =>
    `metadata ${t.t}..${t.metaEnd - 1} (t = ${t.t}), main ${t.mainEnd > t.mainBase ? `${t.mainBase}..${t.mainEnd - 1}` : 'none'}`;
  out(`lhs ${lhs}: order ${loaded[0].order}, shape ${formatShape(loaded[0].shape)}, nnz ${loaded[0].nnz}: ${words(loaded[0])}`);
  out(`rhs ${rhs}: order ${loaded[1].order}, shape ${formatShape(loaded[1].shape)}, nnz ${loaded[1].nnz}: ${words(loaded[1])}`);
  out(
    `result: order ${c.tensor.order}, shape ${formatShape(c.tensor.shape)}, dense (${c.tensor.nnz} entries): ${words(c.tensor)}; ` +
      `${c.multiplyAdds} multiply-add${c.multiplyAdds === 1 ? '' : 's'}`,
  );
  out(`${dst}: wrote ${x.bytes.length} bytes`);
  return 0;
}
