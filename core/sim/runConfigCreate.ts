/**
 * Create Run Configuration: a configuration for an entry function, one argument per C parameter, added to
 * a `tensorlens.run.json` as text — the file keeps everything it had (its other configurations, their
 * formatting) and gains one item at the end of `configurations`.
 *
 * A pointer (or array) parameter `p` becomes the argument `"@p"` with a buffer `p: {"bytes": 0}` — the
 * editor marks each `0` until the user gives the size or a `file`; any other parameter becomes `0`. The
 * configuration's `name` lists the parameters in order, so the integer arguments can be told apart. A
 * program may have one configuration per entry: ▶ Run on a function uses the one whose `entry` it is.
 */
import { paramName, type EntrySignature } from './entrySignature';
import type { BufferConfig, FileRunConfig } from './runConfig';
import { configurationIndex, formatProblem, parseRunConfigFile } from './runConfigFile';

/** The configuration of `f` in program `program` (its path from the configuration file's folder, with `/`). */
export function newConfiguration(program: string, f: EntrySignature): FileRunConfig {
  const buffers: Record<string, BufferConfig> = {};
  const args = f.params.map((p, i) => {
    if (!p.pointer) return 0;
    const name = p.name || `arg${i + 1}`;
    buffers[name] = { bytes: 0 };
    return `@${name}`;
  });
  return {
    name: `${f.name}(${f.params.map(paramName).join(', ')})`,
    program,
    entry: f.name,
    ...(Object.keys(buffers).length ? { buffers } : {}),
    args,
  };
}

export type AddResult =
  /** The file's new text; `start`/`end`: offsets of the configuration added. */
  | { kind: 'added'; text: string; start: number; end: number }
  /** The file already has the configuration a run of this entry uses (one for the entry, or one without `entry`); offsets of it. */
  | { kind: 'exists'; start: number; end: number; index: number }
  /** The file cannot be read as a run configuration file (nothing is written). */
  | { kind: 'invalid'; problem: string };

/** Adds `config` to the text of a tensorlens.run.json (`undefined`: the file does not exist yet). */
export function addConfiguration(text: string | undefined, config: FileRunConfig, fileName = 'tensorlens.run.json'): AddResult {
  const item = (indent: string) => JSON.stringify(config, null, 2).replace(/\n/g, '\n' + indent);
  if (text === undefined || text.trim() === '') {
    const head = '{\n  "configurations": [\n    ';
    const body = item('    ');
    return { kind: 'added', text: `${head}${body}\n  ]\n}\n`, start: head.length, end: head.length + body.length };
  }
  const file = parseRunConfigFile(text);
  if (file.problems.length) return { kind: 'invalid', problem: formatProblem(fileName, file.problems[0]) };
  // the configuration a run of this entry would use, when it is this entry's (or runs the program's default entry)
  const index = configurationIndex(file.configurations, config.program, config.entry);
  const entryOf = index >= 0 ? (file.configurations[index] as { entry?: unknown }).entry : undefined;
  if (index >= 0 && (entryOf === undefined || entryOf === config.entry))
    return { kind: 'exists', index, start: file.at.get(`configurations[${index}]`)!, end: file.ends.get(`configurations[${index}]`)! };
  const n = file.configurations.length;
  const close = file.ends.get('configurations')! - 1; // the array's "]"
  if (n === 0) {
    const indent = lineIndent(text, file.keys.get('configurations')!) + '  ';
    const body = item(indent);
    const insert = `\n${indent}${body}\n${indent.slice(2)}`;
    const start = file.at.get('configurations')! + 1;
    const out = text.slice(0, start) + insert + text.slice(close);
    return { kind: 'added', text: out, start: start + 1 + indent.length, end: start + 1 + indent.length + body.length };
  }
  const lastStart = file.at.get(`configurations[${n - 1}]`)!;
  const lastEnd = file.ends.get(`configurations[${n - 1}]`)!;
  const indent = lineIndent(text, lastStart);
  const body = item(indent);
  const insert = `,\n${indent}${body}`;
  return { kind: 'added', text: text.slice(0, lastEnd) + insert + text.slice(lastEnd), start: lastEnd + 2 + indent.length, end: lastEnd + insert.length };
}

/** The blanks that start the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}
