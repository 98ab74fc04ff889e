/**
 * Checker of `.tlayout` files: resolves targets, turns each tensor's layout terms (native `spyre(…)`,
 * `tt(…)`, `cells(…)`, `strided(…)`, `fibers(…)` and pasted `SpyreTensorLayout(…)` / `ttnn.…` forms)
 * into a model spec, runs the model's validation catalogue, builds the model, evaluates probes and
 * runs the file-level checks (duplicate names, overlapping placements, out of memory).
 */
import type { Diagnostic, Fix, Range, Severity, TextEdit } from '../common/diagnostic';
import type { LineIndex } from '../common/lineIndex';
import type { Arg, CallValue, DimItem, LayoutFile, NameValue, ProbeStmt, Span, TargetStmt, TensorStmt, Value } from './ast';
import { type DType, DTYPE_SPELLINGS, parseDtype } from './dtypes';
import type { Issue } from './issues';
import type { ForwardBase, InverseResult, LayoutSummary, ModelKind, Placement } from './model';
import { CellLayout, validateCells } from './models/cells';
import { SparseLayout, type SparsePlacement, validateSparse } from './models/sparse';
import { dimMapToStrideMap, SpyreLayout, type SpyreLayoutSpec, validateSpyre } from './models/spyre';
import { StridedLayout, validateStrided } from './models/strided';
import { type CoreRange, type TTMemory, type TTOrientation, TTLayout, type TTSpec, validateTT } from './models/tt';
import { type TTArch, TT_ARCH_PROPS, TT_ARCHS, withOverrides } from './models/ttArch';
import { closest } from './parse';
import { hex, list, roundUp } from './util';

export type AnyModel = SpyreLayout | TTLayout | CellLayout | StridedLayout | SparseLayout;
export type Family = ModelKind;

export interface CheckOptions {
  /**
   * Resolves `fibers(file="…")` to a placement (the host wires the `.csfbin` codec here; the layout
   * engine never reads files). `from` is the path of the `.tlayout` file. Return undefined when the
   * file cannot be read; throw an Error with a message when it is invalid.
   */
  loadSparse?: (file: string, from: string) => SparsePlacement | undefined;
  file?: string;
}

export interface TargetInfo {
  family: 'tt' | 'spyre' | 'npu' | 'host';
  name: string;
  stmt: TargetStmt;
  tt?: TTArch;
  spyreMemory?: number;
  cellBytes?: number;
  capacity?: number;
}

export interface TensorInfo {
  name: string;
  stmt: TensorStmt;
  range: Range;
  nameRange: Range;
  dtype?: DType;
  shape?: number[];
  dimNames: (string | undefined)[];
  family?: Family;
  model?: AnyModel;
  summary?: LayoutSummary;
  /** Why there is no model (first error), when there is none. */
  problem?: string;
}

export interface ProbeInfo {
  stmt: ProbeStmt;
  range: Range;
  kind: 'forward' | 'device' | 'inverse' | 'search';
  tensor?: TensorInfo;
  coord?: number[];
  address?: number;
  unit?: number;
  forward?: ForwardBase;
  inverse?: InverseResult;
  hits?: { tensor: TensorInfo; result: InverseResult }[];
  error?: string;
}

export interface CheckResult {
  targets: TargetInfo[];
  tensors: TensorInfo[];
  probes: ProbeInfo[];
  diagnostics: Diagnostic[];
}

// ---------------------------------------------------------------------------------------------
// vocabulary (shared with completion and hover)

export const MODEL_CALLS: Record<string, Family> = {
  spyre: 'spyre',
  spyretensorlayout: 'spyre',
  tt: 'tt',
  ttnn: 'tt',
  cells: 'cells',
  cell16: 'cells',
  strided: 'strided',
  as_strided: 'strided',
  empty_strided: 'strided',
  fibers: 'sparse',
  csf: 'sparse',
};

export const LAYOUT_ARGS: Record<Family, Record<string, string>> = {
  spyre: {
    device_size: 'device sizes, outermost first; the last is the elements per 128-byte stick',
    dim_map: 'host dim of each device dim (−1 = synthetic sparse dim); a repeated dim is tiled',
    stride_map: 'host-element stride of each device dim (−1 = none, 0 = broadcast)',
    device_dtype: 'device data format, e.g. DataFormats.SEN169_FP16 (checked against the dtype)',
    element_arrangement: 'STANDARD (default), DL16_TO_FP32, FP32_TO_DL16, QFP8CH, QFP8WT, EXX2',
    dim_order: 'default layout: host dims by decreasing stride, stick dim last; a trailing −1 makes it sparse',
    host_strides: 'host strides in elements (default contiguous); used by the stride_map correspondence',
  },
  tt: {
    layout: 'TILE or ROW_MAJOR',
    tile: 'tile shape h×w (default 32x32): 32x32, 16x32, 32x16, 16x16, 8x32, 4x32, 2x32, 1x32, 8x16, 4x16, 2x16, 1x16',
    transpose_tile: 'transposed faces (tile height 16 or 32)',
    buffer: 'DRAM or L1',
    memory: 'interleaved, height_sharded, width_sharded, block_sharded, nd_sharded',
    strategy: 'HEIGHT, WIDTH or BLOCK (same as memory=…_sharded)',
    shard: 'shard shape in elements: [height, width] of the folded 2-D tensor, or one entry per dim for nd_sharded',
    grid: 'cores: (x0,y0)-(x1,y1), a list of ranges, CoreGrid(y=…, x=…) or XxY',
    orientation: 'ROW_MAJOR (x fastest) or COL_MAJOR (y fastest)',
    alignment: 'custom alignment of the last dims (legacy Alignment)',
  },
  cells: {
    order: 'storage order, outermost first, as dim names or indices (default: as written)',
    cell: 'bytes per cell (default 16)',
    relax_rank: 'accept more than 4 dims',
  },
  strided: {
    strides: 'strides in elements (default contiguous)',
    offset: 'storage offset in elements',
    storage: 'storage size in elements',
    size: 'sizes (must match the declared shape)',
  },
  sparse: {
    ptr: 'F+1 fiber pointers (entry offsets), F = product of all dims but the last',
    index: 'index along the last mode of every stored entry',
    main: 'main-memory entry address of the first entry (default 0)',
    meta: 'metadata word address of the header (default 0)',
    file: 'a .csfbin file, read by the host (the language server or CLI)',
    main_capacity: 'main memory size in entries (default 10,000,000)',
    meta_capacity: 'metadata memory size in words (default 1024)',
  },
};

const ARG_ALIASES: Record<string, string> = {
  stride: 'strides',
  storage_offset: 'offset',
  indices: 'index',
  shard_shape: 'shard',
  core_grid: 'grid',
  layout_kind: 'layout',
  memory_layout: 'memory',
  buffer_type: 'buffer',
};

export const TARGETS: Record<string, { family: TargetInfo['family']; doc: string }> = {
  grayskull: { family: 'tt', doc: TT_ARCHS.grayskull.note },
  wormhole_b0: { family: 'tt', doc: TT_ARCHS.wormhole_b0.note },
  blackhole: { family: 'tt', doc: TT_ARCHS.blackhole.note },
  custom: {
    family: 'tt',
    doc:
      'a Tenstorrent-style target with your own banks and alignments; starts from wormhole_b0 values: custom(dram_banks=…, dram_alignment=…, ' +
      'l1_alignment=…, grid=8x8, …)',
  },
  spyre: { family: 'spyre', doc: 'IBM Spyre: 128-byte sticks; spyre(memory=128GiB) sets the device memory checked for out-of-memory' },
  npu: { family: 'npu', doc: 'NPU Core Memory of 16-byte cells: npu(cell=16, capacity=…) sets the cell size and capacity' },
  host: { family: 'host', doc: 'the host (PyTorch strided storage); no capacity checks' },
};
const TARGET_ALIASES: Record<string, string> = {
  wormhole: 'wormhole_b0',
  wh: 'wormhole_b0',
  n150: 'wormhole_b0',
  n300: 'wormhole_b0',
  bh: 'blackhole',
  p150: 'blackhole',
  p100a: 'blackhole',
  gs: 'grayskull',
  e150: 'grayskull',
};

const MEMORY_WORDS: Record<string, TTMemory> = {
  interleaved: 'INTERLEAVED',
  height_sharded: 'HEIGHT_SHARDED',
  width_sharded: 'WIDTH_SHARDED',
  block_sharded: 'BLOCK_SHARDED',
  nd_sharded: 'ND_SHARDED',
  height: 'HEIGHT_SHARDED',
  width: 'WIDTH_SHARDED',
  block: 'BLOCK_SHARDED',
  nd: 'ND_SHARDED',
};

// words of the document index these tables: without a prototype, `constructor`, `__proto__`, `toString` … are not entries
for (const t of [MODEL_CALLS, LAYOUT_ARGS, ...Object.values(LAYOUT_ARGS), ARG_ALIASES, TARGETS, TARGET_ALIASES, MEMORY_WORDS]) Object.setPrototypeOf(t, null);

// ---------------------------------------------------------------------------------------------

interface Field {
  span: Span;
  value?: Value;
  /** False when the value is derived (a replacement would not fix it). */
  fixable?: boolean;
}

class Fields {
  readonly map = new Map<string, Field>();
  constructor(readonly stmt: TensorStmt) {}
  /** Where a missing keyword argument is inserted. */
  primary?: Value;
  set(name: string, f: Field): void {
    this.map.set(name, f);
  }
  get(name: string): Field | undefined {
    return this.map.get(name);
  }
}

const lastPart = (v: NameValue) => v.parts[v.parts.length - 1].text;

class Checker {
  readonly diagnostics: Diagnostic[] = [];
  readonly targets: TargetInfo[] = [];
  readonly tensors: TensorInfo[] = [];
  readonly probes: ProbeInfo[] = [];

  constructor(
    readonly file: LayoutFile,
    readonly lines: LineIndex,
    readonly options: CheckOptions,
  ) {}

  r(span: Span): Range {
    return this.lines.range(span.start, span.end);
  }

  diag(span: Span, severity: Severity, code: string, message: string, fixes?: Fix[]): void {
    this.diagnostics.push({ range: this.r(span), severity, code, message, fixes: fixes?.length ? fixes : undefined });
  }

  edit(span: Span, newText: string): TextEdit {
    return { range: this.r(span), newText };
  }

  // ---- value readers (report TL004 and return undefined on a bad value)

  int(v: Value, what: string, min = 0): number | undefined {
    if (v.kind === 'num' && Number.isInteger(v.value) && v.value >= min) return v.value;
    if (v.kind !== 'error') this.diag(v.span, 'error', 'TL004', `${what} must be an integer ≥ ${min}`);
    return undefined;
  }

  intList(v: Value, what: string, min = -Infinity): number[] | undefined {
    if (v.kind === 'dims') return v.values;
    if (v.kind === 'num' && Number.isInteger(v.value) && v.value >= min) return [v.value];
    if (v.kind === 'call' && /^(size|Size|shape|Shape)$/.test(lastPart(v.callee)) && v.args.length === 1) return this.intList(v.args[0].value, what, min);
    if (v.kind !== 'list') {
      if (v.kind !== 'error') this.diag(v.span, 'error', 'TL004', `${what} must be a list of integers, e.g. [64, 64]`);
      return undefined;
    }
    const out: number[] = [];
    for (const it of v.items) {
      if (it.kind === 'num' && Number.isInteger(it.value) && it.value >= min) out.push(it.value);
      else {
        if (it.kind !== 'error') this.diag(it.span, 'error', 'TL004', `${what}: expected an integer${min > -Infinity ? ` ≥ ${min}` : ''}`);
        return undefined;
      }
    }
    return out;
  }

  word(v: Value): string | undefined {
    if (v.kind === 'name') return lastPart(v);
    if (v.kind === 'str') return v.value;
    return undefined;
  }

  bool(v: Value, what: string): boolean | undefined {
    const w = v.kind === 'num' ? String(v.value) : this.word(v)?.toLowerCase();
    if (w === 'true' || w === '1') return true;
    if (w === 'false' || w === '0') return false;
    if (v.kind !== 'error') this.diag(v.span, 'error', 'TL004', `${what} must be true or false`);
    return undefined;
  }

  /** Keyword arguments of a call, positional ones named by `positional`; unknown names are reported. */
  args(call: CallValue, known: string[], positional: string[] = [], fields?: Fields): Map<string, Arg> {
    const out = new Map<string, Arg>();
    let pos = 0;
    for (const a of call.args) {
      let key: string;
      if (a.name) {
        key = ARG_ALIASES[a.name.text] ?? a.name.text;
        if (!known.includes(key) && !known.includes(a.name.text)) {
          const guess = closest(a.name.text, known);
          this.diag(
            a.name.span,
            'error',
            'TL003',
            `${lastPart(call.callee)}() has no argument '${a.name.text}'${guess ? ` (did you mean '${guess}'?)` : ''}; it takes ${known.join(', ')}`,
            guess ? [{ title: `Change to '${guess}'`, edits: [this.edit(a.name.span, guess)], preferred: true }] : undefined,
          );
          continue;
        }
        if (!known.includes(key)) key = a.name.text;
      } else {
        if (pos >= positional.length) {
          this.diag(
            a.span,
            'error',
            'TL003',
            positional.length
              ? `${lastPart(call.callee)}() takes at most ${positional.length} positional ` +
                  `argument${positional.length > 1 ? 's' : ''} (${positional.join(', ')}); name the others`
              : `${lastPart(call.callee)}() takes keyword arguments: ${known.join(', ')}`,
          );
          continue;
        }
        key = positional[pos++];
      }
      if (out.has(key)) {
        this.diag(a.span, 'error', 'TL003', `argument '${key}' is given twice`);
        continue;
      }
      out.set(key, a);
      fields?.set(key, { span: a.value.span, value: a.value });
    }
    return out;
  }

  // ---- targets

  collectTargets(): void {
    for (const s of this.file.stmts) {
      if (s.kind !== 'target' || !s.value) continue;
      const v = s.value;
      const nameV = v.kind === 'call' ? v.callee : v.kind === 'name' ? v : undefined;
      if (!nameV) {
        this.diag(v.span, 'error', 'TL007', 'expected a target name');
        continue;
      }
      const raw = nameV.text;
      const name = TARGET_ALIASES[raw.toLowerCase()] ?? raw.toLowerCase();
      const t = TARGETS[name];
      if (!t) {
        const guess = closest(raw, [...Object.keys(TARGETS), ...Object.keys(TARGET_ALIASES)]);
        this.diag(
          nameV.span,
          'error',
          'TL007',
          `unknown target '${raw}'${guess ? ` (did you mean '${guess}'?)` : ''}; targets: ${Object.keys(TARGETS).join(', ')}`,
          guess ? [{ title: `Change to '${guess}'`, edits: [this.edit(nameV.span, guess)], preferred: true }] : undefined,
        );
        continue;
      }
      const dup = this.targets.find((x) => x.family === t.family);
      if (dup) {
        this.diag(
          s.span,
          'error',
          'TL007',
          `a second ${t.family === 'tt' ? 'Tenstorrent' : t.family} target: '${dup.name}' is already set on ` +
            `line ${this.lines.position(dup.stmt.span.start).line + 1}`,
        );
        continue;
      }
      const info: TargetInfo = { family: t.family, name, stmt: s };
      if (t.family === 'tt') {
        const base = TT_ARCHS[name === 'custom' ? 'wormhole_b0' : name];
        const o: Record<string, number | number[]> = {};
        if (raw.toLowerCase() === 'p100a') o.dram_banks = 7;
        if (v.kind === 'call') {
          const a = this.args(v, Object.keys(TT_ARCH_PROPS));
          for (const [k, arg] of a) {
            if (k === 'grid') {
              const g = arg.value.kind === 'dims' ? arg.value.values : this.intList(arg.value, 'grid', 1);
              if (g && g.length === 2) o.grid = g;
              else if (g) this.diag(arg.value.span, 'error', 'TL004', 'grid is x×y, e.g. 8x8');
            } else if (k === 'dram_offsets') {
              const l = this.intList(arg.value, 'dram_offsets', 0);
              if (l) o.dram_offsets = l;
            } else {
              const n = this.int(arg.value, k, k === 'l1_reserved' ? 0 : 1);
              if (n !== undefined) o[k] = n;
            }
          }
        }
        info.tt = withOverrides(base, o, name);
        if (info.tt.dramOffsets.length !== info.tt.dramBanks)
          info.tt.dramOffsets = Array.from({ length: info.tt.dramBanks }, (_, b) => info.tt!.dramOffsets[b] ?? 0);
      } else if (t.family === 'spyre' && v.kind === 'call') {
        const a = this.args(v, ['memory']);
        const m = a.get('memory');
        if (m) info.spyreMemory = this.int(m.value, 'memory', 1);
      } else if (t.family === 'npu' && v.kind === 'call') {
        const a = this.args(v, ['cell', 'capacity']);
        if (a.get('cell')) info.cellBytes = this.int(a.get('cell')!.value, 'cell', 1);
        if (a.get('capacity')) info.capacity = this.int(a.get('capacity')!.value, 'capacity', 1);
      } else if (v.kind === 'call' && v.args.length) this.diag(v.argsSpan, 'error', 'TL007', `target ${name} takes no arguments`);
      this.targets.push(info);
    }
  }

  target(family: TargetInfo['family']): TargetInfo | undefined {
    return this.targets.find((t) => t.family === family);
  }

  // ---- tensors

  checkTensor(s: TensorStmt): void {
    if (!s.name) return;
    const info: TensorInfo = { name: s.name.text, stmt: s, range: this.r(s.span), nameRange: this.r(s.name.span), dimNames: [] };
    const dup = this.tensors.find((t) => t.name === info.name);
    if (dup)
      this.diag(s.name.span, 'error', 'TL001', `tensor '${info.name}' is already declared on line ${dup.nameRange.start.line + 1}; names must be unique`);
    else this.tensors.push(info);
    const fields = new Fields(s);
    fields.set('@name', { span: s.name.span });
    if (s.dtype) fields.set('@dtype', { span: s.dtype.span, value: s.dtype });
    if (s.shape) fields.set('@shape', { span: s.shape.span });
    if (s.at?.value) fields.set('@at', { span: s.at.value.span, value: s.at.value });
    if (s.layout.length) fields.set('@layout', { span: { start: s.layout[0].span.start, end: s.layout[s.layout.length - 1].span.end } });
    fields.primary = s.layout[0];
    // dtype
    if (s.dtype) {
      const d = parseDtype(s.dtype.text);
      if (!d) {
        const guess = closest(lastPart(s.dtype), DTYPE_SPELLINGS);
        this.diag(
          s.dtype.span,
          'error',
          'TL005',
          `unknown dtype '${s.dtype.text}'${guess ? ` (did you mean '${guess}'?)` : ''}`,
          guess ? [{ title: `Change to '${guess}'`, edits: [this.edit(s.dtype.span, guess)], preferred: true }] : undefined,
        );
      } else info.dtype = d;
    }
    // shape
    if (s.shape) {
      const shape: number[] = [];
      let ok = true;
      const names = new Set<string>();
      for (const it of s.shape.items) {
        const n = this.int(it.value, 'a dimension', 1);
        if (n === undefined) ok = false;
        else shape.push(n);
        if (it.name) {
          if (names.has(it.name.text)) this.diag(it.name.span, 'error', 'TL012', `dimension name '${it.name.text}' is used twice`);
          names.add(it.name.text);
        }
        info.dimNames.push(it.name?.text);
      }
      if (ok) info.shape = shape;
    }
    const at = s.at?.value ? this.int(s.at.value, 'the address', 0) : undefined;
    // family
    let family: Family | undefined;
    for (const term of s.layout) {
      const f = termFamily(term);
      if (f === undefined) {
        const nameV = term.kind === 'call' ? term.callee : term.kind === 'name' ? term : undefined;
        const guess = nameV ? closest(lastPart(nameV), Object.keys(MODEL_CALLS)) : undefined;
        this.diag(
          term.span,
          'error',
          'TL002',
          `unknown layout '${nameV?.text ?? 'value'}'${guess ? ` (did you mean '${guess}'?)` : ''}: a layout is spyre(…), tt(…), cells(…), ` +
            'strided(…), fibers(…) or a pasted SpyreTensorLayout(…) / ttnn.… form',
          guess && nameV ? [{ title: `Change to '${guess}'`, edits: [this.edit(nameV.span, guess)], preferred: true }] : undefined,
        );
        info.problem = 'unknown layout';
        continue;
      }
      if (family && f !== family) {
        this.diag(term.span, 'error', 'TL013', `a tensor has one layout: this ${f} term does not combine with the ${family} layout before it`);
        info.problem = 'mixed layouts';
        continue;
      }
      family = f;
    }
    info.family = family;
    if (!family || !info.dtype || !info.shape || info.problem) {
      info.problem ??= 'incomplete declaration';
      return;
    }
    let issues: Issue[] = [];
    let build: (() => AnyModel) | undefined;
    const terms = s.layout;
    switch (family) {
      case 'spyre': {
        const spec = this.spyreSpec(terms, info, fields);
        if (!spec) break;
        if (at !== undefined) spec.base = at;
        spec.memory = this.target('spyre')?.spyreMemory;
        issues = validateSpyre(spec);
        build = () => new SpyreLayout(spec);
        break;
      }
      case 'tt': {
        const spec = this.ttSpec(terms, info, fields);
        if (!spec) break;
        if (at !== undefined) spec.base = at;
        issues = validateTT(spec);
        build = () => new TTLayout(spec, true);
        break;
      }
      case 'cells': {
        const spec = this.cellSpec(terms, info, fields);
        if (!spec) break;
        if (at !== undefined) spec.base = at;
        issues = validateCells(spec);
        build = () => new CellLayout(spec, true);
        break;
      }
      case 'strided': {
        const spec = this.stridedSpec(terms, info, fields);
        if (!spec) break;
        if (at !== undefined) spec.base = at;
        issues = validateStrided(spec);
        build = () => new StridedLayout(spec, true);
        break;
      }
      case 'sparse': {
        const spec = this.sparseSpec(terms, info, fields);
        if (!spec) break;
        if (at !== undefined && s.at?.value)
          this.diag(s.at.value.span, 'warning', 'CSF008', 'a fibered tensor is placed with fibers(main=…, meta=…); at is ignored');
        issues = validateSparse(spec);
        build = () => new SparseLayout(spec, true);
        break;
      }
    }
    for (const i of issues) this.reportIssue(i, fields);
    if (!build) {
      info.problem ??= 'the layout could not be read';
      return;
    }
    if (issues.some((i) => i.severity === 'error')) {
      info.problem = issues.find((i) => i.severity === 'error')!.message;
      return;
    }
    const off = (p: { line: number; character: number }) => this.lines.offset(p);
    if (
      this.diagnostics.some((d) => d.severity === 'error' && d.code.startsWith('TL') && off(d.range.start) >= s.span.start && off(d.range.end) <= s.span.end)
    ) {
      info.problem = 'the declaration has errors';
      return;
    }
    try {
      info.model = build();
      info.summary = info.model.summary();
    } catch (e) {
      info.problem = (e as Error).message;
      this.diag(s.name.span, 'error', 'TL014', `cannot build this layout: ${(e as Error).message}`);
    }
  }

  reportIssue(i: Issue, fields: Fields): void {
    const f = (i.field && fields.get(i.field)) || fields.get('@layout') || fields.get('@name')!;
    let span = f.span;
    if (i.index !== undefined && f.value?.kind === 'list' && f.value.items[i.index]) span = f.value.items[i.index].span;
    else if (i.field === '@shape' && i.index !== undefined) {
      const st = fields.stmt.shape;
      if (st?.items[i.index]) span = st.items[i.index].span;
    }
    const fixes: Fix[] = [];
    for (const fx of i.fixes ?? []) {
      const e = this.fixEdit(fx.field, fx.index, fx.newText, fields);
      if (e) fixes.push({ title: fx.title, edits: [e], preferred: fx.preferred });
    }
    this.diag(span, i.severity, i.code, i.message, fixes);
  }

  fixEdit(field: string, index: number | undefined, newText: string, fields: Fields): TextEdit | undefined {
    const f = fields.get(field);
    if (f) {
      if (f.fixable === false) return undefined;
      if (index !== undefined && f.value?.kind === 'list' && f.value.items[index]) return this.edit(f.value.items[index].span, newText);
      if (index !== undefined && f.value?.kind !== 'list') return undefined;
      let text = newText;
      if (f.value?.kind === 'list' && f.value.open === '(' && /^\[.*\]$/.test(text)) text = `(${text.slice(1, -1)})`;
      return this.edit(f.span, text);
    }
    if (field.startsWith('@')) {
      if (field === '@at') return this.edit({ start: fields.stmt.span.end, end: fields.stmt.span.end }, ` at ${newText}`);
      return undefined;
    }
    const p = fields.primary;
    if (p?.kind === 'call') {
      const close = p.argsSpan.end - 1;
      return this.edit({ start: close, end: close }, `${p.args.length ? ', ' : ''}${field}=${newText}`);
    }
    if (p?.kind === 'name') return this.edit({ start: p.span.end, end: p.span.end }, `(${field}=${newText})`);
    return undefined;
  }

  // ---- Spyre

  spyreSpec(
    terms: Value[],
    info: TensorInfo,
    fields: Fields,
  ):
    | {
        shape: number[];
        dtype: DType;
        layout: SpyreLayoutSpec;
        hostStrides?: number[];
        deviceDtype?: string;
        elementArrangement?: string;
        base?: number;
        memory?: number;
      }
    | undefined {
    const keys = Object.keys(LAYOUT_ARGS.spyre);
    const all = new Map<string, Arg>();
    for (const t of terms) {
      if (t.kind === 'call') for (const [k, a] of this.args(t, keys, [], fields)) all.set(k, a);
    }
    const get = (k: string) => all.get(k)?.value;
    let bad = false;
    const ints = (k: string, min = -Infinity) => {
      const v = get(k);
      if (!v) return undefined;
      const l = this.intList(v, k, min);
      if (!l) bad = true;
      return l;
    };
    const ds = ints('device_size');
    const dm = ints('dim_map');
    const sm = ints('stride_map');
    const order = ints('dim_order');
    const hostStrides = ints('host_strides', 0);
    const dd = get('device_dtype');
    const ea = get('element_arrangement');
    if (bad) return undefined;
    let layout: SpyreLayoutSpec;
    if (ds || dm || sm) {
      if (!ds) {
        this.diag(
          all.get(dm ? 'dim_map' : 'stride_map')!.span,
          'error',
          'SPY001',
          `${dm ? 'dim_map' : 'stride_map'} needs device_size (one size per device dim)`,
        );
        return undefined;
      }
      if (order) this.diag(all.get('dim_order')!.span, 'warning', 'SPY008', 'dim_order only shapes the default layout; it is ignored next to device_size');
      if (dm) {
        layout = { kind: 'dim_map', deviceSize: ds, dimMap: dm };
        if (sm && info.shape && dm.length === ds.length && sm.length === ds.length && dm.every((d) => d >= -1 && d < info.shape!.length)) {
          const strides = hostStrides ?? rmStridesOf(info.shape);
          const a = dimMapToStrideMap(ds, dm, info.shape, strides);
          const b = dimMapToStrideMap(ds, dm, info.shape, strides, true);
          const same = (x: number[]) => x.every((v, j) => v === sm[j] || ds[j] === 1);
          if (!same(a) && !same(b))
            this.diag(get('stride_map')!.span, 'error', 'SPY022', `stride_map ${list(sm)} does not match dim_map ${list(dm)}, which gives ${list(a)}`, [
              { title: `Use ${list(a)}`, edits: [this.edit(get('stride_map')!.span, list(a))], preferred: true },
            ]);
        }
      } else if (sm) layout = { kind: 'stride_map', deviceSize: ds, strideMap: sm };
      else {
        this.diag(all.get('device_size')!.span, 'error', 'SPY001', 'device_size needs a dim_map or a stride_map of the same length');
        return undefined;
      }
    } else layout = { kind: 'default', dimOrder: order };
    return {
      shape: info.shape!,
      dtype: info.dtype!,
      layout,
      hostStrides,
      deviceDtype: dd ? (dd.kind === 'name' ? dd.text : this.word(dd)) : undefined,
      elementArrangement: ea ? (ea.kind === 'name' ? ea.text : this.word(ea)) : undefined,
    };
  }

  // ---- TT

  coord(v: Value): [number, number] | undefined {
    if (v.kind === 'list' && v.items.length === 2) {
      const x = this.int(v.items[0], 'a core x');
      const y = this.int(v.items[1], 'a core y');
      return x !== undefined && y !== undefined ? [x, y] : undefined;
    }
    if (v.kind === 'call' && /coord/i.test(lastPart(v.callee))) {
      const a = this.args(v, ['x', 'y'], ['x', 'y']);
      const x = a.get('x') && this.int(a.get('x')!.value, 'x');
      const y = a.get('y') && this.int(a.get('y')!.value, 'y');
      return x !== undefined && y !== undefined ? [x, y] : undefined;
    }
    if (v.kind !== 'error') this.diag(v.span, 'error', 'TL004', 'expected a core coordinate (x, y)');
    return undefined;
  }

  /** Core grid value → ranges. CoreGrid(y, x) also returns its size. */
  grid(v: Value): { ranges: CoreRange[]; coreGrid?: { x: number; y: number } } | undefined {
    if (v.kind === 'range') {
      const a = this.coord(v.from);
      const b = this.coord(v.to);
      return a && b ? { ranges: [{ x0: a[0], y0: a[1], x1: b[0], y1: b[1] }] } : undefined;
    }
    if (v.kind === 'dims' && v.values.length === 2)
      return { ranges: [{ x0: 0, y0: 0, x1: v.values[0] - 1, y1: v.values[1] - 1 }], coreGrid: { x: v.values[0], y: v.values[1] } };
    if (v.kind === 'call') {
      const n = lastPart(v.callee).toLowerCase();
      if (n === 'coregrid') {
        const a = this.args(v, ['y', 'x'], ['y', 'x']);
        const y = a.get('y') && this.int(a.get('y')!.value, 'y', 1);
        const x = a.get('x') && this.int(a.get('x')!.value, 'x', 1);
        if (x === undefined || y === undefined) {
          if (!a.get('x') || !a.get('y')) this.diag(v.span, 'error', 'TL004', 'CoreGrid needs y and x, e.g. CoreGrid(y=2, x=2)');
          return undefined;
        }
        return { ranges: [{ x0: 0, y0: 0, x1: x - 1, y1: y - 1 }], coreGrid: { x, y } };
      }
      if (n === 'corerange') {
        const a = this.args(v, ['start', 'end'], ['start', 'end']);
        const s = a.get('start') && this.coord(a.get('start')!.value);
        const e = a.get('end') && this.coord(a.get('end')!.value);
        return s && e ? { ranges: [{ x0: s[0], y0: s[1], x1: e[0], y1: e[1] }] } : undefined;
      }
      if (n === 'corerangeset') {
        if (v.args.length !== 1) {
          this.diag(v.span, 'error', 'TL004', 'CoreRangeSet takes one set or list of CoreRanges');
          return undefined;
        }
        return this.grid(v.args[0].value);
      }
      if (/coord/.test(n)) {
        const c = this.coord(v);
        return c ? { ranges: [{ x0: c[0], y0: c[1], x1: c[0], y1: c[1] }] } : undefined;
      }
    }
    if (v.kind === 'list') {
      if (v.open === '(' && v.items.length === 2 && v.items.every((i) => i.kind === 'num')) {
        const c = this.coord(v);
        return c ? { ranges: [{ x0: c[0], y0: c[1], x1: c[0], y1: c[1] }] } : undefined;
      }
      const ranges: CoreRange[] = [];
      for (const it of v.items) {
        const g = this.grid(it);
        if (!g) return undefined;
        ranges.push(...g.ranges);
      }
      return { ranges };
    }
    if (v.kind !== 'error') this.diag(v.span, 'error', 'TL004', 'expected a core grid: (x0,y0)-(x1,y1), [range, …], CoreGrid(y=…, x=…) or XxY');
    return undefined;
  }

  enumWord(v: Value, table: Record<string, string>, what: string): string | undefined {
    const w = this.word(v);
    const key = w?.toLowerCase();
    if (key && table[key]) return table[key];
    const guess = w ? closest(w, Object.keys(table)) : undefined;
    if (v.kind !== 'error')
      this.diag(
        v.span,
        'error',
        'TL004',
        `${what} is one of ${[...new Set(Object.keys(table))].join(', ')}${guess ? ` (did you mean '${guess}'?)` : ''}`,
        guess ? [{ title: `Change to '${guess}'`, edits: [this.edit(v.span, guess)], preferred: true }] : undefined,
      );
    return undefined;
  }

  ttSpec(terms: Value[], info: TensorInfo, fields: Fields): TTSpec | undefined {
    const tgt = this.target('tt');
    if (!tgt) {
      const first = this.file.stmts[0];
      this.diag(terms[0].span, 'information', 'TL006', 'no Tenstorrent target: assuming wormhole_b0 (12 DRAM banks, alignment 32, 8×8 grid)', [
        {
          title: 'Add `target wormhole_b0`',
          edits: [this.edit({ start: first?.span.start ?? 0, end: first?.span.start ?? 0 }, 'target wormhole_b0\n')],
          preferred: true,
        },
      ]);
    }
    const st: {
      layout?: 'TILE' | 'ROW_MAJOR';
      tile?: [number, number];
      transpose?: boolean;
      buffer?: 'DRAM' | 'L1';
      memory?: TTMemory;
      shard?: number[];
      grid?: CoreRange[];
      orientation?: TTOrientation;
      alignment?: number[];
      swapped?: boolean;
    } = {};
    let bad = false;
    const LAYOUTS = Object.setPrototypeOf({ tile: 'TILE', tile_layout: 'TILE', row_major: 'ROW_MAJOR', row_major_layout: 'ROW_MAJOR' }, null) as Record<
      string,
      'TILE' | 'ROW_MAJOR'
    >;
    const BUFFERS = Object.setPrototypeOf({ dram: 'DRAM', l1: 'L1', l1_small: 'L1' }, null) as Record<string, 'DRAM' | 'L1'>;
    const ORIENT = Object.setPrototypeOf({ row_major: 'ROW_MAJOR', col_major: 'COL_MAJOR', column_major: 'COL_MAJOR' }, null) as Record<string, TTOrientation>;
    const setLayout = (v: Value) => {
      const l = this.enumWord(v, LAYOUTS, 'layout');
      if (l) {
        st.layout = l as 'TILE' | 'ROW_MAJOR';
        fields.set('layout', { span: v.span, value: v });
      } else bad = true;
    };
    const setTile = (v: Value) => {
      let t: number[] | undefined;
      if (v.kind === 'call' && lastPart(v.callee).toLowerCase() === 'tile') {
        const a = this.args(v, ['tile_shape', 'transpose_tile'], ['tile_shape', 'transpose_tile']);
        if (a.get('transpose_tile')) st.transpose = this.bool(a.get('transpose_tile')!.value, 'transpose_tile');
        if (a.get('tile_shape')) t = this.intList(a.get('tile_shape')!.value, 'tile', 1);
      } else t = this.intList(v, 'tile', 1);
      if (t && t.length === 2) {
        st.tile = [t[0], t[1]];
        fields.set('tile', { span: v.span, value: v, fixable: v.kind !== 'call' });
      } else {
        if (t) this.diag(v.span, 'error', 'TL004', 'a tile is height×width, e.g. 32x32');
        bad = true;
      }
    };
    const setShard = (v: Value, fixable = true) => {
      const l = this.intList(v, 'shard', 1);
      if (l) {
        st.shard = l;
        fields.set('shard', { span: v.span, value: v, fixable });
      } else bad = true;
    };
    const setGrid = (v: Value) => {
      const g = this.grid(v);
      if (g) {
        st.grid = g.ranges;
        fields.set('grid', { span: v.span, value: v });
      } else bad = true;
      return g;
    };
    const setOrientation = (v: Value) => {
      const o = this.enumWord(v, ORIENT, 'orientation');
      if (o) {
        st.orientation = o as TTOrientation;
        fields.set('orientation', { span: v.span, value: v });
      } else bad = true;
    };
    const setMemory = (v: Value, table: Record<string, TTMemory> = MEMORY_WORDS) => {
      const m = this.enumWord(v, table, 'memory');
      if (m) {
        st.memory = m as TTMemory;
        fields.set('memory', { span: v.span, value: v });
      } else bad = true;
    };
    const setBuffer = (v: Value) => {
      const b = this.enumWord(v, BUFFERS, 'buffer');
      if (b) {
        st.buffer = b as 'DRAM' | 'L1';
        fields.set('buffer', { span: v.span, value: v });
      } else bad = true;
    };
    const shardSpec = (v: Value, nd: boolean) => {
      if (v.kind !== 'call') {
        this.diag(
          v.span,
          'error',
          'TL004',
          nd ? 'expected ttnn.NdShardSpec(shard_shape, grid, orientation)' : 'expected ttnn.ShardSpec(grid, shard_shape, orientation)',
        );
        bad = true;
        return;
      }
      const a = nd
        ? this.args(
            v,
            ['shard_shape', 'grid', 'orientation', 'shard_distribution_strategy'],
            ['shard_shape', 'grid', 'orientation', 'shard_distribution_strategy'],
          )
        : this.args(v, ['grid', 'shard_shape', 'orientation', 'halo'], ['grid', 'shard_shape', 'orientation', 'halo']);
      if (a.get('grid')) setGrid(a.get('grid')!.value);
      if (a.get('shard_shape')) setShard(a.get('shard_shape')!.value);
      if (a.get('orientation')) setOrientation(a.get('orientation')!.value);
      const sds = a.get('shard_distribution_strategy');
      if (sds && this.word(sds.value)?.toUpperCase() !== 'ROUND_ROBIN_1D')
        this.diag(
          sds.value.span,
          'warning',
          'TT011',
          `only ROUND_ROBIN_1D distribution is modelled; ${this.word(sds.value) ?? 'this'} is previewed as round-robin`,
        );
    };
    for (const term of terms) {
      if (term.kind === 'name') {
        const n = lastPart(term).toLowerCase();
        if (n === 'tt' || n === 'ttnn') continue;
        if (LAYOUTS[n]) setLayout(term);
        else if (n === 'dram_memory_config' || n === 'l1_memory_config') {
          st.buffer = n.startsWith('dram') ? 'DRAM' : 'L1';
          st.memory = 'INTERLEAVED';
          fields.set('buffer', { span: term.span, value: term, fixable: false });
          fields.set('memory', { span: term.span, value: term, fixable: false });
        }
        continue;
      }
      if (term.kind !== 'call') continue;
      const n = lastPart(term.callee).toLowerCase();
      if (n === 'tt' || n === 'ttnn') {
        const a = this.args(term, Object.keys(LAYOUT_ARGS.tt), [], fields);
        for (const [k, arg] of a) {
          const v = arg.value;
          if (k === 'layout') setLayout(v);
          else if (k === 'tile') setTile(v);
          else if (k === 'transpose_tile') st.transpose = this.bool(v, 'transpose_tile');
          else if (k === 'buffer') setBuffer(v);
          else if (k === 'memory') setMemory(v);
          else if (k === 'strategy') setMemory(v);
          else if (k === 'shard') setShard(v);
          else if (k === 'grid') setGrid(v);
          else if (k === 'orientation') setOrientation(v);
          else if (k === 'alignment') {
            const l = this.intList(v, 'alignment', 1);
            if (l) st.alignment = l;
            else bad = true;
          }
        }
      } else if (n === 'tile') setTile(term);
      else if (n === 'memoryconfig') {
        const a = this.args(term, ['memory', 'buffer', 'shard_spec', 'nd_shard_spec'], ['memory', 'buffer', 'shard_spec']);
        if (a.get('memory')) setMemory(a.get('memory')!.value);
        if (a.get('buffer')) setBuffer(a.get('buffer')!.value);
        if (a.get('shard_spec')) shardSpec(a.get('shard_spec')!.value, false);
        if (a.get('nd_shard_spec')) {
          shardSpec(a.get('nd_shard_spec')!.value, true);
          st.memory ??= 'ND_SHARDED';
        }
      } else if (n === 'shardspec') shardSpec(term, false);
      else if (n === 'ndshardspec') {
        shardSpec(term, true);
        st.memory = 'ND_SHARDED';
      } else if (n === 'create_sharded_memory_config' || n === 'create_sharded_memory_config_') {
        const names = ['shape', 'grid', 'strategy', 'orientation', 'halo', 'use_height_and_width_as_shard_shape', 'tile_layout'];
        const a = this.args(term, names, names.slice(0, 6));
        st.buffer = 'L1';
        const useHW = a.get('use_height_and_width_as_shard_shape')
          ? this.bool(a.get('use_height_and_width_as_shard_shape')!.value, 'use_height_and_width_as_shard_shape')
          : false;
        if (a.get('orientation')) setOrientation(a.get('orientation')!.value);
        const orient = st.orientation ?? 'ROW_MAJOR';
        const STRATEGY = Object.setPrototypeOf({ height: 'HEIGHT_SHARDED', width: 'WIDTH_SHARDED', block: 'BLOCK_SHARDED' }, null) as Record<string, TTMemory>;
        if (a.get('strategy')) setMemory(a.get('strategy')!.value, STRATEGY);
        else {
          this.diag(term.span, 'error', 'TL004', 'create_sharded_memory_config needs a strategy (ttnn.ShardStrategy.HEIGHT, WIDTH or BLOCK)');
          bad = true;
        }
        if (a.get('tile_layout') && this.bool(a.get('tile_layout')!.value, 'tile_layout')) st.layout ??= 'TILE';
        const gv = a.get('grid')?.value;
        const g = gv ? setGrid(gv) : undefined;
        if (!gv) {
          this.diag(term.span, 'error', 'TL004', 'create_sharded_memory_config needs a core_grid');
          bad = true;
        }
        const shapeV = a.get('shape')?.value;
        if (!shapeV) {
          this.diag(term.span, 'error', 'TL004', 'create_sharded_memory_config needs a shape');
          bad = true;
        } else if (useHW) {
          setShard(shapeV);
          if (st.shard && orient === 'COL_MAJOR' && st.shard.length === 2) {
            st.shard = [st.shard[1], st.shard[0]];
            st.swapped = true;
            fields.set('shard', { span: shapeV.span, value: shapeV, fixable: false });
          }
        } else if (g && st.memory) {
          const shp = this.intList(shapeV, 'shape', 1);
          if (!g.coreGrid) {
            this.diag(
              gv!.span,
              'error',
              'TT020',
              'a CoreRangeSet core_grid needs use_height_and_width_as_shard_shape=True (the shard shape is then given directly)',
            );
            bad = true;
          } else if (shp && shp.length) {
            if (info.shape && shp.reduce((p, x) => p * x, 1) !== info.shape.reduce((p, x) => p * x, 1))
              this.diag(
                shapeV.span,
                'warning',
                'TT027',
                `shape ${list(shp)} is not the tensor's shape ${list(info.shape)}: the shard is derived from this shape`,
              );
            const H = shp.slice(0, -1).reduce((p, x) => p * x, 1);
            const W = shp[shp.length - 1];
            const { x, y } = g.coreGrid;
            const [dh, dw] =
              st.memory === 'HEIGHT_SHARDED' ? [x * y, 1] : st.memory === 'WIDTH_SHARDED' ? [1, x * y] : orient === 'ROW_MAJOR' ? [y, x] : [x, y];
            if (H % dh || W % dw) {
              this.diag(
                term.span,
                'error',
                'TT020',
                `Invalid sharding core_grid: ${st.memory.replace('_SHARDED', '')} over ${x}×${y} cores splits the ${H}×${W} tensor ` +
                  `into ${H}/${dh} × ${W}/${dw}, which is not whole (use create_sharded_memory_config_ or a shard shape)`,
              );
              bad = true;
            } else {
              st.shard = [H / dh, W / dw];
              fields.set('shard', { span: term.span, value: term, fixable: false });
            }
          } else bad = true;
        }
      }
    }
    if (bad) return undefined;
    const memory = st.memory ?? (st.shard || st.grid ? undefined : 'INTERLEAVED');
    if (!memory) {
      this.diag(
        terms[0].span,
        'error',
        'TT011',
        'a shard or grid is given but no sharding: add memory=height_sharded, width_sharded, block_sharded or nd_sharded',
      );
      return undefined;
    }
    return {
      arch: tgt?.tt ?? TT_ARCHS.wormhole_b0,
      shape: info.shape!,
      dtype: info.dtype!,
      layout: st.layout ?? 'TILE',
      tile: st.tile,
      transposeTile: st.transpose,
      buffer: st.buffer ?? (memory === 'INTERLEAVED' ? 'DRAM' : 'L1'),
      memory,
      shard: st.shard,
      grid: st.grid,
      orientation: st.orientation,
      alignment: st.alignment,
      swappedShard: st.swapped,
    };
  }

  // ---- cells, strided, sparse

  cellSpec(terms: Value[], info: TensorInfo, fields: Fields): import('./models/cells').CellSpec | undefined {
    const tgt = this.target('npu');
    let order: number[] | undefined;
    let cell = tgt?.cellBytes;
    let relax = false;
    let bad = false;
    for (const t of terms) {
      if (t.kind !== 'call') continue;
      const a = this.args(t, Object.keys(LAYOUT_ARGS.cells), [], fields);
      const o = a.get('order')?.value;
      if (o) {
        if (o.kind !== 'list') {
          this.diag(o.span, 'error', 'TL004', 'order is a list of dim names or indices, outermost first');
          bad = true;
        } else {
          order = [];
          for (const it of o.items) {
            const name = it.kind === 'name' ? it.text : undefined;
            const idx = name !== undefined ? info.dimNames.indexOf(name) : it.kind === 'num' ? it.value : -1;
            if (idx < 0 || !Number.isInteger(idx)) {
              this.diag(
                it.span,
                'error',
                'CELL005',
                name ? `no dimension named '${name}' (dims: ${info.dimNames.map((d, i) => d ?? i).join(', ')})` : 'expected a dim name or index',
              );
              bad = true;
            } else order.push(idx);
          }
        }
      }
      if (a.get('cell')) cell = this.int(a.get('cell')!.value, 'cell', 1);
      if (a.get('relax_rank')) relax = this.bool(a.get('relax_rank')!.value, 'relax_rank') ?? false;
    }
    if (bad) return undefined;
    return { shape: info.shape!, names: info.dimNames, dtype: info.dtype!, order, cellBytes: cell, relaxRank: relax, capacity: tgt?.capacity };
  }

  stridedSpec(terms: Value[], info: TensorInfo, fields: Fields): import('./models/strided').StridedSpec | undefined {
    let strides: number[] | undefined;
    let offset: number | undefined;
    let storage: number | undefined;
    let bad = false;
    for (const t of terms) {
      if (t.kind !== 'call') continue;
      const n = lastPart(t.callee).toLowerCase();
      const positional =
        n === 'as_strided'
          ? t.args[0]?.value.kind === 'name' && !t.args[0].name
            ? ['input', 'size', 'strides', 'offset']
            : ['size', 'strides', 'offset']
          : n === 'empty_strided'
            ? ['size', 'strides']
            : [];
      const a = this.args(t, [...Object.keys(LAYOUT_ARGS.strided), 'input', 'dtype', 'device'], positional, fields);
      if (a.get('strides')) {
        strides = this.intList(a.get('strides')!.value, 'strides');
        if (!strides) bad = true;
      }
      if (a.get('offset')) offset = this.int(a.get('offset')!.value, 'offset');
      if (a.get('storage')) storage = this.int(a.get('storage')!.value, 'storage', 0);
      const sz = a.get('size');
      if (sz) {
        const l = this.intList(sz.value, 'size', 0);
        if (l && info.shape && (l.length !== info.shape.length || l.some((v, i) => v !== info.shape![i])))
          this.diag(sz.value.span, 'error', 'PT008', `size ${list(l)} differs from the declared shape ${list(info.shape)}`, [
            { title: `Use ${list(info.shape)}`, edits: [this.edit(sz.value.span, list(info.shape))], preferred: true },
          ]);
      }
    }
    if (bad) return undefined;
    return { shape: info.shape!, dtype: info.dtype!, strides, offset, storage };
  }

  sparseSpec(terms: Value[], info: TensorInfo, fields: Fields): import('./models/sparse').SparseSpec | undefined {
    let ptr: number[] | undefined;
    let index: number[] | undefined;
    let main = 0;
    let meta = 0;
    let mainCapacity: number | undefined;
    let metaCapacity: number | undefined;
    let placement: SparsePlacement | undefined;
    let bad = false;
    for (const t of terms) {
      if (t.kind !== 'call') continue;
      const a = this.args(t, Object.keys(LAYOUT_ARGS.sparse), [], fields);
      if (a.get('ptr')) ptr = this.intList(a.get('ptr')!.value, 'ptr', 0) ?? ((bad = true), undefined);
      if (a.get('index')) index = this.intList(a.get('index')!.value, 'index', 0) ?? ((bad = true), undefined);
      if (a.get('main')) main = this.int(a.get('main')!.value, 'main', 0) ?? ((bad = true), 0);
      if (a.get('meta')) meta = this.int(a.get('meta')!.value, 'meta', 0) ?? ((bad = true), 0);
      if (a.get('main_capacity')) mainCapacity = this.int(a.get('main_capacity')!.value, 'main_capacity', 1);
      if (a.get('meta_capacity')) metaCapacity = this.int(a.get('meta_capacity')!.value, 'meta_capacity', 1);
      const f = a.get('file');
      if (f) {
        const name = f.value.kind === 'str' ? f.value.value : undefined;
        if (!name) {
          this.diag(f.value.span, 'error', 'TL004', 'file is a quoted path, e.g. file="a.csfbin"');
          bad = true;
        } else if (!this.options.loadSparse) {
          this.diag(
            f.value.span,
            'error',
            'CSF009',
            `reading ${name} needs the host's .csfbin reader, which is not available here; give ptr=[…] and index=[…] instead`,
          );
          bad = true;
        } else {
          try {
            placement = this.options.loadSparse(name, this.options.file ?? '');
            if (!placement) {
              this.diag(f.value.span, 'error', 'CSF009', `cannot read ${name}`);
              bad = true;
            }
          } catch (e) {
            this.diag(f.value.span, 'error', 'CSF009', `${name}: ${(e as Error).message}`);
            bad = true;
          }
        }
      }
    }
    if (bad) return undefined;
    if (placement) {
      if (info.shape && (placement.shape.length !== info.shape.length || placement.shape.some((v, i) => v !== info.shape![i])))
        this.diag(info.stmt.shape!.span, 'error', 'CSF010', `the file's shape ${list([...placement.shape])} differs from the declared ${list(info.shape)}`, [
          { title: `Use ${list([...placement.shape])}`, edits: [this.edit(info.stmt.shape!.span, list([...placement.shape]))], preferred: true },
        ]);
      return {
        placement: { ...placement, mainBase: fields.get('main') ? main : placement.mainBase, metaBase: fields.get('meta') ? meta : placement.metaBase },
        dtype: info.dtype,
        mainCapacity,
        metaCapacity,
      };
    }
    if (!ptr || !index) {
      this.diag(terms[0].span, 'error', 'CSF002', 'fibers(…) needs ptr=[…] and index=[…] (or file="….csfbin")');
      return undefined;
    }
    return { placement: { shape: info.shape!, ptr, index, mainBase: main, metaBase: meta }, dtype: info.dtype, mainCapacity, metaCapacity };
  }

  // ---- probes

  checkProbe(s: ProbeStmt): void {
    const range = this.r(s.span);
    if (!s.tensor) {
      if (!s.address?.value || s.address.value.kind !== 'num') return;
      const address = s.address.value.value;
      const p: ProbeInfo = { stmt: s, range, kind: 'search', address, hits: [] };
      this.probes.push(p);
      for (const t of this.tensors) {
        if (!t.model) continue;
        let unit: number | undefined;
        if (s.address.unit) {
          unit = this.unitOf(t, s.address.unit, false);
          if (unit === undefined) continue;
        } else if (t.model.unitCount() > 1 && t.model.kind !== 'sparse') continue;
        const res = t.model.inverse(address, unit);
        if (res.kind !== 'outside') p.hits!.push({ tensor: t, result: res });
      }
      if (!p.hits!.length)
        this.diag(
          s.address.value.span,
          'information',
          'TL010',
          `no tensor holds ${hex(address)}` +
            (s.address.unit
              ? ''
              : this.tensors.some((t) => t.model && t.model.unitCount() > 1 && t.model.kind !== 'sparse')
                ? ' (banked tensors need bank N or core (x,y))'
                : ''),
        );
      return;
    }
    const t = this.tensors.find((x) => x.name === s.tensor!.text);
    if (!t) {
      const guess = closest(
        s.tensor.text,
        this.tensors.map((x) => x.name),
      );
      this.diag(
        s.tensor.span,
        'error',
        'TL010',
        `no tensor named '${s.tensor.text}'` +
          (guess ? ` (did you mean '${guess}'?)` : this.tensors.length ? `; tensors: ${this.tensors.map((x) => x.name).join(', ')}` : ''),
        guess ? [{ title: `Change to '${guess}'`, edits: [this.edit(s.tensor.span, guess)], preferred: true }] : undefined,
      );
      return;
    }
    const p: ProbeInfo = { stmt: s, range, kind: s.coords ? (s.device ? 'device' : 'forward') : 'inverse', tensor: t };
    this.probes.push(p);
    if (s.tensor.span.start < t.stmt.span.start)
      this.diag(s.tensor.span, 'error', 'TL010', `'${t.name}' is declared later (line ${t.nameRange.start.line + 1}); declare a tensor before probing it`);
    if (!t.model) {
      p.error = `the layout of '${t.name}' has errors`;
      return;
    }
    const m = t.model;
    if (s.coords) {
      const coord = this.coords(s.coords.items, p.kind === 'device' ? [] : t.dimNames);
      if (!coord) return;
      p.coord = coord;
      if (p.kind === 'device') {
        if (!(m instanceof SpyreLayout)) {
          this.diag(s.device!, 'error', 'TL010', `device[…] coordinates exist for Spyre layouts only; '${t.name}' is ${m.kind}`);
          return;
        }
        try {
          p.inverse = m.deviceProbe(coord);
          p.address = p.inverse.address;
        } catch (e) {
          p.error = (e as Error).message;
          this.diag(s.coords.span, 'error', 'TL010', `${p.error}; device_size is ${list(m.deviceSize)}`);
        }
        return;
      }
      const prob = m.checkCoord(coord);
      if (prob) {
        p.error = prob;
        this.diag(s.coords.span, 'error', 'TL010', `${prob} (shape ${list(t.shape ?? [])})`);
        return;
      }
      p.forward = m.forward(coord);
      p.address = p.forward.address;
      return;
    }
    if (s.address?.value?.kind === 'num') {
      const address = s.address.value.value;
      p.address = address;
      let unit: number | undefined;
      if (s.address.unit) {
        unit = this.unitOf(t, s.address.unit, true);
        if (unit === undefined) return;
      } else if (m.unitCount() > 1 && m.kind !== 'sparse') {
        const ex = m.kind === 'tt' && m.unitKind === 'core' ? `core ${m.unitLabel(0).replace('core ', '')}` : 'bank 0';
        this.diag(
          s.address.value.span,
          'error',
          'TL010',
          `'${t.name}' is spread over ${m.unitCount()} ${m.unitKind === 'core' ? 'cores' : 'banks'}: say which, e.g. 'address ${s.address.value.raw} ${ex}'`,
          [{ title: `Add '${ex}'`, edits: [this.edit({ start: s.address.value.span.end, end: s.address.value.span.end }, ` ${ex}`)] }],
        );
        return;
      }
      p.unit = unit;
      p.inverse = m.inverse(address, unit);
      if (p.inverse.kind === 'outside')
        this.diag(s.address.value.span, 'warning', 'TL010', `${hex(address)} is outside '${t.name}'${p.inverse.reason ? `: ${p.inverse.reason}` : ''}`);
    }
  }

  unitOf(t: TensorInfo, u: NonNullable<NonNullable<ProbeStmt['address']>['unit']>, report: boolean): number | undefined {
    const m = t.model!;
    let key: string | number[] | undefined;
    if (u.keyword.text === 'main' || u.keyword.text === 'meta') key = u.keyword.text;
    else if (u.value?.kind === 'num') key = String(u.value.value);
    else if (u.value?.kind === 'list') {
      const l = this.intList(u.value, 'a core', 0);
      if (!l) return undefined;
      key = l;
    }
    const kindOk =
      (u.keyword.text === 'bank' && m.unitKind === 'bank') ||
      (u.keyword.text === 'core' && m.unitKind === 'core') ||
      ((u.keyword.text === 'main' || u.keyword.text === 'meta') && m.kind === 'sparse');
    const idx = kindOk && key !== undefined && m.unitIndex ? m.unitIndex(key) : undefined;
    if (idx === undefined && report) {
      const what =
        m.unitCount() <= 1 && m.kind !== 'sparse'
          ? `'${t.name}' has a single address space: drop '${u.keyword.text}'`
          : m.kind === 'sparse'
            ? `'${t.name}' has main and meta memories`
            : `'${t.name}' uses ` +
              (m.unitKind === 'core'
                ? `cores ${Array.from({ length: Math.min(4, m.unitCount()) }, (_, i) => m.unitLabel(i).replace('core ', '')).join(', ')}` +
                  (m.unitCount() > 4 ? ', …' : '')
                : `${m.unitLabel(0).replace(/ \d+$/, '')}s 0..${m.unitCount() - 1}`);
      this.diag(u.value?.span ?? u.keyword.span, 'error', 'TL010', `no such ${u.keyword.text}: ${what}`);
    }
    return idx;
  }

  coords(items: DimItem[], names: (string | undefined)[]): number[] | undefined {
    const named = items.filter((i) => i.name);
    if (named.length && named.length !== items.length) {
      this.diag(named[0].span, 'error', 'TL010', 'name all indices or none');
      return undefined;
    }
    if (named.length) {
      const out = new Array<number>(names.length).fill(NaN);
      for (const it of items) {
        const k = names.indexOf(it.name!.text);
        if (k < 0) {
          this.diag(it.name!.span, 'error', 'TL010', `no dimension named '${it.name!.text}' (dims: ${names.map((d, i) => d ?? i).join(', ')})`);
          return undefined;
        }
        const v = this.int(it.value, 'an index');
        if (v === undefined) return undefined;
        out[k] = v;
      }
      const missing = out.findIndex((v) => Number.isNaN(v));
      if (missing >= 0) {
        this.diag(items[items.length - 1].span, 'error', 'TL010', `missing an index for ${names[missing] ?? `dimension ${missing}`}`);
        return undefined;
      }
      return out;
    }
    const out: number[] = [];
    for (const it of items) {
      if (it.value.kind === 'num' && Number.isInteger(it.value.value)) out.push(it.value.value);
      else {
        if (it.value.kind !== 'error') this.diag(it.value.span, 'error', 'TL010', 'an index is an integer');
        return undefined;
      }
    }
    return out;
  }

  // ---- file level

  placementsCheck(): void {
    const all: { t: TensorInfo; p: Placement; units?: Set<string> }[] = [];
    for (const t of this.tensors) if (t.model) for (const p of t.model.placements()) all.push({ t, p, units: p.units ? new Set(p.units) : undefined });
    // the two highest ends per space (of different tensors): the first free address past every other tensor
    const top = new Map<string, { end: number; t?: TensorInfo }[]>();
    for (const x of all) {
      const l = top.get(x.p.space) ?? [{ end: 0 }, { end: 0 }];
      const own = l.findIndex((e) => e.t === x.t);
      if (own >= 0) l[own].end = Math.max(l[own].end, x.p.end);
      else if (x.p.end > l[1].end) l[1] = { end: x.p.end, t: x.t };
      l.sort((p, q) => q.end - p.end);
      top.set(x.p.space, l);
    }
    const endOfOthers = (space: string, t: TensorInfo) => {
      const l = top.get(space)!;
      return l[0].t !== t ? l[0].end : l[1].end;
    };
    for (let i = 0; i < all.length; i++) {
      const a = all[i];
      if (a.p.capacity !== undefined && a.p.end > a.p.capacity && (a.p.space === 'spyre:device' || a.p.space === 'cells:core')) {
        const span = a.t.stmt.at?.value?.span ?? a.t.stmt.name!.span;
        this.diag(
          span,
          'error',
          'TL009',
          `out of memory: '${a.t.name}' ends ` +
            `at ${hex(a.p.end)} but ${a.p.what} has ${hex(a.p.capacity)} bytes (${a.t.summary?.bytes.toLocaleString('en-US')} B from ${hex(a.p.start)})`,
        );
      }
      if (a.p.space === 'host') continue;
      for (let j = 0; j < i; j++) {
        const b = all[j];
        if (b.t === a.t || b.p.space !== a.p.space) continue;
        if (!(a.p.start < b.p.end && b.p.start < a.p.end)) continue;
        let shared: string[] | undefined;
        if (a.units && b.units) {
          const [small, big] = a.units.size <= b.units.size ? [a.units, b.units] : [b.units, a.units];
          shared = [...small].filter((u) => big.has(u));
          if (!shared.length) continue;
        } else shared = a.p.units ?? b.p.units;
        const align = alignmentOf(a.t.model!);
        const free = roundUp(endOfOthers(a.p.space, a.t), align);
        const where = shared
          ? ` on ${shared
              .slice(0, 3)
              .map((u) => u.replace(/^core (\d+),(\d+)$/, 'core ($1,$2)'))
              .join(', ')}${shared.length > 3 ? ', …' : ''}`
          : '';
        const span = a.t.stmt.at?.value?.span ?? a.t.stmt.name!.span;
        const fix = this.fixEdit('@at', undefined, hex(free), atFields(a.t));
        this.diag(
          span,
          'warning',
          'TL008',
          `'${a.t.name}' (${hex(a.p.start)}..${hex(a.p.end - 1)}) overlaps '${b.t.name}' (${hex(b.p.start)}..${hex(b.p.end - 1)}) in ` +
            `${SPACE_NAMES[a.p.space] ?? a.p.space}${where}`,
          fix ? [{ title: `Move '${a.t.name}' to ${hex(free)}`, edits: [fix], preferred: true }] : undefined,
        );
        break;
      }
    }
  }

  run(): CheckResult {
    for (const e of this.file.errors)
      this.diag(
        e.span,
        'error',
        'TL000',
        e.message,
        e.fix ? [{ title: e.fix.title, edits: [this.edit(e.fix.span, e.fix.newText)], preferred: true }] : undefined,
      );
    this.collectTargets();
    for (const s of this.file.stmts) {
      if (s.kind === 'tensor') this.checkTensor(s);
    }
    for (const s of this.file.stmts) if (s.kind === 'probe') this.checkProbe(s);
    this.placementsCheck();
    this.diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    return { targets: this.targets, tensors: this.tensors, probes: this.probes, diagnostics: this.diagnostics };
  }
}

const SPACE_NAMES: Record<string, string> = {
  'tt:dram': 'DRAM (every bank)',
  'tt:l1': 'L1',
  'spyre:device': 'Spyre device memory',
  'cells:core': 'Core Memory',
  'csf:main': 'main memory',
  'csf:meta': 'metadata memory',
};

function atFields(t: TensorInfo): Fields {
  const f = new Fields(t.stmt);
  if (t.stmt.at?.value) f.set('@at', { span: t.stmt.at.value.span, value: t.stmt.at.value });
  return f;
}

function alignmentOf(m: AnyModel): number {
  if (m instanceof TTLayout) return m.alignment;
  if (m instanceof SpyreLayout) return 128;
  if (m instanceof CellLayout) return m.cellBytes;
  return 8;
}

const rmStridesOf = (s: number[]) => s.map((_, i) => s.slice(i + 1).reduce((p, x) => p * x, 1));

/** The model family a layout term selects, or undefined when it names none. */
export function termFamily(v: Value): Family | undefined {
  const nameV = v.kind === 'call' ? v.callee : v.kind === 'name' ? v : undefined;
  if (!nameV) return undefined;
  const first = nameV.parts[0].text.toLowerCase();
  const last = lastPart(nameV).toLowerCase();
  if (first === 'ttnn') return 'tt';
  if (MODEL_CALLS[last]) return MODEL_CALLS[last];
  if (first === 'torch' && (last === 'as_strided' || last === 'empty_strided')) return 'strided';
  if (first === 'torch_spyre') return 'spyre';
  if (
    [
      'tile_layout',
      'row_major_layout',
      'tile',
      'row_major',
      'dram_memory_config',
      'l1_memory_config',
      'create_sharded_memory_config',
      'create_sharded_memory_config_',
      'memoryconfig',
      'shardspec',
      'ndshardspec',
    ].includes(last)
  )
    return 'tt';
  return undefined;
}

export function checkLayout(file: LayoutFile, lines: LineIndex, options: CheckOptions = {}): CheckResult {
  return new Checker(file, lines, options).run();
}
