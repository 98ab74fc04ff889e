// Common mistakes, each reported by Tensor Lens (the ztachip compiler rejects some and silently
// miscompiles the others). Open the Problems panel to see them.
#include <stdint.h>

static uint8_t buf[4096];

void mistakes(int n) {
   uint32_t p = (uint32_t)&buf[0];
   // missing DTYPE on a MEM term
   > DTYPE(UINT8)PCORE(NUM_PCORE)[:][0].calc::in[:][:] <= MEM(p,32,8)[:][:];
   // a FOR variable that no index uses, and one used twice
   > FOR(I=0:7) DTYPE(INT16)PCORE(8)[0:7][0].calc::in[0][:] <= DTYPE(INT16)MEM(p)[0:63];
   > FOR(J=0:7) DTYPE(INT16)PCORE(8)[J][J].calc::in[0][:] <= DTYPE(INT16)MEM(p)[0:511];
   // unknown member and an accumulator used as memory
   > DTYPE(INT16)PCORE(8)[:][:].calc::inn[0][:] <= DTYPE(INT16)MEM(p)[0:1023];
   > DTYPE(INT16)PCORE(8)[:][:].calc::acc <= DTYPE(INT16)MEM(p)[0:1023];
   // a shared variable takes no thread index
   > DTYPE(INT16)PCORE(8)[:].THREAD[0].calc::lut[:] <= DTYPE(INT16)MEM(p)[0:255];
   // data types differ; a constant cannot fill UINT8 directly
   > DTYPE(UINT8)PCORE(8)[:].calc::lut[0:3] <= DTYPE(INT8)MEM(p)[0:31];
   > DTYPE(UINT8)PCORE(8)[:].calc::lut[:] <= INT8(0);
   // index count, out of bounds and count mismatch
   > DTYPE(INT16)MEM(p,16,16)[0:15] <= DTYPE(INT16)PCORE(8)[0][0].calc::in[0][:];
   > DTYPE(INT16)MEM(p,16,16)[0:3][12:19] <= DTYPE(INT16)PCORE(8)[0][0].calc::in[:][:];
   // one-argument EXE_LOCKSTEP with a kernel name, and a misspelt kernel
   > EXE_LOCKSTEP(calc::run);
   > EXE_LOCKSTEP(calc::runn,NUM_PCORE);
   // a _global parameter is set with a constant; bias is not _global
   > calc::run.gain <= INT16(3);
   > calc::run.bias <= INT16(3);
   // guide spelling in a compiler-dialect file
   > DTYPE(INT16)PCORE(8)[:][:].calc::in[0][:] <= DDR(p)[0:1023];
   // tensor variable used before it is defined
   > $src <= DTYPE(INT16)MEM(p)[0:7];
   // statement never terminated
   > DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)PCORE(8)[0][0].calc::in[0][:]
}
