/** One element of a TT-NN buffer: coordinate → page, bank or core, address (with the steps), and back. */
import type { InverseResult, Step, UnitRef } from '../../model';
import { bytes, CoordError, hex, list, num, plural, ravel, tuple } from '../../util';
import { fromTileElem } from '../ttTile';
import type { TTBase, TTForward } from './base';

/** Coordinate → address, with every step of the way. */
export function forwardTT(m: TTBase, coord: readonly number[]): TTForward {
  const p = m.checkCoord(coord);
  if (p) throw new CoordError(p);
  const geo = m.geo;
  const [row, col] = m.rowCol(coord);
  const pageRow = Math.floor(row / geo.pageH);
  const pageCol = Math.floor(col / geo.pageW);
  const page = pageRow * geo.Wp + pageCol;
  const pb = m.pageByteOf(row, col);
  const steps: Step[] = [{ name: 'coordinate', value: tuple(coord) }];
  if (m.shape.length !== 2) steps.push({ name: 'physical (row, col)', value: `(${row}, ${col}) of ${geo.physH}×${geo.physW}` });
  if (geo.g) {
    const t = pb.tile!;
    steps.push({ name: 'tile (page)', value: `page ${num(page)} = tile (${pageRow}, ${pageCol}) of ${geo.Hp}×${geo.Wp}` });
    steps.push({ name: 'in tile', value: `(${t.rr}, ${t.cc})` });
    steps.push({ name: 'face', value: `face ${t.face} (${geo.g.fH}×${geo.g.fW}), in face (${t.ir}, ${t.ic})` });
    steps.push({ name: 'element in tile', value: `${t.elem}${geo.g.transpose ? ' (transposed tile)' : ''}` });
    if (pb.exponentByte !== undefined) steps.push({ name: 'shared exponent', value: `byte ${pb.exponentByte} of the tile` });
    steps.push({
      name: 'byte in page',
      value: `${pb.pageByte}${pb.nibble !== undefined ? `, ${pb.nibble ? 'high' : 'low'} nibble` : ''} of ${geo.pageSize}`,
    });
  } else {
    steps.push({
      name: 'page (row)',
      value: geo.pageW === geo.physW ? `page ${num(page)} = row ${row}` : `page ${num(page)} = row ${row}, segment ${pageCol} (${geo.pageW} elements)`,
    });
    steps.push({ name: 'byte in page', value: `${pb.pageByte} of ${geo.pageSize}` });
  }
  const base: Omit<TTForward, 'unit' | 'bank' | 'core' | 'shard' | 'shardCoord' | 'localPage' | 'offset' | 'bankOffset' | 'address'> = {
    model: 'tt',
    coord: [...coord],
    size: pb.size,
    steps,
    row,
    col,
    page,
    pageRow,
    pageCol,
    tile: pb.tile,
    pageByte: pb.pageByte,
    exponentByte: pb.exponentByte,
    nibble: pb.nibble,
  };
  const mem = m.spec.memory;
  let unit: number;
  let localPage: number;
  let shard: number | undefined;
  let shardCoord: number[] | undefined;
  if (mem === 'INTERLEAVED') {
    unit = page % m.units;
    localPage = Math.floor(page / m.units);
    steps.push({ name: 'bank', value: `${unit} = page ${page} mod ${m.units}` });
    steps.push({ name: 'page in bank', value: `${localPage} = ⌊${page} / ${m.units}⌋ (aligned page ${m.alignedPage} B)` });
  } else if (mem === 'ND_SHARDED') {
    const r2 = geo.shape2.length;
    const c2 = coord.length === 1 ? [0, coord[0]] : [...coord];
    const pc = c2.map((c, d) => (d === r2 - 1 ? pageCol : d === r2 - 2 ? Math.floor(c / geo.pageH) : c));
    shardCoord = pc.map((v, d) => Math.floor(v / m.shardPages[d]));
    const local = pc.map((v, d) => v % m.shardPages[d]);
    shard = ravel(shardCoord, m.gridShape);
    unit = shard % m.units;
    const slot = Math.floor(shard / m.units);
    localPage = slot * m.shardVol + ravel(local, m.shardPages);
    steps.push({ name: 'page coordinate', value: tuple(pc) });
    steps.push({ name: 'shard', value: `${num(shard)} = grid ${tuple(shardCoord)} of ${list(m.gridShape)}, page ${tuple(local)} in it` });
    steps.push({ name: 'core', value: `${m.unitLabel(unit)} = shard ${shard} mod ${m.units} (round-robin), shard slot ${slot}` });
    steps.push({ name: 'local page', value: `${localPage} = ${slot}·${m.shardVol} + ${ravel(local, m.shardPages)}` });
  } else {
    const R = Math.floor(pageRow / m.sh);
    const C = Math.floor(pageCol / m.sw);
    shard = R * m.nCol + C;
    shardCoord = [R, C];
    unit = m.shardCore[shard];
    const i = pageRow % m.sh;
    const j = pageCol % m.sw;
    localPage = i * m.sw + j;
    steps.push({ name: 'shard', value: `${shard} = (${R}, ${C}) of ${m.nRow}×${m.nCol}, page (${i}, ${j}) in it` });
    steps.push({ name: m.unitKind === 'bank' ? 'bank' : 'core', value: m.unitLabel(unit) });
    steps.push({ name: 'local page', value: `${localPage} = ${i}·${m.sw} + ${j}` });
  }
  const offset = localPage * m.alignedPage + pb.pageByte;
  const address = m.base + offset;
  const bankOffset = m.bankOffsetOf(unit);
  steps.push({
    name: m.unitKind === 'core' ? 'offset in core' : 'offset in bank',
    value: `${num(offset)} = ${localPage}·${m.alignedPage} + ${pb.pageByte}`,
  });
  steps.push({ name: 'address', value: `${m.unitLabel(unit)}: ${hex(address)}${m.base ? ` (B+${offset})` : ''}` });
  if (bankOffset) steps.push({ name: 'channel address', value: `${hex(address + bankOffset)} (bank offset +${bytes(bankOffset)})` });
  const ur: UnitRef = { kind: m.unitKind, index: unit, label: m.unitLabel(unit) };
  return {
    ...base,
    address,
    unit: ur,
    bank: m.unitKind === 'bank' ? (mem === 'INTERLEAVED' ? unit : m.cores[unit][0]) : undefined,
    core: m.unitKind === 'core' ? m.cores[unit] : undefined,
    shard,
    shardCoord,
    localPage,
    offset,
    bankOffset,
  };
}

/** Address in a bank or core → the element, padding, exponent or unused slot there. */
export function inverseTT(m: TTBase, address: number, unit?: number): InverseResult {
  const steps: Step[] = [];
  const geo = m.geo;
  if (unit === undefined) {
    if (m.units > 1)
      return {
        model: 'tt',
        address,
        kind: 'outside',
        steps,
        reason:
          `the buffer is spread over ${plural(m.units, m.unitKind === 'core' ? 'core' : 'bank')}: say ` +
          `which (${m.unitKind === 'core' ? 'core (x,y)' : 'bank N'})`,
      };
    unit = 0;
  }
  if (unit < 0 || unit >= m.units)
    return { model: 'tt', address, kind: 'outside', steps, reason: `no ${m.unitKind} ${unit}: the buffer uses ${plural(m.units, m.unitKind)}` };
  const ur: UnitRef = { kind: m.unitKind, index: unit, label: m.unitLabel(unit) };
  const off = address - m.base;
  steps.push({ name: m.unitKind === 'core' ? 'offset in core' : 'offset in bank', value: num(off) });
  if (!Number.isInteger(off) || off < 0 || off >= m.bytesPerUnit)
    return {
      model: 'tt',
      address,
      unit: ur,
      kind: 'outside',
      steps,
      reason: `the buffer occupies ${hex(m.base)}..${hex(m.base + m.bytesPerUnit - 1)} in every ${m.unitKind}`,
    };
  const slot = Math.floor(off / m.alignedPage);
  const inPage = off % m.alignedPage;
  steps.push({ name: 'local page', value: `${slot}, byte ${inPage}` });
  const src = m.slotSource(unit, slot);
  if (src.kind === 'unused')
    return { model: 'tt', address, unit: ur, kind: 'unused', steps, reason: `reserved in lockstep: ${ur.label} holds no page at local page ${slot}` };
  if (src.kind === 'padding')
    return { model: 'tt', address, unit: ur, kind: 'padding', steps, reason: `PADDING page: shard ${src.shard} is an edge shard with no page at this slot` };
  steps.push({ name: 'host page', value: `${num(src.page)} = (${src.pr}, ${src.pc})${src.ndPage ? `, page coordinate ${tuple(src.ndPage)}` : ''}` });
  if (inPage >= geo.pageSize)
    return {
      model: 'tt',
      address,
      unit: ur,
      kind: 'alignment',
      steps,
      reason: `bytes ${geo.pageSize}..${m.alignedPage - 1} of the page round it up to the ${m.alignment}-byte alignment`,
    };
  let rr: number;
  let cc: number;
  let byteInElement = 0;
  if (!geo.g) {
    const eb = geo.info.rmBytes;
    rr = 0;
    cc = Math.floor(inPage / eb);
    byteInElement = inPage % eb;
  } else {
    const bits = geo.info.tileBits;
    if (geo.info.blockFloat && inPage < m.expBytes) {
      const fr = geo.g.fH * geo.g.faces;
      return {
        model: 'tt',
        address,
        unit: ur,
        kind: 'metadata',
        steps,
        reason:
          inPage < fr
            ? `shared exponent of face ${Math.floor(inPage / geo.g.fH)}, row ${inPage % geo.g.fH}`
            : 'exponent section padding (rounded up to 16 bytes)',
      };
    }
    const data = inPage - m.expBytes;
    // bytes per element: 4 or 2 (dense), 1 (bfloat8_b), ½ (bfloat4_b: the byte's first element, byte 0 of it)
    const size = bits / 8;
    const elem = Math.floor(data / size);
    byteInElement = data % size;
    const t = fromTileElem(elem, geo.g);
    rr = t.rr;
    cc = t.cc;
    steps.push({ name: 'element in tile', value: `${elem} = face ${t.face}, in tile (${rr}, ${cc})` });
    if (bits < 8) {
      // a byte holds two elements: the low nibble's and the next one's (next column, or next row in a transposed tile),
      // which is real only where the low one is
      const t2 = fromTileElem(elem + 1, geo.g);
      const a = m.coordOf(src.pr * geo.pageH + rr, src.pc * geo.pageW + cc);
      const b = m.coordOf(src.pr * geo.pageH + t2.rr, src.pc * geo.pageW + t2.cc);
      steps.push({ name: 'nibbles', value: `low: ${a ? tuple(a) : 'padding'}, high: ${b ? tuple(b) : 'padding'}` });
      if (a) return { model: 'tt', address, unit: ur, kind: 'element', coord: a, byteInElement: 0, steps };
      return { model: 'tt', address, unit: ur, kind: 'padding', steps, reason: 'both elements of this byte are tile padding' };
    }
  }
  const row = src.pr * geo.pageH + rr;
  const col = src.pc * geo.pageW + cc;
  steps.push({ name: 'physical (row, col)', value: `(${row}, ${col})` });
  const coord = m.coordOf(row, col);
  if (!coord)
    return {
      model: 'tt',
      address,
      unit: ur,
      kind: 'padding',
      steps,
      reason: `(${row}, ${col}) is ${geo.g ? 'tile' : 'alignment'} padding of the ${list(m.shape)} tensor (padded ${list(geo.padded)})`,
    };
  steps.push({ name: 'coordinate', value: tuple(coord) });
  return { model: 'tt', address, unit: ur, kind: 'element', coord, byteInElement, steps };
}
