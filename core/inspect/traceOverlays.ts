/**
 * Overlays of a run for the memory inspector, from what the run reports: every transfer term's address
 * range (a trace step's `written` range belongs to the term left of `<=`, its `read` range to the term
 * on the right), named by the term's text (`MEM(req->output)[from:to]`, `$A`), plus the C globals of
 * the host program. And the reverse, for the editor: which range of the run a term under the cursor
 * stands for.
 */
import { unitBytesOf } from '../sim/spaces';
import type { ElemType, Overlay } from '../protocol/webview';
import type { TraceStep, Touched } from '../protocol/trace';

/** A C global of the host program (the simulator's GlobalInfo, as the run result carries it). */
export interface RunGlobal {
  name: string;
  /** MEM byte address. */
  address: number;
  size: number;
  /** C type, e.g. `int16_t [2048]`. */
  type: string;
  file?: string;
  line?: number;
}

/** Most overlays built from one trace (a long loop touches a new range each iteration). */
export const MAX_TRACE_OVERLAYS = 4096;

export interface TermSplit {
  /** Destination and source term texts as written (trimmed), and where they start in the statement text. */
  dst: string;
  src: string;
  dstStart: number;
  srcStart: number;
  /** Index of `<=` in the text. */
  arrow: number;
}

/** Splits a transfer statement's text at its top-level `<=` (undefined when it has none). */
export function splitTransfer(text: string): TermSplit | undefined {
  let depth = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && c === '<' && text[i + 1] === '=') {
      const left = text.slice(0, i);
      const right = text.slice(i + 2);
      const dstStart = left.length - left.trimStart().length;
      const srcStart = i + 2 + (right.length - right.trimStart().length);
      return { dst: left.trim().replace(/^>\s*/, ''), src: right.trim().replace(/;\s*$/, ''), dstStart, srcStart, arrow: i };
    }
  }
  return undefined;
}

const PREFIX = new RegExp(
  String.raw`^(?:>\s*|CONCURRENT\b\s*|LATEST\b\s*|(?:DTYPE|REMAP|FOR|SCATTER|PROC)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*|` +
    String.raw`\(\s*(?:unsigned\s+|signed\s+)?(?:char|short|int|int8|int16|uint8|half|float)\s*\)\s*)`,
  'i',
);

/** A term's display name: its text without the prefixes (`DTYPE(..)`, `FOR(..)`, casts, `CONCURRENT`). */
export function termName(term: string): string {
  let t = term.trim();
  for (let i = 0; i < 32; i++) {
    const m = PREFIX.exec(t);
    if (!m || m[0].length === 0) break;
    t = t.slice(m[0].length);
  }
  return t.replace(/\s+/g, ' ').trim() || term.trim();
}

/** The element type a term's `DTYPE(...)` or cast gives (INT16 when none). */
export function termDtype(term: string): 'INT8' | 'UINT8' | 'INT16' {
  const m = /DTYPE\s*\(\s*(\w+)\s*\)|\(\s*(unsigned\s+char|char|short|int8|uint8|int16)\s*\)/i.exec(term);
  const t = (m?.[1] ?? m?.[2] ?? '').toUpperCase().replace(/\s+/g, ' ');
  if (t === 'INT8' || t === 'CHAR') return 'INT8';
  if (t === 'UINT8' || t === 'UNSIGNED CHAR') return 'UINT8';
  return 'INT16';
}

/** The variable a name refers to: `$out_pc` of `$out_pc[1]`, `inbuf` of `inbuf+16`. */
export function baseName(name: string): string {
  const m = /^\$?[A-Za-z_][\w:.]*/.exec(name.trim());
  return m ? m[0] : name.trim();
}

function elemTypeOf(space: string, dtype: 'INT8' | 'UINT8' | 'INT16'): { type: ElemType; elemBytes: number } {
  if (unitBytesOf(space) === 2) return { type: 'w12', elemBytes: 2 };
  return dtype === 'INT16' ? { type: 'i16', elemBytes: 2 } : { type: dtype === 'INT8' ? 'i8' : 'u8', elemBytes: 1 };
}

/** C scalar types the inspector can decode, by C type name. */
const C_TYPES: Record<string, ElemType> = {
  int8_t: 'i8',
  char: 'i8',
  'signed char': 'i8',
  uint8_t: 'u8',
  'unsigned char': 'u8',
  int16_t: 'i16',
  short: 'i16',
  uint16_t: 'u16',
  'unsigned short': 'u16',
  int32_t: 'i32',
  int: 'i32',
  long: 'i32',
  uint32_t: 'u32',
  unsigned: 'u32',
  'unsigned int': 'u32',
  float: 'f32',
};
const TYPE_BYTES: Record<ElemType, number> = { u8: 1, i8: 1, u16: 2, i16: 2, w12: 2, f16: 2, bf16: 2, u32: 4, i32: 4, f32: 4 };

/** Element type and shape of a C type string (`int16_t [2048]`, `float [4][4]`); undefined for others. */
export function cTypeShape(type: string): { type: ElemType; shape: number[] } | undefined {
  const m = /^\s*((?:(?:const|volatile|static)\s+)*)([A-Za-z_][\w ]*?)\s*((?:\[\s*\d+\s*\]\s*)*)$/.exec(type);
  if (!m) return undefined;
  const t = C_TYPES[m[2].replace(/\s+/g, ' ')];
  if (!t) return undefined;
  const shape = [...m[3].matchAll(/\[\s*(\d+)\s*\]/g)].map((x) => Number(x[1]));
  return { type: t, shape: shape.length ? shape : [1] };
}

/**
 * The block a sparse PCORE range is when its element count says so: words `p·4096 + t·256 + w` of
 * private memory (`p·4096 + w` of shared) for every pcore, thread and word of the range's extent.
 */
export function pcoreBlock(t: Touched): { shape: number[]; strides: number[]; dims: string[] } | undefined {
  if (!/^PCORE\d/.test(t.space)) return undefined;
  const shared = t.space.endsWith('S');
  const d = t.hi - t.lo;
  const lo = t.lo;
  if (shared) {
    const np = Math.floor(d / 4096) + 1;
    const nw = (d % 4096) + 1;
    if (np * nw !== t.count || (lo % 4096) + nw > 4096) return undefined;
    return { shape: [np, nw], strides: [4096, 1], dims: ['pcore', 'word'] };
  }
  const np = Math.floor(d / 4096) + 1;
  const nt = Math.floor((d % 4096) / 256) + 1;
  const nw = (d % 256) + 1;
  if (np * nt * nw !== t.count || (lo % 256) + nw > 256 || ((lo % 4096) >> 8) + nt > 16) return undefined;
  return { shape: [np, nt, nw], strides: [4096, 256, 1], dims: ['pcore', 'thread', 'word'] };
}

const dimOrder = new WeakMap<readonly number[], number[]>();

/** True when byte `offset` belongs to an element of the overlay (strided overlays have gaps). */
export function overlayCovers(o: Overlay, offset: number): boolean {
  const rel = offset - o.offset;
  if (rel < 0 || rel >= o.length) return false;
  const st = o.strides;
  if (!st || !o.shape) return true;
  const el = o.elemBytes ?? (o.type ? TYPE_BYTES[o.type] : 1);
  let rem = Math.floor(rel / el);
  let order = dimOrder.get(st);
  if (!order) dimOrder.set(st, (order = st.map((_, i) => i).sort((a, b) => Math.abs(st[b]) - Math.abs(st[a]))));
  for (const dd of order) {
    const k = st[dd];
    if (k <= 0) continue;
    const c = Math.min(o.shape[dd] - 1, Math.floor(rem / k));
    rem -= c * k;
  }
  return rem === 0;
}

const runCache = new WeakMap<Overlay, number>();

/** Shortest run of consecutive covered bytes a strided overlay has (its elements × the innermost unit-stride extent). */
export function runBytes(o: Overlay): number {
  let r = runCache.get(o);
  if (r !== undefined) return r;
  const el = o.elemBytes ?? (o.type ? TYPE_BYTES[o.type] : 1);
  r = el;
  if (o.strides && o.shape) {
    const d = o.strides.indexOf(1);
    if (d >= 0 && o.strides.every((k, i) => i === d || Math.abs(k) >= o.shape![d])) r = el * Math.max(1, o.shape[d]);
  } else r = o.length;
  runCache.set(o, r);
  return r;
}

/** Does any byte of [lo, hi) belong to an element of the overlay? */
export function overlayTouches(o: Overlay, lo: number, hi: number): boolean {
  const a = Math.max(lo, o.offset);
  const b = Math.min(hi, o.offset + o.length);
  if (a >= b) return false;
  if (!o.strides) return true;
  // runs at least as long as the window: one that meets it holds its first or last byte
  if (runBytes(o) >= b - a) return overlayCovers(o, a) || overlayCovers(o, b - 1);
  for (let j = a; j < b; j++) if (overlayCovers(o, j)) return true;
  return false;
}

/**
 * The overlays of a run: one per distinct (term, space, range) of the trace's transfers, then the C
 * globals. Colours follow the name (every range of one term has the same colour).
 */
export function traceOverlays(trace: readonly TraceStep[], globals: readonly RunGlobal[] = [], max = MAX_TRACE_OVERLAYS): Overlay[] {
  const out: Overlay[] = [];
  const seen = new Map<string, Overlay>();
  const colors = new Map<string, number>();
  const colorOf = (name: string) => {
    let c = colors.get(name);
    if (c === undefined) colors.set(name, (c = colors.size % 8));
    return c;
  };
  const add = (s: TraceStep, t: Touched, term: string, role: 'written' | 'read') => {
    const unit = unitBytesOf(t.space);
    const name = termName(term);
    const offset = t.lo * unit;
    const length = (t.hi - t.lo + 1) * unit;
    const key = `${name}\u0000${t.space}\u0000${offset}\u0000${length}`;
    const had = seen.get(key);
    if (had) return;
    if (out.length >= max) return;
    const { type, elemBytes } = elemTypeOf(t.space, termDtype(term));
    const dense = t.count >= t.hi - t.lo + 1;
    const elements = Math.floor(length / elemBytes);
    const at = `${s.file.split(/[\\/]/).pop()}:${s.line}`;
    const o: Overlay = {
      id: `t${out.length}:${name}`,
      name,
      space: t.space,
      offset,
      length,
      kind: name.startsWith('$') ? 'variable' : 'tensor',
      type,
      elemBytes,
      color: colorOf(name),
      detail:
        `${role} by ` +
        `step ${s.step} (${at})${dense ? `, ${elements} elements` : `, ${t.count} of ${t.hi - t.lo + 1} ${unit > 1 ? 'words' : 'bytes'} in this range`}`,
      decl: { file: s.file, line: Math.max(1, s.line), column: Math.max(1, s.column) },
    };
    // a dense range is a vector of its elements (hover gives the element index); a sparse PCORE range
    // that is a whole block of pcores × threads × words is that block; other sparse ranges have no coordinate
    if (dense && elements > 0 && length % elemBytes === 0) o.shape = [elements];
    else if (!dense) {
      const b = pcoreBlock(t);
      if (b) {
        o.shape = b.shape;
        o.strides = b.strides;
        o.detail = `${role} by step ${s.step} (${at}), ${b.shape.join('×')} words (${b.dims.join(' × ')})`;
      }
    }
    seen.set(key, o);
    out.push(o);
  };
  for (const s of trace) {
    if (!s.read && !s.written) continue;
    const sp = splitTransfer(s.text);
    if (s.written) add(s, s.written, sp ? sp.dst : s.text, 'written');
    if (s.read) add(s, s.read, sp ? sp.src : s.text, 'read');
  }
  for (const g of globals) {
    if (out.length >= max) break;
    if (!(g.address >= 0) || !(g.size > 0)) continue;
    const ts = cTypeShape(g.type);
    const o: Overlay = {
      id: `g:${g.name}`,
      name: g.name,
      space: 'MEM',
      offset: g.address,
      length: g.size,
      kind: 'global',
      color: colorOf(g.name),
      detail: `C ${g.type}`,
    };
    if (ts && ts.shape.reduce((a, b) => a * b, 1) * TYPE_BYTES[ts.type] === g.size) {
      o.type = ts.type;
      o.elemBytes = TYPE_BYTES[ts.type];
      o.shape = ts.shape;
    }
    if (g.file && g.line) o.decl = { file: g.file, line: g.line };
    out.push(o);
  }
  return out;
}

/**
 * The range a name typed in “go to” stands for: an overlay of that exact name (the latest range of a
 * term the trace touched several times), else one whose variable is that name (`$out_pc` for
 * `$out_pc[1]`, `inbuf` for a global). `name+N` adds N address units.
 */
export function resolveName(
  overlays: readonly Overlay[],
  text: string,
  space?: string,
): { space: string; offset: number; length: number; label: string } | undefined {
  const m = /^\s*(.+?)\s*(?:\+\s*(0x[0-9a-f]+|\d+))?\s*$/i.exec(text);
  if (!m) return undefined;
  const name = m[1].replace(/\s+/g, ' ');
  const plus = m[2] ? Number(m[2]) : 0;
  // the latest matching range, in `space` when there is one there
  const pick = (pred: (o: Overlay) => boolean): Overlay | undefined => {
    const all = overlays.filter(pred);
    const here = space ? all.filter((o) => o.space === space) : [];
    const list = here.length ? here : all;
    return list[list.length - 1];
  };
  const bare = name.replace(/^\$/, '');
  const o =
    pick((x) => x.name === name) ??
    pick((x) => x.kind === 'global' && x.name === bare) ??
    pick((x) => baseName(x.name) === name || baseName(x.name) === `$${bare}`);
  if (!o) return undefined;
  const unit = unitBytesOf(o.space);
  return { space: o.space, offset: o.offset + plus * unit, length: plus ? unit : o.length, label: o.name };
}

/** A position in a statement: `line` 1-based, `column` 1-based, inside `lines` (the document's lines, 0-based array). */
export interface EditorPoint {
  file: string;
  line: number;
  column: number;
}

/**
 * The side of the transfer statement starting at `stmtLine` (1-based) the point is on: `dst` left of
 * `<=`, `src` right of it; undefined when the statement has no `<=` in `lines`.
 */
export function sideAt(lines: readonly string[], stmtLine: number, endLine: number, line: number, column: number): 'dst' | 'src' | undefined {
  for (let l = stmtLine; l <= Math.max(stmtLine, endLine) && l <= lines.length; l++) {
    const sp = splitTransfer(lines[l - 1]);
    const idx = sp ? sp.arrow : -1;
    if (idx < 0) continue;
    if (line < l) return 'dst';
    if (line > l) return 'src';
    return column - 1 < idx ? 'dst' : column - 1 >= idx + 2 ? 'src' : undefined;
  }
  return undefined;
}

/** Same file? (trace files are paths; editors may give a path with other separators). */
function sameFile(a: string, b: string): boolean {
  const n = (x: string) => x.replace(/\\/g, '/').replace(/^file:\/\//, '');
  return n(a) === n(b);
}

/**
 * The bytes the term under the cursor stands for in the run: the range the statement at the point
 * wrote (left of `<=`) or read (right of it) at the latest execution at or before `atStep` (else its
 * first execution); for a `$name` under the cursor outside a transfer, that variable's latest range.
 */
export function rangeAtPoint(
  trace: readonly TraceStep[],
  overlays: readonly Overlay[],
  lines: readonly string[],
  p: EditorPoint,
  atStep = Number.POSITIVE_INFINITY,
): { space: string; offset: number; length: number; label: string; step?: number } | undefined {
  let chosen: TraceStep | undefined;
  let first: TraceStep | undefined;
  for (const s of trace) {
    if (p.line < s.line || p.line > Math.max(s.line, s.endLine) || !sameFile(s.file, p.file)) continue;
    if (!s.read && !s.written) continue;
    if (!first) first = s;
    if (s.step <= atStep) chosen = s;
  }
  const s = chosen ?? first;
  if (s) {
    const side = sideAt(lines, s.line, s.endLine, p.line, p.column);
    const t = side === 'dst' ? s.written : side === 'src' ? s.read : undefined;
    if (t) {
      const unit = unitBytesOf(t.space);
      const sp = splitTransfer(s.text);
      const term = sp ? (side === 'dst' ? sp.dst : sp.src) : s.text;
      return {
        space: t.space,
        offset: t.lo * unit,
        length: (t.hi - t.lo + 1) * unit,
        label: `${termName(term)} (${side === 'dst' ? 'written' : 'read'} by step ${s.step})`,
        step: s.step,
      };
    }
  }
  // a $variable under the cursor
  const text = lines[p.line - 1] ?? '';
  const re = /\$[A-Za-z_]\w*/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (p.column - 1 < m.index || p.column - 1 > m.index + m[0].length) continue;
    const r = resolveName(overlays, m[0]);
    if (r) return r;
  }
  return undefined;
}
