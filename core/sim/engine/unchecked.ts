/**
 * Where the simulator's bounds checks and ztachip's hardware part ways (research §6.3). The simulator
 * applies the intended checks: an element outside its dimension reads PAD or is not written. The
 * hardware checks less — a destination's MEM/SCRATCH index below 0, a thread index, a member index and
 * the second PCORE index are not checked, so there the element reaches the neighbouring bytes, thread,
 * word or PCORE instead. A transfer that clips such an index is reported as a run warning at its term:
 * the result is the documented one, not necessarily the chip's.
 */
import type { Descriptor, Level } from '../../tprog/descriptor';

/** Describes the first level of `desc` whose clipped elements the hardware would not clip, or undefined. */
export function uncheckedClip(desc: Descriptor, role: 'dst' | 'src'): string | undefined {
  for (const l of desc.levels) {
    // an unknown begin or step (NaN) fails every comparison below, so the level is passed over; so is an empty one
    const b = l.begin ?? NaN;
    const s = l.step ?? NaN;
    const c = l.count ?? 0;
    if (c <= 0) continue;
    const last = b + (c - 1) * s;
    const low = Math.min(b, last) < 0;
    // an unknown size bounds nothing above
    const high = l.checkHigh && Math.max(b, last) > (l.size ?? Infinity) - 1;
    if (!low && !high) continue;
    const what = unchecked(l, desc, role, low);
    if (!what) continue;
    // (of the dimensions, only a destination's are reported)
    const where = l.kind === 'dim' ? `dimension ${l.dim} of the ${desc.written} destination` : `${l.label} of the ${role === 'dst' ? 'destination' : 'source'}`;
    const range = `${b}${c > 1 ? `..${last}` : ''}`;
    const bounds = l.size === undefined ? 'below 0' : `outside 0..${l.size - 1}`;
    return (
      `${where}: index ${range} is ${bounds}; the simulator ${role === 'dst' ? 'skips those writes' : 'reads PAD there'}, but ztachip's hardware does ` +
      `not check ${what}`
    );
  }
  return undefined;
}

/** What the hardware does not check about level `l`, which is clipped (below 0 when `low`, else above its size). */
function unchecked(l: Level, desc: Descriptor, role: 'dst' | 'src', low: boolean): string | undefined {
  switch (l.kind) {
    case 'dim':
      return role === 'dst' && low ? 'the lower bound of a destination: it writes before the tensor' : undefined;
    case 'thread':
      return 'thread indices: the access reaches the neighbouring thread or PCORE';
    case 'member':
      return 'member indices: the access reaches the neighbouring words';
    case 'pcore':
      return l.dim === 1 && (desc.pcoreShape?.length ?? 0) === 2 ? 'the second PCORE index: the access reaches the neighbouring PCORE' : undefined;
  }
  // flat levels (a whole variable) are checked
  return undefined;
}
