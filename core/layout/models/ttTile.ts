/** TT-Metalium tiles and faces (research B.2–B.3): supported shapes, page sizes, element order inside a tile. */
import type { TTDtypeInfo } from '../dtypes';
import { roundUp } from '../util';

export interface TileGeometry {
  tH: number;
  tW: number;
  fH: number;
  fW: number;
  /** Face rows and columns inside the tile. */
  nFr: number;
  nFc: number;
  faces: number;
  transpose: boolean;
}

/** [tile h, tile w, face h, face w] of the 12 shapes the `Tile` constructor accepts. */
export const TILE_SHAPES: readonly (readonly [number, number, number, number])[] = [
  [32, 32, 16, 16],
  [16, 32, 16, 16],
  [32, 16, 16, 16],
  [16, 16, 16, 16],
  [8, 32, 8, 16],
  [4, 32, 4, 16],
  [2, 32, 2, 16],
  [1, 32, 1, 16],
  [8, 16, 8, 16],
  [4, 16, 4, 16],
  [2, 16, 2, 16],
  [1, 16, 1, 16],
];

export function tileGeometry(tH: number, tW: number, transpose = false): TileGeometry | undefined {
  const s = TILE_SHAPES.find((t) => t[0] === tH && t[1] === tW);
  if (!s) return undefined;
  const [, , fH, fW] = s;
  const nFr = tH / fH;
  const nFc = tW / fW;
  return { tH, tW, fH, fW, nFr, nFc, faces: nFr * nFc, transpose };
}

/** Bytes of the shared-exponent section of a block-float tile: one byte per face row, rounded to 16. */
export const exponentBytes = (g: TileGeometry): number => roundUp(g.fH * g.faces, 16);

/** Bytes of the element (mantissa) section of a tile. */
export const tileDataBytes = (g: TileGeometry, d: TTDtypeInfo): number => (g.tH * g.tW * d.tileBits) / 8;

/** `tile_size(format)`: data section plus, for block floats, the exponent section. */
export const tileBytes = (g: TileGeometry, d: TTDtypeInfo): number => tileDataBytes(g, d) + (d.blockFloat ? exponentBytes(g) : 0);

export interface InTile {
  rr: number;
  cc: number;
  face: number;
  /** Face row / column inside the tile. */
  fr: number;
  fc: number;
  ir: number;
  ic: number;
  /** Element index inside the tile. */
  elem: number;
}

/** Element (r, c) of the physical 2-D tensor → its place in the tile (`convert_layout_row_major_to_tile_nfaces`). */
export function inTile(r: number, c: number, g: TileGeometry): InTile {
  const rr = r % g.tH;
  const cc = c % g.tW;
  const fr = Math.floor(rr / g.fH);
  const fc = Math.floor(cc / g.fW);
  const face = g.transpose ? fc * g.nFr + fr : fr * g.nFc + fc;
  const ir = rr % g.fH;
  const ic = cc % g.fW;
  const within = g.transpose ? ic * g.fH + ir : ir * g.fW + ic;
  return { rr, cc, face, fr, fc, ir, ic, elem: face * g.fH * g.fW + within };
}

/** Inverse of `inTile`: element index → (rr, cc) in the tile. */
export function fromTileElem(elem: number, g: TileGeometry): { rr: number; cc: number; face: number } {
  const fsz = g.fH * g.fW;
  const face = Math.floor(elem / fsz);
  const within = elem % fsz;
  const fr = g.transpose ? face % g.nFr : Math.floor(face / g.nFc);
  const fc = g.transpose ? Math.floor(face / g.nFr) : face % g.nFc;
  const ir = g.transpose ? within % g.fH : Math.floor(within / g.fW);
  const ic = g.transpose ? Math.floor(within / g.fH) : within % g.fW;
  return { rr: fr * g.fH + ir, cc: fc * g.fW + ic, face };
}

/**
 * Bytes of the data section holding at least one real element, for a tile whose real part is the
 * top-left `rows × cols` block. Dense: elements × size; bfp8: one byte each; bfp4: a byte per pair.
 */
export function realDataBytes(rows: number, cols: number, g: TileGeometry, d: TTDtypeInfo): number {
  let total = 0;
  for (let fr = 0; fr < g.nFr; fr++)
    for (let fc = 0; fc < g.nFc; fc++) {
      // real rows and columns of this face (0 when the block ends before it: it adds 0)
      const a = Math.max(0, Math.min(g.fH, rows - fr * g.fH));
      const b = Math.max(0, Math.min(g.fW, cols - fc * g.fW));
      // each stored row of the face (a column when transposed) takes whole bytes: exact for 8 bits and more, a byte per
      // pair of bfp4 nibbles
      total += g.transpose ? b * Math.ceil((a * d.tileBits) / 8) : a * Math.ceil((b * d.tileBits) / 8);
    }
  return total;
}
