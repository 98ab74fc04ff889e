// The programmer guide's transfer examples, in the guide's own dialect (DDR, (fmt) casts, SCATTER(0), PROC).
// Hover a `<=` to see the element table; the ztachip compiler's spelling is offered as a quick fix.
#include <stdint.h>

static int16_t ddr_buf[8192];

void guide_examples(void) {
   int16_t *p = ddr_buf;
   int dx=2;
   int dy=4;
   int fmt=DP_DATA_TYPE_UINT8;
   // DDR -> PCORE private memory
   >PCORE[0:1].THREAD[0:1].myclass::myfunc.var[0:1] <= DDR(p)[0:2*2*2-1];
   // DDR -> SCRATCH, 1-D and 2-D
   >SCRATCH(0,100)[0:3] <= DDR(p,100)[0:3];
   >SCRATCH(0,100,200)[0:dy-1][0:dx-1] <= DDR(p,1000,2000)[0:dy-1][0:dx-1];
   // reshape: out-of-bound reads are padded with zero
   >PCORE[0].THREAD[0:2].myclass::myfunc.var[0:3] <= DDR(p,100,2,2)[0][0:2][0:3];
   // dimension casting
   >PCORE(8)[:].THREAD[0:15].myclass::myvar[0:15] <= DDR(p)[0:8*16*16-1];
   >PCORE(8)[:].THREAD(4,4)[0:3][0:3].myclass::myvar(4,4)[0:3][0:3] <= DDR(p)[0:8*16*16-1];
   // reordering with FOR: myvar slowest, PCORE fastest
   >FOR(K=0:3) FOR(I=0:1) PCORE[0:2].THREAD[I].myclass::myvar[K] <= DDR(p)[0:2*3*4-1];
   // scatter transfer by vector word
   >SCATTER(0) FOR(I=0:7) PCORE(8)[0:7].THREAD[0:15].myclass::myvar(8,8)[:][I] <= DDR(p)[0:8*16*8*8-1];
   // boundary check disabled on the last two dimensions
   >PCORE[0].THREAD[0:2].myclass::myfunc.var[0:3] <= DDR(p,100,2+,2+)[0][0:2][0:3];
   // padding value and data type
   >PCORE[0].THREAD[0:2].myclass::myfunc.var[0:3] <= PAD(0xff) DDR(p,100,2,2)[0][0:2][0:3];
   >(fmt)PCORE[0].THREAD[0:2].myclass::myfunc.var[0:3] <= (fmt)PAD(0xff) DDR(p,100,2,2)[0][0:2][0:3];
   // stream processing through table 0
   >PCORE(8)[0:7].THREAD[0:15].myclass::myvar[0:7] <= PROC(0) <= DDR(p)[0:8*16*8-1];
}
