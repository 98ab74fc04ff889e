// test_resize of ztachip's SW/src/test.cpp: SW/fs/resize.bmp (960x540) box-resized by kernel_resize_exe
// (SW/apps/resize/kernels/resize.m) to 7 sizes, each compared with SW/fs/resize_<w>_<h>.bmp. Both BMPs
// are read as TENSOR::CreateWithBitmap lays them out (split R, G, B planes, top row first); the driver
// builds the box filters and the two stream-processor scaling tables GraphNodeResize::Verify would give
// the kernel (our own formulation of that arithmetic, same float/double steps).
import fs from 'node:fs';
import path from 'node:path';
import { cPath, checkFrom, decodeBmp } from './common.mjs';

export const family = 'test_resize';

/** The sizes of test_resize(), in its order. */
export const SIZES = [
  [800, 400],
  [768, 300],
  [660, 256],
  [560, 200],
  [400, 180],
  [320, 172],
  [248, 140],
];

export function driverText(sw, srcW, srcH, dstW, dstH) {
  return `#include ${cPath(path.join(sw, 'apps/resize/kernels/resize.m'))}
uint8_t drv_input[3*${srcW}*${srcH}];
uint8_t drv_output[3*${dstW}*${dstH}];
float rs_scale_x;   // output pixels per input pixel along x (below 1 when shrinking)
float rs_scale_y;   // the same along y

// ---- box-resize set-up (behaviour of GraphNodeResize::Verify and ::spuCallback) ----
// The kernel makes BOX_RESIZE_MAX_OUTBUF output pixels of an axis from each window of input pixels; the
// window is BOX_RESIZE_MAX_OUTBUF*src/dst input pixels (rounded down), the scale OUTBUF/window in float.
int rs_window(int src,int dst) {
   return (BOX_RESIZE_MAX_OUTBUF*src)/dst;
}

// Taps of an output pixel: its footprint 1/scale rounded up (in float), plus one.
int rs_taps(float scale) {
   return (int)(ceilf(1/scale)+1);
}

// Weight of tap k of a footprint starting inside its first input pixel and ending inside pixel first+span:
// the first pixel weighs by its covered part (head; also when span is 0), the last by its covered part
// (tail), the pixels between by 1, taps past the footprint 0.
float rs_weight(int k,int span,float head,float tail) {
   if(k==0)
      return head;
   if(k==span)
      return tail;
   return k < span ? 1.0 : 0.0;
}

// A weight in fixed point with BOX_RESIZE_SCALE fraction bits, rounded half up: the product in float,
// the half added in double, then truncated.
int16_t rs_fixed(float weight) {
   float product=weight*(float)(1<<BOX_RESIZE_SCALE);
   return (int16_t)((double)product+0.5);
}

// The filter of one axis. Output position p (0..BOX_RESIZE_MAX_OUTBUF-1) of a window has the footprint
// [p/scale, p/scale+1/scale) in input pixels, all in float; its row of BOX_RESIZE_MAX_FILTER int16 holds
// the tap weights and starts[p] the input pixel of its first tap (window-relative). The head weight is
// 1 minus the footprint's start fraction, the subtraction from 1 done in double. Returns 0 when a
// footprint needs more than \`taps\` taps (ztachip asserts).
int rs_build_axis(float scale,int taps,int16_t *rows,uint8_t *starts) {
   float width=1/scale;
   float from,to,head,tail;
   int p,k,first,span;
   memset(rows,0,BOX_RESIZE_MAX_FILTER*NUM_THREAD_PER_CORE*sizeof(int16_t));
   for(p=0;p < BOX_RESIZE_MAX_OUTBUF;p++) {
      from=p/scale;
      to=from+width;
      first=(int)floorf(from);
      span=(int)floorf(to)-first;
      if(span >= taps)
         return 0;
      head=(float)(1.0-(double)(from-(float)first));
      tail=to-floorf(to);
      for(k=0;k < taps;k++)
         rows[p*BOX_RESIZE_MAX_FILTER+k]=rs_fixed(rs_weight(k,span,head,tail));
      starts[p]=(uint8_t)first;
   }
   return 1;
}

// Stream-processor scaling of a box sum: times the axis's scale (product in float), plus a half in double,
// truncated toward zero, capped at 255 above (no lower bound).
int16_t rs_scaled(int16_t sum,float scale) {
   int v=(int)((double)((float)sum*scale)+0.5);
   return (int16_t)(v > 255 ? 255 : v);
}

// One table per axis, each with its own scale (ztachip passes the scale through the table builder's pointer).
int16_t rs_spu_x(int16_t sum,void *unused_p,uint32_t unused_a,uint32_t unused_b) {
   return rs_scaled(sum,rs_scale_x);
}

int16_t rs_spu_y(int16_t sum,void *unused_p,uint32_t unused_a,uint32_t unused_b) {
   return rs_scaled(sum,rs_scale_y);
}

int main() {
   int win_x=rs_window(${srcW},${dstW});
   int win_y=rs_window(${srcH},${dstH});
   int taps_x,taps_y;
   void *temp=ztaAllocSharedMem(2*(${srcW}*${srcH}*3+64));   // the kernel's scratch image
   int16_t *rows_x=(int16_t *)ztaAllocSharedMem(sizeof(int16_t)*BOX_RESIZE_MAX_FILTER*NUM_THREAD_PER_CORE);
   uint8_t *starts_x=(uint8_t *)ztaAllocSharedMem(NUM_THREAD_PER_CORE);
   int16_t *rows_y=(int16_t *)ztaAllocSharedMem(sizeof(int16_t)*BOX_RESIZE_MAX_FILTER*NUM_THREAD_PER_CORE);
   uint8_t *starts_y=(uint8_t *)ztaAllocSharedMem(NUM_THREAD_PER_CORE);
   void *tables;
   if(win_x > BOX_RESIZE_MAX_INBUF || win_y > BOX_RESIZE_MAX_INBUF) {
      printf("DRIVER-ERROR the node refuses the size: windows %d,%d > %d input pixels\\n",win_x,win_y,BOX_RESIZE_MAX_INBUF);
      return 1;
   }
   rs_scale_x=(float)BOX_RESIZE_MAX_OUTBUF/(float)win_x;
   rs_scale_y=(float)BOX_RESIZE_MAX_OUTBUF/(float)win_y;
   taps_x=rs_taps(rs_scale_x);
   taps_y=rs_taps(rs_scale_y);
   if(taps_x > BOX_RESIZE_MAX_FILTER || taps_y > BOX_RESIZE_MAX_FILTER) {
      printf("DRIVER-ERROR the node refuses the size: %d,%d taps > %d\\n",taps_x,taps_y,BOX_RESIZE_MAX_FILTER);
      return 1;
   }
   if(!rs_build_axis(rs_scale_x,taps_x,rows_x,starts_x) || !rs_build_axis(rs_scale_y,taps_y,rows_y,starts_y)) {
      printf("DRIVER-ERROR a footprint needs more taps than the filter has\\n");
      return 1;
   }
   tables=ztaBuildSpuBundle(2,rs_spu_x,0,0,0,rs_spu_y,0,0,0);
   // the node's request (GraphNodeResize::Execute)
   kernel_resize_exe(1,(unsigned int)drv_input,(unsigned int)drv_output,(unsigned int)temp,
                     (unsigned int)rows_x,(unsigned int)rows_y,(unsigned int)starts_x,(unsigned int)starts_y,
                     taps_x,taps_y,(unsigned int)tables,3,${srcW},${srcH},${dstW},${dstH},win_x,win_y);
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
