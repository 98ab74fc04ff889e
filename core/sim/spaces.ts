/**
 * The simulator's memory spaces (research §6.1), in one table that every part reads: the machine, the
 * run's histories, the trace, the memory inspector (local and remote), the debugger and the language
 * server's worker. A space is named as in the trace; PCORE pages and the stream tables hold 16-bit
 * words (12-bit values), MEM and SCRATCH bytes.
 */
import type { Partition } from '../protocol/webview';
import { LIMITS } from '../tprog/machineConstants';

export type SpaceName = 'MEM' | 'SCRATCH' | 'PCORE0' | 'PCORE0S' | 'PCORE1' | 'PCORE1S' | 'SPU';

/** MEM (DDR) size: default and bounds, for the machine, the settings, the run configuration and the CLI. */
export const DEFAULT_MEM_BYTES = 64 * 1024 * 1024;
export const MIN_MEM_BYTES = 65536;
/** The engine indexes memories with 32-bit integers. */
export const MAX_MEM_BYTES = 2 ** 31;

export interface SpaceDef {
  name: SpaceName;
  label: string;
  group: string;
  /** Bytes per address unit: 1 (MEM, SCRATCH) or 2 (16-bit words). */
  unitBytes: 1 | 2;
  defaultType: 'u8' | 'w12';
  /** Size in bytes of a machine with the default MEM size. */
  defaultBytes: number;
  partitions?: Partition[];
  description?: string;
}

const PCORE_BYTES = LIMITS.numPcore * 4096 * 2;

function pcoreSpace(p: 0 | 1, shared: boolean): SpaceDef {
  const core: Partition = { name: 'core', count: LIMITS.numPcore, strideBytes: 4096 * 2 };
  return {
    name: `PCORE${p}${shared ? 'S' : ''}` as SpaceName,
    label: `PCORE process ${p} ${shared ? 'shared' : 'private'}`,
    group: `PCORE process ${p}`,
    unitBytes: 2,
    defaultType: 'w12',
    defaultBytes: PCORE_BYTES,
    partitions: shared ? [core] : [core, { name: 'thread', count: LIMITS.numThread, strideBytes: 256 * 2 }],
    description: shared ? 'shared words of the 8 PCOREs: word = pcore·4096 + word' : 'private words: word = pcore·4096 + thread·256 + word',
  };
}

/** Every space, in the order the inspector and the debugger list them. */
export const SPACES: readonly SpaceDef[] = [
  { name: 'MEM', label: 'MEM (DDR)', group: 'Memories', unitBytes: 1, defaultType: 'u8', defaultBytes: DEFAULT_MEM_BYTES },
  { name: 'SCRATCH', label: 'SCRATCH', group: 'Memories', unitBytes: 1, defaultType: 'u8', defaultBytes: LIMITS.scratchBytes },
  pcoreSpace(0, false),
  pcoreSpace(0, true),
  pcoreSpace(1, false),
  pcoreSpace(1, true),
  {
    name: 'SPU',
    label: 'SPU tables',
    group: 'Memories',
    unitBytes: 2,
    defaultType: 'w12',
    defaultBytes: LIMITS.spuTables * 256 * 2,
    partitions: [{ name: 'stream', count: LIMITS.spuTables, strideBytes: 256 * 2 }],
  },
];

export const SPACE_NAMES: readonly SpaceName[] = SPACES.map((s) => s.name);

const BY_NAME = new Map<string, SpaceDef>(SPACES.map((s) => [s.name, s]));

export function spaceDef(name: string): SpaceDef | undefined {
  return BY_NAME.get(name);
}

/** Bytes per address unit of a space (1 for an unknown name: byte images such as a `.csfbin`'s banks). */
export function unitBytesOf(name: string): number {
  return BY_NAME.get(name)?.unitBytes ?? 1;
}

/** What the spaces live in (structural: the Machine, or plain arrays in tests). */
export interface SpaceMemories {
  mem: Uint8Array;
  scratch: Uint8Array;
  pages: readonly [{ priv: Int16Array; shared: Int16Array }, { priv: Int16Array; shared: Int16Array }];
  spu: Int16Array;
}

/** The array holding space `name` of machine `m`. */
export function spaceBuffer(m: SpaceMemories, name: SpaceName): Uint8Array | Int16Array {
  switch (name) {
    case 'MEM':
      return m.mem;
    case 'SCRATCH':
      return m.scratch;
    case 'SPU':
      return m.spu;
    case 'PCORE0':
      return m.pages[0].priv;
    case 'PCORE0S':
      return m.pages[0].shared;
    case 'PCORE1':
      return m.pages[1].priv;
    case 'PCORE1S':
      return m.pages[1].shared;
  }
}
