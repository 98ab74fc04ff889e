/**
 * Resolved tensor descriptors: a term turned into its loop levels (iteration order, counts, strides,
 * bounds), as the tensor engine enumerates it (research §6.2-§6.3). Values that cannot be known
 * statically are `undefined`; the checker then skips what depends on them. The simulator uses the
 * same descriptors with run-time values.
 */
import type { Index, RangeParts, SpecItem, Term } from './ast';
import { canonicalType, elementBytes, LIMITS, type DataType } from './machineConstants';
import type { MemberInfo } from './pcoreView';

export type Eval = (text: string) => number | undefined;

export type LevelKind = 'pcore' | 'thread' | 'member' | 'dim' | 'flat';

export interface Level {
  kind: LevelKind;
  /** Column label for tables: PCORE, THREAD, var, p[0]... */
  label: string;
  /** Position of the index within its component (dimension number). */
  dim: number;
  begin: number | undefined;
  step: number | undefined;
  count: number | undefined;
  /** Stride in elements (MEM/SCRATCH) or words (PCORE). */
  stride: number | undefined;
  /** Size used for the bounds check (undefined = unknown or unchecked). */
  size: number | undefined;
  /** Upper bound checked (false for `+` dims). */
  checkHigh: boolean;
  forName?: string;
  wildcard?: boolean;
  index?: Index;
}

export interface Descriptor {
  space: 'PCORE' | 'MEM' | 'SCRATCH' | 'CONST' | 'SPU' | 'PROG' | 'VAR' | 'GLOBAL' | 'OTHER';
  /** Memory space as written (DDR for the guide dialect). */
  written: string;
  dtypeText?: string;
  dtype?: DataType;
  elemBytes: number;
  /** MEM/SCRATCH: byte address of element 0 (aligned); PCORE: word offset of the base. */
  base: number | undefined;
  baseName?: string;
  levels: Level[];
  total: number | undefined;
  bufLimit?: number;
  /** Partial-row bound (`N(R,C)`): the last row holds `lastRow` elements. */
  partial?: { rowLevelDim: number; colLevelDim: number; rows: number | undefined; lastRow: number | undefined };
  member?: MemberInfo;
  shared?: boolean;
  pcoreShape?: number[];
  threadShape?: number[];
  /** Member shape (cast or declared). */
  memberShape?: number[];
  constValue?: number;
  pad: number | undefined;
  repeat: boolean;
  remap?: number;
  dims?: (number | undefined)[];
  problems: { index?: Index; item?: SpecItem; message: string; code: string; severity: 'error' | 'warning' }[];
}

function rangeOf(r: RangeParts | undefined, single: string | undefined, size: number | undefined, ev: Eval) {
  if (single !== undefined) {
    const v = ev(single);
    return { begin: v, step: 1, end: v };
  }
  const begin = r?.begin ? ev(r.begin.text) : 0;
  const step = r?.step ? ev(r.step.text) : 1;
  const end = r?.end ? ev(r.end.text) : size === undefined ? undefined : size - 1;
  return { begin, step, end };
}

export function countOf(begin: number | undefined, step: number | undefined, end: number | undefined): number | undefined {
  if (begin === undefined || step === undefined || end === undefined || step <= 0 || end < begin) return undefined;
  return Math.floor((end - begin) / step) + 1;
}

function product(xs: (number | undefined)[]): number | undefined {
  let p = 1;
  for (const x of xs) {
    if (x === undefined) return undefined;
    p *= x;
  }
  return p;
}

export interface DescribeOptions {
  ev: Eval;
  member?: MemberInfo;
  /** FOR prefixes of the term: name → parts. */
  dialectDefaultType?: DataType;
}

/** Builds the levels of one index of a component. */
function indexLevel(
  idx: Index,
  kind: LevelKind,
  label: string,
  dim: number,
  size: number | undefined,
  stride: number | undefined,
  checkHigh: boolean,
  fors: Map<string, RangeParts>,
  ev: Eval,
): Level {
  let r: { begin: number | undefined; step: number | undefined; end: number | undefined };
  if (idx.kind === 'for') r = rangeOf(fors.get(idx.forName!), undefined, size, ev);
  else if (idx.kind === 'wildcard') r = { begin: 0, step: 1, end: 0 };
  else if (idx.kind === 'placeholder') r = { begin: undefined, step: 1, end: undefined };
  else if (idx.kind === 'range') r = rangeOf(idx.range, undefined, size, ev);
  else r = rangeOf(undefined, idx.single!.text === '' ? '0' : idx.single!.text, size, ev);
  return {
    kind,
    label,
    dim,
    begin: r.begin,
    step: r.step,
    count: countOf(r.begin, r.step, r.end),
    stride: stride === undefined || r.step === undefined ? undefined : stride,
    size,
    checkHigh,
    forName: idx.kind === 'for' ? idx.forName : undefined,
    wildcard: idx.kind === 'wildcard',
    index: idx,
  };
}

/** The last part of `cls::var` or `a.b` (what `.split(/::|\./).pop()` gives), without a regular expression. */
function memberVarName(name: string): string {
  // separators matched left to right without overlap, as the split does
  let start = 0;
  for (let i = 0; i < name.length;) {
    if (name.charCodeAt(i) === 58 && name.charCodeAt(i + 1) === 58) start = i += 2;
    else if (name.charCodeAt(i) === 46) start = i += 1;
    else i++;
  }
  return name.slice(start);
}

/** Resolves a space term (MEM/DDR/SCRATCH/PCORE/constant) to its descriptor. */
export function describe(term: Term, opts: DescribeOptions): Descriptor {
  const { ev } = opts;
  // one pass over the prefixes (this runs for every term of a document)
  let dtypePrefix: Term['prefixes'][number] | undefined;
  let padPrefix: Term['prefixes'][number] | undefined;
  let remapPrefix: Term['prefixes'][number] | undefined;
  let repeat = false;
  let forOrder: string[] | undefined;
  const fors = new Map<string, RangeParts>();
  for (let k = 0; k < term.prefixes.length; k++) {
    const p = term.prefixes[k];
    if (p.kind === 'DTYPE' || p.kind === 'CAST') dtypePrefix ??= p;
    else if (p.kind === 'PAD') padPrefix ??= p;
    else if (p.kind === 'REMAP') remapPrefix ??= p;
    else if (p.kind === 'REPEAT') repeat = true;
    else if (p.kind === 'FOR' && p.forName) {
      (forOrder ??= []).push(p.forName.text);
      if (p.forRange) fors.set(p.forName.text, p.forRange);
    }
  }
  const dtypeText = dtypePrefix?.arg?.text;
  const written = term.space ?? (term.kind === 'const' ? term.constType! : term.kind.toUpperCase());
  const d: Descriptor = {
    space: 'OTHER',
    written,
    dtypeText,
    dtype: canonicalType(dtypeText),
    elemBytes: 2,
    base: undefined,
    levels: [],
    total: undefined,
    pad: padPrefix ? ev(padPrefix.arg!.text) : 0,
    repeat,
    remap: remapPrefix ? ev(remapPrefix.arg!.text) : undefined,
    problems: [],
  };
  if (term.kind === 'const') {
    d.space = 'CONST';
    d.dtypeText = term.constType;
    d.dtype = canonicalType(term.constType);
    d.constValue = term.constValue ? ev(term.constValue.text) : undefined;
    d.total = undefined;
    return d;
  }
  if (term.kind !== 'space') {
    d.space = term.kind === 'var' ? 'VAR' : 'GLOBAL';
    return d;
  }
  const sp = term.space;
  if (sp === 'MEM' || sp === 'DDR' || sp === 'SCRATCH') {
    d.space = sp === 'SCRATCH' ? 'SCRATCH' : 'MEM';
    if (!d.dtype && !dtypeText && (sp === 'SCRATCH' || sp === 'DDR')) d.dtype = opts.dialectDefaultType ?? 'INT16';
    d.elemBytes = d.dtype ? elementBytes(d.dtype) : dtypeText ? 0 : 2;
    const items = term.spec?.items ?? [];
    const addr = items[0];
    let dimItems: SpecItem[] = items.slice(1);
    if (addr) {
      d.baseName = addr.expr.text;
      const a = ev(addr.expr.text);
      d.base = a === undefined || !d.elemBytes ? a : a & ~(d.elemBytes - 1);
    }
    let partialAt = -1;
    let partialN: number | undefined;
    if (addr?.group) d.bufLimit = ev(addr.expr.text);
    const groupIdx = dimItems.findIndex((it) => it.group);
    if (groupIdx >= 0) {
      const g = dimItems[groupIdx];
      if (groupIdx === 0 && dimItems.length === 1) {
        d.bufLimit = ev(g.expr.text);
        dimItems = g.group!;
      } else {
        partialAt = groupIdx;
        partialN = ev(g.expr.text);
        dimItems = [...dimItems.slice(0, groupIdx), ...g.group!, ...dimItems.slice(groupIdx + 1)];
      }
    }
    const defaultSize = d.space === 'MEM' ? LIMITS.memDefaultDim : LIMITS.scratchBytes;
    const sizes = dimItems.length ? dimItems.map((it) => ev(it.expr.text)) : [defaultSize];
    const plus = dimItems.length ? dimItems.map((it) => it.plus) : [false];
    d.dims = sizes;
    // element strides: product of later sizes (partial-row block uses N instead of R*C)
    const strides: (number | undefined)[] = sizes.map((_, k) => {
      let p: number | undefined = 1;
      for (let q = k + 1; q < sizes.length; q++) {
        if (partialAt >= 0 && q === partialAt && k < partialAt) {
          p = p === undefined || partialN === undefined ? undefined : p * partialN;
          q++;
          continue;
        }
        p = p === undefined || sizes[q] === undefined ? undefined : p * sizes[q]!;
      }
      return p;
    });
    const name = sp === 'SCRATCH' ? 'SCRATCH' : addr?.expr.text || sp;
    term.indices.forEach((idx, k) => {
      if (k >= sizes.length) return;
      d.levels.push(indexLevel(idx, 'dim', `${name}[${k}]`, k, sizes[k], strides[k], !plus[k], fors, ev));
    });
    if (partialAt >= 0) {
      const R = sizes[partialAt];
      const C = sizes[partialAt + 1];
      d.partial = {
        rowLevelDim: partialAt,
        colLevelDim: partialAt + 1,
        rows: R,
        lastRow: partialN === undefined || R === undefined || C === undefined ? undefined : partialN - (R - 1) * C,
      };
    }
  } else if (sp === 'PCORE') {
    d.space = 'PCORE';
    d.elemBytes = 0;
    const m = opts.member;
    d.member = m;
    const items = term.spec?.items ?? [];
    let pshape: (number | undefined)[];
    if (items.length === 0) pshape = [LIMITS.numPcore];
    else if (items.length === 1) pshape = [ev(items[0].expr.text)];
    else {
      const a = items[0].expr.text === '' ? undefined : ev(items[0].expr.text);
      const b = items[1].expr.text === '' ? undefined : ev(items[1].expr.text);
      pshape = [items[0].expr.text === '' && b ? LIMITS.numPcore / b : a, items[1].expr.text === '' && a ? LIMITS.numPcore / a : b];
    }
    d.pcoreShape = pshape.every((x) => x !== undefined) ? (pshape as number[]) : undefined;
    const shared = m ? m.storage === 'shared' || m.fullName === 'root.constant' : term.member?.name.text === 'root.constant';
    d.shared = shared;
    const threadItems = term.thread?.spec?.items;
    const tshape: (number | undefined)[] = shared ? [] : threadItems && threadItems.length ? threadItems.map((it) => ev(it.expr.text)) : [LIMITS.numThread];
    d.threadShape = tshape.every((x) => x !== undefined) ? (tshape as number[]) : undefined;
    const main = term.indices;
    const pcoreIdx = main.slice(0, pshape.length);
    const threadIdx = term.thread ? term.thread.indices : shared ? [] : main.slice(pshape.length, pshape.length + 1);
    pcoreIdx.forEach((idx, k) => {
      const stride = pshape.length === 2 && k === 0 ? (pshape[1] === undefined ? undefined : 4096 * pshape[1]) : 4096;
      d.levels.push(indexLevel(idx, 'pcore', pshape.length === 2 ? `PCORE[${k}]` : 'PCORE', k, pshape[k], stride, true, fors, ev));
    });
    threadIdx.forEach((idx, k) => {
      const size = tshape.length === 2 ? tshape[k] : LIMITS.numThread;
      const stride = tshape.length === 2 && k === 0 ? (tshape[1] === undefined ? undefined : 256 * tshape[1]) : 256;
      d.levels.push(indexLevel(idx, 'thread', tshape.length === 2 ? `THREAD[${k}]` : 'THREAD', k, size, stride, true, fors, ev));
    });
    const castItems = term.member?.spec?.items;
    const mshape: (number | undefined)[] | undefined = castItems && castItems.length ? castItems.map((it) => ev(it.expr.text)) : m?.shape;
    d.memberShape = mshape && mshape.every((x) => x !== undefined) ? (mshape as number[]) : undefined;
    const varName = memberVarName(term.member?.name.text ?? 'var');
    let base: number | undefined = m?.offset ?? (term.member?.name.text === 'root.constant' ? 0 : undefined);
    const midx = term.member?.indices ?? [];
    if (midx.length === 0) {
      const len = m ? (castItems && castItems.length ? product(mshape ?? []) : m.len) : undefined;
      d.levels.push({ kind: 'flat', label: varName, dim: 0, begin: 0, step: 1, count: len, stride: 1, size: len, checkHigh: true });
    } else if (mshape && midx.length === mshape.length) {
      const dimSize = mshape.map((_, k) => product(mshape.slice(k + 1)));
      let anyRange = false;
      midx.forEach((idx, k) => {
        const lvl = indexLevel(idx, 'member', midx.length > 1 ? `${varName}[${k}]` : varName, k, mshape[k], dimSize[k], true, fors, ev);
        if (idx.kind === 'single' || idx.kind === 'placeholder') {
          base = base === undefined || lvl.begin === undefined || dimSize[k] === undefined ? undefined : base + lvl.begin * dimSize[k]!;
          if (lvl.begin !== undefined && mshape[k] !== undefined && (lvl.begin < 0 || lvl.begin >= mshape[k]!))
            d.problems.push({
              index: idx,
              code: 'tprog.index-bounds',
              severity: 'warning',
              message: `index ${lvl.begin} is outside dimension ${k} of ${varName} (size ${mshape[k]})`,
            });
        } else {
          anyRange = true;
          d.levels.push(lvl);
        }
      });
      if (!anyRange) d.levels.push({ kind: 'member', label: varName, dim: 0, begin: 0, step: 1, count: 1, stride: 1, size: 1, checkHigh: true });
    } else if (!mshape) {
      // unknown member shape: levels with unknown sizes
      midx.forEach((idx, k) => {
        if (idx.kind !== 'single')
          d.levels.push(indexLevel(idx, 'member', midx.length > 1 ? `${varName}[${k}]` : varName, k, undefined, undefined, true, fors, ev));
      });
    }
    // base: single-index contributions from pcore/thread levels are part of the levels (count 1)
    d.base = base;
  } else if (sp === 'SPU' || sp === 'PROG') {
    d.space = sp;
    d.dtype = 'INT16';
    d.elemBytes = 2;
    const n = term.spec?.items[0] ? ev(term.spec.items[0].expr.text) : sp === 'SPU' ? LIMITS.spuTables : undefined;
    const count = n === undefined ? undefined : sp === 'SPU' ? n * 256 : n * 4;
    d.levels.push({ kind: 'flat', label: sp, dim: 0, begin: 0, step: 1, count, stride: 1, size: count, checkHigh: true });
  }
  // FOR reordering: FOR-bound levels first, in FOR order
  if (forOrder) {
    const bound = forOrder.map((n) => d.levels.find((l) => l.forName === n)).filter((l): l is Level => !!l);
    const rest = d.levels.filter((l) => !l.forName);
    d.levels = [...bound, ...rest, ...d.levels.filter((l) => l.forName && !bound.includes(l))];
  }
  let total: number | undefined = 1;
  for (let k = 0; k < d.levels.length && total !== undefined; k++) {
    const c = d.levels[k].count;
    total = c === undefined ? undefined : total * c;
  }
  d.total = total;
  return d;
}

export interface Element {
  /** Index value per level (same order as `levels`). */
  idx: number[];
  valid: boolean;
  /** Element offset from the base (MEM/SCRATCH; byte address = base + loc*elemBytes) or word address pcore*4096+thread*256+word (PCORE). */
  loc: number | undefined;
}

/** Validity of one level index (per-dimension rule of §6.3). */
export function levelValid(l: Level, v: number): boolean {
  if (v < 0) return false;
  if (l.checkHigh && l.size !== undefined && v >= l.size) return false;
  return true;
}

/** Enumerates up to `limit` elements of a descriptor in engine order. */
export function enumerate(d: Descriptor, limit: number): Element[] {
  const out: Element[] = [];
  walkElements(d, limit, (idx, valid, loc) => out.push({ idx: idx.slice(), valid, loc }));
  return out;
}

/** Visits up to `limit` elements in engine order; `idx` (index value per level) is reused between calls. */
function walkElements(d: Descriptor, limit: number, visit: (idx: number[], valid: boolean, loc: number | undefined) => void): void {
  const L = d.levels;
  if (L.some((l) => l.count === undefined || l.begin === undefined || l.step === undefined)) return;
  const j = new Array(L.length).fill(0);
  const idx = new Array<number>(L.length).fill(0);
  const total = d.total ?? 0;
  const partial = d.partial && d.partial.rows !== undefined && d.partial.lastRow !== undefined ? d.partial : undefined;
  const r = partial ? L.findIndex((l) => l.kind === 'dim' && l.dim === partial.rowLevelDim) : -1;
  const c = partial ? L.findIndex((l) => l.kind === 'dim' && l.dim === partial.colLevelDim) : -1;
  for (let n = 0; n < total && n < limit; n++) {
    for (let k = 0; k < L.length; k++) idx[k] = L[k].begin! + j[k] * L[k].step!;
    let valid = true;
    let loc: number | undefined = d.space === 'PCORE' ? d.base : 0;
    for (let k = 0; k < L.length; k++) {
      if (!levelValid(L[k], idx[k])) valid = false;
      if (L[k].stride === undefined) loc = undefined;
      else if (loc !== undefined) loc += idx[k] * L[k].stride!;
    }
    if (valid && d.bufLimit !== undefined && loc !== undefined && d.space !== 'PCORE') {
      const off = loc;
      if (off * Math.max(1, d.elemBytes) >= d.bufLimit) valid = false;
    }
    if (valid && partial && r >= 0 && c >= 0 && idx[r] === partial.rows! - 1 && idx[c] >= partial.lastRow!) valid = false;
    visit(idx, valid, loc);
    for (let k = L.length - 1; k >= 0; k--) {
      if (++j[k] < L[k].count!) break;
      j[k] = 0;
    }
  }
}

/** Number of elements outside per-level bounds, by closed form (exact unless a buffer/partial bound applies). */
export function invalidCount(d: Descriptor): number | undefined {
  if (d.total === undefined) return undefined;
  let valid = 1;
  for (const l of d.levels) {
    if (l.begin === undefined || l.step === undefined || l.count === undefined) return undefined;
    let ok = 0;
    // indices begin + j*step for j in [0,count)
    const lo = 0;
    const hi = l.checkHigh && l.size !== undefined ? l.size - 1 : Infinity;
    const jmin = Math.max(0, Math.ceil((lo - l.begin) / l.step));
    const jmax = Math.min(l.count - 1, Math.floor((hi - l.begin) / l.step));
    ok = Math.max(0, jmax - jmin + 1);
    valid *= ok;
  }
  if ((d.bufLimit !== undefined || d.partial) && d.total <= 1 << 20) {
    let bad = 0;
    walkElements(d, d.total, (_idx, ok) => {
      if (!ok) bad++;
    });
    return bad;
  }
  return d.total - valid;
}
