// test_canny of ztachip's SW/src/test.cpp: edge detection of a 200x200 image by kernel_canny_exe
// (SW/apps/canny/kernels/canny.m) with GraphNodeCanny's buffers and thresholds (81, 163), compared with
// SW/fs/canny_200_out.bin.
import path from 'node:path';
import { cPath, singleOutputJob } from './common.mjs';

export const family = 'test_canny';

export function jobs({ sw, fsFile, tmp }) {
  const w = 200;
  const h = 200;
  const driver = `#include ${cPath(path.join(sw, 'apps/canny/kernels/canny.m'))}
uint8_t drv_input[${w}*${h}];
uint8_t drv_output[${w}*${h}];

int main() {
   // GraphNodeCanny::Verify: work buffers of (w+2*TILE_MAX_KZ)*(h+2*TILE_MAX_KZ) elements
   int sz=(${w}+2*TILE_MAX_KZ)*(${h}+2*TILE_MAX_KZ);
   void *magnitude=ztaAllocSharedMem(sz*sizeof(int16_t));
   void *phase=ztaAllocSharedMem(sz*sizeof(uint8_t));
   void *maxima=ztaAllocSharedMem(sz*sizeof(int16_t));
   kernel_canny_exe(1,(unsigned int)drv_input,(unsigned int)magnitude,(unsigned int)phase,(unsigned int)maxima,
                    (unsigned int)drv_output,81,163,${w},${h},${w},${h},0,0,${w},${h});
   return 0;
}
`;
  return [singleOutputJob({ name: 'canny', kernel: 'canny', driver, tmp, fsFile, input: 'canny_200_in.bin', expectedFile: 'canny_200_out.bin', count: w * h, dtype: 'u8', shape: [h, w], check: 'test_canny 200x200' })];
}
