/**
 * The editor's check of `tensorlens.run.json`: every configuration against the schema (runConfig.ts), then
 * what the schema cannot say — a buffer without a size or contents, a `@name` or dump naming no buffer,
 * a dump given both ways or neither, and the arguments against the entry's C parameters — each at the
 * JSON value at fault.
 */
import { noBuffer } from './buffers';
import { paramName, type ProgramEntries } from './entrySignature';
import { BUFFER_ARG, type FileRunConfig } from './runConfig';
import { parseRunConfigFile, problemAt, validateConfiguration, type ConfigProblem, type RunConfigFile } from './runConfigFile';

/** `program`: the entries of a configuration's program (its path as written, relative to the file's folder); undefined when it cannot be read. */
export function checkRunConfigText(text: string, program: (rel: string) => ProgramEntries | undefined): ConfigProblem[] {
  const file = parseRunConfigFile(text);
  if (file.problems.length) return file.problems;
  const out: ConfigProblem[] = [];
  file.configurations.forEach((_, i) => {
    const problems = validateConfiguration(file, i);
    out.push(...(problems.length ? problems : checkConfiguration(file, i, file.configurations[i] as FileRunConfig, program)));
  });
  return out;
}

function checkConfiguration(file: RunConfigFile, i: number, c: FileRunConfig, program: (rel: string) => ProgramEntries | undefined): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  const at = (path: string, message: string, key = false) => out.push(problemAt(file, `configurations[${i}]${path}`, message, key));
  const buffers = c.buffers ?? {};
  const names = Object.keys(buffers);
  for (const [name, b] of Object.entries(buffers)) {
    if (b.file === undefined && b.bytes === undefined) at(`.buffers.${name}`, `buffer ${name}: give its size ("bytes") or its contents ("file")`);
    if (b.align !== undefined && (b.align & (b.align - 1)) !== 0) at(`.buffers.${name}.align`, `must be a power of two (got ${b.align})`);
    if ((b.layout || b.channels) && !/\.(png|bmp)$/i.test(b.file ?? ''))
      at(`.buffers.${name}.${b.layout ? 'layout' : 'channels'}`, 'layout and channels describe an image file (.png, .bmp)');
  }
  (c.args ?? []).forEach((a, j) => {
    if (typeof a !== 'string' || !new RegExp(BUFFER_ARG).test(a)) return;
    const name = a.slice(1).split('+')[0];
    if (!names.includes(name)) at(`.args[${j}]`, noBuffer(name, names));
  });
  (c.dump ?? []).forEach((d, j) => {
    if (d.buffer !== undefined) {
      if (!names.includes(d.buffer)) at(`.dump[${j}].buffer`, noBuffer(d.buffer, names));
      if (d.space !== undefined || d.where !== undefined) at(`.dump[${j}]`, 'give "buffer" or "space" and "where", not both (a buffer is in MEM)');
    } else if (d.space === undefined || d.where === undefined || d.count === undefined) at(`.dump[${j}]`, 'give "buffer", or "space", "where" and "count"');
    const product = d.shape?.reduce((x, y) => x * y, 1);
    if (product !== undefined && d.count !== undefined && product !== d.count)
      at(`.dump[${j}].shape`, `shape [${d.shape!.join(', ')}] holds ${product} elements, not ${d.count} (count)`);
  });
  const p = program(c.program);
  if (!p) {
    at('.program', `cannot read ${c.program}`);
    return out;
  }
  const entry = c.entry ?? p.defaultEntry;
  const f = entry === undefined ? undefined : p.functions.find((x) => x.name === entry);
  const fnList = p.functions.map((x) => x.name).join(', ');
  if (c.entry !== undefined && !f) at('.entry', `no function named ${c.entry} in ${c.program} (functions: ${fnList})`);
  else if (!entry) at('.program', `${c.program} has no default entry function: give one with "entry" (functions: ${fnList})`);
  else if (f) {
    const given = c.args?.length ?? 0;
    const want = f.params.length;
    if (given !== want) {
      const list = f.params.map(paramName).join(', ');
      at(c.args ? '.args' : c.entry !== undefined ? '.entry' : '.program', `${f.name}() takes ${want} argument(s)${want ? ` (${list})` : ''}, ${given} given`);
    }
  }
  return out;
}

/** A parameter name shown before an argument of `args` (an inlay hint), at offset `at` of the file. */
export interface ArgHint {
  at: number;
  /** `name:` */
  label: string;
  /** The parameter's place: `parameter 2 of kernel_k (a pointer: a buffer's address)`. */
  tooltip: string;
}

/** The C parameter each argument of each configuration goes to, named before the argument. */
export function runConfigArgHints(text: string, program: (rel: string) => ProgramEntries | undefined): ArgHint[] {
  const file = parseRunConfigFile(text);
  if (file.problems.length) return [];
  const out: ArgHint[] = [];
  file.configurations.forEach((raw, i) => {
    const c = raw as Partial<FileRunConfig> | null;
    if (!c || typeof c.program !== 'string' || !Array.isArray(c.args)) return;
    const p = program(c.program);
    const entry = typeof c.entry === 'string' ? c.entry : p?.defaultEntry;
    const f = p?.functions.find((x) => x.name === entry);
    if (!f) return;
    c.args.forEach((_, j) => {
      const param = f.params[j];
      const at = file.at.get(`configurations[${i}].args[${j}]`);
      if (!param || at === undefined) return;
      out.push({
        at,
        label: `${paramName(param, j)}:`,
        tooltip: `parameter ${j + 1} of ${f.name}${param.pointer ? ' (a pointer: a buffer\'s address, "@name")' : ''}`,
      });
    });
  });
  return out;
}
