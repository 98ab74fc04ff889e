#ifndef TEST_H
#define TEST_H
// Elements processed by the test: 2 processes x 8 PCOREs x 16 threads x 8 lanes
#define BUFSZ 2048
#endif
