/**
 * IBM Spyre (`SpyreTensorLayout`): 128-byte sticks, `device_size` row-major in device memory, host↔device
 * correspondence by `dim_map` (v1) or `stride_map` (v2). Research layouts.md part A.
 */
import { type DType, HOST_BYTES, SPYRE_FORMAT_BY_NAME, spyreDtype, type SpyreDtypeInfo } from '../dtypes';
import { buildTables, mapTables } from '../fast';
import { issue, type Issue } from '../issues';
import {
  type Breakdown,
  checkManyInput,
  emptyBreakdown,
  type ForwardBase,
  type InverseResult,
  type LayoutModel,
  type LayoutSummary,
  type Placement,
  type Regions,
  runsOf,
  type Slot,
  type Step,
  type UnitRef,
} from '../model';
import { bytes, cdiv, CoordError, coordProblem, LayoutError, list, num, percent, plural, prod, rmStrides, safe, tuple, unravel } from '../util';

export const STICK_BYTES = 128;
export const SPYRE_MEMORY = 128 * 2 ** 30;
export const SPYRE_CORE_SPAN = 256 * 2 ** 20;
/** Device-slot count up to which a stride_map layout is verified by enumeration. */
export const SPYRE_ENUM_LIMIT = 2 ** 18;

export const ELEMENT_ARRANGEMENTS = ['STANDARD', 'DL16_TO_FP32', 'FP32_TO_DL16', 'QFP8CH', 'QFP8WT', 'EXX2'] as const;

export type SpyreLayoutSpec =
  | { kind: 'default'; dimOrder?: number[] }
  | { kind: 'dim_map'; deviceSize: number[]; dimMap: number[] }
  | { kind: 'stride_map'; deviceSize: number[]; strideMap: number[] };

export interface SpyreSpec {
  /** Host (PyTorch) size. */
  shape: number[];
  dtype: DType;
  /** Host strides in elements (default: contiguous). Only the stride_map correspondence uses them. */
  hostStrides?: number[];
  layout: SpyreLayoutSpec;
  /** `device_dtype` as written (`DataFormats.SEN169_FP16`); checked against the dtype's device format. */
  deviceDtype?: string;
  elementArrangement?: string;
  /** Base byte address (128-aligned). */
  base?: number;
  /** Device memory capacity in bytes (default 128 GiB). */
  memory?: number;
}

// ---------------------------------------------------------------------------------------------
// Algorithms (A.5 – A.7)

/** Default ("generic stick") layout, A.5. Throws LayoutError for an incompatible dim order. */
export function spyreDefaultLayout(hostSize: readonly number[], eps: number, dimOrder?: readonly number[]): { deviceSize: number[]; dimMap: number[] } {
  const r = hostSize.length;
  if (r === 0 && (!dimOrder || dimOrder.length === 0)) return { deviceSize: [1, eps], dimMap: [-1, -1] };
  const o = dimOrder ? [...dimOrder] : hostSize.map((_, i) => i);
  const k = o.length;
  if (!(k === r || (k === r + 1 && o[k - 1] === -1))) throw new LayoutError('Incompatible host_size and dim_order');
  const dimMap = k === 1 ? [o[0], o[0]] : [...o.slice(1), o[0], o[k - 1]];
  const stick = o[k - 1];
  const sparse = stick === -1;
  const deviceSize = dimMap.map((d, j) => {
    if (j === dimMap.length - 1) return eps;
    if (d === stick) return sparse ? 1 : cdiv(hostSize[stick], eps);
    return hostSize[d];
  });
  return { deviceSize, dimMap };
}

/** dim_map → stride_map (A.7.1). With `clamp`, the running product stops at `hostStride·hostSize` (newest runtime). */
export function dimMapToStrideMap(
  ds: readonly number[],
  dm: readonly number[],
  hostSize: readonly number[],
  hostStrides: readonly number[],
  clamp = false,
): number[] {
  const out = new Array<number>(ds.length);
  const running = hostSize.map((_, d) => hostStrides[d]);
  for (let j = ds.length - 1; j >= 0; j--) {
    const d = dm[j];
    if (d === -1 || hostSize[d] === 1) {
      out[j] = -1;
      continue;
    }
    out[j] = clamp ? Math.min(running[d], hostStrides[d] * hostSize[d]) : running[d];
    running[d] *= ds[j];
  }
  return out;
}

/** stride_map → dim_map, the heuristic of `spyre_mem.cpp::get_dim_map` (A.7.2). */
export function strideMapToDimMap(ds: readonly number[], sm: readonly number[], hostSize: readonly number[], hostStrides: readonly number[]): number[] {
  const n = ds.length;
  const dm = ds.map((s, j) => {
    if (s <= 1 || sm[j] <= 0) return -1;
    let best = -1;
    for (let i = 0; i < hostSize.length; i++) {
      if (hostSize[i] <= 1 || hostStrides[i] === 0 || hostStrides[i] > sm[j]) continue;
      if (best < 0 || hostStrides[i] > hostStrides[best]) best = i;
    }
    return best;
  });
  if (n > 2 && dm[n - 3] === -1) dm[n - 3] = dm[n - 1];
  else if (n === 2 && dm[0] === -1) dm[0] = dm[1];
  return dm;
}

/** Device coordinate → host coordinate and validity (A.6.1). */
export function devToHost(
  x: readonly number[],
  ds: readonly number[],
  dm: readonly number[],
  hostSize: readonly number[],
): { h: number[]; valid: boolean; reason?: string } {
  const r = hostSize.length;
  const h = new Array<number>(r).fill(0);
  const radix = new Array<number>(r).fill(1);
  let reason: string | undefined;
  for (let j = ds.length - 1; j >= 0; j--) {
    const d = dm[j];
    if (d === -1) {
      if (x[j] !== 0) reason ??= `device dim ${j} is synthetic (dim_map −1): only coordinate 0 holds data, this is ${x[j]}`;
      continue;
    }
    h[d] += x[j] * radix[d];
    radix[d] *= ds[j];
  }
  if (!reason) for (let d = 0; d < r; d++) if (h[d] >= hostSize[d]) reason = `host dim ${d} would be ${h[d]}, beyond its size ${hostSize[d]}`;
  return { h, valid: !reason, reason };
}

/** Host coordinate → device coordinate (A.6.2); `rest` non-zero means the coordinate does not fit. */
export function hostToDev(hc: readonly number[], ds: readonly number[], dm: readonly number[]): { x: number[]; fits: boolean } {
  const x = new Array<number>(ds.length).fill(0);
  const rem = [...hc];
  for (let j = ds.length - 1; j >= 0; j--) {
    const d = dm[j];
    if (d === -1) continue;
    x[j] = rem[d] % ds[j];
    rem[d] = Math.floor(rem[d] / ds[j]);
  }
  return { x, fits: rem.every((v) => v === 0) };
}

/** Greedy mixed-radix decomposition in decreasing-stride order (A.7.3); null when `h` is not representable. */
export function greedy(h: number, size: readonly number[], stride: readonly number[]): number[] | null {
  const idx = size
    .map((_, i) => i)
    .filter((i) => stride[i] > 0 && size[i] > 1)
    .sort((a, b) => stride[b] - stride[a] || b - a);
  const x = new Array<number>(size.length).fill(0);
  let rem = h;
  for (const i of idx) {
    const q = Math.floor(rem / stride[i]);
    if (q >= size[i]) return null;
    x[i] = q;
    rem -= q * stride[i];
  }
  return rem === 0 ? x : null;
}

/** Host offset of a device coordinate under a stride_map (−1 and 0 entries contribute nothing). */
export function strideMapOffset(x: readonly number[], sm: readonly number[]): number {
  let h = 0;
  for (let j = 0; j < x.length; j++) if (sm[j] > 0) h += x[j] * sm[j];
  return h;
}

export type SlotClass = { kind: 'element' | 'replica'; h: number; host: number[] } | { kind: 'padding'; reason: string; h?: number };

/** isDataSlot (A.7.3), extended to say why a slot is padding and whether it is a broadcast replica. */
export function classifySlot(
  x: readonly number[],
  ds: readonly number[],
  sm: readonly number[],
  hostSize: readonly number[],
  hostStrides: readonly number[],
): SlotClass {
  for (let j = 0; j < ds.length; j++)
    if ((sm[j] === -1 || ds[j] === 1) && x[j] !== 0)
      return { kind: 'padding', reason: `device dim ${j} carries no host data (stride_map −1): only coordinate 0 is used, this is ${x[j]}` };
  const h = strideMapOffset(x, sm);
  const back = greedy(h, ds, sm);
  if (!back || ds.some((_, j) => sm[j] > 0 && ds[j] > 1 && back[j] !== x[j]))
    return {
      kind: 'padding',
      h,
      reason: back ? `host offset ${h} is already stored at device ${tuple(back)} (this slot aliases it)` : `host offset ${h} has no canonical device position`,
    };
  const host = greedy(h, hostSize, hostStrides);
  if (!host) return { kind: 'padding', h, reason: `host offset ${h} is not an element of the host tensor ${list(hostSize)}` };
  const replica = ds.some((_, j) => sm[j] === 0 && x[j] !== 0);
  return { kind: replica ? 'replica' : 'element', h, host };
}

export const contiguousStrides = rmStrides;

/** The layout written out, as `spyre(...)` text. */
export function spyreLayoutText(ds: readonly number[], dm: readonly number[]): string {
  return `spyre(device_size=${list(ds)}, dim_map=${list(dm)})`;
}

// ---------------------------------------------------------------------------------------------
// Validation (A.8)

/** Every catalogue rule that can be checked from the spec. Errors make `new SpyreLayout` throw. */
export function validateSpyre(spec: SpyreSpec): Issue[] {
  const out: Issue[] = [];
  const info = SPYRE_DTYPES_OR(spec.dtype);
  if (!info) {
    out.push(
      issue(
        'SPY009',
        'error',
        `Spyre does not support ${spec.dtype}` +
          (spec.dtype === 'uint8' || spec.dtype === 'quint8' ? ' (it maps to SENUINT32, whose stick size is unknown)' : '') +
          '; supported: float16, bfloat16, bool, float32, int32, int64, int8, int16, float8_e4m3fn, float8_e5m2fnuz',
        '@dtype',
      ),
    );
    return out;
  }
  const eps = info.eps;
  const hs = spec.shape;
  const r = hs.length;
  if (info.conversion && spec.dtype !== 'float16')
    out.push(issue('SPY018', spec.dtype === 'int64' ? 'warning' : 'information', `${info.conversion}; device format ${info.device}`, '@dtype'));
  if (spec.deviceDtype !== undefined) {
    const want = spec.deviceDtype.replace(/^.*\./, '').toUpperCase();
    if (!SPYRE_FORMAT_BY_NAME[want])
      out.push(
        issue('SPY019', 'error', `unknown device_dtype ${spec.deviceDtype}; ${spec.dtype} is stored as ${info.device}`, 'device_dtype', {
          fixes: [{ title: `Use ${info.device}`, field: 'device_dtype', newText: `DataFormats.${info.device}`, preferred: true }],
        }),
      );
    else if (want !== info.device)
      out.push(
        issue('SPY019', 'error', `device_dtype ${want} does not match ${spec.dtype}, which Spyre stores as ${info.device}`, 'device_dtype', {
          fixes: [{ title: `Use ${info.device}`, field: 'device_dtype', newText: `DataFormats.${info.device}`, preferred: true }],
        }),
      );
  }
  if (spec.hostStrides && spec.hostStrides.length !== r)
    out.push(issue('SPY020', 'error', `host_strides has ${spec.hostStrides.length} entries but the tensor has rank ${r}`, 'host_strides'));
  if (spec.hostStrides?.some((s) => !Number.isInteger(s) || s < 0)) out.push(issue('SPY020', 'error', 'host strides must be integers ≥ 0', 'host_strides'));
  if (spec.elementArrangement !== undefined) {
    const ea = spec.elementArrangement.replace(/^.*\./, '').toUpperCase();
    if (!(ELEMENT_ARRANGEMENTS as readonly string[]).includes(ea))
      out.push(
        issue('SPY014', 'error', `unknown element_arrangement ${spec.elementArrangement}; one of ${ELEMENT_ARRANGEMENTS.join(', ')}`, 'element_arrangement'),
      );
    else if (ea !== 'STANDARD')
      out.push(
        issue(
          'SPY014',
          'information',
          `element_arrangement ${ea}: the position of an element inside its stick is a hardware permutation; addresses below give the stick and mark the ` +
            'slot as unspecified',
          'element_arrangement',
        ),
      );
  }
  const fixDefault = defaultFixes(spec, eps);
  const L = spec.layout;
  let ds: number[];
  let dm: number[] | undefined;
  if (L.kind === 'default') {
    if (L.dimOrder) {
      const o = L.dimOrder;
      const k = o.length;
      const okLen = k === r || (k === r + 1 && o[k - 1] === -1);
      const body = k === r + 1 ? o.slice(0, r) : o;
      const perm = body.length === r && [...body].sort((a, b) => a - b).every((v, i) => v === i);
      if (!okLen || !perm) {
        out.push(
          issue(
            'SPY008',
            'error',
            `Incompatible host_size and dim_order: dim_order must list the ${r} host dims once each (decreasing stride, stick dim ` +
              `last)${r > 0 ? `, optionally followed by −1 for a sparse layout, e.g. ${list(hs.map((_, i) => i))}` : ''}`,
            'dim_order',
            { fixes: [{ title: 'Use the default dim order', field: 'dim_order', newText: list(hs.map((_, i) => i)), preferred: true }] },
          ),
        );
        return out;
      }
    }
    if ((L.dimOrder?.length ?? r) > 6)
      out.push(
        issue(
          'SPY015',
          'information',
          `the generic default layout needs rank ≤ 6 in dim_map-era runtimes (this is rank ${L.dimOrder?.length ?? r}); newer runtimes build it for any rank`,
          '@layout',
        ),
      );
    const d = spyreDefaultLayout(hs, eps, L.dimOrder);
    ds = d.deviceSize;
    dm = d.dimMap;
  } else {
    ds = L.deviceSize;
    const map = L.kind === 'dim_map' ? L.dimMap : L.strideMap;
    const mapName = L.kind;
    let bad = false;
    if (ds.length !== map.length) {
      out.push(
        issue(
          'SPY001',
          'error',
          `device_size has ${ds.length} entries but ${mapName} has ${map.length}; they must have the same length (the device rank)`,
          mapName,
          { fixes: fixDefault },
        ),
      );
      bad = true;
    }
    if (ds.length < 2) {
      out.push(
        issue('SPY001', 'error', `a Spyre layout has at least 2 device dims (sticks and elements in a stick); device_size has ${ds.length}`, 'device_size', {
          fixes: fixDefault,
        }),
      );
      return out;
    }
    ds.forEach((s, j) => {
      if (!Number.isInteger(s) || s < 1) {
        out.push(issue('SPY007', 'error', `device_size[${j}] is ${s}; every device size must be an integer ≥ 1`, 'device_size', { index: j }));
        bad = true;
      }
    });
    if (ds[ds.length - 1] !== eps) {
      out.push(
        issue(
          'SPY002',
          'error',
          `the last device dim is the stick: device_size[${ds.length - 1}] must be ${eps} (elements of ${spec.dtype} per 128-byte stick), ` +
            `not ${ds[ds.length - 1]}`,
          'device_size',
          {
            index: ds.length - 1,
            fixes: [{ title: `Set the stick size to ${eps}`, field: 'device_size', index: ds.length - 1, newText: String(eps), preferred: true }],
          },
        ),
      );
      bad = true;
    }
    if (bad) return out;
    if (L.kind === 'dim_map') {
      dm = L.dimMap;
      validateDimMap(out, spec, ds, dm, eps, fixDefault);
      if (out.some((i) => i.severity === 'error')) return out;
    } else {
      const sm = L.strideMap;
      sm.forEach((s, j) => {
        if (!Number.isInteger(s) || s < -1)
          out.push(
            issue('SPY010', 'error', `stride_map[${j}] is ${s}; entries are −1 (no host dim), 0 (broadcast) or a host stride ` + '> 0', 'stride_map', {
              index: j,
            }),
          );
      });
      if (out.some((i) => i.severity === 'error')) return out;
      const strides = spec.hostStrides ?? rmStrides(hs);
      const numel = prod(hs);
      const rec = reconstruct(ds, sm, hs, strides);
      if (!rec) {
        const active = activeSlots(ds, sm);
        if (active <= SPYRE_ENUM_LIMIT) {
          const count = countDataSlots(ds, sm, hs, strides);
          if (count !== numel)
            out.push(
              issue(
                'SPY010',
                'error',
                `the stride_map reaches ${num(count)} of the ${num(numel)} host elements exactly once; ${num(numel - count)} cannot be stored (capacity too ` +
                  'small, or slots alias each other)',
                'stride_map',
                { fixes: fixDefault },
              ),
            );
        } else
          out.push(
            issue(
              'SPY010',
              'information',
              `stride_map not verified: it is not a tiling of the host dims and has ${num(active)} device slots to enumerate (limit ${num(SPYRE_ENUM_LIMIT)})`,
              'stride_map',
            ),
          );
      }
      if (out.some((i) => i.severity === 'error')) return out;
      dm = rec;
    }
  }
  // warnings and information, valid layouts only
  const n = ds.length;
  const devBytes = STICK_BYTES * prod(ds, 0, n - 1);
  const slots = prod(ds);
  const numel = prod(hs);
  const stickHost = dm ? dm[n - 1] : -2;
  if (r > 0 && stickHost >= 0 && hs[stickHost] === 1)
    out.push(
      issue(
        'SPY011',
        'warning',
        `the stick dim (host dim ${stickHost}) has size 1: every stick holds one element, like a sparse layout — ${eps}× the ` +
          `memory (${bytes(devBytes)} for ${plural(numel, 'element')})`,
        L.kind === 'default' ? '@shape' : '@layout',
      ),
    );
  const util = slots ? numel / slots : 1;
  if (dm && dm[n - 1] === -1 && r > 0)
    out.push(
      issue(
        'SPY012',
        'warning',
        `sparse layout: one element per 128-byte stick, ${percent(numel, slots)} of the device slots hold data (${bytes(devBytes)})`,
        '@layout',
      ),
    );
  else if (util < 0.5)
    out.push(
      issue(
        'SPY012',
        'warning',
        `only ${percent(numel, slots)} of the ${num(slots)} device slots hold data (${bytes(devBytes)} for ${bytes(numel * info.bytes)} of values)`,
        '@layout',
        { fixes: L.kind === 'default' ? undefined : fixDefault },
      ),
    );
  else if (stickHost >= 0 && hs[stickHost] % eps !== 0 && hs[stickHost] > 1) {
    const sz = hs[stickHost];
    out.push(
      issue(
        'SPY012',
        'information',
        `the stick dim (host dim ${stickHost}, size ${sz}) is padded ` +
          `to ${cdiv(sz, eps) * eps}: ${percent(cdiv(sz, eps) * eps - sz, cdiv(sz, eps) * eps)} of its sticks' slots are padding`,
        '@layout',
      ),
    );
  }
  const hostBytes = numel * HOST_BYTES[spec.dtype];
  if (hostBytes > devBytes)
    out.push(
      issue(
        'SPY013',
        'information',
        `allocation is max(device bytes, host bytes) = ${bytes(hostBytes)} (device layout ${bytes(devBytes)}): ${bytes(hostBytes - devBytes)} more than the ` +
          'layout uses',
        '@layout',
      ),
    );
  if (devBytes > SPYRE_CORE_SPAN)
    out.push(
      issue(
        'SPY016',
        'information',
        `${bytes(devBytes)} is more than the 256 MiB one core can address contiguously: the compiler must divide the work so each core's span fits`,
        '@layout',
      ),
    );
  if (spec.base !== undefined && spec.base % STICK_BYTES !== 0) {
    const up = Math.ceil(spec.base / STICK_BYTES) * STICK_BYTES;
    out.push(
      issue('SPY021', 'error', `Spyre tensors start on a 128-byte stick boundary; ${spec.base} is not (use 0x${up.toString(16)})`, '@at', {
        fixes: [{ title: `Round up to 0x${up.toString(16)}`, field: '@at', newText: `0x${up.toString(16)}`, preferred: true }],
      }),
    );
  }
  return out;
}

function SPYRE_DTYPES_OR(d: DType): SpyreDtypeInfo | undefined {
  return spyreDtype(d);
}

function defaultFixes(spec: SpyreSpec, eps: number) {
  try {
    const d = spyreDefaultLayout(spec.shape, eps);
    return [
      { title: 'Use the default Spyre layout', field: '@layout', newText: 'spyre()', preferred: true },
      { title: `Use the default Spyre layout, written out (${list(d.deviceSize)})`, field: '@layout', newText: spyreLayoutText(d.deviceSize, d.dimMap) },
    ];
  } catch {
    return undefined;
  }
}

function validateDimMap(out: Issue[], spec: SpyreSpec, ds: number[], dm: number[], eps: number, fixDefault: ReturnType<typeof defaultFixes>): void {
  const hs = spec.shape;
  const r = hs.length;
  const n = ds.length;
  dm.forEach((d, j) => {
    if (!Number.isInteger(d) || d < -1 || d >= r)
      out.push(issue('SPY003', 'error', `dim_map[${j}] is ${d}; entries are host dims 0..${r - 1} or −1 (synthetic sparse dim)`, 'dim_map', { index: j }));
  });
  if (out.some((i) => i.severity === 'error')) return;
  for (let h = 0; h < r; h++)
    if (!dm.includes(h))
      out.push(
        issue(
          'SPY004',
          'error',
          `host dim ${h} (size ${hs[h]}) does not appear in dim_map; every host dim, size-1 dims included, needs at least one device dim`,
          'dim_map',
          { fixes: fixDefault },
        ),
      );
  if (dm.includes(-1)) {
    if (dm[n - 1] !== -1)
      out.push(
        issue(
          'SPY005',
          'error',
          `dim_map has a −1 (synthetic dim) but its last entry is ${dm[n - 1]}: −1 only marks a sparse stick, so the stick dim dim_map[${n - 1}] must ` +
            'be −1',
          'dim_map',
          { index: n - 1 },
        ),
      );
    dm.forEach((d, j) => {
      if (d === -1 && j !== n - 1 && ds[j] !== 1)
        out.push(
          issue('SPY005', 'error', `device dim ${j} is synthetic (dim_map −1) and must have device_size 1, not ${ds[j]}`, 'device_size', {
            index: j,
            fixes: [{ title: 'Set it to 1', field: 'device_size', index: j, newText: '1', preferred: true }],
          }),
        );
    });
  }
  for (let h = 0; h < r; h++) {
    const js = dm.map((d, j) => (d === h ? j : -1)).filter((j) => j >= 0);
    if (!js.length) continue;
    const cap = js.reduce((p, j) => p * ds[j], 1);
    if (cap < hs[h]) {
      const fix =
        js.length === 1
          ? [{ title: `Set device_size[${js[0]}] to ${hs[h]}`, field: 'device_size', index: js[0], newText: String(hs[h]), preferred: true }]
          : js[0] !== n - 1
            ? [
                {
                  title: `Set device_size[${js[0]}] to ${cdiv(hs[h], cap / ds[js[0]])}`,
                  field: 'device_size',
                  index: js[0],
                  newText: String(cdiv(hs[h], cap / ds[js[0]])),
                  preferred: true,
                },
              ]
            : fixDefault;
      out.push(
        issue(
          'SPY006',
          'error',
          `host dim ${h} has ${hs[h]} elements but its device dims ${js.map((j) => `${j} (${ds[j]})`).join(' × ')} hold ` +
            `only ${cap}: elements ${cap}..${hs[h] - 1} are unreachable`,
          'device_size',
          { index: js[0], fixes: fix },
        ),
      );
    }
  }
  void eps;
}

/**
 * stride_map → the dim_map it is a tiling of (A.7.1 run backwards), or undefined when it is not one.
 * Device dims are matched right to left against each host dim's running stride (plain or clamped
 * form); ties are resolved by backtracking, and every host dim must get the capacity it needs.
 */
export function reconstructDimMap(ds: readonly number[], sm: readonly number[], hs: readonly number[], strides: readonly number[]): number[] | undefined {
  if (sm.some((s, j) => s === 0 && ds[j] > 1)) return undefined;
  const n = ds.length;
  const dm = new Array<number>(n).fill(-1);
  const running = [...strides];
  let steps = 0;
  const go = (j: number): boolean => {
    if (++steps > 10000) return false;
    if (j < 0) {
      for (let d = 0; d < hs.length; d++) {
        if (hs[d] <= 1) continue;
        let cap = 1;
        for (let k = 0; k < n; k++) if (dm[k] === d) cap *= ds[k];
        if (cap < hs[d]) return false;
      }
      return true;
    }
    if (ds[j] === 1 || sm[j] === -1) {
      if (sm[j] === -1 && ds[j] > 1 && j !== n - 1) return false;
      dm[j] = -1;
      return go(j - 1);
    }
    if (sm[j] <= 0) return false;
    for (let d = 0; d < hs.length; d++) {
      if (hs[d] <= 1) continue;
      const run = running[d];
      if (run !== sm[j] && Math.min(run, strides[d] * hs[d]) !== sm[j]) continue;
      dm[j] = d;
      running[d] = run * ds[j];
      if (go(j - 1)) return true;
      running[d] = run;
      dm[j] = -1;
    }
    return false;
  };
  return go(n - 1) ? dm : undefined;
}

function reconstruct(ds: number[], sm: number[], hs: number[], strides: number[]): number[] | undefined {
  return reconstructDimMap(ds, sm, hs, strides);
}

function activeSlots(ds: number[], sm: number[]): number {
  let p = 1;
  for (let j = 0; j < ds.length; j++) if (sm[j] > 0 && ds[j] > 1) p *= ds[j];
  return p;
}

const countCache = new Map<string, number>();

/** Number of device slots that hold a distinct real host element (broadcast and −1 dims at 0). Cached. */
export function countDataSlots(ds: number[], sm: number[], hs: number[], strides: number[]): number {
  const key = `${ds}|${sm}|${hs}|${strides}`;
  const hit = countCache.get(key);
  if (hit !== undefined) return hit;
  const n = countDataSlotsUncached(ds, sm, hs, strides);
  if (countCache.size >= 64) countCache.delete(countCache.keys().next().value!);
  countCache.set(key, n);
  return n;
}

function countDataSlotsUncached(ds: number[], sm: number[], hs: number[], strides: number[]): number {
  const act = ds.map((_, j) => j).filter((j) => sm[j] > 0 && ds[j] > 1);
  const size = act.map((j) => ds[j]);
  const total = prod(size);
  // greedy orders, computed once
  const dOrder = [...act].sort((a, b) => sm[b] - sm[a] || b - a);
  const hOrder = hs
    .map((_, i) => i)
    .filter((i) => strides[i] > 0 && hs[i] > 1)
    .sort((a, b) => strides[b] - strides[a] || b - a);
  const x = new Array<number>(ds.length).fill(0);
  let count = 0;
  for (let i = 0; i < total; i++) {
    let rem = i;
    let h = 0;
    for (let k = act.length - 1; k >= 0; k--) {
      const v = rem % size[k];
      x[act[k]] = v;
      h += v * sm[act[k]];
      rem = Math.floor(rem / size[k]);
    }
    // canonical device position of h must be x itself
    let r = h;
    let ok = true;
    for (const j of dOrder) {
      const q = Math.floor(r / sm[j]);
      if (q >= ds[j] || q !== x[j]) {
        ok = false;
        break;
      }
      r -= q * sm[j];
    }
    if (!ok || r !== 0) continue;
    // and h a real host element
    r = h;
    for (const d of hOrder) {
      const q = Math.floor(r / strides[d]);
      if (q >= hs[d]) {
        ok = false;
        break;
      }
      r -= q * strides[d];
    }
    if (ok && r === 0) count++;
  }
  return count;
}

// ---------------------------------------------------------------------------------------------
// The model

export interface SpyreForward extends ForwardBase {
  model: 'spyre';
  /** Host offset in elements (Σ coord·hostStride). */
  hostOffset: number;
  device: number[];
  /** Element offset in device memory (Σ device·devStride). */
  elemOffset: number;
  byteOffset: number;
  stick: number;
  /** Element slot inside the stick (undefined when the element arrangement is not STANDARD). */
  slot?: number;
  /** Byte inside the stick. */
  stickByte?: number;
}

export class SpyreLayout implements LayoutModel<SpyreForward> {
  readonly kind = 'spyre' as const;
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly base: number;
  readonly info: SpyreDtypeInfo;
  readonly eps: number;
  readonly bpe: number;
  readonly deviceSize: readonly number[];
  /** dim_map: given, default, or reconstructed from an equivalent stride_map; undefined = stride_map mapping. */
  readonly dimMap?: readonly number[];
  readonly strideMap: readonly number[];
  readonly hostStrides: readonly number[];
  readonly devStrides: readonly number[];
  readonly sparse: boolean;
  readonly standard: boolean;
  readonly arrangement: string;
  readonly layoutKind: SpyreLayoutSpec['kind'];
  readonly deviceBytes: number;
  readonly allocBytes: number;
  readonly numel: number;
  readonly memory: number;
  private dataSlotCount: number;
  private replicaFactor: number;
  // forwardMany tables (dim_map mode): digits of each host dim, innermost first
  private readonly dgStart: Int32Array;
  private readonly dgSize: Int32Array;
  private readonly dgStride: Float64Array;

  constructor(spec: SpyreSpec) {
    const errors = validateSpyre(spec).filter((i) => i.severity === 'error');
    if (errors.length) throw new LayoutError(errors.map((e) => e.message).join('; '));
    this.info = spyreDtype(spec.dtype)!;
    this.eps = this.info.eps;
    this.bpe = this.info.bytes;
    this.shape = [...spec.shape];
    this.dtype = spec.dtype;
    this.base = spec.base ?? 0;
    this.memory = spec.memory ?? SPYRE_MEMORY;
    this.hostStrides = spec.hostStrides ? [...spec.hostStrides] : rmStrides(spec.shape);
    this.arrangement = (spec.elementArrangement ?? 'STANDARD').replace(/^.*\./, '').toUpperCase();
    this.standard = this.arrangement === 'STANDARD';
    this.layoutKind = spec.layout.kind;
    const L = spec.layout;
    if (L.kind === 'default') {
      const d = spyreDefaultLayout(spec.shape, this.eps, L.dimOrder);
      this.deviceSize = d.deviceSize;
      this.dimMap = d.dimMap;
    } else if (L.kind === 'dim_map') {
      this.deviceSize = [...L.deviceSize];
      this.dimMap = [...L.dimMap];
    } else {
      this.deviceSize = [...L.deviceSize];
      this.dimMap = reconstruct([...L.deviceSize], L.strideMap, [...spec.shape], [...this.hostStrides]);
    }
    const ds = this.deviceSize;
    const n = ds.length;
    this.strideMap = L.kind === 'stride_map' ? [...L.strideMap] : dimMapToStrideMap(ds, this.dimMap!, this.shape, this.hostStrides);
    this.devStrides = rmStrides(ds);
    this.sparse = this.dimMap ? this.dimMap[n - 1] === -1 : false;
    this.numel = safe(prod(spec.shape), 'the element count');
    this.deviceBytes = safe(STICK_BYTES * prod(ds, 0, n - 1), 'the device size in bytes');
    this.allocBytes = Math.max(this.deviceBytes, this.numel * HOST_BYTES[spec.dtype]);
    this.replicaFactor = 1;
    if (this.dimMap) this.dataSlotCount = this.numel;
    else {
      for (let j = 0; j < n; j++) if (this.strideMap[j] === 0) this.replicaFactor *= ds[j];
      this.dataSlotCount =
        activeSlots([...ds], [...this.strideMap]) <= SPYRE_ENUM_LIMIT
          ? countDataSlots([...ds], [...this.strideMap], [...this.shape], [...this.hostStrides])
          : this.numel;
    }
    // digits for the fast path
    const r = this.shape.length;
    this.dgStart = new Int32Array(r + 1);
    const sizes: number[] = [];
    const strides: number[] = [];
    if (this.dimMap) {
      for (let d = 0; d < r; d++) {
        this.dgStart[d] = sizes.length;
        for (let j = n - 1; j >= 0; j--)
          if (this.dimMap[j] === d) {
            sizes.push(ds[j]);
            strides.push(this.devStrides[j] * this.bpe);
          }
      }
      this.dgStart[r] = sizes.length;
    }
    this.dgSize = Int32Array.from(sizes);
    this.dgStride = Float64Array.from(strides);
  }

  checkCoord(coord: readonly number[]): string | undefined {
    return coordProblem(coord, this.shape);
  }

  hostOffset(coord: readonly number[]): number {
    let h = 0;
    for (let d = 0; d < coord.length; d++) h += coord[d] * this.hostStrides[d];
    return h;
  }

  /** Host coordinate → device coordinate. */
  toDevice(coord: readonly number[]): number[] {
    if (this.dimMap) return hostToDev(coord, this.deviceSize, this.dimMap).x;
    const x = greedy(this.hostOffset(coord), this.deviceSize, this.strideMap);
    if (!x) throw new CoordError(`host element ${tuple(coord)} has no device position under this stride_map`);
    return x;
  }

  /** Device coordinate → host element, padding or replica. */
  fromDevice(x: readonly number[]): SlotClass {
    if (this.dimMap) {
      const r = devToHost(x, this.deviceSize, this.dimMap, this.shape);
      return r.valid ? { kind: 'element', h: this.hostOffset(r.h), host: r.h } : { kind: 'padding', reason: r.reason! };
    }
    return classifySlot(x, this.deviceSize, this.strideMap, this.shape, this.hostStrides);
  }

  forward(coord: readonly number[]): SpyreForward {
    const p = this.checkCoord(coord);
    if (p) throw new CoordError(p);
    const device = this.toDevice(coord);
    const elemOffset = device.reduce((s, x, j) => s + x * this.devStrides[j], 0);
    const byteOffset = elemOffset * this.bpe;
    const stick = Math.floor(elemOffset / this.eps);
    const slot = this.standard ? elemOffset % this.eps : undefined;
    const stickByte = slot === undefined ? undefined : slot * this.bpe;
    const address = this.standard ? this.base + byteOffset : this.base + stick * STICK_BYTES;
    const hostOffset = this.hostOffset(coord);
    const steps: Step[] = [
      { name: 'host coordinate', value: tuple(coord) },
      ...(this.dimMap ? [] : [{ name: 'host offset (Σ coord·host stride)', value: num(hostOffset) }]),
      { name: 'device coordinate', value: tuple(device) },
      { name: 'element offset (Σ device·device stride)', value: num(elemOffset) },
      { name: 'stick', value: `${num(stick)} (128 B each)` },
      { name: 'offset in stick', value: slot === undefined ? `unspecified (${this.arrangement})` : `slot ${slot}, byte ${stickByte}` },
      { name: 'byte offset', value: num(this.standard ? byteOffset : stick * STICK_BYTES) },
      { name: 'address', value: `0x${address.toString(16)}` },
    ];
    return { model: 'spyre', coord: [...coord], address, size: this.bpe, steps, hostOffset, device, elemOffset, byteOffset, stick, slot, stickByte };
  }

  inverse(address: number): InverseResult {
    const off = address - this.base;
    const steps: Step[] = [{ name: 'byte offset', value: num(off) }];
    if (off < 0 || off >= this.allocBytes || !Number.isInteger(off))
      return {
        model: 'spyre',
        address,
        kind: 'outside',
        steps,
        reason: `the tensor occupies 0x${this.base.toString(16)}..0x${(this.base + this.allocBytes - 1).toString(16)}`,
      };
    if (off >= this.deviceBytes)
      return {
        model: 'spyre',
        address,
        kind: 'slack',
        steps,
        reason: `allocation beyond the ${bytes(this.deviceBytes)} device layout (allocation = max(device, host) = ${bytes(this.allocBytes)})`,
      };
    const stick = Math.floor(off / STICK_BYTES);
    steps.push({ name: 'stick', value: `${num(stick)}, byte ${off % STICK_BYTES} in it` });
    if (!this.standard) {
      steps.push({ name: 'offset in stick', value: `unspecified (${this.arrangement})` });
      return { model: 'spyre', address, kind: 'element', steps, reason: `the order inside a stick is hardware-defined for ${this.arrangement}` };
    }
    const elem = Math.floor(off / this.bpe);
    const device = unravel(elem, this.deviceSize);
    steps.push(
      { name: 'slot in stick', value: String(elem % this.eps) },
      { name: 'element offset', value: num(elem) },
      { name: 'device coordinate', value: tuple(device) },
    );
    const c = this.fromDevice(device);
    if (c.kind === 'padding') return { model: 'spyre', address, kind: 'padding', steps, reason: c.reason };
    if (!this.dimMap) steps.push({ name: 'host offset', value: num(c.h) });
    steps.push({ name: 'host coordinate', value: tuple(c.host) });
    return {
      model: 'spyre',
      address,
      kind: c.kind,
      coord: c.host,
      byteInElement: off % this.bpe,
      steps,
      reason: c.kind === 'replica' ? 'broadcast copy (stride_map 0)' : undefined,
    };
  }

  /** Device coordinate → address and what it holds (the `probe NAME device[...]` form). */
  deviceProbe(x: readonly number[]): InverseResult {
    const p = coordProblem(x, this.deviceSize);
    if (p) throw new CoordError(p.replace('the tensor has', 'the device layout has'));
    const elem = x.reduce((s, v, j) => s + v * this.devStrides[j], 0);
    return this.inverse(this.base + elem * this.bpe);
  }

  forwardMany(coords: Int32Array, out?: Float64Array): Float64Array {
    const r = this.shape.length;
    const count = checkManyInput(coords, r);
    const res = out ?? new Float64Array(count);
    if (!this.dimMap || !this.standard) {
      const c = new Array<number>(r);
      for (let i = 0; i < count; i++) {
        for (let d = 0; d < r; d++) c[d] = coords[i * r + d];
        res[i] = this.checkCoord(c) ? NaN : this.forward(c).address;
      }
      return res;
    }
    if (this.tables === undefined)
      this.tables =
        buildTables([...this.shape], (d, c) => {
          let a = 0;
          let rem = c;
          for (let g = this.dgStart[d]; g < this.dgStart[d + 1]; g++) {
            const q = rem % this.dgSize[g];
            a += q * this.dgStride[g];
            rem = (rem - q) / this.dgSize[g];
          }
          return a;
        }) ?? null;
    if (this.tables) {
      mapTables(this.base, this.tables, coords, res, count);
      return res;
    }
    const shape = Int32Array.from(this.shape);
    const st = this.dgStart;
    const sz = this.dgSize;
    const sd = this.dgStride;
    const base = this.base;
    let k = 0;
    for (let i = 0; i < count; i++) {
      let a = base;
      let bad = false;
      for (let d = 0; d < r; d++) {
        let c = coords[k++];
        if (c < 0 || c >= shape[d]) bad = true;
        const e = st[d + 1];
        for (let g = st[d]; g < e; g++) {
          const s = sz[g];
          const q = c % s;
          a += q * sd[g];
          c = ((c - q) / s) | 0;
        }
      }
      res[i] = bad ? NaN : a;
    }
    return res;
  }

  private tables?: Float64Array[] | null;

  /** Sticks holding at least one element, and partially filled sticks (closed form). */
  stickCounts(): { sticks: number; data: number; partial: number } {
    const n = this.deviceSize.length;
    const sticks = prod(this.deviceSize, 0, n - 1);
    if (!this.dimMap || !this.standard) return { sticks, data: Math.min(sticks, this.dataSlotCount), partial: 0 };
    const s = this.dimMap[n - 1];
    if (s === -1) return { sticks, data: this.numel, partial: this.numel };
    let other = 1;
    for (let d = 0; d < this.shape.length; d++) if (d !== s) other *= this.shape[d];
    const sz = this.shape[s];
    return { sticks, data: other * cdiv(sz, this.eps), partial: sz % this.eps ? other : 0 };
  }

  summary(): LayoutSummary {
    const slotsAll = prod(this.deviceSize);
    const data = this.dataSlotCount;
    const replica = data * (this.replicaFactor - 1);
    const slots = slotsAll - replica;
    const br: Breakdown = emptyBreakdown();
    br.element = data * this.bpe;
    br.replica = replica * this.bpe;
    br.padding = (slotsAll - data - replica) * this.bpe;
    br.slack = this.allocBytes - this.deviceBytes;
    const sc = this.stickCounts();
    const paddingPercent = slots ? (100 * (slots - data)) / slots : 0;
    const facts: Step[] = [
      { name: 'dtype', value: `${this.dtype} → ${this.info.device}, ${this.eps} elements per 128-byte stick` },
      { name: 'host size', value: list(this.shape) + (this.layoutKind === 'stride_map' ? `, strides ${list(this.hostStrides)}` : '') },
      { name: 'device_size', value: list(this.deviceSize) },
      ...(this.dimMap && this.layoutKind !== 'stride_map' ? [{ name: 'dim_map', value: list(this.dimMap) }] : []),
      { name: 'stride_map', value: list(this.strideMap) },
      { name: 'device strides', value: list(this.devStrides) },
      { name: 'sticks', value: `${num(sc.sticks)} (${num(sc.data)} with data${sc.partial ? `, ${num(sc.partial)} partly filled` : ''})` },
      { name: 'device bytes', value: `${bytes(this.deviceBytes)} (${num(this.deviceBytes)} B)` },
      { name: 'allocation', value: `${bytes(this.allocBytes)} = max(device ${bytes(this.deviceBytes)}, host ${bytes(this.numel * HOST_BYTES[this.dtype])})` },
      {
        name: 'utilisation',
        value:
          `${num(data)} of ${num(slotsAll)} slots (${percent(data, slotsAll)})` +
          `${replica ? `, ${num(replica)} broadcast replicas` : ''}${this.sparse ? ', sparse' : ''}`,
      },
      { name: 'address range', value: `0x${this.base.toString(16)}..0x${(this.base + this.allocBytes - 1).toString(16)}` },
    ];
    return {
      model: 'spyre',
      elements: this.numel,
      slots,
      paddingSlots: slots - data,
      bytes: this.allocBytes,
      breakdown: br,
      paddingPercent,
      blocks: { name: 'stick', count: sc.sticks, bytes: STICK_BYTES },
      short: `${bytes(this.allocBytes)} · ${plural(sc.sticks, 'stick')} · ${percent(slots - data, slots)} padding${this.sparse ? ' · sparse' : ''}`,
      facts,
    };
  }

  /** Stick `s`: how many real elements it holds. */
  stickFill(s: number): { elements: number; first?: number[] } {
    const n = this.deviceSize.length;
    const prefix = unravel(s, this.deviceSize.slice(0, n - 1));
    if (this.dimMap && this.standard) {
      const x = [...prefix, 0];
      const r = devToHost(x, this.deviceSize, this.dimMap, this.shape);
      const sd = this.dimMap[n - 1];
      if (sd === -1) return r.valid ? { elements: 1, first: r.h } : { elements: 0 };
      // all dims but the stick host dim must be in range
      for (let d = 0; d < this.shape.length; d++) if (d !== sd && r.h[d] >= this.shape[d]) return { elements: 0 };
      const count = Math.max(0, Math.min(this.eps, this.shape[sd] - r.h[sd]));
      return count ? { elements: count, first: r.h } : { elements: 0 };
    }
    let elements = 0;
    let first: number[] | undefined;
    for (let i = 0; i < this.eps; i++) {
      const c = this.fromDevice([...prefix, i]);
      if (c.kind === 'element') {
        elements++;
        first ??= c.host;
      }
    }
    return { elements, first };
  }

  regions(): Regions {
    const sticks = prod(this.deviceSize, 0, this.deviceSize.length - 1);
    const slot = (_u: number, s: number): Slot => {
      const f = this.stickFill(s);
      const kind: Slot['kind'] = f.elements === 0 ? 'padding' : f.elements === this.eps ? 'data' : 'partial';
      return {
        kind,
        index: s,
        elements: f.elements,
        first: f.first,
        label: `stick ${s}: ${f.elements}/${this.eps} elements${f.first ? `, first ${tuple(f.first)}` : ''}`,
      };
    };
    return {
      kind: 'sticks',
      unitName: 'device memory',
      slotName: 'stick',
      slotBytes: STICK_BYTES,
      units: [{ label: 'device memory', base: this.base, slots: sticks }],
      slot,
      runs: (u, from = 0, to = sticks) => runsOf((s) => slot(u, s).kind, from, to),
      inner: { name: 'stick', rows: 1, cols: this.eps, bytesPerElement: this.bpe },
    };
  }

  readonly unitKind: UnitRef['kind'] | undefined = undefined;

  unitCount(): number {
    return 1;
  }

  unitIndex(): number | undefined {
    return undefined;
  }

  unitLabel(): string {
    return 'device memory';
  }

  placements(): Placement[] {
    return [{ space: 'spyre:device', start: this.base, end: this.base + this.allocBytes, capacity: this.memory, what: 'device memory' }];
  }
}
