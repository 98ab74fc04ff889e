/** The closed-form summary of a TT-NN buffer: bytes by kind, pages per bank or core, the facts shown. */
import { type Breakdown, emptyBreakdown, type LayoutSummary, type Step, type UnitGroup } from '../../model';
import { bytes, hex, list, num, percent, plural, prod } from '../../util';
import { realDataBytes } from '../ttTile';
import type { TTBase } from './base';
import { rangeText } from './spec';

/** Bytes of the data sections holding real elements (closed form over the 4 tile classes). */
function elementBytes(m: TTBase): number {
  const geo = m.geo;
  if (!geo.g) return m.numel * geo.info.rmBytes;
  const r2 = geo.shape2.length;
  const H2 = geo.shape2[r2 - 2];
  const W = geo.shape2[r2 - 1];
  const t = geo.g;
  const batches = prod(geo.shape2, 0, r2 - 2);
  // full tiles and one partial tile row/column (of 0 rows or columns, holding 0 bytes, when the size divides)
  const rowsCls: [number, number][] = [
    [Math.floor(H2 / t.tH), t.tH],
    [1, H2 % t.tH],
  ];
  const colsCls: [number, number][] = [
    [Math.floor(W / t.tW), t.tW],
    [1, W % t.tW],
  ];
  let sum = 0;
  for (const [nr, a] of rowsCls) for (const [nc, b] of colsCls) sum += nr * nc * realDataBytes(a, b, t, geo.info);
  return batches * sum;
}

/** Real pages per unit, grouped; undefined when there are too many shards to count. */
function pagesPerUnit(m: TTBase): UnitGroup[] | undefined {
  const mem = m.spec.memory;
  const per = new Array<number>(m.units).fill(0);
  if (mem === 'INTERLEAVED') {
    const q = Math.floor(m.pages / m.units);
    const rem = m.pages % m.units;
    const g: UnitGroup[] = [];
    if (rem) g.push({ from: 0, to: rem - 1, pages: q + 1 });
    // rem < units: the banks from rem on always hold q pages
    g.push({ from: rem, to: m.units - 1, pages: q });
    return g;
  }
  if (mem === 'ND_SHARDED') {
    if (m.nShards > 1 << 22) return undefined;
    const gs = m.gridShape;
    const g = new Array<number>(gs.length).fill(0);
    for (let s = 0; s < m.nShards; s++) {
      let v = 1;
      for (let d = 0; d < gs.length; d++) v *= Math.min(m.shardPages[d], m.tensorPages[d] - g[d] * m.shardPages[d]);
      per[s % m.units] += v;
      // Stryker disable next-line ArithmeticOperator: starting one past the last dim only sets an unused entry to 0
      for (let d = gs.length - 1; d >= 0; d--) {
        if (++g[d] < gs[d]) break;
        g[d] = 0;
      }
    }
  } else {
    const geo = m.geo;
    // Stryker disable next-line EqualityOperator: one shard past the last has no core (adds to an index that is no unit)
    for (let s = 0; s < m.nShards; s++) {
      const R = Math.floor(s / m.nCol);
      const C = s % m.nCol;
      per[m.shardCore[s]] += Math.min(m.sh, geo.Hp - R * m.sh) * Math.min(m.sw, geo.Wp - C * m.sw);
    }
  }
  const groups: UnitGroup[] = [];
  for (let u = 0; u < per.length; u++) {
    const last = groups[groups.length - 1];
    if (last && last.pages === per[u]) last.to = u;
    else groups.push({ from: u, to: u, pages: per[u] });
  }
  return groups;
}

/** Shards (2-D or ND) that reserve space, and the page slots they leave as PADDING. */
function shardSlots(m: TTBase): { used: number; padding: number } {
  const mem = m.spec.memory;
  if (mem === 'INTERLEAVED') return { used: m.pages, padding: 0 };
  const vol = mem === 'ND_SHARDED' ? m.shardVol : m.sh * m.sw;
  return { used: m.nShards * vol, padding: m.nShards * vol - m.pages };
}

export function summaryTT(m: TTBase): LayoutSummary {
  const geo = m.geo;
  const br: Breakdown = emptyBreakdown();
  const element = elementBytes(m);
  const meta = m.pages * m.expBytes;
  br.element = element;
  br.metadata = meta;
  br.padding = m.pages * geo.pageSize - element - meta;
  br.alignment = m.pages * (m.alignedPage - geo.pageSize);
  const ss = shardSlots(m);
  br.padding += ss.padding * m.alignedPage;
  const total = m.units * m.bytesPerUnit;
  br.unused = total - ss.used * m.alignedPage;
  const slots = m.pages * geo.pageH * geo.pageW;
  const groups = pagesPerUnit(m);
  const used = groups ? groups.filter((g) => g.pages > 0).reduce((s, g) => s + g.to - g.from + 1, 0) : Math.min(m.units, m.nShards);
  const uname = m.unitKind === 'core' ? 'core' : 'bank';
  const mem = m.spec.memory;
  const facts: Step[] = [
    { name: 'target', value: m.arch.name },
    { name: 'dtype', value: `${m.dtype} (${geo.info.format})` },
    {
      name: 'layout',
      value: geo.g
        ? `TILE ${geo.g.tH}×${geo.g.tW}, ${geo.g.faces} face${geo.g.faces > 1 ? 's' : ''} of ` +
          `${geo.g.fH}×${geo.g.fW}${geo.g.transpose ? ', transposed' : ''}`
        : 'ROW_MAJOR',
    },
    { name: 'logical → padded', value: `${list(m.shape)} → ${list(m.shape.length === 1 ? [geo.padded[1]] : geo.padded)}` },
    { name: 'physical 2-D', value: `${num(geo.physH)} × ${num(geo.physW)}` },
    {
      name: 'pages',
      value:
        `${num(m.pages)} = ${num(geo.Hp)} × ${num(geo.Wp)} of ${geo.pageH}×${geo.pageW}, ${geo.pageSize} B each` +
        `${m.alignedPage !== geo.pageSize ? `, aligned to ${m.alignedPage} B` : ''}` +
        `${m.expBytes ? ` (${m.expBytes} B shared exponents + ${m.dataSection} B data)` : ''}`,
    },
  ];
  if (mem === 'INTERLEAVED') {
    facts.push({ name: 'memory', value: `${m.spec.buffer} interleaved over ${plural(m.units, 'bank')} (page p → bank p mod ${m.units})` });
    facts.push({
      name: 'per bank',
      value:
        `${plural(m.slotsPerUnit, 'page slot')} = ${bytes(m.bytesPerUnit)}, reserved in every ` +
        `bank${groups ? ` (${groups.map((g) => `${g.from === g.to ? `bank ${g.from}` : `banks ${g.from}–${g.to}`}: ${g.pages}`).join(', ')})` : ''}`,
    });
  } else {
    const orient = m.spec.orientation ?? 'ROW_MAJOR';
    facts.push({
      name: 'memory',
      value: `${m.spec.buffer} ${mem} ${orient} over ${plural(m.units, uname)} ${m.spec.grid!.map(rangeText).join(' ')}`,
    });
    facts.push({
      name: 'shard',
      value:
        mem === 'ND_SHARDED'
          ? `${list(m.spec.shard!)} = ${list(m.shardPages)} pages; shard ` +
            `grid ${list(m.gridShape)} = ${num(m.nShards)} shards, ${m.perCore} per ${uname} (round-robin)`
          : `${list(m.spec.shard!)} = ${m.sh}×${m.sw} pages; ${m.nRow}×${m.nCol} shards`,
    });
    facts.push({
      name: `per ${uname}`,
      value:
        `${plural(m.slotsPerUnit, 'page slot')} = ${bytes(m.bytesPerUnit)}, reserved on every ${uname} of the grid` +
        (groups
          ? ' (real pages: ' +
            groups
              .map(
                (g) =>
                  (g.from === g.to ? m.unitLabel(g.from) : `${m.unitLabel(g.from)}–${m.unitLabel(g.to).replace(/^(core|DRAM bank) /, '')}`) + `: ${g.pages}`,
              )
              .join(', ') +
            ')'
          : ''),
    });
    if (ss.padding) facts.push({ name: 'edge shards', value: `${plural(ss.padding, 'PADDING page slot')} in partial shards` });
  }
  facts.push({
    name: 'bytes',
    value: `${bytes(total)} reserved (${num(total)} B): ${bytes(element)} of elements, ${percent(br.padding, br.padding + element)} padding`,
  });
  facts.push({ name: 'address', value: `${hex(m.base)}..${hex(m.base + m.bytesPerUnit - 1)} in each ${uname}` });
  const shortUnits =
    mem === 'INTERLEAVED' ? `${plural(m.pages, 'page')} over ${plural(m.units, 'bank')}` : `${plural(m.nShards, 'shard')} on ${plural(used, uname)}`;
  return {
    model: 'tt',
    elements: m.numel,
    slots,
    paddingSlots: slots - m.numel,
    bytes: total,
    breakdown: br,
    paddingPercent: br.padding + element ? (100 * br.padding) / (br.padding + element) : 0,
    units: { kind: uname, count: m.units, used, bytesPerUnit: m.bytesPerUnit, pages: groups, slotsPerUnit: m.slotsPerUnit },
    blocks: { name: 'page', count: m.pages, bytes: geo.pageSize },
    short: `${bytes(total)} · ${shortUnits} · ${bytes(m.bytesPerUnit)}/${uname} · ${percent(br.padding, br.padding + element)} padding`,
    facts,
  };
}
