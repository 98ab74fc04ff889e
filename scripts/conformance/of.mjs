// test_of of ztachip's SW/src/test.cpp: optical flow between two 640x480 frames by kernel_of_exe
// (SW/apps/of/kernels/of.m). As the test's graph does, the kernel runs twice: GraphNodeOpticalFlow keeps
// two frame buffers and swaps them each run, so the first run sees (frame 2, an unwritten buffer) and the
// second (frame 1, frame 2). Checked: the gradients Ix, Iy, It and the flow vx, vy against
// SW/fs/optical_flow_{Ix,Iy,It,vx,vy}.bin (int16), and the display image against what test.cpp computes
// from the vx, vy the kernel produced. The driver builds the node's 4 stream-processor tables.
// (test.cpp opens "optical_flow_1_in" without .bin; SW/fs holds optical_flow_1_in.bin.)
import path from 'node:path';
import { cPath, checkFrom } from './common.mjs';

export const family = 'test_of';

export function jobs({ sw, fsFile, tmp }) {
  const w = 640;
  const h = 480;
  const outs = {};
  for (const n of ['Ix', 'Iy', 'It', 'vx', 'vy', 'display']) outs[n] = path.join(tmp, `of_${n}.bin`);
  const driver = `#include ${cPath(path.join(sw, 'apps/of/kernels/of.m'))}
// The node keeps two frame buffers and swaps them on every run (GraphNodeOpticalFlow::Execute).
uint8_t drv_slot_a[${w}*${h}];   // holds frame 2 (loaded) when the first run starts
uint8_t drv_slot_b[${w}*${h}];
uint8_t drv_frame1[${w}*${h}];   // the test's first frame, optical_flow_1_in
int16_t drv_x_gradient[${w}*${h}];
int16_t drv_y_gradient[${w}*${h}];
int16_t drv_t_gradient[${w}*${h}];
int16_t drv_x_vect[${w}*${h}];
int16_t drv_y_vect[${w}*${h}];
uint8_t drv_display[3*${w}*${h}];

// ---- the node's 4 stream-processor functions (behaviour of GraphNodeOpticalFlow::SpuCallback and its
// SpuDisplay{Left,Right}Horizontal / SpuDisplayVertical callbacks). The table builder only asks for
// 12-bit signed inputs, -2048..2047. ----

// Saturates a non-negative magnitude to a byte.
int of_byte(int magnitude) {
   return magnitude < 255 ? magnitude : 255;
}

// Reciprocal in 1/32768 units: 32768/x with x=0 taken as 1, rounded toward zero, saturated to the 12-bit
// signed range. ztachip divides in float and truncates; for divisors of 12 bits the float quotient never
// crosses an integer, so integer division gives the same values (checked for every input).
int16_t of_spu_reciprocal(int16_t x,void *unused_p,uint32_t unused_a,uint32_t unused_b) {
   int q=32768/(x==0 ? 1 : x);
   if(q < -2048)
      q=-2048;
   if(q > 2047)
      q=2047;
   return (int16_t)q;
}

// Display red: the positive part of x, as a byte.
int16_t of_spu_positive(int16_t x,void *unused_p,uint32_t unused_a,uint32_t unused_b) {
   return (int16_t)of_byte(x > 0 ? x : 0);
}

// Display green: the negative part of x (its magnitude), as a byte.
int16_t of_spu_negative(int16_t x,void *unused_p,uint32_t unused_a,uint32_t unused_b) {
   return (int16_t)of_byte(x < 0 ? -x : 0);
}

// Display blue: |x|, as a byte.
int16_t of_spu_magnitude(int16_t x,void *unused_p,uint32_t unused_a,uint32_t unused_b) {
   return (int16_t)of_byte(x < 0 ? -x : x);
}

// One kernel run on (earlier frame, later frame) with the full ${w}x${h} window.
void of_run(int job,uint8_t *earlier,uint8_t *later,void *tables) {
   unsigned int frames[2];
   frames[0]=(unsigned int)earlier;
   frames[1]=(unsigned int)later;
   kernel_of_exe(job,frames,(unsigned int)drv_x_gradient,(unsigned int)drv_y_gradient,(unsigned int)drv_t_gradient,
                 (unsigned int)drv_x_vect,(unsigned int)drv_y_vect,(unsigned int)drv_display,(unsigned int)tables,
                 ${w},${h},${w},${h},0,0,${w},${h});
}

int main() {
   // table order as the kernel expects it: reciprocal, then display red, green, blue
   void *tables=ztaBuildSpuBundle(4,
                                  of_spu_reciprocal,0,0,0,
                                  of_spu_positive,0,0,0,
                                  of_spu_negative,0,0,0,
                                  of_spu_magnitude,0,0,0);
   // run 1: the input tensor is slot a (frame 2); the kernel gets (slot a, slot b — never written)
   of_run(1,drv_slot_a,drv_slot_b,tables);
   // run 2: the input tensor is now slot b; the test writes frame 1 into it; the kernel gets (slot b, slot a)
   memcpy(drv_slot_b,drv_frame1,${w}*${h});
   of_run(2,drv_slot_b,drv_slot_a,tables);
   return 0;
}
`;
  const names = {
    Ix: `test_of ${w}x${h} Ix (x gradient)`,
    Iy: `test_of ${w}x${h} Iy (y gradient)`,
    It: `test_of ${w}x${h} It (t gradient)`,
    vx: `test_of ${w}x${h} vx (x flow)`,
    vy: `test_of ${w}x${h} vy (y flow)`,
    display: `test_of ${w}x${h} display image (from the kernel's vx, vy)`,
  };
  const globals = { Ix: 'drv_x_gradient', Iy: 'drv_y_gradient', It: 'drv_t_gradient', vx: 'drv_x_vect', vy: 'drv_y_vect' };
  return [
    {
      name: 'of',
      kernel: 'of',
      checkNames: Object.values(names),
      driver,
      steps: 20_000_000_000,
      loads: [
        { where: 'drv_slot_a', file: fsFile('optical_flow_2_in.bin') },
        { where: 'drv_frame1', file: fsFile('optical_flow_1_in.bin') },
      ],
      dumps: [
        ...Object.entries(globals).map(([n, g]) => ({ where: g, count: w * h, dtype: 'i16', file: outs[n] })),
        { where: 'drv_display', count: 3 * w * h, dtype: 'u8', file: outs.display },
      ],
      verify: ({ dump, expected }) => {
        const checks = ['Ix', 'Iy', 'It', 'vx', 'vy'].map((n) =>
          checkFrom(names[n], expected(`optical_flow_${n}.bin`, 'i16', w * h), dump(outs[n]), { shape: [h, w] }),
        );
        // the display image test.cpp expects: planes R, G, B = the positive part of vx, the magnitude of its
        // negative part, |vy|, each saturated to 255
        const vx = dump(outs.vx);
        const vy = dump(outs.vy);
        const plane = w * h;
        const toByte = (v) => Math.min(255, Math.max(0, v));
        const exp = new Uint8Array(3 * plane);
        exp.set(
          Array.from(vx, (v) => toByte(v)),
          0,
        );
        exp.set(
          Array.from(vx, (v) => toByte(-v)),
          plane,
        );
        exp.set(
          Array.from(vy, (v) => toByte(Math.abs(v))),
          2 * plane,
        );
        checks.push(checkFrom(names.display, exp, dump(outs.display), { shape: [3, h, w] }));
        return checks;
      },
    },
  ];
}
