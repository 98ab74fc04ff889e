// test_color of ztachip's SW/src/test.cpp: colour conversion and reshaping by kernel_copy_exe
// (SW/apps/color/kernels/color.m) of a synthetic image (pixel (r,c) = r*100+c, +1, +2 per channel),
// for source sizes 16x16..128x128 (step 2) x centred crops 0..8 x the test's 16 format cases. test.cpp
// checks every output byte of the crop against what it computes (the shifted pattern, or bgr2mono of it).
// One run per format case; the driver loops over sizes and crops, checks each combination in C as the
// test does and prints the combinations that differ; the runner prints one line per case with a count.
import path from 'node:path';
import { cPath } from './common.mjs';

export const family = 'test_color';

// color.h
const INTERLEAVE = 0;
const SPLIT = 1;
const SINGLE = 2;
const RGB = 0;
const BGR = 1;
const MONO = 2;
// TensorObjType / TensorFormat of the test, by name
const FMT_NAMES = ['interleaved', 'split', 'single'];
const ORDER_NAMES = ['RGB', 'BGR', 'mono'];

/** test.cpp's 16 cases: [srcfmt, dstfmt, srcorder, dstorder, srcColorSpace, dstColorSpace, destFormat]. */
export const CASES = [
  [SPLIT, INTERLEAVE, BGR, BGR, 'BGR', 'BGR', 'Interleaved'],
  [INTERLEAVE, SPLIT, BGR, BGR, 'BGR', 'BGR', 'Split'],
  [INTERLEAVE, INTERLEAVE, BGR, BGR, 'BGR', 'BGR', 'Interleaved'],
  [SPLIT, SPLIT, BGR, BGR, 'BGR', 'BGR', 'Split'],
  [SPLIT, SINGLE, BGR, MONO, 'BGR', 'MonochromeSingleChannel', 'Split'],
  [INTERLEAVE, SINGLE, BGR, MONO, 'BGR', 'MonochromeSingleChannel', 'Split'],
  [SPLIT, SINGLE, RGB, MONO, 'RGB', 'MonochromeSingleChannel', 'Split'],
  [INTERLEAVE, SINGLE, RGB, MONO, 'RGB', 'MonochromeSingleChannel', 'Split'],
  [INTERLEAVE, INTERLEAVE, RGB, MONO, 'RGB', 'Monochrome', 'Interleaved'],
  [SPLIT, SPLIT, RGB, MONO, 'RGB', 'Monochrome', 'Split'],
  [INTERLEAVE, SPLIT, RGB, MONO, 'RGB', 'Monochrome', 'Split'],
  [SPLIT, INTERLEAVE, RGB, MONO, 'RGB', 'Monochrome', 'Interleaved'],
  [INTERLEAVE, INTERLEAVE, BGR, MONO, 'BGR', 'Monochrome', 'Interleaved'],
  [SPLIT, SPLIT, BGR, MONO, 'BGR', 'Monochrome', 'Split'],
  [INTERLEAVE, SPLIT, BGR, MONO, 'BGR', 'Monochrome', 'Split'],
  [SPLIT, INTERLEAVE, BGR, MONO, 'BGR', 'Monochrome', 'Interleaved'],
].map(([srcfmt, dstfmt, srcorder, dstorder, srcSpace, dstSpace, destFormat]) => ({ srcfmt, dstfmt, srcorder, dstorder, srcSpace, dstSpace, destFormat }));

/**
 * What GraphNodeColorAndReshape::Verify passes to kernel_copy_exe for an input tensor of colour space
 * `srcSpace` in format `srcFormat` (the test's srcfmt) and the requested destination.
 */
export function nodeArgs({ srcfmt, srcSpace, dstSpace, destFormat }) {
  const srcorder = srcSpace === 'RGB' ? RGB : srcSpace === 'BGR' ? BGR : MONO;
  const nodeSrcfmt = srcfmt === SPLIT ? SPLIT : INTERLEAVE; // m_input->GetFormat()==TensorFormatSplit
  let dstorder;
  let dstfmt;
  switch (dstSpace) {
    case 'RGB': dstorder = RGB; dstfmt = destFormat === 'Split' ? SPLIT : INTERLEAVE; break;
    case 'BGR': dstorder = BGR; dstfmt = destFormat === 'Split' ? SPLIT : INTERLEAVE; break;
    case 'Monochrome': dstorder = MONO; dstfmt = destFormat === 'Split' ? SPLIT : INTERLEAVE; break;
    case 'MonochromeSingleChannel': dstorder = MONO; dstfmt = SINGLE; break;
    default: throw new Error(`destination ${dstSpace}`);
  }
  return { srcfmt: nodeSrcfmt, srcorder, dstfmt, dstorder };
}

export function describe(c) {
  return `${FMT_NAMES[c.srcfmt]} ${c.srcSpace} -> ${c.dstSpace === 'MonochromeSingleChannel' ? 'single-channel mono' : `${FMT_NAMES[c.dstfmt]} ${ORDER_NAMES[c.dstorder]}`}`;
}

export function driverText(sw, c, { from = 16, to = 130, maxCrop = 8 } = {}) {
  const a = nodeArgs(c);
  return `#include ${cPath(path.join(sw, 'apps/color/kernels/color.m'))}
uint8_t drv_input[3*${to}*${to}];
uint8_t drv_output[3*${to}*${to}];
uint8_t drv_split[3*${to}*${to}];
uint8_t drv_interleave[3*${to}*${to}];
int drv_ndiff;
int drv_first;
int drv_first_exp;
int drv_first_act;
int drv_maxdiff;

// test.cpp's bgr2mono
uint8_t drv_bgr2mono(uint8_t b,uint8_t g,uint8_t r) {
   int scale=9;
   int32_t _mono;
   int round;
   round=(1<<(scale-1));
   _mono= ((int32_t)r)*154+((int32_t)g)*302+((int32_t)b)*56;
   _mono=((_mono+round)>>scale);
   if(_mono < 0)
      _mono=0;
   else if(_mono > 255)
      _mono=255;
   return (uint8_t)_mono;
}

void drv_expect(int idx,int expected) {
   int d;
   int actual=drv_output[idx];
   if(actual==expected)
      return;
   d=actual-expected;
   if(d < 0)
      d=-d;
   if(drv_ndiff==0) {
      drv_first=idx;
      drv_first_exp=expected;
      drv_first_act=actual;
   }
   if(d > drv_maxdiff)
      drv_maxdiff=d;
   drv_ndiff++;
}

int main() {
   int src_w,src_h,crop,clip_w,clip_h,x_off,y_off,dst_x,dst_y,dst_w,dst_h,r,c;
   int combos=0,failed=0;
   uint8_t blue,green,red,mono;
   int srcfmt=${c.srcfmt},dstfmt=${c.dstfmt},srcorder=${c.srcorder},dstorder=${c.dstorder};
   for(src_w=${from},src_h=${from};src_w < ${to};src_w+=2,src_h+=2) {
      for(crop=0;crop <= ${maxCrop};crop++) {
         clip_w=src_w-crop;
         clip_h=src_h-crop;
         x_off=(src_w-clip_w)/2;
         y_off=(src_h-clip_h)/2;
         dst_x=0;
         dst_y=0;
         dst_w=clip_w;
         dst_h=clip_h;
         for(r=0;r < src_h;r++) {
            for(c=0;c < src_w;c++) {
               drv_split[(r*src_w+c)]=(uint8_t)(r*100+c);
               drv_split[(r*src_w+c)+src_w*src_h]=(uint8_t)(r*100+c+1);
               drv_split[(r*src_w+c)+2*src_w*src_h]=(uint8_t)(r*100+c+2);
               drv_interleave[3*(r*src_w+c)+0]=(uint8_t)(r*100+c);
               drv_interleave[3*(r*src_w+c)+1]=(uint8_t)(r*100+c+1);
               drv_interleave[3*(r*src_w+c)+2]=(uint8_t)(r*100+c+2);
            }
         }
         if(srcfmt==kChannelFmtInterleave)
            memcpy(drv_input,drv_interleave,src_w*src_h*3);
         else
            memcpy(drv_input,drv_split,src_w*src_h*3);
         memset(drv_output,0,sizeof(drv_output));   // a fresh output tensor
         // GraphNodeColorAndReshape::Execute (the input tensor's dims are {3,src_w,src_h}: m_src_w=dim[2])
         kernel_copy_exe(combos+1,(unsigned int)drv_input,(unsigned int)drv_output,clip_w,clip_h,
                         ${a.srcfmt},${a.srcorder},${a.dstfmt},${a.dstorder},
                         src_h,src_w,x_off,y_off,dst_x,dst_y,dst_w,dst_h,0);
         drv_ndiff=0;
         drv_maxdiff=0;
         // test.cpp's checks, counting instead of exit(0)
         if(dstorder!=kChannelColorMono && dstfmt==kChannelFmtSplit) {
            for(r=0;r < clip_h;r++) {
               for(c=0;c < clip_w;c++) {
                  drv_expect(r*clip_w+c,(uint8_t)((r+y_off)*100+(c+x_off)));
                  drv_expect(clip_w*clip_h*1+r*clip_w+c,(uint8_t)((r+y_off)*100+(c+x_off)+1));
                  drv_expect(clip_w*clip_h*2+r*clip_w+c,(uint8_t)((r+y_off)*100+(c+x_off)+2));
               }
            }
         } else if(dstorder!=kChannelColorMono && dstfmt==kChannelFmtInterleave) {
            for(r=0;r < clip_h;r++) {
               for(c=0;c < clip_w;c++) {
                  drv_expect(3*(r*clip_w+c)+0,(uint8_t)((r+y_off)*100+(c+x_off)));
                  drv_expect(3*(r*clip_w+c)+1,(uint8_t)((r+y_off)*100+(c+x_off)+1));
                  drv_expect(3*(r*clip_w+c)+2,(uint8_t)((r+y_off)*100+(c+x_off)+2));
               }
            }
         } else {
            for(r=0;r < clip_h;r++) {
               for(c=0;c < clip_w;c++) {
                  if(srcorder==kChannelColorBGR) {
                     blue=(uint8_t)((r+y_off)*100+(c+x_off));
                     green=(uint8_t)((r+y_off)*100+(c+x_off)+1);
                     red=(uint8_t)((r+y_off)*100+(c+x_off)+2);
                  } else {
                     red=(uint8_t)((r+y_off)*100+(c+x_off));
                     green=(uint8_t)((r+y_off)*100+(c+x_off)+1);
                     blue=(uint8_t)((r+y_off)*100+(c+x_off)+2);
                  }
                  mono=drv_bgr2mono(blue,green,red);
                  if(dstfmt==kChannelFmtInterleave) {
                     drv_expect(3*(r*clip_w+c)+0,mono);
                     drv_expect(3*(r*clip_w+c)+1,mono);
                     drv_expect(3*(r*clip_w+c)+2,mono);
                  } else if(dstfmt==kChannelFmtSplit) {
                     drv_expect((r*clip_w+c),mono);
                     drv_expect((r*clip_w+c)+clip_w*clip_h,mono);
                     drv_expect((r*clip_w+c)+clip_w*clip_h*2,mono);
                  } else {
                     drv_expect((r*clip_w+c),mono);
                  }
               }
            }
         }
         combos++;
         if(drv_ndiff) {
            failed++;
            printf("COMBO-FAIL %d %d %d %d %d %d %d %d\\n",src_w,src_h,crop,drv_ndiff,drv_first,drv_first_exp,drv_first_act,drv_maxdiff);
         }
      }
   }
   printf("CASE-DONE %d %d\\n",combos,failed);
   return 0;
}
`;
}

export function jobs({ sw }) {
  return CASES.map((c, ii) => {
    const name = `test_color case ${ii} (${describe(c)})`;
    return {
      name: `color_case${ii}`,
      kernel: 'copy',
      checkNames: [name],
      driver: driverText(sw, c),
      verifyFailedRun: true,
      verify: ({ stdout, error }) => {
        const fails = [...stdout.matchAll(/^COMBO-FAIL (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+)$/gm)].map((m) => m.slice(1).map(Number));
        const done = /^CASE-DONE (\d+) (\d+)$/m.exec(stdout);
        const total = 57 * 9;
        const checked = done ? Number(done[1]) : undefined;
        const describeFail = ([w, h, crop, n, idx, e, a, max]) =>
          `${w}x${h} crop ${crop}: ${n} of ${(c.dstfmt === SINGLE ? 1 : 3) * (w - crop) * (h - crop)} bytes differ, first at ${idx}: expected ${e}, got ${a}; max abs diff ${max}`;
        if (!done || error) {
          const ran = fails.length ? `; before it: ${fails.length} combinations differ, first ${describeFail(fails[0])}` : '';
          return [{ name, pass: false, count: total, passedCount: 0, detail: `${error ?? 'the driver did not finish'}${ran}` }];
        }
        if (fails.length === 0) return [{ name, pass: true, count: checked, detail: `${checked}/${checked} combinations (sizes 16..128 x crops 0..8) identical` }];
        const max = Math.max(...fails.map((f) => f[7]));
        return [{
          name,
          pass: false,
          count: checked,
          passedCount: checked - fails.length,
          detail: `${checked - fails.length}/${checked} combinations identical, ${fails.length} differ (max abs diff ${max}); first: ${describeFail(fails[0])}`,
        }];
      },
    };
  });
}
