// A self-test in the style of ztachip's test kernel: MEM -> PCORE _A, run test::add, PCORE _Z -> MEM.
// Both tensor-engine processes run do_add on their half of the buffer (ztaDualHartExecute).
#include <stdint.h>
#include "test.h"

static int16_t inbuf[BUFSZ];
static int16_t outbuf[BUFSZ];

typedef struct {
   uint32_t input;
   uint32_t output;
} Request;

static void do_add(void *p, int pid) {
   Request *req = (Request *)p;
   int from = pid * (BUFSZ / 2);
   int to = from + BUFSZ / 2 - 1;
   // Load 8 PCOREs x 16 threads x 8 lanes = 1024 words
   > DTYPE(INT16)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test::_A[0:7] <= DTYPE(INT16)MEM(req->input)[from:to];
   > EXE_LOCKSTEP(test::add,NUM_PCORE);
   ztaTaskYield();
   > DTYPE(INT16)MEM(req->output)[from:to] <= DTYPE(INT16)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test::_Z[0:7];
}

void kernel_test(void) {
   Request req;
   for (int i = 0; i < BUFSZ; i++)
      inbuf[i] = (int16_t)(i - 1000);
   req.input = (uint32_t)&inbuf[0];
   req.output = (uint32_t)&outbuf[0];
   ztaDualHartExecute(do_add, &req);
   ztaJobDone(0);
}
