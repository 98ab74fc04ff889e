// test_histogram of ztachip's SW/src/test.cpp: histogram equalization of a 3-channel 256x256 image by
// kernel_equalize_exe (SW/apps/equalize/kernels/equalize.m), run twice as the test's graph does — the
// first run only gathers the histogram; GraphNodeEqualize then builds the equalizer's stream-processor
// table (GenEqualizer, SpuCallback, contrast 2.0) and the second run applies it. Compared with
// SW/fs/histogram_out.bin with test.cpp's tolerance: a byte passes when |actual - expected| < 10.
import path from 'node:path';
import { cPath, checkFrom } from './common.mjs';

export const family = 'test_histogram';
export const TOLERANCE = 10;

export function jobs({ sw, fsFile, tmp }) {
  const w = 256;
  const h = 256;
  const nch = 3;
  const out = path.join(tmp, 'histogram_out.bin');
  const driver = `#include ${cPath(path.join(sw, 'apps/equalize/kernels/equalize.m'))}
// GraphNodeEqualize's members (equalize.h: HISTOGRAM_BIN_SIZE 8, HISTOGRAM_BIN_COUNT 32)
uint8_t drv_input[${nch}*${h}*${w}];
uint8_t drv_output[${nch}*${h}*${w}];
int drv_nChannel=${nch};
int drv_w=${w};
int drv_h=${h};
int drv_threshold;
float drv_contrast;
int drv_histogram[32];
int drv_histogram_sum[32];

// GraphNodeEqualize::SpuCallback (its instance is our globals)
int16_t drv_spu(int16_t input,void *pparm,uint32_t parm,uint32_t parm2) {
   uint8_t v;
   int count,i;
   if(input < 0)
      v=0;
   else if(input > 255)
      v=255;
   else
      v=input;
   i=(((int)v+1+8-1)/8)-1;
   count = drv_histogram_sum[i];
   count += (drv_histogram[i]*((v&(8-1))+1))/8;
   count = (255*count)/(drv_nChannel*drv_w*drv_h);
   if (count > 255)
      count = 255;
   return (int16_t)count;
}

// GraphNodeEqualize::GenEqualizer
void *drv_gen_equalizer(int16_t *histogram) {
   int count;
   int flag;
   int overflow;
   int i,j,k;
   for (i=0;i < 32;i++) {
      drv_histogram[i]=0;
      for(j=0;j < drv_nChannel;j++) {
         drv_histogram[i] += ((histogram+j*64)[i]*1000 + (histogram+j*64)[i+32]);
      }
   }
   for (j = 0;j < 8;j++) {
      flag = 0;
      for (i=0;i < 32;i++) {
         if (drv_histogram[i] > drv_threshold) {
            flag = 1;
            overflow = drv_histogram[i] - drv_threshold;
            overflow = overflow / 32;
            drv_histogram[i] = drv_threshold;
            for (k = 0; k < 32; k++)
               drv_histogram[k] += overflow;
         }
      }
      if (!flag)
         break;
   }
   count=0;
   for(i=0;i < 32;i++) {
      drv_histogram_sum[i]=count;
      count += drv_histogram[i];
   }
   return ztaBuildSpuBundle(1,drv_spu,0,0,0);
}

int main() {
   int16_t *result;
   void *spu;
   // GraphNodeEqualize::Verify: SetContrast(2.0); m_result is {nChannel,2,kHistogramBinSize,VECTOR_WIDTH} int16
   drv_contrast=2.0;
   drv_threshold=(int)(drv_contrast*(((float)(drv_nChannel*drv_w*drv_h))/32));
   result=(int16_t *)ztaAllocSharedMem(drv_nChannel*2*kHistogramBinSize*VECTOR_WIDTH*sizeof(int16_t));
   // first Execute: no histogram yet, no equalizer
   kernel_equalize_exe(1,(unsigned int)drv_input,(unsigned int)result,(unsigned int)drv_output,drv_nChannel,0,drv_w,drv_h);
   // second Execute: the equalizer from the first run's histogram
   spu=drv_gen_equalizer(result);
   kernel_equalize_exe(2,(unsigned int)drv_input,(unsigned int)result,(unsigned int)drv_output,drv_nChannel,(unsigned int)spu,drv_w,drv_h);
   return 0;
}
`;
  const name = `test_histogram ${w}x${h}x${nch} (equalize; test.cpp's tolerance: |diff| < ${TOLERANCE} per byte)`;
  return [{
    name: 'histogram',
    kernel: 'equalize',
    checkNames: [name],
    driver,
    loads: [{ where: 'drv_input', file: fsFile('histogram_in.bin') }],
    dumps: [{ where: 'drv_output', count: nch * w * h, dtype: 'u8', file: out }],
    verify: ({ dump, expected }) => [checkFrom(name, expected('histogram_out.bin', 'u8'), dump(out), { shape: [nch, h, w], tolerance: TOLERANCE })],
  }];
}
