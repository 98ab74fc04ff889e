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

// kernel_canny_exe's scratch: magnitude (int16), phase (byte) and local maxima (int16) of the image with a
// margin of TILE_MAX_KZ pixels on every side — the sizes GraphNodeCanny::Verify allocates.
void *cn_scratch(int bytes_per_pixel) {
   int side_w=${w}+2*TILE_MAX_KZ;
   int side_h=${h}+2*TILE_MAX_KZ;
   return ztaAllocSharedMem(side_w*side_h*bytes_per_pixel);
}

int main() {
   void *magnitude=cn_scratch(2);
   void *phase=cn_scratch(1);
   void *maxima=cn_scratch(2);
   int low=81,high=163;   // the node's default hysteresis thresholds
   kernel_canny_exe(1,(unsigned int)drv_input,(unsigned int)magnitude,(unsigned int)phase,(unsigned int)maxima,
                    (unsigned int)drv_output,low,high,${w},${h},${w},${h},0,0,${w},${h});
   return 0;
}
`;
  return [
    singleOutputJob({
      name: 'canny',
      kernel: 'canny',
      driver,
      tmp,
      fsFile,
      input: 'canny_200_in.bin',
      expectedFile: 'canny_200_out.bin',
      count: w * h,
      dtype: 'u8',
      shape: [h, w],
      check: 'test_canny 200x200',
    }),
  ];
}
