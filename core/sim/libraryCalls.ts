/**
 * ztachip base-library calls that need no MEM or C access (the rest of the library is host/ztalib.ts,
 * the hart switching host/libc.ts).
 */
import type { HostScope, HostValue } from './types';
import { SimError } from './types';
import { encodeExeWord } from './engine/execute';

export interface RuntimeState {
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
    // no caches and no task set-up to model: exact no-ops (the rest of ztalib is host/ztalib.ts)
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
