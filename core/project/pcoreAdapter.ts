/** Presents an analysed PCORE program (core/pcore) as the index the tensor-program checker uses. */
import type { Diagnostic } from '../common/diagnostic';
import { analyzePcore, formatPcoreVariable } from '../pcore';
import type { PcoreKernel, PcoreParam, PcoreProgram, PcoreVariable } from '../pcore/model';
import type { KernelInfo, MemberInfo, MemberLookup, PcoreIndexView } from '../tprog/pcoreView';

export type IncludeReader = (path: string, fromFile: string, system: boolean) => string | undefined;

export interface PcoreView extends PcoreIndexView {
  program: PcoreProgram;
}

function memberInfo(v: PcoreVariable | PcoreParam): MemberInfo {
  const p = 'kernel' in v ? (v as PcoreParam) : undefined;
  const fullName = v.fullName === '' || /^root/i.test(v.name) ? 'root.constant' : p ? `${p.kernel}.${p.name}` : v.fullName;
  return {
    fullName,
    storage: v.storage,
    type: v.type,
    shape: v.shape,
    len: v.len,
    offset: v.offset,
    global: p?.global,
    globalSlot: p?.globalSlot,
    kernel: p?.kernel,
    range: v.nameRange,
    summary: formatPcoreVariable(v),
  };
}

function kernelInfo(k: PcoreKernel): KernelInfo {
  return { fullName: k.fullName, params: k.params.map(memberInfo), range: k.range, nameRange: k.nameRange };
}

export function loadPcoreView(text: string, file: string, readInclude?: IncludeReader): PcoreView {
  const program = analyzePcore(text, file, { resolveInclude: readInclude });
  // a program's answers never change: the checker asks once per distinct name (results are read-only)
  const looked = new Map<string, MemberLookup>();
  const lookup = (t: string): MemberLookup => {
    const r = program.lookupMember(t);
    if (r.ok) {
      const info = memberInfo(r.param ?? r.variable);
      if (r.via === 'rootConstant') info.fullName = 'root.constant';
      return { ok: true, member: info };
    }
    const cls = t.split('::')[0];
    const reason = r.message === 'Invalid function parameter' ? 'malformed' : program.classes.has(cls) ? 'no-member' : 'no-class';
    return { ok: false, reason, message: r.detail };
  };
  return {
    program,
    file,
    lookupMember(t: string): MemberLookup {
      let r = looked.get(t);
      if (!r) looked.set(t, (r = lookup(t)));
      return r;
    },
    kernel(name: string) {
      const k = program.kernels.get(name);
      return k && k.isKernel ? kernelInfo(k) : undefined;
    },
    classNames: () => [...program.classes.keys()],
    members: (cls: string) => [...(program.classes.get(cls)?.variables.values() ?? [])].map(memberInfo),
    kernels: () => [...program.kernels.values()].filter((k) => k.isKernel).map(kernelInfo),
  };
}

export function pcoreDiagnostics(text: string, file: string, readInclude?: IncludeReader): Diagnostic[] {
  return analyzePcore(text, file, { resolveInclude: readInclude }).diagnostics;
}
