// test_resize of ztachip's SW/src/test.cpp: SW/fs/resize.bmp (960x540) box-resized by kernel_resize_exe
// (SW/apps/resize/kernels/resize.m) to 7 sizes, each compared with SW/fs/resize_<w>_<h>.bmp. Both BMPs
// are read as TENSOR::CreateWithBitmap lays them out (split R, G, B planes, top row first); the driver
// builds the box filters and the two stream-processor scaling tables as GraphNodeResize::Verify does.
import fs from 'node:fs';
import path from 'node:path';
import { cPath, checkFrom, decodeBmp } from './common.mjs';

export const family = 'test_resize';

/** The sizes of test_resize(), in its order. */
export const SIZES = [[800, 400], [768, 300], [660, 256], [560, 200], [400, 180], [320, 172], [248, 140]];

export function driverText(sw, srcW, srcH, dstW, dstH) {
  return `#include ${cPath(path.join(sw, 'apps/resize/kernels/resize.m'))}
uint8_t drv_input[3*${srcW}*${srcH}];
uint8_t drv_output[3*${dstW}*${dstH}];
float drv_scale[2];
float drv_spu_scale=0;   // GraphNodeResize::spuCallback's static float scale

// GraphNodeResize::spuCallback: the pointer parameter (given on the first call of a table) sets the scale
int16_t drv_spu(int16_t input,void *pparm,uint32_t parm,uint32_t parm2) {
   int v;
   if(pparm)
      drv_spu_scale=*((float *)pparm);
   v=(int)((float)input*drv_spu_scale+0.5);
   if(v>255)
      v=255;
   return (int16_t)v;
}

int main() {
   int src_w=${srcW},src_h=${srcH},dst_w=${dstW},dst_h=${dstH},nchannel=3;
   void *temp;
   void *filter[2];
   void *filteri[2];
   void *spu;
   int scale_denomitor[2];
   int filterLen[2];
   int16_t *filter_p;
   uint8_t *filteri_p;
   float left,right;
   int ileft,iright;
   float left_fraction,right_fraction;
   float filter_v[8];
   int i,x,j;

   // GraphNodeResize::Verify
   temp=ztaAllocSharedMem(2*(src_w*src_h*3+64));
   for(i=0;i < 2;i++) {
      filter[i]=ztaAllocSharedMem(sizeof(int16_t)*BOX_RESIZE_MAX_FILTER*NUM_THREAD_PER_CORE);
      filteri[i]=ztaAllocSharedMem(NUM_THREAD_PER_CORE);
   }
   scale_denomitor[0]=(BOX_RESIZE_MAX_OUTBUF*src_w)/dst_w;
   scale_denomitor[1]=(BOX_RESIZE_MAX_OUTBUF*src_h)/dst_h;
   if(scale_denomitor[0] > BOX_RESIZE_MAX_INBUF || scale_denomitor[1] > BOX_RESIZE_MAX_INBUF) {
      printf("DRIVER-ERROR GraphNodeResize::Verify fails: scale denominator %d,%d > %d\\n",scale_denomitor[0],scale_denomitor[1],BOX_RESIZE_MAX_INBUF);
      return 1;
   }
   for(i=0;i < 2;i++) {
      drv_scale[i]=(float)BOX_RESIZE_MAX_OUTBUF/(float)scale_denomitor[i];
      filterLen[i]=(int)(ceilf(1/drv_scale[i])+1);   // C++ ceil(float) is the float overload
   }
   if(filterLen[0] > BOX_RESIZE_MAX_FILTER || filterLen[1] > BOX_RESIZE_MAX_FILTER) {
      printf("DRIVER-ERROR GraphNodeResize::Verify fails: filter length %d,%d > %d\\n",filterLen[0],filterLen[1],BOX_RESIZE_MAX_FILTER);
      return 1;
   }
   for(i=0;i < 2;i++) {
      filter_p=(int16_t *)filter[i];
      filteri_p=(uint8_t *)filteri[i];
      for(x=0;x < 16;x++,filter_p+=BOX_RESIZE_MAX_FILTER) {
         memset(filter_p,0,BOX_RESIZE_MAX_FILTER*sizeof(int16_t));
         memset(filter_v,0,sizeof(filter_v));
         left=x/drv_scale[i];
         right=left+1/drv_scale[i];
         ileft=floorf(left);
         left_fraction=(1.0-(left-(int)left));
         iright=floorf(right);
         right_fraction=(right-(int)right);
         for(j=ileft;j <= iright;j++) {
            if(j==ileft)
               filter_v[j-ileft]=left_fraction;
            else if(j==iright)
               filter_v[j-ileft]=right_fraction;
            else
               filter_v[j-ileft]=1.0;
         }
         assert((j-ileft) <= filterLen[i]);
         for(;j < filterLen[i];j++)
            filter_v[j-ileft]=0;
         for(j=0;j < filterLen[i];j++)
            filter_p[j]=(int16_t)(0.5+filter_v[j]*((float)(1<<BOX_RESIZE_SCALE)));
         filteri_p[x]=(uint8_t)ileft;
      }
   }
   spu=ztaBuildSpuBundle(2,
                         drv_spu,(float *)&drv_scale[0],0,0,
                         drv_spu,(float *)&drv_scale[1],0,0);

   // GraphNodeResize::Execute
   kernel_resize_exe(1,(unsigned int)drv_input,(unsigned int)drv_output,(unsigned int)temp,
                     (unsigned int)filter[0],(unsigned int)filter[1],(unsigned int)filteri[0],(unsigned int)filteri[1],
                     filterLen[0],filterLen[1],(unsigned int)spu,nchannel,src_w,src_h,dst_w,dst_h,
                     scale_denomitor[0],scale_denomitor[1]);
   return 0;
}
`;
}

export function jobs({ sw, fsFile, tmp }) {
  const src = decodeBmp(fs.readFileSync(fsFile('resize.bmp')));
  const inFile = path.join(tmp, 'resize_in.bin');
  fs.writeFileSync(inFile, src.data);
  return SIZES.map(([w, h]) => {
    const name = `test_resize ${src.width}x${src.height} -> ${w}x${h}`;
    const ref = `resize_${w}_${h}.bmp`;
    const out = path.join(tmp, `resize_${w}_${h}_out.bin`);
    return {
      name: `resize_${w}_${h}`,
      kernel: 'resize',
      checkNames: [name],
      driver: driverText(sw, src.width, src.height, w, h),
      loads: [{ where: 'drv_input', file: inFile }],
      dumps: [{ where: 'drv_output', count: 3 * w * h, dtype: 'u8', file: out }],
      verify: ({ dump }) => {
        const exp = decodeBmp(fs.readFileSync(fsFile(ref)));
        if (exp.width !== w || exp.height !== h) return [{ name, pass: false, detail: `${ref} is ${exp.width}x${exp.height}` }];
        return [checkFrom(name, exp.data, dump(out), { shape: [3, h, w], what: `vs ${ref} (RGB planes)` })];
      },
    };
  });
}
