/**
 * ztachip base-library calls that need no MEM or C access (the rest of the library is host/ztalib.ts,
 * the hart switching host/libc.ts).
 */
import type { HostScope, HostValue } from './types';
import { SimError } from './types';
import { encodeExeWord } from './engine/execute';

/** Returns undefined for a name the runtime does not know. */
export function callRuntime(name: string, args: HostValue[], scope: HostScope): HostValue | undefined {
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
    default:
      return undefined;
  }
}
