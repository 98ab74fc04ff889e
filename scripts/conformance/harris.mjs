// test_harris of ztachip's SW/src/test.cpp: Harris corner scores after non-maximum suppression of a
// 200x200 image by kernel_harris_exe (SW/apps/harris/kernels/harris.m) with GraphNodeHarris's buffers,
// compared (int16) with SW/fs/harris_after_suppression.bin.
import path from 'node:path';
import { cPath, singleOutputJob } from './common.mjs';

export const family = 'test_harris';

export function jobs({ sw, fsFile, tmp }) {
  const w = 200;
  const h = 200;
  const driver = `#include ${cPath(path.join(sw, 'apps/harris/kernels/harris.m'))}
uint8_t drv_input[${w}*${h}];
int16_t drv_output[${w}*${h}];

int main() {
   // kernel_harris_exe's scratch, one int16 per pixel each: x and y gradients and the corner score
   // (what GraphNodeHarris::Verify allocates)
   int plane=${w}*${h}*sizeof(int16_t);
   void *gx=ztaAllocSharedMem(plane);
   void *gy=ztaAllocSharedMem(plane);
   void *score=ztaAllocSharedMem(plane);
   kernel_harris_exe(1,(unsigned int)drv_input,(unsigned int)gx,(unsigned int)gy,(unsigned int)score,
                     (unsigned int)drv_output,${w},${h},${w},${h},0,0,${w},${h});
   return 0;
}
`;
  return [
    singleOutputJob({
      name: 'harris',
      kernel: 'harris',
      driver,
      tmp,
      fsFile,
      input: 'harris_corner_200_in.bin',
      expectedFile: 'harris_after_suppression.bin',
      count: w * h,
      dtype: 'i16',
      shape: [h, w],
      check: 'test_harris 200x200 (int16)',
    }),
  ];
}
