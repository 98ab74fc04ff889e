/** Signature help for EXE_LOCKSTEP, FOR and the other parenthesised forms of `>` statements. */
import type { SignatureInfo } from '../../common/featureResults';
import type { TprogAnalysis } from '../analyze';

const SIGS: Record<string, { label: string; params: string[]; doc: string }> = {
  EXE_LOCKSTEP: {
    label: 'EXE_LOCKSTEP(kernel, num_pcore, num_thread)',
    params: ['kernel', 'num_pcore', 'num_thread'],
    doc: 'Run `class::kernel` on PCOREs 0..num_pcore-1 (1..8) and threads 0..num_thread-1 (1..16, default 16). One argument = a prebuilt command word.',
  },
  EXE: { label: 'EXE(kernel, num_pcore, num_thread)', params: ['kernel', 'num_pcore', 'num_thread'], doc: 'Run a kernel (PCOREs one after another).' },
  FOR: { label: 'FOR(name=begin:end)', params: ['name=begin:end'], doc: 'Make the index written `[name]` an outer loop over begin..end.' },
  DTYPE: { label: 'DTYPE(type)', params: ['type'], doc: 'INT16, INT8, UINT8 or a C variable holding one.' },
  PAD: { label: 'PAD(value)', params: ['value'], doc: 'Value read for out-of-bound source elements.' },
  REMAP: { label: 'REMAP(stream)', params: ['stream'], doc: 'Stream-processor table 0..3 (negative: off).' },
  CALLBACK: { label: 'CALLBACK(function, parm)', params: ['function', 'parm'], doc: 'Indication to the host after all queued work.' },
  PRINT: { label: 'PRINT(a, b)', params: ['a', 'b'], doc: 'Debug print of two integers.' },
  MEM: {
    label: 'MEM(address, dim0, dim1, ...)',
    params: ['address', 'dim0', 'dim1', '...'],
    doc: 'Byte address, then dimensions in elements (`d+` disables the upper bound check; `N(d0,d1)` adds a buffer limit N in bytes).',
  },
  DDR: { label: 'DDR(pointer, dim0, dim1, ...)', params: ['pointer', 'dim0', 'dim1', '...'], doc: 'Guide dialect name of MEM.' },
  SCRATCH: {
    label: 'SCRATCH(offset, dim0, dim1, ...)',
    params: ['offset', 'dim0', 'dim1', '...'],
    doc: 'Byte offset in the 32 KB scratch-pad, then dimensions.',
  },
  PCORE: { label: 'PCORE(rows, cols)', params: ['rows', 'cols'], doc: 'PCORE array shape: (n) or (rows, cols), powers of two, at most 8 PCOREs.' },
  THREAD: { label: 'THREAD(a, b)', params: ['a', 'b'], doc: 'Thread block shape (1 or 2 dims, 16 threads).' },
  INT16: { label: 'INT16(value)', params: ['value'], doc: 'Constant source of type INT16.' },
  INT8: { label: 'INT8(value)', params: ['value'], doc: 'Constant source of type INT8.' },
};

export function signatureHelp(a: TprogAnalysis, offset: number): SignatureInfo | undefined {
  const pos = a.lines.position(offset);
  if (!a.scan.tensorLines.has(pos.line)) return undefined;
  const before = a.lines.lineText(pos.line).slice(0, pos.character);
  // find the innermost unclosed '(' and the keyword before it
  let depth = 0;
  let commas = 0;
  for (let i = before.length - 1; i >= 0; i--) {
    const c = before[i];
    if (c === ')') depth++;
    else if (c === '(') {
      if (depth === 0) {
        const m = /([A-Za-z_]\w*)\s*$/.exec(before.slice(0, i));
        const kw = m?.[1].toUpperCase();
        const sig = kw ? SIGS[kw] : undefined;
        if (!sig) return undefined;
        return { label: sig.label, documentation: sig.doc, parameters: sig.params, active: Math.min(commas, sig.params.length - 1) };
      }
      depth--;
    } else if (c === ',' && depth === 0) commas++;
  }
  return undefined;
}
