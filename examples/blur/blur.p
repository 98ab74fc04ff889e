// PCORE program for blur.m: a 3x3 box filter over a tile, with a halo exchanged between PCOREs.
#include "blur.h"

_share vint16 blur::win[TILE_H][TILE_W];   // input tile with a one-pixel halo (shared per PCORE)
vint16 blur::acc8[8];                      // private accumulation buffer of a thread
int16 blur::scale;                         // private per-thread scale
vint32 blur::sum;                          // accumulator (not addressable from > lines)

_share vint16 tone::out[2][OUT_WORDS/16][4];

_kernel_ void blur::row3(_global int shift) {
   int x;
   _VMASK = -1;
#pragma unroll
   for (x = 0; x < TILE_W; x++) {
      sum = win[0][x] + win[1][x] + win[2][x];
      acc8[x] = sum >> shift;
   }
}

_kernel_ void blur::init(int16 gain, vint16 bias) {
   scale = gain;
   acc8[0] = bias;
}

_kernel_ void tone::curve() {
   _VMASK = -1;
   out[0][0][0] = out[1][0][0] + 1;
}
