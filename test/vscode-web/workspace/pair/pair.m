#include "pair.h"

void f(unsigned p) {
   > DTYPE(INT16)PCORE(8)[0:7].THREAD[0:0].pair::_A[0:7] <= DTYPE(INT16)MEM(p)[0:LEN-1];
   > EXE_LOCKSTEP(pair::copy,8);
   > DTYPE(INT16)MEM(p)[0:LEN-1] <= DTYPE(INT16)PCORE(8)[0:7].THREAD[0:0].pair::_C[0:7];
}
