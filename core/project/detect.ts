/**
 * Deciding whether a `.m` file is a ztachip tensor program (not Objective-C or MATLAB) and whether a
 * `.p` file is a PCORE program (not Pascal or Prolog), without hijacking unrelated files.
 */
import { extname, stripExt } from './fileSystem';

export interface Detection {
  language: 'tensor-program' | 'pcore' | undefined;
  reason: string;
}

/** A line whose first non-blank character is `>` and that looks like a tensor statement. */
const TENSOR_LINE = new RegExp(
  String.raw`^[ \t]*>[ \t]*(\$\w+\s*(:=|<=)|[^\n]*<=|` +
    String.raw`(EXE_LOCKSTEP|EXE|BARRIER|CALLBACK|PRINT|LOG_ON|LOG_OFF|NOP|VAR|DTYPE|FOR|CONCURRENT|PCORE|MEM|DDR|SCRATCH|SPU|PROG)\b)`,
  'im',
);
const PCORE_SIGNS = /(_kernel_\s+void\s+\w+::\w+|^\s*(_share\s+)?v?int(16|32)\s+\w+::\w+)/m;

export function detectLanguage(path: string, text: string, exists: (p: string) => boolean): Detection {
  const ext = extname(path).toLowerCase();
  const stem = stripExt(path);
  const head = text.length > 2_000_000 ? text.slice(0, 2_000_000) : text;
  if (ext === '.m' || ext === '.tprog') {
    if (ext === '.tprog') return { language: 'tensor-program', reason: 'dedicated extension .tprog' };
    if (TENSOR_LINE.test(head)) return { language: 'tensor-program', reason: 'contains `>` tensor statements' };
    for (const e of ['.p', '.pcore'])
      if (exists(stem + e)) return { language: 'tensor-program', reason: `a PCORE program ${stem.split('/').pop()}${e} sits beside it` };
    return { language: undefined, reason: 'no tensor statements and no PCORE program beside it' };
  }
  if (ext === '.p' || ext === '.pcore') {
    if (ext === '.pcore') return { language: 'pcore', reason: 'dedicated extension .pcore' };
    if (PCORE_SIGNS.test(head)) return { language: 'pcore', reason: 'contains PCORE kernels or class variables' };
    for (const e of ['.m', '.tprog'])
      if (exists(stem + e)) return { language: 'pcore', reason: `a tensor program ${stem.split('/').pop()}${e} sits beside it` };
    return { language: undefined, reason: 'no PCORE declarations and no tensor program beside it' };
  }
  return { language: undefined, reason: 'not a .m/.tprog/.p/.pcore file' };
}
