import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../fixtures/host/harness';

describe('host C: globals, pointers and memory', () => {
  test('globals live in MEM: &inbuf[0] is a MEM address and stores land there little-endian', async () => {
    const src = `
      #include <stdint.h>
      static int16_t inbuf[16];
      uint32_t word = 0x11223344;
      uint32_t addr_of_inbuf(void) { return (uint32_t)&inbuf[0]; }
      void fill(void) { for (int i = 0; i < 16; i++) inbuf[i] = (int16_t)(i - 8) * 300; word++; }`;
    const { f, prog } = await run(src, 'fill');
    const g = prog.globals().get('inbuf')!;
    assert.equal(g.type, 'int16_t [16]');
    assert.equal(g.size, 32);
    assert.equal(prog.run('addr_of_inbuf', [], f), g.address);
    for (let i = 0; i < 16; i++) assert.equal(f.dv.getInt16(g.address + 2 * i, true), (i - 8) * 300);
    const w = prog.globals().get('word')!;
    assert.deepEqual([...f.mem.subarray(w.address, w.address + 4)], [0x45, 0x33, 0x22, 0x11]);
    // MEM written by someone else (the tensor engine) is seen by C
    f.dv.setInt16(g.address + 6, -1234, true);
    const src2 = prog.run('addr_of_inbuf', [], f);
    assert.equal(src2, g.address);
  });

  test('global initialisers: scalars, arrays, nested and designated initialisers, strings, addresses', async () => {
    const src = `
      #include <stdint.h>
      typedef struct { uint8_t a; uint32_t b; int16_t c[3]; } S;
      static int k = 5 * 4;
      int arr[] = { 1, 2, 3, [6] = 7 };
      S s = { 1, 0xABCDEF01, { -1, -2 } };
      S t = { .c = { [2] = 9 }, .a = 3 };
      S ss[2] = { 1, 2, 3, 4, 5, 6 };
      char msg[] = "hey";
      const char *p = "hey";
      int *pk = &k;
      int main(void) {
        return k + sizeof(arr) / sizeof(arr[0]) * 100 + arr[6] * 1000 + (*pk == k) * 10000;
      }`;
    const { value, f, prog } = await run(src);
    assert.equal(value, 20 + 700 + 7000 + 10000);
    const g = prog.globals();
    const s = g.get('s')!.address;
    assert.equal(g.get('s')!.size, 16, 'a@0 b@4 c@8..13, padded to 16');
    assert.equal(f.mem[s], 1);
    assert.equal(f.dv.getUint32(s + 4, true), 0xabcdef01);
    assert.deepEqual([f.dv.getInt16(s + 8, true), f.dv.getInt16(s + 10, true)], [-1, -2]);
    const t = g.get('t')!.address;
    assert.equal(f.mem[t], 3);
    assert.equal(f.dv.getInt16(t + 8 + 4, true), 9);
    const ss = g.get('ss')!.address;
    assert.deepEqual([f.mem[ss], f.dv.getUint32(ss + 4, true), f.dv.getInt16(ss + 8, true), f.dv.getInt16(ss + 10, true)], [1, 2, 3, 4]);
    assert.equal(f.dv.getInt16(ss + 12, true), 5);
    assert.equal(f.mem[ss + 16], 6, 'brace elision continues into ss[1].a');
    const m = g.get('msg')!;
    assert.equal(m.size, 4);
    assert.equal(new TextDecoder().decode(f.mem.subarray(m.address, m.address + 3)), 'hey');
    const p = f.dv.getUint32(g.get('p')!.address, true);
    assert.equal(new TextDecoder().decode(f.mem.subarray(p, p + 4)), 'hey\0');
  });

  test('pointer arithmetic is scaled by the element size; pointer difference and comparison', async () => {
    const src = `
      #include <stdint.h>
      static int32_t a[8];
      static int16_t h[8];
      int main(void) {
        int32_t *p = a; int16_t *q = &h[1];
        for (int i = 0; i < 8; i++) a[i] = i * 10;
        p += 3; q++;
        uint32_t step = (uint32_t)(p + 1) - (uint32_t)p;
        uint32_t hstep = (uint32_t)(q + 1) - (uint32_t)q;
        return *p + p[2] * 100 + (int)(&a[7] - p) * 10000 + (int)step * 100000 + (int)hstep * 1000000 + (p > a) * 10000000 + *(a + 1) * 100000000;
      }`;
    assert.equal((await run(src)).value, 30 + 5000 + 40000 + 400000 + 2000000 + 10000000 + 1000000000);
  });

  test('structs and typedefs: natural-alignment layout, ., ->, nested structs, unions, struct copy', async () => {
    const src = `
      #include <stdint.h>
      typedef struct Inner { uint8_t tag; uint16_t v; } Inner;
      struct Outer { char c; Inner in; uint32_t w; struct Outer *next; double d; };
      typedef union { uint32_t u; uint8_t b[4]; } U;
      static struct Outer o;
      int main(void) {
        struct Outer x, *px = &x;
        x.c = 1; px->in.tag = 2; x.in.v = 0x1234; px->w = 7; x.next = &o;
        x.next->w = 99;
        o = x; o.w += 1;
        U u; u.u = 0x04030201;
        return (int)sizeof(struct Outer) * 1 + (int)((uint32_t)&x.in.v - (uint32_t)&x) * 100 + (int)((uint32_t)&x.d - (uint32_t)&x) * 1000
          + u.b[2] * 100000 + (o.w == 8) * 1000000 + (o.in.v == 0x1234) * 10000000;
      }`;
    // Outer: c@0, in@2 (align 2: tag@2, v@4), w@8, next@12, d@16 → size 24
    assert.equal((await run(src)).value, 24 + 400 + 16000 + 300000 + 1000000 + 10000000);
  });

  test('local arrays and address-taken locals live in MEM (the C stack is allocated through services.alloc)', async () => {
    const src = `
      #include <stdint.h>
      static uint32_t seen;
      static void set(int *p, int v) { *p = v; }
      int main(void) {
        int16_t buf[4] = { 5, 6 };
        int x = 1;
        set(&x, 42);
        seen = (uint32_t)&buf[0];
        buf[3] = 9;
        return x + buf[0] + buf[1] * 10 + buf[2] * 100 + buf[3] * 1000;
      }`;
    const { value, f, prog } = await run(src);
    assert.equal(value, 42 + 5 + 60 + 9000);
    const seen = f.dv.getUint32(prog.globals().get('seen')!.address, true);
    const stack = f.allocs.find((a) => a.size >= 4096)!;
    assert.ok(seen >= stack.addr && seen < stack.addr + stack.size, 'local array is inside the MEM stack');
    assert.equal(f.dv.getInt16(seen + 6, true), 9);
  });

  test('static locals keep their value across calls; string literals are in MEM', async () => {
    const src = `
      int counter(void) { static int n = 10; return n++; }
      int main(void) { counter(); counter(); const char *s = "abc"; return counter() * 1000 + s[1] + (s[3] == 0); }`;
    const { value, prog } = await run(src);
    assert.equal(value, 12000 + 98 + 1);
    assert.ok(prog.globals().has('counter.n'));
  });

  test('memset, memcpy, memcmp, strlen, strcpy, malloc', async () => {
    const src = [
      '',
      '      #include <string.h>',
      '      #include <stdint.h>',
      '      static uint8_t a[16], b[16];',
      '      int main(void) {',
      '        memset(a, 0xAB, 8);',
      '        memcpy(b + 4, a, 4);',
      '        char name[8];',
      '        strcpy(name, "ztachip");',
      '        int *m = (int *)malloc(4 * sizeof(int));',
      '        m[3] = 77;',
      '        return (a[7] == 0xAB) + (a[8] == 0) * 10 + (b[4] == 0xAB && b[3] == 0) * 100 + (memcmp(a, b + 4, 4) == 0) * 1000 + ' +
        '(int)strlen(name) * 10000 + (m[3] == 77) * 100000;',
      '      }',
    ].join('\n');
    assert.equal((await run(src)).value, 1 + 10 + 100 + 1000 + 70000 + 100000);
  });

  test('globals() lists names, types, sizes and addresses for --dump name+offset', async () => {
    const { prog } = await run('#include <stdint.h>\nstatic uint8_t img[3][5];\nint main(void) { return 0; }');
    const g = prog.globals().get('img')!;
    assert.equal(g.type, 'uint8_t [5] [3]');
    assert.equal(g.size, 15);
    assert.ok(g.address >= 0x1000);
  });
});
