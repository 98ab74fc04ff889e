// PCORE program for test.m: every lane of _Z receives _A + 1.
vint16 test::_A;
vint16 test::_Z;

_kernel_ void test::add() {
   _VMASK = -1;
   _Z = _A + 1;
}
