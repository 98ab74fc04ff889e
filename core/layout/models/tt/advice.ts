/** What a valid TT-NN buffer is told: capacity, padding, lockstep allocation, channel offsets, GRID_2D. */
import { issue, type Issue } from '../../issues';
import { bytes, hex, list, num, percent, plural } from '../../util';
import type { TTBase } from './base';
import { rangeText } from './spec';
import { summaryTT } from './summary';

/** Warnings and information for a valid buffer (TT010, TT012, TT015–TT018). */
export function adviceTT(m: TTBase): Issue[] {
  const out: Issue[] = [];
  const s = summaryTT(m);
  const geo = m.geo;
  const A = m.arch;
  const mem = m.spec.memory;
  const uname = m.unitKind === 'core' ? 'core' : 'bank';
  if (m.spec.buffer === 'DRAM') {
    if (m.base + m.bytesPerUnit > A.dramBankSize)
      out.push(
        issue(
          'TT012',
          'error',
          `${bytes(m.bytesPerUnit)} per bank at ${hex(m.base)} does not fit in a ${bytes(A.dramBankSize)} DRAM bank of ${A.name}`,
          '@layout',
        ),
      );
  } else {
    const top = A.l1Size;
    if (m.base + m.bytesPerUnit > top)
      out.push(
        issue(
          'TT012',
          'error',
          `${bytes(m.bytesPerUnit)} per ${uname} at ${hex(m.base)} does not fit in the ${bytes(top)} of worker L1 on ${A.name}`,
          '@layout',
        ),
      );
    else if (m.spec.base !== undefined && m.base < A.l1Reserved)
      out.push(issue('TT012', 'error', `L1 below ${hex(A.l1Reserved)} is reserved on this target; the buffer starts at ${hex(m.base)}`, '@at'));
  }
  // only ROW_MAJOR pages can miss: a tile page is a multiple of 8 B (at least 16 elements of at least 4 bits, exponents in 16-byte steps)
  if (geo.pageSize % 4 !== 0)
    out.push(
      issue(
        'TT010',
        'warning',
        `ROW_MAJOR page of ${geo.pageSize} B is not a multiple of 4: older tt-metal versions reject it (validate_buffer_parameters)`,
        '@shape',
      ),
    );
  if (s.paddingPercent > 50)
    out.push(
      issue(
        'TT015',
        'warning',
        `${percent(s.breakdown.padding, s.breakdown.padding + s.breakdown.element)} of the page bytes are padding: ${list(m.shape)} is stored ` +
          `as ${num(geo.physH)}×${num(geo.physW)}${geo.g ? ` in ${plural(m.pages, 'tile')}` : ''}`,
        '@shape',
      ),
    );
  if (mem === 'INTERLEAVED' && m.pages % m.units !== 0) {
    const full = m.pages % m.units;
    out.push(
      issue(
        'TT016',
        'information',
        // every page in the first round (fewer pages than banks): the banks after them get none
        full === m.pages
          ? `${plural(m.pages, 'page')} over ${plural(m.units, 'bank')}: banks ${m.pages}–${m.units - 1} get no page but ` +
              `reserve ${bytes(m.bytesPerUnit)} too (lockstep allocation)`
          : `banks ${full}–${m.units - 1} hold one page fewer than banks 0–${full - 1} but reserve the same ${bytes(m.bytesPerUnit)} (lockstep ` +
              'allocation)',
        '@layout',
      ),
    );
  }
  const used = s.units!.used; // the TT summary always counts its units
  if (mem !== 'INTERLEAVED' && used < m.units)
    out.push(
      issue(
        'TT016',
        'information',
        `${m.units - used} of the ${plural(m.units, uname)} in the grid get no shard but reserve ${bytes(m.bytesPerUnit)} at the ` +
          'same address (lockstep allocation)',
        'grid',
      ),
    );
  if (m.spec.buffer === 'DRAM') {
    // the banks that hold data: interleaved, the first min(pages, banks); sharded, those given a shard (x of the grid is the bank)
    const banks =
      mem === 'INTERLEAVED'
        ? Array.from({ length: Math.min(m.pages, m.units) }, (_, b) => b)
        : m.cores.filter((_, u) => m.slotSource(u, 0).kind !== 'unused').map((c) => c[0]);
    const off = banks.filter((b) => A.dramOffsets[b]);
    if (off.length)
      out.push(
        issue(
          'TT017',
          'information',
          `on ${A.name} DRAM bank${off.length > 1 ? 's' : ''} ${off.slice(0, 6).join(', ')}${off.length > 6 ? ', …' : ''} ` +
            `carr${off.length > 1 ? 'y' : 'ies'} a +${bytes(A.dramOffsets[off[0]])} channel offset: the channel address is the bank address plus it`,
          '@layout',
        ),
      );
  }
  if (mem === 'BLOCK_SHARDED') {
    const r = m.spec.grid![0];
    const gx = r.x1 - r.x0 + 1;
    const gy = r.y1 - r.y0 + 1;
    const rm = (m.spec.orientation ?? 'ROW_MAJOR') === 'ROW_MAJOR';
    const [nx, ny] = rm ? [m.nCol, m.nRow] : [m.nRow, m.nCol];
    if (gx !== nx || gy !== ny)
      out.push(
        issue(
          'TT018',
          'warning',
          `the ${gx}×${gy} grid is larger than the ${nx}×${ny} shard grid: legacy buffers give shard k to the k-th core of the enumerated grid, newer ` +
            `ones (GRID_2D) to core (x0+${rm ? 'C' : 'R'}, y0+${rm ? 'R' : 'C'}); this preview uses GRID_2D`,
          'grid',
          {
            fixes: [
              {
                title: `Use grid ${rangeText({ x0: r.x0, y0: r.y0, x1: r.x0 + nx - 1, y1: r.y0 + ny - 1 })}`,
                field: 'grid',
                newText: rangeText({ x0: r.x0, y0: r.y0, x1: r.x0 + nx - 1, y1: r.y0 + ny - 1 }),
                preferred: true,
              },
            ],
          },
        ),
      );
  }
  return out;
}
