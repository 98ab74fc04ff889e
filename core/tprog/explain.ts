/** Human-readable explanations of terms and transfers (hover, previews, CLI). */
import type { StmtInfo, TermInfo } from './analyze';
import { enumerate, invalidCount, type Descriptor, type Element } from './descriptor';
import { byteAddress as hex } from '../common/address';
import { mdCode, mdText } from '../common/markdown';

/** `b:e` or `b:s:e` of a level, with the source text where the value is only known at run time. */
function levelRange(l: Descriptor['levels'][number]): string {
  const r = l.index?.range;
  const b = l.begin ?? r?.begin?.text ?? l.index?.single?.text ?? '?';
  const e =
    l.begin !== undefined && l.count !== undefined && l.step !== undefined
      ? l.begin + (l.count - 1) * l.step
      : (r?.end?.text ?? (l.index?.kind === 'single' ? b : '?'));
  const st = l.step === 1 ? '' : `:${l.step ?? r?.step?.text ?? '?'}`;
  return l.index?.kind === 'single' || (l.count === 1 && l.begin !== undefined) ? String(b) : `${b}${st}:${e}`;
}

export function shapeText(d: Descriptor): string {
  return d.levels.map((l) => (l.count === undefined ? '?' : String(l.count))).join('×') || '1';
}

/** One-paragraph summary of a term: space, dims, ranges, count, type, address range (Markdown: program text escaped). */
export function termSummary(ti: TermInfo): string[] {
  const d = ti.desc;
  const t = ti.term;
  const out: string[] = [];
  const typeName = d.dtype ?? d.dtypeText;
  if (d.space === 'CONST') {
    out.push(
      `**constant** ${mdText(`${d.dtypeText}(${t.constValue?.text ?? ''})`)}` +
        `${d.constValue !== undefined && String(d.constValue) !== t.constValue?.text ? ` = ${d.constValue}` : ''}` +
        ' — every destination element receives this value',
    );
    return out;
  }
  if (d.space === 'MEM' || d.space === 'SCRATCH') {
    const dims = d.dims ?? [];
    out.push(`**${mdText(d.written)}** ${d.space === 'MEM' ? 'external memory (byte-addressed)' : 'scratch-pad (32 KB, byte-addressed)'}`);
    const noDims = (t.spec?.items.length ?? 0) <= 1 && !d.bufLimit;
    out.push(
      noDims
        ? `no dimensions given: one dimension of ${dims[0]} elements`
        : `dimensions: ${dims.map((x) => (x === undefined ? '?' : x)).join(' × ')}${d.bufLimit !== undefined ? ` · buffer limit ${d.bufLimit} bytes` : ''}`,
    );
  } else if (d.space === 'PCORE') {
    const m = ti.member;
    out.push(
      `**PCORE** ${d.shared ? 'shared' : 'private'} memory — ` +
        `${d.pcoreShape ? `PCORE array ${d.pcoreShape.join('×')}` : 'PCORE array ?'}${d.shared ? '' : `, threads ${d.threadShape?.join('×') ?? '?'}`}`,
    );
    if (m) out.push(`variable: ${mdText(m.summary)}`);
    else if (t.member)
      out.push(
        `variable: ${mdCode(t.member.name.text)}` +
          `${t.member.name.text === 'root.constant' ? ' (whole shared space, 4096 words)' : ' (not found in the PCORE program)'}`,
      );
    if (d.memberShape) out.push(`variable shape: ${d.memberShape.join('×')}${t.member?.spec ? ' (cast)' : ''}`);
  } else if (d.space === 'SPU') out.push('**SPU** stream-processor lookup tables (REMAP), 256 words per table');
  else if (d.space === 'PROG') out.push('**PROG** PCORE program code (4 words per entry)');
  if (d.levels.length) {
    out.push(
      'iteration (outermost first): ' +
        mdText(d.levels.map((l) => `${l.label}${l.forName ? ` (FOR ${l.forName})` : ''} ${levelRange(l)}${l.wildcard ? ' (broadcast *)' : ''}`).join(', ')),
    );
  }
  const total = d.total;
  const unit = d.dtype ? (d.space === 'PCORE' ? ' (12-bit words)' : ` (${d.elemBytes} byte${d.elemBytes === 1 ? '' : 's'} each)`) : '';
  out.push(`elements: ${total ?? '?'}${d.levels.length > 1 ? ` (${shapeText(d)})` : ''}${typeName ? ` of ${mdText(typeName)}${unit}` : ''}`);
  const bad = invalidCount(d);
  if (bad) out.push(`out of bounds: ${bad} element${bad === 1 ? '' : 's'}`);
  const range = addressRange(d);
  if (range) out.push(mdText(range));
  const pad = t.prefixes.find((p) => p.kind === 'PAD');
  if (pad) out.push(`padding value: ${mdText(pad.arg?.text ?? '')}${d.pad !== undefined && String(d.pad) !== pad.arg?.text ? ` = ${d.pad}` : ''}`);
  return out;
}

/** Address range touched by the valid elements (bytes for MEM/SCRATCH, words for PCORE). */
export function addressRange(d: Descriptor): string | undefined {
  if (d.total === undefined || d.total === 0) return undefined;
  if (d.space === 'MEM' || d.space === 'SCRATCH') {
    if (!d.elemBytes) return undefined;
    const els = d.total <= 65536 ? enumerate(d, d.total) : undefined;
    let lo: number | undefined;
    let hi: number | undefined;
    if (els) {
      for (const e of els) {
        if (!e.valid || e.loc === undefined) continue;
        lo = lo === undefined ? e.loc : Math.min(lo, e.loc);
        hi = hi === undefined ? e.loc : Math.max(hi, e.loc);
      }
    } else {
      lo = 0;
      hi = 0;
      for (const l of d.levels) {
        if (l.begin === undefined || l.count === undefined || l.stride === undefined || l.step === undefined) return undefined;
        const a = l.begin * l.stride;
        const b = (l.begin + (l.count - 1) * l.step) * l.stride;
        lo += Math.min(a, b);
        hi += Math.max(a, b);
      }
    }
    if (lo === undefined || hi === undefined) return undefined;
    const loB = lo * d.elemBytes;
    const hiB = (hi + 1) * d.elemBytes - 1;
    if (d.base !== undefined) return `bytes ${hex(d.base + loB)}–${hex(d.base + hiB)} (${hiB - loB + 1} bytes span)`;
    return `bytes ${d.baseName ?? 'base'}+${loB} … ${d.baseName ?? 'base'}+${hiB} (${hiB - loB + 1} bytes span)`;
  }
  if (d.space === 'PCORE') {
    const els = d.total <= 65536 ? enumerate(d, d.total) : [];
    const locs = els.filter((e) => e.valid && e.loc !== undefined).map((e) => e.loc!);
    if (!locs.length) return undefined;
    const lo = Math.min(...locs);
    const hi = Math.max(...locs);
    return `PCORE words ${pcoreAddr(lo, d.shared)} … ${pcoreAddr(hi, d.shared)}${d.shared ? ' (shared page)' : ''}`;
  }
  return undefined;
}

export function pcoreAddr(w: number, shared?: boolean): string {
  const p = w >> 12;
  const rest = w & 4095;
  return shared ? `(pcore ${p}, word ${rest})` : `(pcore ${p}, thread ${rest >> 8}, word ${rest & 255})`;
}

function cell(d: Descriptor, e: Element, k: number): string {
  const l = d.levels[k];
  return l.wildcard ? '*' : String(e.idx[k]);
}

function srcName(d: Descriptor, ti: TermInfo): string {
  if (d.space === 'MEM') return d.baseName ?? 'p';
  if (d.space === 'SCRATCH') return 'SCRATCH';
  return ti.term.member?.name.text.split(/::|\./).pop() ?? d.written;
}

/** Text of one element as the guide writes it: `p[0][1]`, or the PCORE component indices. */
function elementText(d: Descriptor, ti: TermInfo, e: Element): string {
  if (d.space === 'MEM' || d.space === 'SCRATCH') {
    // natural dimension order
    const dims = d.levels.map((l, k) => ({ dim: l.dim, v: e.idx[k] })).sort((x, y) => x.dim - y.dim);
    return `${srcName(d, ti)}${dims.map((x) => `[${x.v}]`).join('')}`;
  }
  return d.levels.map((_, k) => cell(d, e, k)).join(' ');
}

/** Source element text when its range is only known at run time: `base[begin+n]` for a 1-level term. */
function symbolic(d: Descriptor, ti: TermInfo, n: number): string {
  const lv = d.levels;
  if (lv.length !== 1 || (d.space !== 'MEM' && d.space !== 'SCRATCH')) return '?';
  const idx = lv[0].index;
  const begin = idx?.range?.begin?.text ?? (idx?.kind === 'single' ? idx.single?.text : undefined) ?? '0';
  const step = idx?.range?.step?.text;
  const off = step ? `${n}*${step}` : String(n);
  return `${srcName(d, ti)}[${begin}+${off}]`;
}

export interface TableOptions {
  limit?: number;
}

/** The transfer's first element pairs as a table in the guide's form, with padding and skipped writes marked. */
export function transferTable(info: StmtInfo, opts: TableOptions = {}): string | undefined {
  const limit = opts.limit ?? 16;
  const dst = info.dst;
  const src = info.src;
  if (!dst || !src) return undefined;
  const dd = dst.desc;
  const sd = src.desc;
  if (dd.total === undefined) return undefined;
  const de = enumerate(dd, limit);
  if (!de.length) return undefined;
  const isConst = sd.space === 'CONST';
  const se = isConst ? [] : enumerate(sd, limit);
  const header = dd.space === 'PCORE' ? dd.levels.map((l) => l.label) : [`${dd.written}`];
  const srcHeader = isConst ? 'value' : sd.space === 'PCORE' ? sd.levels.map((l) => l.label).join(' ') : sd.written;
  const rows: string[][] = [];
  for (let n = 0; n < de.length; n++) {
    const e = de[n];
    const dcells = dd.space === 'PCORE' ? dd.levels.map((_, k) => cell(dd, e, k)) : [elementText(dd, dst, e)];
    let s: string;
    let note = '';
    if (isConst) s = sd.constValue !== undefined ? String(sd.constValue) : (src.term.constValue?.text ?? '?');
    else if (sd.total !== undefined && n >= sd.total && !sd.repeat) {
      s = '—';
      note = `← source exhausted: PAD ${sd.pad ?? 0}`;
    } else {
      const x = se[sd.total ? n % sd.total : n];
      if (!x) s = symbolic(sd, src, n);
      else {
        s = elementText(sd, src, x);
        if (!x.valid) note = `← out of bound: ${sd.pad ? `PAD ${sd.pad}` : 'replaced with zero'}`;
      }
    }
    if (!e.valid) note = (note ? note + '; ' : '← ') + 'destination out of bound: write skipped';
    rows.push([...dcells, '<=', s, note]);
  }
  const head = [...header, '<=', srcHeader, ''];
  const widths = head.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k].length)));
  const fmt = (r: string[]) =>
    r
      .map((c, k) => c.padEnd(widths[k]))
      .join('  ')
      .trimEnd();
  const lines = [
    fmt(head),
    '-'.repeat(
      Math.min(
        100,
        widths.reduce((x, y) => x + y + 2, 0),
      ),
    ),
    ...rows.map(fmt),
  ];
  if (dd.total > de.length) lines.push(`… ${dd.total - de.length} more (${dd.total} elements in all)`);
  return lines.join('\n');
}
