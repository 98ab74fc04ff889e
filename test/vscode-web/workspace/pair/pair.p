// PCORE program beside pair.m: two private variables and a kernel
vint16 pair::_A;
vint16 pair::_B;

_kernel_ void pair::copy() {
   _VMASK = -1;
   _B = _A;
}
