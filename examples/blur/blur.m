// A realistic tensor program in the compiler's dialect: tiles of an image are loaded with their
// halo into PCORE shared memory (CONCURRENT, FOR reordering, shape casts, a buffer-limited MEM
// source), filtered by blur::row3, and written back; a tone curve goes through REMAP.
#include <stdint.h>
#include "blur.h"

static uint32_t kernels[2];

typedef struct {
   uint32_t img;
   uint32_t dst;
   int img_w;
   int img_h;
   int planes;
   int shift;
} BlurRequest;

static void blur_tile(BlurRequest *req, int x0, int z0) {
   int imgBytes = req->planes * req->img_h * req->img_w;
   // zero the halo row, then load the tile: Z outermost, X innermost
   >DTYPE(INT8)PCORE(NUM_PCORE)[*].blur::win(TILE_H,TILE_W,VECTOR_WIDTH)[BLK_H+1][:][:] <= INT8(0);
   >BARRIER;
   >CONCURRENT DTYPE(UINT8) FOR(Z=0:VECTOR_WIDTH-1) FOR(Y=0:BLK_H+1) FOR(P=0:NUM_PCORE-1) FOR(X=1:BLK_W)
   >PCORE(NUM_PCORE)[P].blur::win(TILE_H,TILE_W,VECTOR_WIDTH)[Y][X][Z] <=
   >DTYPE(UINT8)MEM(req->img,imgBytes(req->planes,BLK_H+2+,req->img_w))[z0:z0+VECTOR_WIDTH-1][0:BLK_H+1][x0:x0+NUM_PCORE*BLK_W-1];
   // halo exchange: column BLK_W+1 of PCORE p receives column 1 of PCORE p+1
   >DTYPE(UINT8)PCORE(NUM_PCORE)[0:NUM_PCORE-2].blur::win(TILE_H,TILE_W,VECTOR_WIDTH)[:][BLK_W+1:BLK_W+1][:] <=
   >DTYPE(UINT8)LATEST PCORE(NUM_PCORE)[1:NUM_PCORE-1].blur::win(TILE_H,TILE_W,VECTOR_WIDTH)[:][1:1][:];
   > blur::row3.shift <= INT16(req->shift);
   > EXE_LOCKSTEP(blur::row3,NUM_PCORE);
   > EXE_LOCKSTEP(kernels[1],NUM_PCORE,8);
}

static void tone_map(BlurRequest *req, int sel) {
   int r0 = 0;
   int c0 = 0;
   // tensor variables: a broadcast PCORE descriptor and a MEM descriptor with a [$] placeholder
   > $out_pc := DTYPE(UINT8)PCORE(GRID_R,GRID_C)[:][*].tone::out(2,OUT_WORDS/16,4,8)[1][:][:][:];
   > $dst_mem := DTYPE(UINT8)MEM(req->dst,GRID_R,16,16)[$][:][:];
   > EXE_LOCKSTEP(tone::curve,NUM_PCORE);
   > DTYPE(UINT8)MEM(req->dst,(GRID_R*GRID_C*32)(GRID_R*4,GRID_C*8))[r0:r0+GRID_R*4-1][c0:c0+GRID_C*8-1] <= REMAP(sel) DTYPE(UINT8) CONCURRENT FOR(R=0:GRID_R-1) FOR(V=0:VECTOR_WIDTH-1) FOR(C=0:GRID_C-1) PCORE(GRID_R,GRID_C)[R][C].tone::out(2,OUT_WORDS/16,4,8)[1][0][:][V];
   > $dst_mem[0] <= $out_pc;
}

void kernel_blur(BlurRequest *req) {
   kernels[0] = $blur::row3;
   kernels[1] = $tone::curve;
   for (int x0 = 0; x0 < req->img_w; x0 += NUM_PCORE * BLK_W)
      blur_tile(req, x0, 0);
   tone_map(req, -1);
}

// Entry for the simulator: an 8-plane 8x32 test image, blurred and tone-mapped.
static uint8_t image[8 * (BLK_H + 2) * 32];
static uint8_t toned[512];

void main(void) {
   BlurRequest req;
   for (int i = 0; i < (int)sizeof(image); i++)
      image[i] = (uint8_t)(i * 3);
   req.img = (uint32_t)&image[0];
   req.dst = (uint32_t)&toned[0];
   req.img_w = 32;
   req.img_h = BLK_H + 2;
   req.planes = 8;
   req.shift = 2;
   kernel_blur(&req);
}
