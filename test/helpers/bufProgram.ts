/** A small C test program: `static int16_t buf[64]` (the first global, at MEM 0x1000), `p` its address, then `body` in kernel_main. */
export function bufProgram(body: string[]): string {
  return ['#include <stdint.h>', 'static int16_t buf[64];', 'void kernel_main(void) {', '   uint32_t p = (uint32_t)&buf[0];', ...body, '}', ''].join('\n');
}
