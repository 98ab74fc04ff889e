// test_yuyv_to_bgr of ztachip's SW/src/test.cpp: a 100x100 YUYV image (SW/fs/color_conversion_100_100_in.bin)
// converted by kernel_yuyv2rgb_exe (SW/apps/color/kernels/color.m) to RGB/BGR, split/interleaved, for
// 5 centred crops, each compared with the crop of SW/fs/color_conversion_<order>_<fmt>_100_100_out.bin.
// The driver builds GraphNodeColorAndReshape's clamping stream-processor table (SpuCallback).
import fs from 'node:fs';
import path from 'node:path';
import { cPath, checkFrom } from './common.mjs';

export const family = 'test_yuyv_to_bgr';

// color.h
const FMT_INTERLEAVE = 0;
const FMT_SPLIT = 1;
const COLOR_RGB = 0;
const COLOR_BGR = 1;

/** test.cpp's loop: crop 0..8 step 2, x_off/y_off rounded down to even; the 4 format cases in its order. */
export function cases(srcW = 100, srcH = 100) {
  const out = [];
  for (let crop = 0; crop <= 8; crop += 2) {
    const dstW = srcW - crop;
    const dstH = srcH - crop;
    const xOff = Math.trunc(Math.trunc((srcW - dstW) / 2) / 2) * 2;
    const yOff = Math.trunc(Math.trunc((srcH - dstH) / 2) / 2) * 2;
    for (const [fmt, order] of [[FMT_SPLIT, COLOR_RGB], [FMT_SPLIT, COLOR_BGR], [FMT_INTERLEAVE, COLOR_RGB], [FMT_INTERLEAVE, COLOR_BGR]]) {
      out.push({ crop, dstW, dstH, xOff, yOff, fmt, order });
    }
  }
  return out;
}

export function jobs({ sw, fsFile, tmp }) {
  const srcW = 100;
  const srcH = 100;
  const cs = cases(srcW, srcH);
  const calls = cs.map((c, k) => `   // crop ${c.crop}: ${c.order === COLOR_BGR ? 'BGR' : 'RGB'} ${c.fmt === FMT_SPLIT ? 'split' : 'interleaved'}
   spu=ztaBuildSpuBundle(1,drv_spu,0,0,0);   // GraphNodeColorAndReshape::Verify
   kernel_yuyv2rgb_exe(${k + 1},(unsigned int)drv_input,(unsigned int)drv_out${k},(unsigned int)spu,
                       ${c.dstW},${c.dstH},${c.fmt},${c.order},${srcW},${srcH},${c.xOff},${c.yOff},0,0,${c.dstW},${c.dstH});`).join('\n');
  const driver = `#include ${cPath(path.join(sw, 'apps/color/kernels/color.m'))}
uint16_t drv_input[${srcW}*${srcH}];
${cs.map((c, k) => `uint8_t drv_out${k}[3*${c.dstW}*${c.dstH}];`).join('\n')}

// GraphNodeColorAndReshape::SpuCallback: clamp to 0..255
int16_t drv_spu(int16_t input,void *pparm,uint32_t parm,uint32_t parm2) {
   if(input < 0)
      return 0;
   else if(input > 255)
      return 255;
   else
      return input;
}

int main() {
   void *spu;
${calls}
   return 0;
}
`;
  const names = cs.map((c) => `test_yuyv_to_bgr ${srcW}x${srcH} crop ${c.crop} (${c.dstW}x${c.dstH} at ${c.xOff},${c.yOff}) ${c.order === COLOR_BGR ? 'bgr' : 'rgb'} ${c.fmt === FMT_SPLIT ? 'split' : 'interleave'}`);
  const outs = cs.map((_c, k) => path.join(tmp, `yuyv_out${k}.bin`));
  return [{
    name: 'yuyv_to_bgr',
    kernel: 'yuyv2rgb',
    checkNames: names,
    driver,
    loads: [{ where: 'drv_input', file: fsFile(`color_conversion_${srcW}_${srcH}_in.bin`) }],
    dumps: cs.map((c, k) => ({ where: `drv_out${k}`, count: 3 * c.dstW * c.dstH, dtype: 'u8', file: outs[k] })),
    verify: ({ dump }) => cs.map((c, k) => {
      const ref = `color_conversion_${c.order === COLOR_BGR ? 'bgr' : 'rgb'}_${c.fmt === FMT_INTERLEAVE ? 'interleave' : 'split'}_${srcW}_${srcH}_out.bin`;
      const full = fs.readFileSync(fsFile(ref));
      // the expected crop, laid out as the output: split planes of dstW*dstH, or interleaved triples
      const exp = new Uint8Array(3 * c.dstW * c.dstH);
      for (let r = 0; r < c.dstH; r++) {
        for (let x = 0; x < c.dstW; x++) {
          for (let ch = 0; ch < 3; ch++) {
            if (c.fmt === FMT_SPLIT) exp[ch * c.dstW * c.dstH + r * c.dstW + x] = full[ch * srcW * srcH + (r + c.yOff) * srcW + x + c.xOff];
            else exp[3 * (r * c.dstW + x) + ch] = full[3 * ((r + c.yOff) * srcW + x + c.xOff) + ch];
          }
        }
      }
      const shape = c.fmt === FMT_SPLIT ? [3, c.dstH, c.dstW] : [c.dstH, c.dstW, 3];
      return checkFrom(names[k], exp, dump(outs[k]), { shape, what: `vs crop of ${ref}` });
    }),
  }];
}
