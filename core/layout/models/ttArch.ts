/** Tenstorrent architecture constants (research layouts.md B.5). Every value can be overridden in a `target`. */

export interface TTArch {
  name: string;
  dramBanks: number;
  /** Bytes per DRAM bank. */
  dramBankSize: number;
  dramAlignment: number;
  /** `bank_to_dram_offset` per bank (Wormhole: odd banks +1 GiB inside their channel). */
  dramOffsets: number[];
  l1Alignment: number;
  /** Worker L1 bytes per core. */
  l1Size: number;
  /** Bytes at the bottom of L1 that buffers cannot use (firmware, circular buffers); 0 unless configured. */
  l1Reserved: number;
  /** Compute-with-storage grid (x columns × y rows); one L1 bank per worker core. */
  grid: { x: number; y: number };
  /** L1 banks for interleaved L1 buffers (default grid.x·grid.y). */
  l1Banks: number;
  note: string;
}

const GiB = 2 ** 30;

function make(a: Omit<TTArch, 'l1Banks' | 'dramOffsets'> & { dramOffsets?: number[] }): TTArch {
  return { ...a, dramOffsets: a.dramOffsets ?? new Array(a.dramBanks).fill(0), l1Banks: a.grid.x * a.grid.y };
}

export const TT_ARCHS: Record<string, TTArch> = {
  grayskull: make({
    name: 'grayskull',
    dramBanks: 8,
    dramBankSize: GiB,
    dramAlignment: 32,
    l1Alignment: 16,
    l1Size: 2 ** 20,
    l1Reserved: 0,
    grid: { x: 12, y: 10 },
    note: 'Grayskull (legacy): 8 DRAM banks of 1 GiB, DRAM alignment 32, 1 MiB L1, 12×10 Tensix on die',
  }),
  wormhole_b0: make({
    name: 'wormhole_b0',
    dramBanks: 12,
    dramBankSize: GiB,
    dramAlignment: 32,
    dramOffsets: Array.from({ length: 12 }, (_, b) => (b % 2 ? GiB : 0)),
    l1Alignment: 16,
    l1Size: 1_499_136,
    l1Reserved: 0,
    grid: { x: 8, y: 8 },
    note: 'Wormhole B0: 12 DRAM banks (6 channels × 2, odd banks at +1 GiB in their channel), DRAM alignment 32, 1,499,136 B L1, 8×8 compute grid (n150)',
  }),
  blackhole: make({
    name: 'blackhole',
    dramBanks: 8,
    dramBankSize: 4_278_190_080,
    dramAlignment: 64,
    l1Alignment: 16,
    l1Size: 1_499_136,
    l1Reserved: 0,
    grid: { x: 13, y: 10 },
    note: 'Blackhole p150: 8 DRAM banks of 4,278,190,080 B, DRAM alignment 64, 1,499,136 B L1, 13×10 compute grid (p100a: 7 banks, set dram_banks=7)',
  }),
};

export const TT_ARCH_NAMES = Object.keys(TT_ARCHS);

/** Properties a target may override, with their meaning (completion and docs). */
export const TT_ARCH_PROPS: Record<string, string> = {
  dram_banks: 'number of DRAM banks (interleaved DRAM buffers round-robin over them)',
  dram_bank_size: 'bytes per DRAM bank',
  dram_alignment: 'DRAM page alignment in bytes',
  dram_offsets: 'per-bank offset added to DRAM addresses (bank_to_dram_offset)',
  l1_alignment: 'L1 page alignment in bytes',
  l1_size: 'worker L1 bytes per core',
  l1_reserved: 'bytes at the bottom of L1 that buffers cannot use',
  l1_banks: 'L1 banks for interleaved L1 buffers (default grid x·y)',
  grid: 'compute grid, x×y (columns × rows), e.g. 8x8',
};
// words of the document index these tables: without a prototype, `constructor`, `__proto__`, `toString` … are not entries
for (const t of [TT_ARCHS, TT_ARCH_PROPS]) Object.setPrototypeOf(t, null);

/** A copy of an arch with overrides applied (unknown keys are ignored here; the checker reports them). */
export function withOverrides(base: TTArch, o: Partial<Record<keyof typeof TT_ARCH_PROPS, number | number[]>>, name = base.name): TTArch {
  const a: TTArch = { ...base, name, grid: { ...base.grid }, dramOffsets: [...base.dramOffsets] };
  if (typeof o.dram_banks === 'number') {
    a.dramBanks = o.dram_banks;
    a.dramOffsets = Array.from({ length: o.dram_banks }, (_, b) => base.dramOffsets[b] ?? 0);
  }
  if (typeof o.dram_bank_size === 'number') a.dramBankSize = o.dram_bank_size;
  if (typeof o.dram_alignment === 'number') a.dramAlignment = o.dram_alignment;
  if (Array.isArray(o.dram_offsets)) a.dramOffsets = Array.from({ length: a.dramBanks }, (_, b) => (o.dram_offsets as number[])[b] ?? 0);
  if (typeof o.l1_alignment === 'number') a.l1Alignment = o.l1_alignment;
  if (typeof o.l1_size === 'number') a.l1Size = o.l1_size;
  if (typeof o.l1_reserved === 'number') a.l1Reserved = o.l1_reserved;
  if (Array.isArray(o.grid) && o.grid.length === 2) {
    a.grid = { x: o.grid[0], y: o.grid[1] };
    a.l1Banks = a.grid.x * a.grid.y;
  }
  if (typeof o.l1_banks === 'number') a.l1Banks = o.l1_banks;
  return a;
}
