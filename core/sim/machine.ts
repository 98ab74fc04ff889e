/** The simulated machine's memories (research §6.1): MEM, SCRATCH, PCORE pages, SPU tables, registers. */
import { LIMITS } from '../tprog/machineConstants';
import { SimError, type PcorePage } from './types';
import { DEFAULT_MEM_BYTES, MAX_MEM_BYTES, MIN_MEM_BYTES } from './spaces';

export { DEFAULT_MEM_BYTES, type SpaceName } from './spaces';

export interface MachineOptions {
  /** Bytes of MEM (DDR). Default 64 MiB. */
  memBytes?: number;
}

export class Machine {
  readonly mem: Uint8Array;
  readonly scratch = new Uint8Array(LIMITS.scratchBytes);
  /** Process pages 0 and 1 (private and shared words of all 8 PCOREs). */
  readonly pages: [PcorePage, PcorePage] = [newPage(), newPage()];
  /** SPU lookup tables: 4 streams × 128 (slope, value) pairs, 12-bit signed. */
  readonly spu = new Int16Array(LIMITS.spuTables * 256);
  /** `_global int` parameter registers (shared by both processes). */
  readonly globals: [number, number] = [0, 0];
  /** Number of PROG entries loaded (the `.p` program is what EXE runs). */
  progEntries = 0;
  /**
   * Last value stored to each memory-mapped ztachip register by host C code (`ZTAM_GREG(r2,r,vm)`,
   * index `(r2 << 5) + r`), and the number of such stores.
   */
  readonly regs = new Uint32Array(1024);
  regStores = 0;
  /** Bump pointer for host globals/statics/heap in MEM (starts after a null guard page). */
  private brk = 4096;

  constructor(opts: MachineOptions = {}) {
    const n = opts.memBytes ?? DEFAULT_MEM_BYTES;
    if (!(n >= MIN_MEM_BYTES && n <= MAX_MEM_BYTES)) throw new RangeError(`MEM size ${n} bytes is outside ${MIN_MEM_BYTES}..2^31 bytes`);
    this.mem = new Uint8Array(n);
  }

  alloc(size: number, align: number): number {
    const a = Math.max(1, align);
    const addr = Math.ceil(this.brk / a) * a;
    // a SimError without a location: the host C code that asked (malloc, a global) adds its own
    if (!(size >= 0 && addr + size <= this.mem.length))
      throw new SimError(`out of simulated MEM: ${size} bytes requested, ${Math.max(0, this.mem.length - addr)} left (raise the MEM size)`);
    this.brk = addr + Math.max(size, 1);
    return addr;
  }

  get heapEnd(): number {
    return this.brk;
  }
}

function newPage(): PcorePage {
  return { priv: new Int16Array(LIMITS.numPcore * 4096), shared: new Int16Array(LIMITS.numPcore * 4096) };
}
