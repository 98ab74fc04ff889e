// An image pipeline in ztachip's style: colour -> grey, a 3x3 blur, a Sobel edge detector, and an edge
// curve applied by the stream processor (REMAP) as the edges are written back. Planar RGB input
// (ztachip's "split" format: all R, then all G, then all B), one byte per pixel everywhere.
#include <stdint.h>
#include "vision.h"

// The stream processor's edge curve: faint edges (< 32) vanish, the rest is doubled and clipped.
// Linear within each 32-wide segment of the lookup table, so the table reproduces it exactly.
int16_t edge_curve(int16_t x, void *pparm, uint32_t parm, uint32_t parm2) {
   if (x < 32)
      return 0;
   if (x < 160)
      return 2 * x - 64;
   return 255;
}

// grey[i] = luma of pixel i, a tile (TILE pixels in reading order) at a time.
static void to_grey(uint32_t rgb, uint32_t grey, int npix) {
   for (int p0 = 0; p0 < npix; p0 += TILE) {
      > DTYPE(UINT8)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:NUM_THREAD-1].vision::r[0:VECTOR_WIDTH-1] <= DTYPE(UINT8)MEM(rgb,3,npix)[0][p0:p0+TILE-1];
      > DTYPE(UINT8)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:NUM_THREAD-1].vision::g[0:VECTOR_WIDTH-1] <= DTYPE(UINT8)MEM(rgb,3,npix)[1][p0:p0+TILE-1];
      > DTYPE(UINT8)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:NUM_THREAD-1].vision::b[0:VECTOR_WIDTH-1] <= DTYPE(UINT8)MEM(rgb,3,npix)[2][p0:p0+TILE-1];
      > EXE_LOCKSTEP(vision::grey,NUM_PCORE);
      > DTYPE(UINT8)MEM(grey,npix)[p0:p0+TILE-1] <= DTYPE(UINT8)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:NUM_THREAD-1].vision::out[0:VECTOR_WIDTH-1];
   }
}

// dst = kernel(src) over 3x3 neighbourhoods; pixels outside the image read as 0 (the transfer's padding).
// remap >= 0 sends the result through that stream-processor table on its way out.
static void filter3x3(uint32_t kernel, uint32_t src, uint32_t dst, int w, int h, int remap) {
   for (int y0 = 0; y0 < h; y0 += TILE_H) {
      for (int x0 = 0; x0 < w; x0 += TILE_W) {
         for (int k = 0; k < 9; k++) {
            int dy = k / 3 - 1;
            int dx = k % 3 - 1;
            > DTYPE(UINT8)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:NUM_THREAD-1].vision::win[k][0:VECTOR_WIDTH-1] <=
            >    DTYPE(UINT8)MEM(src,h,w)[y0+dy:y0+dy+TILE_H-1][x0+dx:x0+dx+TILE_W-1];
         }
         > EXE_LOCKSTEP(kernel,NUM_PCORE);
         > DTYPE(UINT8)MEM(dst,h,w)[y0:y0+TILE_H-1][x0:x0+TILE_W-1] <=
         >    REMAP(remap) DTYPE(UINT8)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:NUM_THREAD-1].vision::out[0:VECTOR_WIDTH-1];
      }
   }
}

// The kernel's entry, as a ztachip application would call it: planar RGB in, three w x h planes out.
// w must be a multiple of TILE_W (128) and h of TILE_H (8).
void kernel_vision_exe(unsigned int rgb, unsigned int grey, unsigned int blurred, unsigned int edges, int w, int h) {
   uint32_t spu = (uint32_t)ztaBuildSpuBundle(1, edge_curve, 0, 0, 0);
   ztaInitStream(spu);
   to_grey(rgb, grey, w * h);
   filter3x3($vision::blur, grey, blurred, w, h, -1);
   filter3x3($vision::sobel, blurred, edges, w, h, 0);
   ztaJobDone(0);
}
