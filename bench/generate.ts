/**
 * Generates the benchmark workload: a large tensor program (`.m`) made of many functions whose
 * statements use the forms of examples/blur/blur.m and examples/test/test.m, the PCORE program
 * beside it (`.p`, many classes patterned after blur.p and test.p) and the header both include.
 * Deterministic: the same sizes give the same text.
 */

export const HEADER = `#ifndef BENCH_H
#define BENCH_H
// Tile handled by one PCORE: BLK_H rows of BLK_W columns of VECTOR_WIDTH-wide vectors
#define BLK_W 4
#define BLK_H 6
#define TILE_W (BLK_W+2)
#define TILE_H (BLK_H+2)
#define GRID_R 2
#define GRID_C 4
#define OUT_WORDS 64
#define BUFSZ 2048
#endif
`;

/** One PCORE class block (about 40 lines): blur-like, tone-like and test-like classes numbered k. */
function pcoreBlock(k: number): string {
  return `// ---- block ${k}: box filter, tone curve and self-test classes
_share vint16 blur${k}::win[TILE_H][TILE_W];   // input tile with a one-pixel halo
vint16 blur${k}::acc8[8];                      // private accumulation buffer of a thread
int16 blur${k}::scale;                         // private per-thread scale
vint32 blur${k}::sum;                          // accumulator

_share vint16 tone${k}::out[2][OUT_WORDS/16][4];

vint16 test${k}::_A;
vint16 test${k}::_Z;

_kernel_ void blur${k}::row3(_global int shift) {
   int x;
   _VMASK = -1;
#pragma unroll
   for (x = 0; x < TILE_W; x++) {
      sum = win[0][x] + win[1][x] + win[2][x];
      acc8[x] = sum >> shift;
   }
}

_kernel_ void blur${k}::init(int16 gain, vint16 bias) {
   scale = gain;
   acc8[0] = bias;
}

_kernel_ void tone${k}::curve() {
   _VMASK = -1;
   out[0][0][0] = out[1][0][0] + ${k % 7};
}

_kernel_ void test${k}::add() {
   _VMASK = -1;
   _Z = _A + 1;
}

`;
}

/** A PCORE program of about `lines` lines with `classes` blocks (cycled by the tensor program). */
export function generatePcore(lines: number, header: string): { text: string; blocks: number } {
  let text = `// Generated PCORE program for the Tensor Lens benchmark.\n#include "${header}"\n\n`;
  let k = 0;
  while (text.split('\n').length < lines) text += pcoreBlock(k++);
  return { text, blocks: k };
}

/** One group of three functions (about 42 lines) using block k. */
function tprogGroup(i: number, k: number): string {
  return [
    `static void blur_tile_${i}(BlurRequest *req, int x0, int z0) {`,
    '   int imgBytes = req->planes * req->img_h * req->img_w;',
    '   // zero the halo row, then load the tile: Z outermost, X innermost',
    `   >DTYPE(INT8)PCORE(NUM_PCORE)[*].blur${k}::win(TILE_H,TILE_W,VECTOR_WIDTH)[BLK_H+1][:][:] <= INT8(0);`,
    '   >BARRIER;',
    '   >CONCURRENT DTYPE(UINT8) FOR(Z=0:VECTOR_WIDTH-1) FOR(Y=0:BLK_H+1) FOR(P=0:NUM_PCORE-1) FOR(X=1:BLK_W)',
    `   >PCORE(NUM_PCORE)[P].blur${k}::win(TILE_H,TILE_W,VECTOR_WIDTH)[Y][X][Z] <=`,
    '   >DTYPE(UINT8)MEM(req->img,imgBytes(req->planes,BLK_H+2+,req->img_w))[z0:z0+VECTOR_WIDTH-1][0:BLK_H+1][x0:x0+NUM_PCORE*BLK_W-1];',
    '   // halo exchange: column BLK_W+1 of PCORE p receives column 1 of PCORE p+1',
    `   >DTYPE(UINT8)PCORE(NUM_PCORE)[0:NUM_PCORE-2].blur${k}::win(TILE_H,TILE_W,VECTOR_WIDTH)[:][BLK_W+1:BLK_W+1][:] <=`,
    `   >DTYPE(UINT8)LATEST PCORE(NUM_PCORE)[1:NUM_PCORE-1].blur${k}::win(TILE_H,TILE_W,VECTOR_WIDTH)[:][1:1][:];`,
    `   > blur${k}::row3.shift <= INT16(req->shift);`,
    `   > EXE_LOCKSTEP(blur${k}::row3,NUM_PCORE);`,
    '}',
    '',
    `static void tone_map_${i}(BlurRequest *req, int sel) {`,
    '   int r0 = 0;',
    '   int c0 = 0;',
    '   // tensor variables: a broadcast PCORE descriptor and a MEM descriptor with a [$] placeholder',
    `   > $out_pc := DTYPE(UINT8)PCORE(GRID_R,GRID_C)[:][*].tone${k}::out(2,OUT_WORDS/16,4,8)[1][:][:][:];`,
    '   > $dst_mem := DTYPE(UINT8)MEM(req->dst,GRID_R,16,16)[$][:][:];',
    `   > EXE_LOCKSTEP(tone${k}::curve,NUM_PCORE);`,
    '   > DTYPE(UINT8)MEM(req->dst,(GRID_R*GRID_C*32)(GRID_R*4,GRID_C*8))[r0:r0+GRID_R*4-1][c0:c0+GRID_C*8-1] <= REMAP(sel) ' +
      'DTYPE(UINT8) CONCURRENT FOR(R=0:GRID_R-1) FOR(V=0:VECTOR_WIDTH-1) FOR(C=0:GRID_C-1) ' +
      `PCORE(GRID_R,GRID_C)[R][C].tone${k}::out(2,OUT_WORDS/16,4,8)[1][0][:][V];`,
    '   > $dst_mem[0] <= $out_pc;',
    '}',
    '',
    `static void do_add_${i}(void *p, int pid) {`,
    '   Request *req = (Request *)p;',
    '   int from = pid * (BUFSZ / 2);',
    '   int to = from + BUFSZ / 2 - 1;',
    '   // Load 8 PCOREs x 16 threads x 8 lanes = 1024 words',
    `   > DTYPE(INT16)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test${k}::_A[0:7] <= DTYPE(INT16)MEM(req->input)[from:to];`,
    `   > EXE_LOCKSTEP(test${k}::add,NUM_PCORE);`,
    '   ztaTaskYield();',
    `   > DTYPE(INT16)MEM(req->output)[from:to] <= DTYPE(INT16)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test${k}::_Z[0:7];`,
    `   > DTYPE(INT16)PCORE(8)[:].THREAD[:].test${k}::_A[0:7] <= DTYPE(INT16)MEM(req->input,1024)[0:1023];`,
    '}',
    '',
    '',
  ].join('\n');
}

const PRELUDE = (header: string) => `// Generated tensor program for the Tensor Lens benchmark: groups of functions in the style of
// examples/blur/blur.m and examples/test/test.m.
#include <stdint.h>
#include "${header}"

static uint32_t kernels[2];
static int16_t inbuf[BUFSZ];
static int16_t outbuf[BUFSZ];

typedef struct {
   uint32_t img;
   uint32_t dst;
   int img_w;
   int img_h;
   int planes;
   int shift;
} BlurRequest;

typedef struct {
   uint32_t input;
   uint32_t output;
} Request;

`;

export interface TprogWorkload {
  text: string;
  lines: number;
  functions: number;
  statements: number;
}

/** A tensor program of about `lines` lines using `blocks` PCORE class blocks. */
export function generateTprog(lines: number, blocks: number, header: string): TprogWorkload {
  const parts = [PRELUDE(header)];
  let n = parts[0].split('\n').length;
  let i = 0;
  while (n < lines - 12) {
    const g = tprogGroup(i, i % blocks);
    parts.push(g);
    n += g.split('\n').length - 1;
    i++;
  }
  parts.push(`void kernel_main(BlurRequest *req) {
   kernels[0] = $blur0::row3;
   kernels[1] = $tone0::curve;
   for (int x0 = 0; x0 < req->img_w; x0 += NUM_PCORE * BLK_W)
      blur_tile_0(req, x0, 0);
   tone_map_0(req, -1);
   ztaJobDone(0);
}
`);
  const text = parts.join('');
  return { text, lines: text.split('\n').length, functions: i * 3 + 1, statements: text.split('\n').filter((l) => /^\s*>/.test(l)).length };
}
