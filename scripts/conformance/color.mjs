// test_color of ztachip's SW/src/test.cpp: colour conversion and reshaping by kernel_copy_exe
// (SW/apps/color/kernels/color.m) of a synthetic image (pixel (r,c) = r*100+c, +1, +2 per channel),
// for source sizes 16x16..128x128 (step 2) x centred crops 0..8 x the test's 16 format cases. test.cpp
// checks every output byte of the crop against what it computes (the shifted pattern, or bgr2mono of it).
// One run per format case; the driver loops over sizes and crops, checks each combination in C as the
// test does and prints the combinations that differ; the runner prints one line per case with a count.
import path from 'node:path';
import { cPath } from './common.mjs';

export const family = 'test_color';

// color.h
const INTERLEAVE = 0;
const SPLIT = 1;
const SINGLE = 2;
const RGB = 0;
const BGR = 1;
const MONO = 2;
// TensorObjType / TensorFormat of the test, by name
const FMT_NAMES = ['interleaved', 'split', 'single'];
const ORDER_NAMES = ['RGB', 'BGR', 'mono'];

/** test.cpp's 16 cases: [srcfmt, dstfmt, srcorder, dstorder, srcColorSpace, dstColorSpace, destFormat]. */
export const CASES = [
  [SPLIT, INTERLEAVE, BGR, BGR, 'BGR', 'BGR', 'Interleaved'],
  [INTERLEAVE, SPLIT, BGR, BGR, 'BGR', 'BGR', 'Split'],
  [INTERLEAVE, INTERLEAVE, BGR, BGR, 'BGR', 'BGR', 'Interleaved'],
  [SPLIT, SPLIT, BGR, BGR, 'BGR', 'BGR', 'Split'],
  [SPLIT, SINGLE, BGR, MONO, 'BGR', 'MonochromeSingleChannel', 'Split'],
  [INTERLEAVE, SINGLE, BGR, MONO, 'BGR', 'MonochromeSingleChannel', 'Split'],
  [SPLIT, SINGLE, RGB, MONO, 'RGB', 'MonochromeSingleChannel', 'Split'],
  [INTERLEAVE, SINGLE, RGB, MONO, 'RGB', 'MonochromeSingleChannel', 'Split'],
  [INTERLEAVE, INTERLEAVE, RGB, MONO, 'RGB', 'Monochrome', 'Interleaved'],
  [SPLIT, SPLIT, RGB, MONO, 'RGB', 'Monochrome', 'Split'],
  [INTERLEAVE, SPLIT, RGB, MONO, 'RGB', 'Monochrome', 'Split'],
  [SPLIT, INTERLEAVE, RGB, MONO, 'RGB', 'Monochrome', 'Interleaved'],
  [INTERLEAVE, INTERLEAVE, BGR, MONO, 'BGR', 'Monochrome', 'Interleaved'],
  [SPLIT, SPLIT, BGR, MONO, 'BGR', 'Monochrome', 'Split'],
  [INTERLEAVE, SPLIT, BGR, MONO, 'BGR', 'Monochrome', 'Split'],
  [SPLIT, INTERLEAVE, BGR, MONO, 'BGR', 'Monochrome', 'Interleaved'],
].map(([srcfmt, dstfmt, srcorder, dstorder, srcSpace, dstSpace, destFormat]) => ({ srcfmt, dstfmt, srcorder, dstorder, srcSpace, dstSpace, destFormat }));

/** Channel order the kernel is told for each colour space of a tensor. */
const ORDER_OF_SPACE = { RGB, BGR, Monochrome: MONO, MonochromeSingleChannel: MONO };

/**
 * The formats GraphNodeColorAndReshape gives kernel_copy_exe for an input tensor of colour space `srcSpace`
 * laid out as the test's srcfmt, and the requested destination: the orders follow the colour spaces; a
 * single-channel mono destination is always the single-plane layout, any other follows `destFormat`;
 * the source is split or else interleaved.
 */
export function nodeArgs({ srcfmt, srcSpace, dstSpace, destFormat }) {
  if (!(dstSpace in ORDER_OF_SPACE)) throw new Error(`destination ${dstSpace}`);
  const layoutOf = (split) => (split ? SPLIT : INTERLEAVE);
  return {
    srcfmt: layoutOf(srcfmt === SPLIT),
    srcorder: ORDER_OF_SPACE[srcSpace] ?? MONO,
    dstfmt: dstSpace === 'MonochromeSingleChannel' ? SINGLE : layoutOf(destFormat === 'Split'),
    dstorder: ORDER_OF_SPACE[dstSpace],
  };
}

export function describe(c) {
  return (
    `${FMT_NAMES[c.srcfmt]} ${c.srcSpace} ` +
    `-> ${c.dstSpace === 'MonochromeSingleChannel' ? 'single-channel mono' : `${FMT_NAMES[c.dstfmt]} ${ORDER_NAMES[c.dstorder]}`}`
  );
}

// The driver's check, in our own terms (the same expectations as test.cpp's test_color):
// - the source image holds in channel k (0..2) at row r, column c the byte (100*r + c + k) mod 256;
// - a colour destination holds the crop's pixels channel for channel;
// - a mono destination holds, in each of its channels (1 for the single-plane layout, else 3), the luma
//   (154*R + 302*G + 56*B + 256) >> 9 saturated to a byte, R being channel 0 of an RGB source and
//   channel 2 of a BGR one (test.cpp's bgr2mono).
export function driverText(sw, c, { from = 16, to = 130, maxCrop = 8 } = {}) {
  const a = nodeArgs(c);
  // luma weight of source channel 0, 1, 2
  const luma = c.srcorder === BGR ? [56, 302, 154] : [154, 302, 56];
  return `#include ${cPath(path.join(sw, 'apps/color/kernels/color.m'))}
uint8_t drv_input[3*${to}*${to}];
uint8_t drv_output[3*${to}*${to}];
int cl_mismatches;    // differing bytes of the current combination
int cl_lowest;        // lowest differing index, its expected and actual bytes
int cl_lowest_exp;
int cl_lowest_act;
int cl_worst;         // largest |actual - expected|

// Flat index of channel k, row r, column c in an image of w x h in layout fmt (color.h's kChannelFmt*).
int cl_index(int fmt,int w,int h,int k,int r,int c) {
   if(fmt==kChannelFmtInterleave)
      return (r*w+c)*3+k;
   return (k*h+r)*w+c;   // split planes; the single-plane layout is plane 0
}

// The test image's byte of channel k at (r, c).
int cl_pattern(int r,int c,int k) {
   return (100*r+c+k)&255;
}

// Luma of the test image at (r, c) with the weights of the source's channel order.
int cl_luma(int r,int c) {
   int v=(${luma[0]}*cl_pattern(r,c,0)+${luma[1]}*cl_pattern(r,c,1)+${luma[2]}*cl_pattern(r,c,2)+256)>>9;
   return v < 0 ? 0 : (v > 255 ? 255 : v);
}

void cl_expect(int idx,int want) {
   int got=drv_output[idx];
   int d=got > want ? got-want : want-got;
   if(d==0)
      return;
   if(cl_mismatches==0 || idx < cl_lowest) {
      cl_lowest=idx;
      cl_lowest_exp=want;
      cl_lowest_act=got;
   }
   if(d > cl_worst)
      cl_worst=d;
   cl_mismatches++;
}

int main() {
   int size,crop,keep,off,r,c,k,want;
   int srcfmt=${c.srcfmt};
   int dstfmt=${c.dstfmt};     // the test's expectation of the output layout and content
   int mono=${c.dstorder === MONO ? 1 : 0};
   int planes=${c.dstfmt === SINGLE ? 1 : 3};
   int runs=0,bad=0;
   for(size=${from};size < ${to};size+=2) {
      // the source image, in the source layout
      for(k=0;k < 3;k++)
         for(r=0;r < size;r++)
            for(c=0;c < size;c++)
               drv_input[cl_index(srcfmt,size,size,k,r,c)]=(uint8_t)cl_pattern(r,c,k);
      for(crop=0;crop <= ${maxCrop};crop++) {
         keep=size-crop;     // the centred crop: keep x keep pixels from (off, off)
         off=crop/2;
         memset(drv_output,0,sizeof(drv_output));   // a fresh output tensor
         // the node's request: clip keep x keep at (off, off), written at (0, 0) of a keep x keep output;
         // the test's input tensor has dims {3, w, h}, so the node passes its h as the width (square here)
         kernel_copy_exe(runs+1,(unsigned int)drv_input,(unsigned int)drv_output,keep,keep,
                         ${a.srcfmt},${a.srcorder},${a.dstfmt},${a.dstorder},
                         size,size,off,off,0,0,keep,keep,0);
         cl_mismatches=0;
         cl_worst=0;
         for(k=0;k < planes;k++) {
            for(r=0;r < keep;r++) {
               for(c=0;c < keep;c++) {
                  want=mono ? cl_luma(r+off,c+off) : cl_pattern(r+off,c+off,k);
                  cl_expect(cl_index(dstfmt,keep,keep,k,r,c),want);
               }
            }
         }
         runs++;
         if(cl_mismatches) {
            bad++;
            printf("COMBO-FAIL %d %d %d %d %d %d %d %d\\n",size,size,crop,cl_mismatches,cl_lowest,cl_lowest_exp,cl_lowest_act,cl_worst);
         }
      }
   }
   printf("CASE-DONE %d %d\\n",runs,bad);
   return 0;
}
`;
}

export function jobs({ sw }) {
  return CASES.map((c, ii) => {
    const name = `test_color case ${ii} (${describe(c)})`;
    return {
      name: `color_case${ii}`,
      kernel: 'copy',
      checkNames: [name],
      driver: driverText(sw, c),
      verifyFailedRun: true,
      verify: ({ stdout, error }) => {
        const fails = [...stdout.matchAll(/^COMBO-FAIL (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+)$/gm)].map((m) => m.slice(1).map(Number));
        const done = /^CASE-DONE (\d+) (\d+)$/m.exec(stdout);
        const total = 57 * 9;
        const checked = done ? Number(done[1]) : undefined;
        const describeFail = ([w, h, crop, n, idx, e, a, max]) =>
          `${w}x${h} crop ${crop}: ${n} of ${(c.dstfmt === SINGLE ? 1 : 3) * (w - crop) * (h - crop)} bytes differ, lowest at ${idx}: expected ` +
          `${e}, got ${a}; max abs diff ${max}`;
        if (!done || error) {
          const ran = fails.length ? `; before it: ${fails.length} combinations differ, first ${describeFail(fails[0])}` : '';
          return [{ name, pass: false, count: total, passedCount: 0, detail: `${error ?? 'the driver did not finish'}${ran}` }];
        }
        if (fails.length === 0)
          return [{ name, pass: true, count: checked, detail: `${checked}/${checked} combinations (sizes 16..128 x crops 0..8) identical` }];
        const max = Math.max(...fails.map((f) => f[7]));
        return [
          {
            name,
            pass: false,
            count: checked,
            passedCount: checked - fails.length,
            detail:
              `${checked - fails.length}/${checked} combinations identical, ${fails.length} differ (max abs diff ${max}); ` +
              `first: ${describeFail(fails[0])}`,
          },
        ];
      },
    };
  });
}
