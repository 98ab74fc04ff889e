// test_yuyv_to_bgr of ztachip's SW/src/test.cpp: a 100x100 YUYV image (SW/fs/color_conversion_100_100_in.bin)
// converted by kernel_yuyv2rgb_exe (SW/apps/color/kernels/color.m) to RGB/BGR, split/interleaved, for
// 5 centred crops, each compared with the crop of SW/fs/color_conversion_<order>_<fmt>_100_100_out.bin.
// The driver builds the byte-saturating stream-processor table GraphNodeColorAndReshape gives the kernel.
import fs from 'node:fs';
import path from 'node:path';
import { cPath, checkFrom } from './common.mjs';

export const family = 'test_yuyv_to_bgr';

// color.h
const FMT_INTERLEAVE = 0;
const FMT_SPLIT = 1;
const COLOR_RGB = 0;
const COLOR_BGR = 1;

/** The 4 output layouts of each crop, in test.cpp's order: split RGB, split BGR, interleaved RGB, interleaved BGR. */
const LAYOUTS = [FMT_SPLIT, FMT_INTERLEAVE].flatMap((fmt) => [COLOR_RGB, COLOR_BGR].map((order) => ({ fmt, order })));

/** Half of a non-negative n rounded down to an even number (a YUYV pair must not be split): 2*floor(n/4). */
const evenHalf = (n) => 2 * Math.floor(n / 4);

/** test.cpp's cases: crops of 0, 2, .., 8 pixels, the window centred (offsets even), each in the 4 layouts. */
export function cases(srcW = 100, srcH = 100) {
  return [0, 2, 4, 6, 8].flatMap((crop) =>
    LAYOUTS.map(({ fmt, order }) => ({
      crop,
      dstW: srcW - crop,
      dstH: srcH - crop,
      xOff: evenHalf(crop),
      yOff: evenHalf(crop),
      fmt,
      order,
    })),
  );
}

/** The crop (xOff, yOff, dstW x dstH) of a full 3-channel image, in the layout `fmt` of both. */
function cropOf(full, srcW, srcH, c) {
  const out = new Uint8Array(3 * c.dstW * c.dstH);
  // element (channel, row, column) -> flat index, for an image of width w and height h
  const at = c.fmt === FMT_SPLIT ? (w, h, ch, r, x) => (ch * h + r) * w + x : (w, _h, ch, r, x) => (r * w + x) * 3 + ch;
  for (let ch = 0; ch < 3; ch++) {
    for (let r = 0; r < c.dstH; r++) {
      for (let x = 0; x < c.dstW; x++) out[at(c.dstW, c.dstH, ch, r, x)] = full[at(srcW, srcH, ch, r + c.yOff, x + c.xOff)];
    }
  }
  return out;
}

export function jobs({ sw, fsFile, tmp }) {
  const srcW = 100;
  const srcH = 100;
  const cs = cases(srcW, srcH);
  const calls = cs
    .map(
      (c, k) => `   // crop ${c.crop}: ${c.order === COLOR_BGR ? 'BGR' : 'RGB'} ${c.fmt === FMT_SPLIT ? 'split' : 'interleaved'}
   kernel_yuyv2rgb_exe(${k + 1},(unsigned int)drv_input,(unsigned int)drv_out${k},(unsigned int)byte_table,
                       ${c.dstW},${c.dstH},${c.fmt},${c.order},${srcW},${srcH},${c.xOff},${c.yOff},0,0,${c.dstW},${c.dstH});`,
    )
    .join('\n');
  const driver = `#include ${cPath(path.join(sw, 'apps/color/kernels/color.m'))}
uint16_t drv_input[${srcW}*${srcH}];
${cs.map((c, k) => `uint8_t drv_out${k}[3*${c.dstW}*${c.dstH}];`).join('\n')}

// The stream-processor function GraphNodeColorAndReshape gives the YUYV conversion (its SpuCallback):
// saturation to a byte.
int16_t yv_spu_byte(int16_t x,void *unused_p,uint32_t unused_a,uint32_t unused_b) {
   return x < 0 ? 0 : (x > 255 ? 255 : x);
}

int main() {
   // the node builds this table in each Verify; it is the same table for every case
   void *byte_table=ztaBuildSpuBundle(1,yv_spu_byte,0,0,0);
${calls}
   return 0;
}
`;
  const names = cs.map(
    (c) =>
      `test_yuyv_to_bgr ${srcW}x${srcH} crop ${c.crop} (${c.dstW}x${c.dstH} at ${c.xOff},${c.yOff}) ` +
      `${c.order === COLOR_BGR ? 'bgr' : 'rgb'} ${c.fmt === FMT_SPLIT ? 'split' : 'interleave'}`,
  );
  const outs = cs.map((_c, k) => path.join(tmp, `yuyv_out${k}.bin`));
  return [
    {
      name: 'yuyv_to_bgr',
      kernel: 'yuyv2rgb',
      checkNames: names,
      driver,
      loads: [{ where: 'drv_input', file: fsFile(`color_conversion_${srcW}_${srcH}_in.bin`) }],
      dumps: cs.map((c, k) => ({ where: `drv_out${k}`, count: 3 * c.dstW * c.dstH, dtype: 'u8', file: outs[k] })),
      verify: ({ dump }) =>
        cs.map((c, k) => {
          const ref = `color_conversion_${c.order === COLOR_BGR ? 'bgr' : 'rgb'}_${c.fmt === FMT_INTERLEAVE ? 'interleave' : 'split'}_${srcW}_${srcH}_out.bin`;
          const exp = cropOf(fs.readFileSync(fsFile(ref)), srcW, srcH, c);
          const shape = c.fmt === FMT_SPLIT ? [3, c.dstH, c.dstW] : [c.dstH, c.dstW, 3];
          return checkFrom(names[k], exp, dump(outs[k]), { shape, what: `vs crop of ${ref}` });
        }),
    },
  ];
}
