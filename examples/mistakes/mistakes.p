// PCORE program for mistakes.m.
vint16 calc::in[4];
_share int16 calc::lut[32];
vint32 calc::acc;

_kernel_ void calc::run(_global int gain, int16 bias) {
   _VMASK = -1;
   acc = in[0] * gain;
   in[1] = acc >> 4;
}
