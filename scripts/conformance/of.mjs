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
uint8_t drv_buffer0[${w}*${h}];   // GraphNodeOpticalFlow::m_buffer[0]
uint8_t drv_buffer1[${w}*${h}];   // m_buffer[1]
uint8_t drv_frame1[${w}*${h}];    // the test's input[0]: optical_flow_1_in
int16_t drv_x_gradient[${w}*${h}];
int16_t drv_y_gradient[${w}*${h}];
int16_t drv_t_gradient[${w}*${h}];
int16_t drv_x_vect[${w}*${h}];
int16_t drv_y_vect[${w}*${h}];
uint8_t drv_display[3*${w}*${h}];

// GraphNodeOpticalFlow::SpuCallback: 32768/x, rounded toward zero by the int32_t cast, then clamped to 12 bits
int16_t drv_spu_inverse(int16_t _in,void *pparm,uint32_t parm,uint32_t parm2) {
   int32_t v;
   if(_in==0)
      _in=1;
   v=(int32_t)round((int32_t)(((1048576/32))/(float)_in));
   if(v > 2047)
      return 2047;
   else if(v < -2048)
      return -2048;
   else
      return (int16_t)v;
}

// SpuDisplayLeftHorizontalCallback
int16_t drv_spu_left(int16_t _in,void *pparm,uint32_t parm,uint32_t parm2) {
   if(_in<=0)
      _in=0;
   if(_in>=255)
      _in=255;
   return _in;
}

// SpuDisplayRightHorizontalCallback
int16_t drv_spu_right(int16_t _in,void *pparm,uint32_t parm,uint32_t parm2) {
   if(_in>=0)
      _in=0;
   else
      _in=-_in;
   if(_in>=255)
      _in=255;
   return _in;
}

// SpuDisplayVerticalCallback
int16_t drv_spu_vertical(int16_t _in,void *pparm,uint32_t parm,uint32_t parm2) {
   if(_in < 0)
      _in=-_in;
   if(_in >= 255)
      _in=255;
   return _in;
}

void drv_run(int id,uint8_t *curr,uint8_t *next,void *spu) {
   unsigned int input[2];
   input[0]=(unsigned int)curr;
   input[1]=(unsigned int)next;
   kernel_of_exe(id,input,(unsigned int)drv_x_gradient,(unsigned int)drv_y_gradient,(unsigned int)drv_t_gradient,
                 (unsigned int)drv_x_vect,(unsigned int)drv_y_vect,(unsigned int)drv_display,(unsigned int)spu,
                 ${w},${h},${w},${h},0,0,${w},${h});
}

int main() {
   void *spu;
   // GraphNodeOpticalFlow::Verify
   spu=ztaBuildSpuBundle(4,
                         drv_spu_inverse,0,0,0,
                         drv_spu_left,0,0,0,
                         drv_spu_right,0,0,0,
                         drv_spu_vertical,0,0,0);
   // first run: the input tensor aliases m_buffer[0], which holds frame 2 (loaded); Execute passes
   // (m_buffer[0], m_buffer[1]) and makes the input alias m_buffer[1]
   drv_run(1,drv_buffer0,drv_buffer1,spu);
   // second run: frame 1 copied into m_buffer[1]; Execute passes (m_buffer[1], m_buffer[0])
   memcpy(drv_buffer1,drv_frame1,${w}*${h});
   drv_run(2,drv_buffer1,drv_buffer0,spu);
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
  return [{
    name: 'of',
    kernel: 'of',
    checkNames: Object.values(names),
    driver,
    steps: 20_000_000_000,
    loads: [
      { where: 'drv_buffer0', file: fsFile('optical_flow_2_in.bin') },
      { where: 'drv_frame1', file: fsFile('optical_flow_1_in.bin') },
    ],
    dumps: [
      ...Object.entries(globals).map(([n, g]) => ({ where: g, count: w * h, dtype: 'i16', file: outs[n] })),
      { where: 'drv_display', count: 3 * w * h, dtype: 'u8', file: outs.display },
    ],
    verify: ({ dump, expected }) => {
      const checks = ['Ix', 'Iy', 'It', 'vx', 'vy'].map((n) => checkFrom(names[n], expected(`optical_flow_${n}.bin`, 'i16', w * h), dump(outs[n]), { shape: [h, w] }));
      // test.cpp's magnitude check: R = clamp(vx > 0 ? vx : 0), G = clamp(vx < 0 ? -vx : 0), B = clamp(|vy|), clamp to 255
      const vx = dump(outs.vx);
      const vy = dump(outs.vy);
      const exp = new Uint8Array(3 * w * h);
      const plane = w * h;
      for (let i = 0; i < plane; i++) {
        exp[i] = Math.min(255, vx[i] > 0 ? vx[i] : 0);
        exp[plane + i] = Math.min(255, vx[i] < 0 ? -vx[i] : 0);
        exp[2 * plane + i] = Math.min(255, Math.abs(vy[i]));
      }
      checks.push(checkFrom(names.display, exp, dump(outs.display), { shape: [3, h, w] }));
      return checks;
    },
  }];
}
