#define LEN 64
