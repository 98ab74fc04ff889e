// PCORE program for vision.m: one pixel per lane, the 3x3 neighbourhood of each pixel in win[0..8]
// (row by row: win[0] is the pixel up-left, win[4] the pixel itself, win[8] down-right).
#include "vision.h"

vint16 vision::r;
vint16 vision::g;
vint16 vision::b;
vint16 vision::win[9];
vint16 vision::out;
vint32 vision::acc;   // accumulator: products and sums are kept wide until stored

// ITU-R BT.601 luma in 1/256: (77 R + 150 G + 29 B) / 256
_kernel_ void vision::grey() {
   _VMASK = -1;
   acc = r * 77;
   acc += g * 150;
   acc += b * 29;
   out = acc >> 8;
}

// 3x3 binomial blur: [1 2 1; 2 4 2; 1 2 1] / 16
_kernel_ void vision::blur() {
   _VMASK = -1;
   acc = win[0] + win[2];
   acc += win[6] + win[8];
   acc += (win[1] + win[3]) * 2;
   acc += (win[5] + win[7]) * 2;
   acc += win[4] * 4;
   out = acc >> 4;
}

// Sobel gradient magnitude (|gx| + |gy|) / 2, 0..1020: the stream processor's edge curve brings it to 0..255
_kernel_ void vision::sobel() {
   vint16 gx;
   vint16 gy;
   _VMASK = -1;
   acc = win[2] + win[8];
   acc -= win[0] + win[6];
   acc += (win[5] - win[3]) * 2;
   gx = acc;
   acc = win[6] + win[8];
   acc -= win[0] + win[2];
   acc += (win[7] - win[1]) * 2;
   gy = acc;
   _VMASK = LT(gx, 0);
   gx = -gx;
   _VMASK = LT(gy, 0);
   gy = -gy;
   _VMASK = -1;
   acc = gx + gy;
   out = acc >> 1;
}
