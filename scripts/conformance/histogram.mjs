// test_histogram of ztachip's SW/src/test.cpp: histogram equalization of a 3-channel 256x256 image by
// kernel_equalize_exe (SW/apps/equalize/kernels/equalize.m), run twice as the test's graph does: the
// first run only gathers the histogram, the second applies the stream-processor mapping built from it.
// Compared with SW/fs/histogram_out.bin with test.cpp's tolerance: a byte passes when |actual - expected| < 10.
//
// The mapping between the runs reproduces GraphNodeEqualize::GenEqualizer and ::SpuCallback (contrast
// 2.0) in our own formulation; see the comments of the driver.
import path from 'node:path';
import { cPath, checkFrom } from './common.mjs';

export const family = 'test_histogram';
export const TOLERANCE = 10;

/** Levels per histogram bin and number of bins (256 grey levels in 32 bins of 8). */
const LEVELS_PER_BIN = 8;
const BINS = 256 / LEVELS_PER_BIN;
/** Passes of the clipping step at most. */
const MAX_CLIP_PASSES = 8;

/** The C text of the equalizer: bins from the kernel's statistics, clipping, the 256-level map, the SPU function. */
function equalizerText() {
  return `// ---- clip-limited histogram equalization (behaviour of GraphNodeEqualize::GenEqualizer/SpuCallback) ----
int eq_bins[${BINS}];        // population of each ${LEVELS_PER_BIN}-level bin, all channels together (clipped in place)
int16_t eq_map[256];    // output level for each input level

// The kernel's statistics hold, per channel, 2 groups of ${BINS} int16: a bin's count divided by 1000,
// then the count modulo 1000.
int eq_channel_count(int16_t *stats,int channel,int bin) {
   int16_t *thousands=stats+channel*${2 * BINS};
   int16_t *units=thousands+${BINS};
   return 1000*thousands[bin]+units[bin];
}

// One clipping pass over the bins in ascending order. A bin whose population exceeds \`limit\` is cut to
// \`limit\` and its excess divided by ${BINS} (rounded down) is added to every bin, itself included, at once —
// so bins further on in the same pass are tested with that share already added (the order matters and is
// kept). Instead of adding each share to all bins, the shares given so far are kept in \`lift\`: the real
// population of bin b is eq_bins[b]+lift while the pass runs. Returns the number of bins cut.
int eq_clip_pass(int limit) {
   int lift=0;
   int cut=0;
   int b,share;
   for(b=0;b < ${BINS};b++) {
      if(eq_bins[b]+lift > limit) {
         share=(eq_bins[b]+lift-limit)/${BINS};
         eq_bins[b]=limit-lift;     // limit+share once the new lift is counted
         lift=lift+share;
         cut++;
      }
   }
   for(b=0;b < ${BINS};b++)
      eq_bins[b]+=lift;
   return cut;
}

// Repeats the pass until one cuts nothing, at most ${MAX_CLIP_PASSES} passes.
void eq_clip(int limit) {
   int passes=0;
   while(passes < ${MAX_CLIP_PASSES} && eq_clip_pass(limit) > 0)
      passes++;
}

// Output level of input level v = 8*bin+k (k = 0..7): the clipped population at or below v, i.e. all of
// the bins before v's plus (k+1)/8 of v's own bin (the product rounded down after the multiplication),
// scaled by 255/pixels (rounded down) and capped at 255.
void eq_build_map(int pixels) {
   int before=0;
   int bin,k,rank,level;
   for(bin=0;bin < ${BINS};bin++) {
      for(k=0;k < ${LEVELS_PER_BIN};k++) {
         rank=before+(eq_bins[bin]*(k+1))/${LEVELS_PER_BIN};
         level=(255*rank)/pixels;
         if(level > 255)
            level=255;
         eq_map[bin*${LEVELS_PER_BIN}+k]=(int16_t)level;
      }
      before+=eq_bins[bin];
   }
}

// The stream-processor function: the input clamped to 0..255, then looked up in the map.
int16_t eq_spu_level(int16_t x,void *unused_p,uint32_t unused_a,uint32_t unused_b) {
   int level=x;
   if(level < 0)
      level=0;
   if(level > 255)
      level=255;
   return eq_map[level];
}
`;
}

export function jobs({ sw, fsFile, tmp }) {
  const w = 256;
  const h = 256;
  const nch = 3;
  const out = path.join(tmp, 'histogram_out.bin');
  const driver = `#include ${cPath(path.join(sw, 'apps/equalize/kernels/equalize.m'))}
uint8_t drv_input[${nch}*${h}*${w}];
uint8_t drv_output[${nch}*${h}*${w}];

${equalizerText()}
int main() {
   int pixels=${nch}*${w}*${h};
   float contrast=2.0;
   // the clip limit: contrast times the mean bin population, both in float, truncated (GraphNodeEqualize::SetContrast)
   float mean_bin=(float)pixels/${BINS};
   int limit=(int)(contrast*mean_bin);
   // the kernel's statistics: an int16 tensor {channels, 2, kHistogramBinSize, VECTOR_WIDTH}
   int16_t *stats=(int16_t *)ztaAllocSharedMem(${nch}*2*kHistogramBinSize*VECTOR_WIDTH*sizeof(int16_t));
   void *spu;
   int ch,b;
   // run 1: statistics only (no stream-processor table yet)
   kernel_equalize_exe(1,(unsigned int)drv_input,(unsigned int)stats,(unsigned int)drv_output,${nch},0,${w},${h});
   for(b=0;b < ${BINS};b++)
      eq_bins[b]=0;
   for(ch=0;ch < ${nch};ch++)
      for(b=0;b < ${BINS};b++)
         eq_bins[b]+=eq_channel_count(stats,ch,b);
   eq_clip(limit);
   eq_build_map(pixels);
   spu=ztaBuildSpuBundle(1,eq_spu_level,0,0,0);
   // run 2: the equalization with the map
   kernel_equalize_exe(2,(unsigned int)drv_input,(unsigned int)stats,(unsigned int)drv_output,${nch},(unsigned int)spu,${w},${h});
   return 0;
}
`;
  const name = `test_histogram ${w}x${h}x${nch} (equalize; test.cpp's tolerance: |diff| < ${TOLERANCE} per byte)`;
  return [
    {
      name: 'histogram',
      kernel: 'equalize',
      checkNames: [name],
      driver,
      loads: [{ where: 'drv_input', file: fsFile('histogram_in.bin') }],
      dumps: [{ where: 'drv_output', count: nch * w * h, dtype: 'u8', file: out }],
      verify: ({ dump, expected }) => [checkFrom(name, expected('histogram_out.bin', 'u8'), dump(out), { shape: [nch, h, w], tolerance: TOLERANCE })],
    },
  ];
}
