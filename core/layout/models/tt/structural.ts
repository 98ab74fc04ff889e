/** The structural rules (research layouts.md B.7) a TT-NN buffer spec must meet before a buffer can be built. */
import { TT_DTYPES } from '../../dtypes';
import { issue, type Issue } from '../../issues';
import { cdiv, hex, list, plural, roundUp } from '../../util';
import { TILE_SHAPES, tileGeometry } from '../ttTile';
import { enumerateCores, geometry, isSharded, rangeText, type TTSpec } from './spec';

const isInt = (v: number, min = 1) => Number.isInteger(v) && v >= min;

/** Structural rules (B.7) that must hold before a buffer can be built. */
export function structuralTT(spec: TTSpec): Issue[] {
  const out: Issue[] = [];
  const info = TT_DTYPES[spec.dtype];
  if (!info) {
    out.push(
      issue(
        'TT002',
        'error',
        `TT-NN does not support ${spec.dtype}; supported: bfloat16, float32, uint32, int32, uint16, uint8, bfloat8_b, bfloat4_b`,
        '@dtype',
      ),
    );
    return out;
  }
  if (info.blockFloat && spec.layout !== 'TILE')
    out.push(
      issue('TT002', 'error', `${spec.dtype} is a block-float format and exists only in TILE layout (validate_dtype_and_layout)`, 'layout', {
        fixes: [{ title: 'Use TILE layout', field: 'layout', newText: 'TILE', preferred: true }],
      }),
    );
  if (spec.shape.length === 0) out.push(issue('TT023', 'error', 'a TT-NN buffer needs at least one dimension', '@shape'));
  spec.shape.forEach((s, i) => {
    if (!isInt(s)) out.push(issue('TT023', 'error', `dimension ${i} is ${s}; sizes must be integers ≥ 1`, '@shape', { index: i }));
  });
  const A = spec.arch;
  if (spec.layout === 'TILE') {
    const [tH, tW] = spec.tile ?? [32, 32];
    const g = tileGeometry(tH, tW, spec.transposeTile);
    if (!g)
      out.push(
        issue('TT001', 'error', `tile ${tH}×${tW} is not valid for TT hardware; supported: ${TILE_SHAPES.map((t) => `${t[0]}x${t[1]}`).join(', ')}`, 'tile', {
          fixes: [{ title: 'Use 32×32 tiles', field: 'tile', newText: '32x32' }],
        }),
      );
    if (spec.transposeTile && tH !== 16 && tH !== 32)
      out.push(issue('TT001', 'error', `transpose_tile needs tile height 16 or 32 (this is ${tH})`, 'transpose_tile'));
    if (spec.transposeTile && info.blockFloat)
      out.push(
        issue(
          'TT022',
          'error',
          `transpose_tile with block-float ${spec.dtype} is not modelled (the shared-exponent order of transposed faces is not documented)`,
          'transpose_tile',
        ),
      );
    if (g && spec.alignment) {
      const a = spec.alignment;
      if (a.length < 2 || a[a.length - 1] % tW !== 0 || a[a.length - 2] % tH !== 0)
        out.push(
          issue(
            'TT003',
            'error',
            `TILE alignment ${list(a)}: the innermost entry must be a multiple of the tile width ${tW} and the second-innermost a multiple of the tile ` +
              `height ${tH}`,
            'alignment',
            { fixes: [{ title: `Use ${list([tH, tW])}`, field: 'alignment', newText: list([tH, tW]), preferred: true }] },
          ),
        );
    }
  }
  if (spec.alignment?.some((v) => !isInt(v))) out.push(issue('TT003', 'error', 'alignment entries must be integers ≥ 1', 'alignment'));
  if (spec.alignment && isSharded(spec.memory) && spec.alignment.length > 2)
    out.push(issue('TT004', 'error', `Tensor must be interleaved if alignment has rank greater than 2! (alignment ${list(spec.alignment)})`, 'alignment'));
  const align = spec.buffer === 'DRAM' ? A.dramAlignment : A.l1Alignment;
  if (spec.base !== undefined && spec.base % align !== 0) {
    const up = roundUp(spec.base, align);
    out.push(
      issue('TT021', 'error', `${spec.buffer} buffers start on a ${align}-byte boundary on ${A.name}; ${hex(spec.base)} is not (use ${hex(up)})`, '@at', {
        fixes: [{ title: `Round up to ${hex(up)}`, field: '@at', newText: hex(up), preferred: true }],
      }),
    );
  }
  // every finding so far is an error: the rules below need a well-formed spec
  if (out.length) return out;
  if (!isSharded(spec.memory)) {
    if (spec.shard || spec.grid?.length)
      out.push(issue('TT024', 'warning', 'shard and grid are ignored for an interleaved buffer', spec.shard ? 'shard' : 'grid'));
    return out;
  }
  // sharded
  const grid = spec.grid ?? [];
  if (!grid.length) out.push(issue('TT011', 'error', 'a sharded buffer needs a non-empty core grid, e.g. grid=(0,0)-(7,0)', 'grid'));
  const bound =
    spec.buffer === 'DRAM'
      ? { x: A.dramBanks, y: 1, what: `the ${A.dramBanks} DRAM banks (x = bank, y = 0)` }
      : { x: A.grid.x, y: A.grid.y, what: `the ${A.grid.x}×${A.grid.y} compute grid of ${A.name}` };
  for (const r of grid) {
    if (![r.x0, r.y0, r.x1, r.y1].every((v) => isInt(v, 0)) || r.x1 < r.x0 || r.y1 < r.y0)
      out.push(issue('TT019', 'error', `core range ${rangeText(r)} is not a range: corners are (x0,y0)-(x1,y1) with x0 ≤ x1 and y0 ≤ y1`, 'grid'));
    else if (r.x1 >= bound.x || r.y1 >= bound.y) out.push(issue('TT019', 'error', `core range ${rangeText(r)} leaves ${bound.what}`, 'grid'));
  }
  for (let i = 0; i < grid.length; i++)
    for (let j = i + 1; j < grid.length; j++) {
      const a = grid[i];
      const b = grid[j];
      if (a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1)
        out.push(issue('TT019', 'error', `core ranges ${rangeText(a)} and ${rangeText(b)} overlap`, 'grid'));
    }
  const shard = spec.shard;
  if (!shard) {
    out.push(
      issue(
        'TT011',
        'error',
        spec.memory === 'ND_SHARDED'
          ? 'an ND-sharded buffer needs a shard shape with one entry per tensor dim'
          : 'a sharded buffer needs a shard shape [height, width]',
        'shard',
      ),
    );
    return out;
  }
  shard.forEach((s, i) => {
    if (!isInt(s))
      out.push(issue('TT011', 'error', `shard[${i}] is ${s}; shard sizes must be integers ≥ 1 (the shard volume must not be 0)`, 'shard', { index: i }));
  });
  if (spec.memory === 'ND_SHARDED') {
    if (shard.length !== spec.shape.length)
      out.push(issue('TT011', 'error', `ND sharding needs a shard of the tensor's rank ${spec.shape.length}; this shard has ${shard.length} entries`, 'shard'));
  } else if (shard.length !== 2)
    out.push(
      issue(
        'TT025',
        'error',
        `${spec.memory} sharding takes a 2-D shard [height, width] of the folded 2-D tensor; this has ${shard.length} entries (use nd_sharded for an N-D ` +
          'shard)',
        'shard',
      ),
    );
  // (TT024 returned above: every finding so far is an error)
  if (out.length) return out;
  const [tH, tW] = spec.layout === 'TILE' ? (spec.tile ?? [32, 32]) : [1, 1];
  const sh = shard[shard.length - 2] ?? 1;
  const sw = shard[shard.length - 1];
  // (ROW_MAJOR pages are 1×1: every shard is whole pages)
  if (sh % tH !== 0 || sw % tW !== 0) {
    const fixed = [...shard.slice(0, -2), roundUp(sh, tH), roundUp(sw, tW)];
    out.push(
      issue(
        'TT008',
        'error',
        `shard ${list(shard)} is not a whole number of ${tH}×${tW} tiles (pages): the last two shard dims must be multiples of the tile (e.g. ${list(fixed)})`,
        'shard',
        { fixes: [{ title: `Round shard shape up to tiles: ${list(fixed)}`, field: 'shard', newText: list(fixed), preferred: true }] },
      ),
    );
  }
  if (spec.layout === 'ROW_MAJOR' && spec.alignment && (spec.memory === 'WIDTH_SHARDED' || spec.memory === 'BLOCK_SHARDED')) {
    const aw = spec.alignment[spec.alignment.length - 1];
    if (sw % aw !== 0)
      out.push(
        issue('TT009', 'error', `ROW_MAJOR ${spec.memory}: the shard width ${sw} must be a multiple of the width alignment ${aw}`, 'shard', {
          index: shard.length - 1,
        }),
      );
  }
  if (out.length) return out;
  if (spec.memory === 'ND_SHARDED') return out;
  const geo = geometry(spec);
  // the count does not depend on the orientation
  const cores = enumerateCores(grid, 'ROW_MAJOR').length;
  const pageH = geo.pageH;
  if (spec.memory === 'HEIGHT_SHARDED') {
    if (sw !== geo.physW)
      out.push(
        issue('TT005', 'error', `HEIGHT sharding keeps whole rows: the shard width must be the physical width ${geo.physW}, not ${sw}`, 'shard', {
          index: 1,
          fixes: [{ title: `Set the shard width to ${geo.physW}`, field: 'shard', newText: list([sh, geo.physW]), preferred: true }],
        }),
      );
    const n = cdiv(geo.physH, sh);
    if (n > cores) {
      const want = roundUp(cdiv(geo.physH, cores), pageH);
      out.push(
        issue(
          'TT005',
          'error',
          `${geo.physH} physical rows in shards of ${sh} make ${n} shards but the grid has ${plural(cores, 'core')}; a shard height of at least ${want} fits`,
          'shard',
          { index: 0, fixes: [{ title: `Set the shard height to ${want}`, field: 'shard', newText: list([want, sw]), preferred: true }] },
        ),
      );
    }
  } else if (spec.memory === 'WIDTH_SHARDED') {
    if (sh !== geo.physH)
      out.push(
        issue('TT006', 'error', `WIDTH sharding keeps whole columns: the shard height must be the physical height ${geo.physH}, not ${sh}`, 'shard', {
          index: 0,
          fixes: [{ title: `Set the shard height to ${geo.physH}`, field: 'shard', newText: list([geo.physH, sw]), preferred: true }],
        }),
      );
    const W = spec.layout === 'TILE' ? geo.physW : geo.shape2[geo.shape2.length - 1];
    const n = cdiv(W, sw);
    if (n > cores) {
      const want = roundUp(cdiv(W, cores), tW);
      out.push(
        issue(
          'TT006',
          'error',
          `width ${W} in shards of ${sw} makes ${n} shards but the grid has ${plural(cores, 'core')}; a shard width of at least ${want} fits`,
          'shard',
          { index: 1, fixes: [{ title: `Set the shard width to ${want}`, field: 'shard', newText: list([sh, want]), preferred: true }] },
        ),
      );
    }
  } else {
    if (grid.length !== 1) out.push(issue('TT007', 'error', `BLOCK sharding needs a core grid that is exactly one CoreRange; this has ${grid.length}`, 'grid'));
    else {
      const r = grid[0];
      const gx = r.x1 - r.x0 + 1;
      const gy = r.y1 - r.y0 + 1;
      // ⌈physW / sw⌉: the width padded to whole tiles (or to the ROW_MAJOR shard width) makes no extra shard column
      const nRow = cdiv(geo.physH, sh);
      const nCol = cdiv(geo.physW, sw);
      const rm = (spec.orientation ?? 'ROW_MAJOR') === 'ROW_MAJOR';
      const [needX, needY] = rm ? [nCol, nRow] : [nRow, nCol];
      if (needX > gx || needY > gy) {
        const fit = { x0: r.x0, y0: r.y0, x1: r.x0 + needX - 1, y1: r.y0 + needY - 1 };
        out.push(
          issue(
            'TT007',
            'error',
            `BLOCK ${rm ? 'ROW_MAJOR' : 'COL_MAJOR'}: ${nRow} shard rows × ${nCol} shard columns need a grid of ${needX} (x) × ${needY} (y) ` +
              `cores${rm ? '' : ' (COL_MAJOR puts shard rows along x)'}, but ${rangeText(r)} is ${gx}×${gy}`,
            'grid',
            {
              fixes: fit.x1 < bound.x && fit.y1 < bound.y ? [{ title: `Use grid ${rangeText(fit)}`, field: 'grid', newText: rangeText(fit) }] : undefined,
            },
          ),
        );
      }
    }
  }
  if (grid.length > 1)
    out.push(
      issue(
        'TT014',
        'warning',
        `the grid has ${grid.length} core ranges: the ${spec.orientation ?? 'ROW_MAJOR'} orientation applies inside each range only; ranges are used in the ` +
          'order written',
        'grid',
      ),
    );
  return out;
}
