/** Documentation of the layout language's words (hover and completion). */
import { LAYOUT_ARGS, TARGETS } from '../check';
import { CELL_DTYPES, type DType, DTYPES, HOST_BYTES, parseDtype, SPYRE_DTYPES, TT_DTYPES } from '../dtypes';
import { TT_ARCH_PROPS } from '../models/ttArch';
import { ELEMENT_ARRANGEMENTS } from '../models/spyre';

export const STATEMENT_DOCS: Record<string, string> = {
  target:
    '`target NAME` or `target NAME(key=value, …)` — the machine the file describes: `grayskull`, `wormhole_b0`, `blackhole` or `custom(…)` for ' +
    'Tenstorrent layouts, `spyre(memory=…)`, `npu(cell=16, capacity=…)` for 16-byte cells, `host`. One target per family; it applies to the whole file.',
  tensor:
    '`tensor NAME: DTYPE[SHAPE] = LAYOUT [at ADDRESS]` — a named tensor with its dtype, logical shape and one layout: `spyre(…)`, `tt(…)`, ' +
    '`cells(…)`, `strided(…)`, `fibers(…)`, or a pasted `SpyreTensorLayout(…)` / `ttnn.…` form. Dims may be named: `int8[A=2, B=4, C=18]`.',
  probe:
    '`probe NAME[i, j, …]` maps a coordinate to its address with every intermediate step; `probe NAME address A [bank N | core (x,y) | main | meta]` says ' +
    'what the byte at A holds; `probe NAME device[…]` maps a Spyre device coordinate; `probe address A` searches every tensor.',
  at:
    '`at ADDRESS` — where the tensor starts: a byte address (Spyre: 128-aligned; TT: the buffer address, the same in every bank or core; cells: a ' +
    'multiple of the cell size). `+` and `*` are allowed: `at 0x1000 + 2*2048`.',
  address: '`address A` — a byte address to map back to a tensor element (or padding).',
  device: '`NAME device[…]` — a Spyre device coordinate (one index per `device_size` entry).',
  bank: '`bank N` — the DRAM or L1 bank of an address (interleaved TT buffers; DRAM-sharded buffers use the bank number).',
  core: '`core (x, y)` — the worker core of an address (sharded TT buffers). `core N` is the N-th core of the grid in orientation order.',
  main: '`main` — the main (entry) memory of a fibered sparse tensor; 8 bytes per entry.',
  meta: '`meta` — the metadata memory of a fibered sparse tensor; 4 bytes per word.',
};

export const CALL_DOCS: Record<string, string> = {
  spyre:
    '`spyre(…)` — IBM Spyre layout. `spyre()` is the default “generic stick” layout; `spyre(dim_order=[…])` a default layout with another stick ' +
    'dim (trailing −1: sparse); `spyre(device_size=[…], dim_map=[…])` or `spyre(device_size=[…], stride_map=[…])` an explicit one. Device memory ' +
    'is row-major over `device_size`; the last device dim is the 128-byte stick.',
  SpyreTensorLayout:
    '`SpyreTensorLayout(device_size=[…], dim_map=[…] | stride_map=[…], device_dtype=DataFormats.…)` — as torch-spyre prints it; ' +
    'same ' +
    'as ' +
    '`spyre(…)`.',
  tt:
    '`tt(layout=tile|row_major, tile=32x32, buffer=dram|l1, memory=interleaved|height_sharded|width_sharded|block_sharded|nd_sharded, shard=[h, w], ' +
    'grid=(x0,y0)-(x1,y1), orientation=row_major|col_major)` — a TT-Metalium buffer. Defaults: TILE 32×32, interleaved in DRAM.',
  cells:
    '`cells(order=[…], cell=16)` — NPU Core Memory of 16-byte cells: dims in storage order (last innermost), each innermost row starts a fresh cell and ' +
    'is zero-padded; values little-endian.',
  strided: '`strided(strides=[…], offset=0, storage=N)` — a PyTorch strided view: address = base + (offset + Σ index·stride) · element size.',
  as_strided: '`torch.as_strided(input, size, stride, storage_offset)` — pasted PyTorch form of `strided(…)`.',
  fibers:
    '`fibers(ptr=[…], index=[…], main=0, meta=0)` — a fibered (CSR-like) sparse tensor in an accelerator’s main (entries) and metadata (pointers) ' +
    'memories; `file="x.csfbin"` loads one through the host.',
  create_sharded_memory_config:
    '`ttnn.create_sharded_memory_config(shape, core_grid, strategy, orientation=ROW_MAJOR, use_height_and_width_as_shard_shape=False)` — L1 sharded ' +
    'config. `shape` is the tensor shape (the shard is derived and must divide exactly) or, with `use_height_and_width_as_shard_shape=True`, the shard ' +
    'shape (swapped with COL_MAJOR).',
  MemoryConfig: '`ttnn.MemoryConfig(memory_layout, buffer_type, shard_spec)` — TT-NN memory config.',
  ShardSpec: '`ttnn.ShardSpec(grid, shard_shape, orientation)` — legacy 2-D shard spec.',
  NdShardSpec: '`ttnn.NdShardSpec(shard_shape, grid, orientation)` — ND shard spec; shards go round-robin over the cores.',
  Tile: '`ttnn.Tile((h, w), transpose_tile=False)` — tile shape.',
  CoreGrid: '`ttnn.CoreGrid(y=…, x=…)` — the cores (0,0)…(x−1, y−1).',
  CoreRange: '`ttnn.CoreRange(CoreCoord(x0, y0), CoreCoord(x1, y1))` — an inclusive rectangle of cores.',
  CoreRangeSet: '`ttnn.CoreRangeSet({CoreRange(…), …})` — several ranges, used in the order written.',
  TILE_LAYOUT: '`ttnn.TILE_LAYOUT` — pages are tiles (default 32×32, stored as 16×16 faces).',
  ROW_MAJOR_LAYOUT: '`ttnn.ROW_MAJOR_LAYOUT` — pages are rows (width- or block-sharded: shard-width row segments).',
  DRAM_MEMORY_CONFIG: '`ttnn.DRAM_MEMORY_CONFIG` — interleaved over the DRAM banks.',
  L1_MEMORY_CONFIG: '`ttnn.L1_MEMORY_CONFIG` — interleaved over the L1 banks (one per worker core).',
};

export const VALUE_DOCS: Record<string, string> = {
  TILE: 'TILE — pages are tiles; each tile is stored face by face (16×16 faces), each face row-major.',
  ROW_MAJOR: 'ROW_MAJOR — as a layout: pages are rows; as an orientation: shards go to cores x fastest.',
  COL_MAJOR: 'COL_MAJOR — shards go to cores y fastest (BLOCK: shard rows along x).',
  DRAM: 'DRAM — DRAM banks (Wormhole: 12 × 1 GiB, Blackhole: 8 × ~4 GB, Grayskull: 8 × 1 GiB).',
  L1: 'L1 — worker-core SRAM (one bank per core).',
  INTERLEAVED: 'INTERLEAVED — page p goes to bank p mod banks, at offset ⌊p / banks⌋ · aligned page; every bank reserves the same bytes.',
  HEIGHT_SHARDED: 'HEIGHT_SHARDED — each shard is whole rows; shard k goes to the k-th core.',
  WIDTH_SHARDED: 'WIDTH_SHARDED — each shard is whole columns; shard k goes to the k-th core.',
  BLOCK_SHARDED: 'BLOCK_SHARDED — a 2-D grid of shards on a 2-D grid of cores (one core range).',
  ND_SHARDED: 'ND_SHARDED — N-D shards over the padded tensor, round-robin over the cores.',
  HEIGHT: 'ShardStrategy.HEIGHT — height sharding.',
  WIDTH: 'ShardStrategy.WIDTH — width sharding.',
  BLOCK: 'ShardStrategy.BLOCK — block sharding.',
  STANDARD: 'element_arrangement STANDARD — elements in a stick in order.',
};

// words of the document index these tables: without a prototype, `constructor`, `__proto__`, `toString` … are not entries
for (const t of [STATEMENT_DOCS, CALL_DOCS, VALUE_DOCS]) Object.setPrototypeOf(t, null);

export function dtypeDoc(word: string): string | undefined {
  const d = parseDtype(word);
  if (!d) return undefined;
  const lines = [`\`${d}\` — ${HOST_BYTES[d]} byte${HOST_BYTES[d] > 1 ? 's' : ''} on the host`];
  const s = SPYRE_DTYPES[d];
  if (s) lines.push(s.eps ? `Spyre: ${s.device}, ${s.eps} per 128-byte stick${s.conversion ? ` (${s.conversion})` : ''}` : `Spyre: unsupported (${s.device})`);
  const t = TT_DTYPES[d];
  if (t)
    lines.push(
      `TT: ${t.format}, 32×32 tile ` +
        (t.blockFloat
          ? `${(1024 * t.tileBits) / 8 + 64} B (${(1024 * t.tileBits) / 8} B data + 64 B shared exponents); ROW_MAJOR falls back to 4-byte floats`
          : `${(1024 * t.tileBits) / 8} B; row-major ${t.rmBytes} B per element`),
    );
  const c = CELL_DTYPES[d];
  if (c) lines.push(`16-byte cells: ${16 / c.size} per cell, ${c.encoding}`);
  return lines.join('  \n');
}

/** Documentation of any word, looked up in order: statements, calls, arguments, targets, values, dtypes. */
export function wordDoc(word: string, family?: keyof typeof LAYOUT_ARGS): string | undefined {
  if (STATEMENT_DOCS[word]) return STATEMENT_DOCS[word];
  const call = Object.keys(CALL_DOCS).find((k) => k.toLowerCase() === word.toLowerCase());
  if (call) return CALL_DOCS[call];
  if (family && LAYOUT_ARGS[family][word]) return `\`${word}\` — ${LAYOUT_ARGS[family][word]}`;
  for (const f of Object.keys(LAYOUT_ARGS) as (keyof typeof LAYOUT_ARGS)[]) if (LAYOUT_ARGS[f][word]) return `\`${word}\` — ${LAYOUT_ARGS[f][word]}`;
  if (TT_ARCH_PROPS[word]) return `\`${word}\` — ${TT_ARCH_PROPS[word]}`;
  if (TARGETS[word.toLowerCase()]) return `target \`${word}\` — ${TARGETS[word.toLowerCase()].doc}`;
  const v = VALUE_DOCS[word.toUpperCase()] ?? VALUE_DOCS[word.toUpperCase().replace(/_LAYOUT$/, '')];
  if (v) return v;
  if ((ELEMENT_ARRANGEMENTS as readonly string[]).includes(word.toUpperCase()))
    return `element_arrangement ${word.toUpperCase()} — the position inside a stick is a hardware permutation`;
  return dtypeDoc(word);
}

export const DTYPE_COMPLETIONS: DType[] = [...DTYPES];
