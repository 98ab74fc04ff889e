/** `tensor-lens check`: diagnostics of tensor programs and PCORE programs, as text or JSON. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Diagnostic } from '../core/common/diagnostic';
import { detectLanguage } from '../core/project/detect';
import { isPcorePath, isTprogPath, Project } from '../core/project/project';
import { loadPcoreView, type PcoreView } from '../core/project/pcoreAdapter';
import type { Dialect } from '../core/tprog/analyze';
import { parseArgs, withUsage, UsageError } from './args';
import { FileError, pathKind, readFileText, realPath } from '../node/files';
import { nodeFs, walk } from './nodeFs';

export const CHECK_USAGE = [
  'usage: tensor-lens check <file|dir>... [--json] [--ranges] [--dialect auto|ztachip|guide] [--include DIR]... [--pcore FILE] [--summary] [--hints] ' +
    '[--exit-zero]',
  '  Checks tensor programs (.m, .tprog) and PCORE programs (.p, .pcore). A .m finds its .p by basename.',
  '  Directories are searched for such files (a .m without tensor statements or a .p beside it is skipped).',
  '  Hints (dialect suggestions) are shown with --hints.',
  "  --ranges prints each place as file:line:col-endLine:endCol (the end exclusive), as VS Code's $tensor-lens problem matcher reads it.",
  '  Exit status: 1 when an error is reported, 0 otherwise (always 0 with --exit-zero), 2 on bad usage.',
].join('\n');

export interface JsonDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: string;
  code: string;
  message: string;
}

export function runCheck(argv: string[], out: (s: string) => void): number {
  return withUsage(CHECK_USAGE, () => check(argv, out));
}

function check(argv: string[], out: (s: string) => void): number {
  const args = parseArgs(argv, { flags: ['json', 'ranges', 'summary', 'exit-zero', 'hints', 'help'], options: ['dialect', 'pcore'], repeatable: ['include'] });
  if (args.flags.has('help')) {
    out(CHECK_USAGE);
    return 0;
  }
  if (args.positionals.length === 0) throw new UsageError('check needs at least one file or directory');
  const dialect = (args.options.get('dialect')?.[0] ?? 'auto') as Dialect;
  if (!['auto', 'ztachip', 'guide'].includes(dialect)) throw new UsageError(`--dialect must be auto, ztachip or guide (got ${dialect})`);
  const project = new Project({ fs: nodeFs, loadPcore: loadPcoreView, dialect, includePaths: (args.options.get('include') ?? []).map((p) => resolve(p)) });
  const files: string[] = [];
  // each real file once (a folder named twice, a link to a file already listed, a link loop)
  const seen = new Set<string>();
  for (const p of args.positionals) {
    const abs = resolve(p);
    const kind = pathKind(abs);
    if (kind === undefined) throw new UsageError(`no such file or directory: ${p}`);
    if (kind === 'a directory') {
      for (const f of walk(abs, seen)) {
        if (isPcorePath(f) || isTprogPath(f)) {
          const text = nodeFs.read(f);
          if (text !== undefined && detectLanguage(f, text, (x) => existsSync(x)).language) files.push(f);
        }
      }
      continue;
    }
    if (!isPcorePath(abs) && !isTprogPath(abs))
      throw new UsageError(`${p} is not a tensor program or PCORE program (.m, .tprog, .p, .pcore)${kind === 'a regular file' ? '' : `: it is ${kind}`}`);
    const real = realPath(abs);
    if (seen.has(real)) continue;
    seen.add(real);
    files.push(abs);
  }
  const pcoreOverride = args.options.get('pcore')?.[0];
  if (pcoreOverride) {
    try {
      readFileText(resolve(pcoreOverride));
    } catch (e) {
      throw e instanceof FileError ? new UsageError(`--pcore ${pcoreOverride}: ${e.message}`) : e;
    }
  }
  const results: JsonDiagnostic[] = [];
  const cwd = process.cwd();
  for (const f of files) {
    const text = nodeFs.read(f);
    const shown = f.startsWith(cwd + '/') ? f.slice(cwd.length + 1) : f;
    let diags: Diagnostic[];
    if (text === undefined)
      diags = [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          severity: 'error',
          code: 'io',
          message: 'cannot read this file (missing, not a file, or larger than 256 MiB)',
        },
      ];
    else if (isPcorePath(f)) diags = (project.pcore(f, text) as PcoreView).program.diagnostics;
    else {
      if (pcoreOverride) project.pcoreOverride.set(f, resolve(pcoreOverride));
      diags = project.analyze(f, text)?.diagnostics ?? [];
    }
    diags.sort((x, y) => x.range.start.line - y.range.start.line || x.range.start.character - y.range.start.character);
    for (const d of diags) {
      if (d.severity === 'hint' && !args.flags.has('hints')) continue;
      results.push({
        file: shown,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        endLine: d.range.end.line + 1,
        endColumn: d.range.end.character + 1,
        severity: d.severity,
        code: d.code,
        message: d.message,
      });
    }
  }
  if (args.flags.has('json')) out(JSON.stringify(results, null, 2));
  else {
    const ranges = args.flags.has('ranges');
    for (const r of results) out(`${r.file}:${r.line}:${r.column}${ranges ? `-${r.endLine}:${r.endColumn}` : ''}: ${r.severity}: ${r.message} [${r.code}]`);
  }
  const errors = results.filter((r) => r.severity === 'error').length;
  if (args.flags.has('summary') && !args.flags.has('json')) {
    const warnings = results.filter((r) => r.severity === 'warning').length;
    out(
      `${files.length} file${files.length === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} ` +
        `warning${warnings === 1 ? '' : 's'}`,
    );
  }
  return errors > 0 && !args.flags.has('exit-zero') ? 1 : 0;
}
