// PCORE program for the programmer guide's transfer examples (transfers.m).
int16 myclass::myvar[64];

_kernel_ void myclass::myfunc(int16 var[4]) {
   var[0] = var[1];
}
