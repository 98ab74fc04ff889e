// test_gaussian of ztachip's SW/src/test.cpp: a 3-channel 200x200 image blurred by kernel_gaussian_exe
// (SW/apps/gaussian/kernels/gaussian.m) with the 7x7 kernel GraphNodeGaussian builds, compared with
// SW/fs/gaussian_200_out.bin.
import path from 'node:path';
import { cPath, singleOutputJob } from './common.mjs';

export const family = 'test_gaussian';

export function jobs({ sw, fsFile, tmp }) {
  const w = 200;
  const h = 200;
  // GraphNodeGaussian::BuildKernel: kernel[x+y*ksz] = (int)(gaussian(x-ksz/2, y-ksz/2, sigma)*1024), with
  // gaussian() in float (C++ picks exp(float)); 2*PI*sigma*sigma is double (PI is a double literal).
  const driver = `#include ${cPath(path.join(sw, 'apps/gaussian/kernels/gaussian.m'))}
uint8_t drv_input[3*${w}*${h}];
uint8_t drv_output[3*${w}*${h}];

float drv_gaussian(int x,int y,float sigma) {
   return (expf(-((x*x)+(y*y))/(2*sigma*sigma)))/(2*3.14159265*sigma*sigma);
}

int main() {
   int x,y;
   int ksz=7;
   float sigma=0.84089642;
   int16_t *kernel=(int16_t *)ztaAllocSharedMem(ksz*ksz*sizeof(int16_t));
   for(y=0;y < ksz;y++)
      for(x=0;x < ksz;x++)
         kernel[x+y*ksz]=(int)(drv_gaussian(x-ksz/2,y-ksz/2,sigma)*1024);
   kernel_gaussian_exe(1,(unsigned int)drv_input,(unsigned int)drv_output,(unsigned int)kernel,
                       3,ksz,${w},${h},${w},${h},0,0,${w},${h});
   return 0;
}
`;
  return [singleOutputJob({ name: 'gaussian', kernel: 'gaussian', driver, tmp, fsFile, input: 'gaussian_200_in.bin', expectedFile: 'gaussian_200_out.bin', count: 3 * w * h, dtype: 'u8', shape: [3, h, w], check: 'test_gaussian 200x200x3' })];
}
