/** ztachip base-library calls that tensor programs make, as the simulator implements them. */
import type { HostScope, HostValue } from './types';
import { SimError } from './types';
import { encodeExeWord } from './engine/execute';

export interface RuntimeState {
  /** Indications posted by CALLBACK, read by ztaReadResponse. */
  responses: number[];
  jobsDone: number[];
  alloc(size: number, align: number): number;
  /** Reports what is not simulated exactly (run summary, CLI, Problems panel). */
  warn(message: string, at: import('./types').SourceLoc | undefined): void;
}

/** Returns undefined for a name the runtime does not know. */
export function callRuntime(name: string, args: HostValue[], scope: HostScope, st: RuntimeState): HostValue | undefined {
  switch (name) {
    case 'ztaBuildKernelFunc':
    case 'ztamBuildKernelFunc':
      return encodeExeWord((args[0] ?? 0) >> 4, args[1] ?? 8, args[2] ?? 16);
    case 'ztaJobDone':
      st.jobsDone.push(args[0] ?? 0);
      return 0;
    case 'ztaReadResponse':
    case 'ztamReadResponse':
      return st.responses.length ? st.responses.shift()! : 0;
    case 'ztaInitPcore':
    case 'ztaInitStream':
    case 'FLUSH_DATA_CACHE':
    case 'ztaInit':
      return 0;
    case 'ztaAbort':
    case 'ztamAbort':
      throw new SimError(`ztaAbort(${args[0] ?? ''}) called by process ${scope.process}`, undefined, scope.stack(), 'fault');
    case 'malloc':
      return st.alloc(args[0] ?? 0, 16);
    case 'free':
      return 0;
    default:
      return undefined;
  }
}
