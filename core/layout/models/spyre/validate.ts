/** Validation of a Spyre tensor spec (research layouts.md A.8): every catalogue rule that can be checked from the spec. */
import { HOST_BYTES, SPYRE_FORMAT_BY_NAME, spyreDtype } from '../../dtypes';
import { issue, type Issue, type IssueFix } from '../../issues';
import { bytes, cdiv, list, num, percent, plural, prod, rmStrides } from '../../util';
import { activeSlots, countDataSlots, reconstructDimMap } from './dataSlots';
import { spyreDefaultLayout, spyreLayoutText } from './maps';
import { ELEMENT_ARRANGEMENTS, SPYRE_CORE_SPAN, SPYRE_ENUM_LIMIT, type SpyreSpec, STICK_BYTES } from './spec';

/** Every catalogue rule that can be checked from the spec. Errors make `new SpyreLayout` throw. */
export function validateSpyre(spec: SpyreSpec): Issue[] {
  const out: Issue[] = [];
  const info = spyreDtype(spec.dtype);
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
    const want = bare(spec.deviceDtype);
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
    const ea = bare(spec.elementArrangement);
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
      // the first r entries (all of them, or all but the −1) hold each host dim once
      const perm = o
        .slice(0, r)
        .sort((a, b) => a - b)
        .every((v, i) => v === i);
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
      validateDimMap(out, spec, ds, dm, fixDefault);
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
      const rec = reconstructDimMap(ds, sm, hs, strides);
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
  // the host dim of the stick; −1 (sparse) or −2 (no dim_map) indexes no host dim
  const stickHost = dm ? dm[n - 1] : -2;
  if (hs[stickHost] === 1)
    out.push(
      issue(
        'SPY011',
        'warning',
        `the stick dim (host dim ${stickHost}) has size 1: every stick holds one element, like a sparse layout — ${eps}× the ` +
          `memory (${bytes(devBytes)} for ${plural(numel, 'element')})`,
        L.kind === 'default' ? '@shape' : '@layout',
      ),
    );
  if (dm && dm[n - 1] === -1 && r > 0)
    out.push(
      issue(
        'SPY012',
        'warning',
        `sparse layout: one element per 128-byte stick, ${percent(numel, slots)} of the device slots hold data (${bytes(devBytes)})`,
        '@layout',
      ),
    );
  // less than half used (an empty tensor, 0 of 0 slots, is not)
  else if (2 * numel < slots)
    out.push(
      issue(
        'SPY012',
        'warning',
        `only ${percent(numel, slots)} of the ${num(slots)} device slots hold data (${bytes(devBytes)} for ${bytes(numel * info.bytes)} of values)`,
        '@layout',
        { fixes: L.kind === 'default' ? undefined : fixDefault },
      ),
    );
  else if (hs[stickHost] % eps !== 0 && hs[stickHost] > 1) {
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

/** An enum name as written, without its class (`DataFormats.`, `ElementArrangement.`), in upper case. */
const bare = (name: string): string => name.slice(name.lastIndexOf('.') + 1).toUpperCase();

/** The default layout, as the fix of a layout that does not fit (without a dim order spyreDefaultLayout cannot throw). */
function defaultFixes(spec: SpyreSpec, eps: number): IssueFix[] {
  const d = spyreDefaultLayout(spec.shape, eps);
  return [
    { title: 'Use the default Spyre layout', field: '@layout', newText: 'spyre()', preferred: true },
    { title: `Use the default Spyre layout, written out (${list(d.deviceSize)})`, field: '@layout', newText: spyreLayoutText(d.deviceSize, d.dimMap) },
  ];
}

function validateDimMap(out: Issue[], spec: SpyreSpec, ds: number[], dm: number[], fixDefault: IssueFix[]): void {
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
  for (const h of hs.keys()) {
    const js = dm.map((d, j) => (d === h ? j : -1)).filter((j) => j >= 0);
    if (!js.length) continue;
    const cap = js.reduce((p, j) => p * ds[j], 1);
    if (cap < hs[h]) {
      // the outermost of its device dims grows to fit; when that is the stick, whose size is fixed (SPY002), the layout
      // needs a tile dim: the default one
      const need = cdiv(hs[h], cap / ds[js[0]]);
      const fix =
        js[0] === n - 1
          ? fixDefault
          : [{ title: `Set device_size[${js[0]}] to ${need}`, field: 'device_size', index: js[0], newText: String(need), preferred: true }];
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
}
