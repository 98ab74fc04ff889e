// test_gaussian of ztachip's SW/src/test.cpp: a 3-channel 200x200 image blurred by kernel_gaussian_exe
// (SW/apps/gaussian/kernels/gaussian.m) with the 7x7 kernel GraphNodeGaussian gives it, compared with
// SW/fs/gaussian_200_out.bin.
import path from 'node:path';
import { cPath, singleOutputJob } from './common.mjs';

export const family = 'test_gaussian';

/** The node's kernel: 7x7 taps, sigma 0.84089642 (the node's default), weights in 1/1024. */
const TAPS = 7;
const SIGMA = '0.84089642';

export function jobs({ sw, fsFile, tmp }) {
  const w = 200;
  const h = 200;
  const half = Math.floor(TAPS / 2);
  const maxR2 = 2 * half * half;
  // The weights reproduce GraphNodeGaussian::BuildKernel / ::gaussian. A tap at offset (dx, dy) from the
  // centre gets the normal density exp(-r2/(2 sigma^2)) / (2 pi sigma^2) of its squared distance r2, times
  // 1024, truncated. The precision is ztachip's C++: the exponent and exp in float (exp(float) overload),
  // the normaliser in double with pi = 3.14159265 multiplied by sigma, then by sigma again (2 pi sigma^2
  // evaluated left to right), the quotient rounded to float before the scaling. As the weight depends on r2
  // alone, it is computed once per r2 (0..${maxR2}) and the kernel filled from that table.
  const driver = `#include ${cPath(path.join(sw, 'apps/gaussian/kernels/gaussian.m'))}
uint8_t drv_input[3*${w}*${h}];
uint8_t drv_output[3*${w}*${h}];
int gs_weight[${maxR2 + 1}];   // weight of a tap by its squared distance from the centre

float gs_density(int r2,float sigma) {
   float twice_var=2*(sigma*sigma);
   float e=expf(-r2/twice_var);
   double norm=2*((3.14159265*sigma)*sigma);
   return (float)(e/norm);
}

int main() {
   float sigma=${SIGMA};
   int16_t *taps=(int16_t *)ztaAllocSharedMem(${TAPS * TAPS}*sizeof(int16_t));
   int r2,dx,dy;
   for(r2=0;r2 <= ${maxR2};r2++)
      gs_weight[r2]=(int)(gs_density(r2,sigma)*1024);
   for(dy=-${half};dy <= ${half};dy++)
      for(dx=-${half};dx <= ${half};dx++)
         taps[(dy+${half})*${TAPS}+dx+${half}]=(int16_t)gs_weight[dx*dx+dy*dy];
   kernel_gaussian_exe(1,(unsigned int)drv_input,(unsigned int)drv_output,(unsigned int)taps,
                       3,${TAPS},${w},${h},${w},${h},0,0,${w},${h});
   return 0;
}
`;
  return [
    singleOutputJob({
      name: 'gaussian',
      kernel: 'gaussian',
      driver,
      tmp,
      fsFile,
      input: 'gaussian_200_in.bin',
      expectedFile: 'gaussian_200_out.bin',
      count: 3 * w * h,
      dtype: 'u8',
      shape: [3, h, w],
      check: 'test_gaussian 200x200x3',
    }),
  ];
}
