/** Byte-pattern search over a buffer or over a paged data source (the whole memory is never copied). */

export interface FindOptions {
  /** Match only at offsets that are multiples of this. */
  align?: number;
  /** Per-byte bit mask; bytes with mask 0 match anything. */
  mask?: Uint8Array;
  backward?: boolean;
}

function matchesAt(buf: Uint8Array, i: number, p: Uint8Array, mask?: Uint8Array): boolean {
  if (mask) {
    for (let k = 0; k < p.length; k++) if (((buf[i + k] ^ p[k]) & mask[k]) !== 0) return false;
    return true;
  }
  for (let k = 1; k < p.length; k++) if (buf[i + k] !== p[k]) return false;
  return buf[i] === p[0];
}

/**
 * First offset ≥ `from` (or last ≤ `from` when backward) where `pattern` occurs in `buf`; −1 when none.
 * `base` is the space offset of buf[0] (alignment is checked on base + i).
 */
export function findInBuffer(buf: Uint8Array, pattern: Uint8Array, from: number, opts: FindOptions = {}, base = 0): number {
  const align = Math.max(1, opts.align ?? 1);
  const p = pattern;
  const mask = opts.mask;
  if (p.length === 0 || p.length > buf.length) return -1;
  const last = buf.length - p.length;
  // index of the first byte that must match exactly (for the indexOf fast path)
  let anchor = -1;
  for (let k = 0; k < p.length; k++) {
    if (!mask || mask[k] === 0xff) {
      anchor = k;
      break;
    }
  }
  if (!opts.backward) {
    let i = Math.max(0, from);
    if (anchor >= 0) {
      while (i <= last) {
        const j = buf.indexOf(p[anchor], i + anchor);
        if (j < 0 || j - anchor > last) return -1;
        const s = j - anchor;
        if ((base + s) % align === 0 && matchesAt(buf, s, p, mask)) return s;
        i = s + 1;
      }
      return -1;
    }
    for (; i <= last; i++) if ((base + i) % align === 0 && matchesAt(buf, i, p, mask)) return i;
    return -1;
  }
  for (let i = Math.min(from, last); i >= 0; i--) if ((base + i) % align === 0 && matchesAt(buf, i, p, mask)) return i;
  return -1;
}

/**
 * Search through a space of `size` bytes read in chunks with `read(offset, length)`. With `wrap`, a
 * search that reaches the end continues from the other end up to where it started.
 */
export async function findInSource(
  read: (offset: number, length: number) => Uint8Array | Promise<Uint8Array>,
  size: number,
  pattern: Uint8Array,
  from: number,
  opts: FindOptions & { wrap?: boolean; chunk?: number } = {},
): Promise<number> {
  const chunk = Math.max(opts.chunk ?? 1 << 20, pattern.length * 2);
  const over = pattern.length - 1;
  const start = Math.min(Math.max(0, from), size);
  const scan = async (lo: number, hi: number): Promise<number> => {
    // matches that START in [lo, hi)
    if (!opts.backward) {
      for (let c = lo; c < hi; c += chunk) {
        const len = Math.min(chunk + over, size - c);
        if (len < pattern.length) return -1;
        const buf = await read(c, len);
        const i = findInBuffer(buf, pattern, 0, opts, c);
        if (i >= 0 && c + i < hi) return c + i;
        if (i >= 0) return -1;
      }
      return -1;
    }
    for (let c = hi; c > lo; c -= chunk) {
      const s = Math.max(lo, c - chunk);
      const len = Math.min(c - s + over, size - s);
      if (len < pattern.length) continue;
      const buf = await read(s, len);
      const i = findInBuffer(buf, pattern, c - 1 - s, opts, s);
      if (i >= 0) return s + i;
    }
    return -1;
  };
  if (!opts.backward) {
    const r = await scan(start, size);
    if (r >= 0 || !opts.wrap) return r;
    return scan(0, start);
  }
  const r = await scan(0, Math.min(size, start + 1));
  if (r >= 0 || !opts.wrap) return r;
  return scan(Math.min(size, start + 1), size);
}
