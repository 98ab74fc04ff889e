import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../fixtures/host/harness';

/** Runs `int main(void) { body }` (plus `pre` at file scope) and returns its value. */
async function main(body: string, pre = ''): Promise<number> {
  return (await run(`#include <stdint.h>\n${pre}\nint main(void) {\n${body}\n}`)).value;
}

describe('host C: integer widths and wrap-around', () => {
  test('signed and unsigned 8/16/32-bit stores wrap', async () => {
    assert.equal(await main('int8_t a = 127; a++; return a;'), -128);
    assert.equal(await main('uint8_t a = 255; a += 2; return a;'), 1);
    assert.equal(await main('int16_t a = 32767; a = a + 1; return a;'), -32768);
    assert.equal(await main('uint16_t a = 0; a--; return a;'), 65535);
    assert.equal(await main('int a = 2147483647; a++; return a;'), -2147483648);
    assert.equal(await main('uint32_t a = 0; a = a - 1; return a == 0xFFFFFFFF;'), 1);
    assert.equal(await main('unsigned int a = 4000000000u; return (int)a;'), -294967296);
  });
  test('types by name: char is unsigned (RISC-V), short, long, bool', async () => {
    assert.equal(await main('char c = 200; return c;'), 200);
    assert.equal(await main('signed char c = 200; return c;'), -56);
    assert.equal(await main('short s = 40000; return s;'), -25536);
    assert.equal(await main('unsigned short s = 70000; return s;'), 4464);
    assert.equal(await main('long l = 2147483647L; l += 1; return l < 0;'), 1);
    assert.equal(await main('bool b = 5; return b;'), 1);
    assert.equal(await main('_Bool b = 0.25; return b;'), 1);
    assert.equal(
      await main('return sizeof(char) + 10 * sizeof(short) + 100 * sizeof(int) + 1000 * sizeof(long) + 10000 * sizeof(long long) + 100000 * sizeof(void *);'),
      1 + 20 + 400 + 4000 + 80000 + 400000,
    );
  });
  test('usual arithmetic conversions: signed/unsigned comparisons and division', async () => {
    assert.equal(await main('int a = -1; unsigned b = 1; return a < b;'), 0);
    assert.equal(await main('int a = -1; int b = 1; return a < b;'), 1);
    assert.equal(await main('int a = -7; return a / 2;'), -3);
    assert.equal(await main('int a = -7; return a % 2;'), -1);
    assert.equal(await main('unsigned a = 0xFFFFFFF0; return (int)(a / 16);'), 0x0fffffff);
    assert.equal(await main('uint8_t a = 200, b = 100; return a + b;'), 300);
    assert.equal(await main('int16_t a = -1; uint16_t b = 65535; return a == b;'), 0);
  });
  test('shifts, bit operations, multiplication overflow', async () => {
    assert.equal(await main('int a = -16; return a >> 2;'), -4);
    assert.equal(await main('unsigned a = 0x80000000; return (int)(a >> 31);'), 1);
    assert.equal(await main('int a = 1; return a << 31;'), -2147483648);
    assert.equal(await main('int a = 0x10000; return a * a;'), 0);
    assert.equal(await main('int a = 123456789; return a * 1000;'), Math.imul(123456789, 1000));
    assert.equal(await main('return ~0u == 0xFFFFFFFFu;'), 1);
    assert.equal(await main('int x = 0x5A; return (x & 0x0F) | (x ^ 0xFF) << 8;'), (0x5a & 0xf) | ((0x5a ^ 0xff) << 8));
  });
  test('compound assignment and ++/-- respect the variable type', async () => {
    assert.equal(await main('uint8_t a = 250; a += 10; return a;'), 4);
    assert.equal(await main('int16_t a = 1000; a *= 100; return a;'), (100000 << 16) >> 16);
    assert.equal(await main('int a = 100; a >>= 3; a -= 20; return a;'), -8);
    assert.equal(await main('unsigned a = 0; a--; return a == 4294967295u;'), 1);
    assert.equal(await main('int a = 5; int b = a++ + ++a; return b * 100 + a;'), 1207);
  });
  test('64-bit integers (approximated by doubles, exact up to 2^53)', async () => {
    assert.equal(await main('int64_t a = 1; a <<= 40; return (int)(a >> 38);'), 4);
    assert.equal(await main('long long a = 3000000000LL * 3; return (int)(a / 1000000);'), 9000);
    assert.equal(await main('uint64_t a = 0; a--; return a > 0;'), 1);
    assert.equal(await main('int64_t a = -5; return (int)(a & 0xFF);'), 0xfb);
  });
  test('floating point (float rounds to single precision)', async () => {
    assert.equal(await main('float f = 0.1f; double d = f; return d != 0.1;'), 1);
    assert.equal(await main('double d = 7.9; return (int)d + (int)-d;'), 0);
    assert.equal(await main('float a = 3; return (int)(a / 2 * 10);'), 15);
  });
});

describe('host C: control flow', () => {
  test('for/while/do with break and continue', async () => {
    assert.equal(await main('int s = 0; for (int i = 0; i < 10; i++) { if (i == 3) continue; if (i == 7) break; s += i; } return s;'), 0 + 1 + 2 + 4 + 5 + 6);
    assert.equal(await main('int i = 0, s = 0; while (1) { i++; if (i > 5) break; s += i; } return s;'), 15);
    assert.equal(await main('int i = 10, n = 0; do { n++; } while (i-- > 8); return n;'), 3);
    assert.equal(await main('int s = 0; for (int i = 10; i >= 0; i -= 2) s += i; return s;'), 30);
    assert.equal(await main('int s = 0, n = 4; for (int i = 0; i <= n; i++) for (int j = i; j > 0; j--) s++; return s;'), 10);
    assert.equal(await main('unsigned s = 0; for (unsigned i = 0; i < 3u; i++) s += i; return s;'), 3);
  });
  test('switch with fall-through, default and break inside a loop', async () => {
    const pre = 'int f(int x) { int r = 0; switch (x) { case 1: r += 1; case 2: r += 10; break; case 3: { r = 300; break; } default: r = -1; } return r; }';
    assert.equal(await main('return f(1);', pre), 11);
    assert.equal(await main('return f(2);', pre), 10);
    assert.equal(await main('return f(3);', pre), 300);
    assert.equal(await main('return f(9);', pre), -1);
    assert.equal(await main('int n = 0; for (int i = 0; i < 5; i++) { switch (i & 1) { case 0: continue; case 1: n++; break; } n += 10; } return n;'), 22);
  });
  test('ternary, comma, logical short-circuit', async () => {
    assert.equal(await main('int a = 3; return a > 2 ? 10 : 20;'), 10);
    assert.equal(await main('int a = 0, b; b = (a++, a++, a); return b;'), 2);
    assert.equal(await main('int n = 0; int *p = 0; if (p && *p) n = 1; return n;'), 0);
    assert.equal(await main('int n = 0; if (1 || (n = 5)) {} return n;'), 0);
    assert.equal(await main('int a = 0; return a ?: 7;'), 7);
  });
  test('recursion', async () => {
    const pre = 'static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\nint fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }';
    assert.equal(await main('return fib(20);', pre), 6765);
    assert.equal(await main('return fact(10);', pre), 3628800);
  });
  test('function pointers: variables, arrays, struct members, parameters', async () => {
    const pre = `
      typedef int (*binop)(int, int);
      static int add(int a, int b) { return a + b; }
      static int mul(int a, int b) { return a * b; }
      static binop ops[2] = { add, mul };
      typedef struct { binop f; int k; } Op;
      static int apply(binop f, int x) { return f(x, x); }`;
    assert.equal(await main('binop f = add; return f(2, 3) + (*f)(1, 1);', pre), 7);
    assert.equal(await main('return ops[0](3, 4) * 100 + ops[1](3, 4);', pre), 712);
    assert.equal(await main('Op o = { mul, 5 }; Op *p = &o; return p->f(p->k, 2);', pre), 10);
    assert.equal(await main('return apply(mul, 9) + apply(&add, 1);', pre), 83);
    assert.equal(await main('int (*g)(int, int) = 0; g = ops[1]; return g == mul;', pre), 1);
  });
  test('enums, sizeof of types and expressions', async () => {
    assert.equal(await main('enum { A, B = 5, C }; return A + B * 10 + C * 100;'), 650);
    assert.equal(await main('int a[10]; return sizeof a + sizeof(a[0]) * 100;'), 440);
    assert.equal(await main('typedef struct { char c; int i; short s; } S; return sizeof(S);'), 12);
    assert.equal(await main('return sizeof "abc";'), 4);
  });
});

describe('host C: preprocessor', () => {
  test('object-like and function-like macros, # and ##', async () => {
    const pre = `
      #define N 4
      #define SQ(x) ((x) * (x))
      #define CAT(a, b) a##b
      #define STR(x) #x
      #define MAX(a, b) ((a) > (b) ? (a) : (b))
      static int CAT(val, ue) = 7;`;
    assert.equal(await main('return SQ(N + 1) + MAX(3, value) * 100;', pre), 725);
    const r = await run(`#define STR(x) #x\nint main(void) { printf("%s|%d", STR(a + b), (int)sizeof(STR(xy))); return 0; }`);
    assert.equal(r.f.printed, 'a + b|3');
  });
  test('#if / #ifdef / #ifndef / #elif / #else with defined()', async () => {
    const src = `
      #define LEVEL 2
      #if LEVEL > 3
      int v = 1;
      #elif defined(LEVEL) && LEVEL == 2
      int v = 2;
      #else
      int v = 3;
      #endif
      #ifdef NOPE
      #error should not be reached
      #endif
      #ifndef NOPE
      int w = 10;
      #endif
      #if 0
      this is not C at all '
      #endif
      int main(void) { return v + w; }`;
    assert.equal((await run(src)).value, 12);
  });
  test('built-in ztachip macros come from the machine constants', async () => {
    assert.equal(await main('return NUM_PCORE * 1000 + VECTOR_WIDTH * 100 + NUM_THREAD_PER_CORE;'), 8816);
    assert.equal(await main('return INT16 * 100 + INT8 * 10 + UINT8;'), 324);
    assert.equal(await main('return SPU_LOOKUP_SIZE;'), 128);
  });
  test('#include "..." of workspace headers (macros, types, nested includes, include guards)', async () => {
    const headers = {
      'a.h': '#ifndef A_H\n#define A_H\n#include "b.h"\ntypedef struct { int x; int y; } Pt;\n#define SCALE 3\n#endif\n',
      'b.h': '#define BASE 100\n',
    };
    const src = '#include "a.h"\n#include "a.h"\n#include <stdint.h>\nint main(void) { Pt p = { 1, 2 }; return BASE + SCALE * (p.x + p.y); }';
    assert.equal((await run(src, 'main', [], {}, { headers })).value, 109);
  });
  test('a missing workspace header is a compile error with its location', async () => {
    await assert.rejects(run('#include "nothere.h"\nint main(void) { return 0; }'), (e: Error & { loc?: { line: number }; kind?: string }) => {
      assert.match(e.message, /cannot open include file "nothere.h"/);
      assert.equal(e.loc?.line, 1);
      assert.equal(e.kind, 'compile');
      return true;
    });
  });
});

describe('host C: printf family', () => {
  test('formats integers, strings, characters and floats', async () => {
    const r = await run(
      'int main(void) { printf("%d %u %x %X %o %c %s|%5d|%-4d|%04d|%+d|%%|%.2f|%e|%g\\n", -5, -1, 255, 255, 8, 65, "hi", 42, 7, 9, 3, 3.14159, ' +
        '12345.678, 0.0001); return 0; }',
    );
    assert.equal(r.f.printed, '-5 4294967295 ff FF 10 A hi|   42|7   |0009|+3|%|3.14|1.234568e+04|0.0001\n');
  });
  test('sprintf writes into MEM; puts and putchar', async () => {
    const r = await run('int main(void) { char buf[32]; int n = sprintf(buf, "x=%d", 12); puts(buf); putchar(\'!\'); return n; }');
    assert.equal(r.value, 4);
    assert.equal(r.f.printed, 'x=12\n!');
  });
});

describe('host C: more constructs', () => {
  test('multi-dimensional arrays, arrays of structs, pointers to pointers, negative indexes', async () => {
    const pre = 'typedef struct { int x; short y; } S;';
    assert.equal(await main('int m[3][4]; m[1][2] = 7; return m[1][2] + *(*(m + 1) + 2) * 10 + (int)sizeof(m[0]);', pre), 7 + 70 + 16);
    assert.equal(await main('S arr[3]; arr[1].x = 5; S *p = arr; return (p + 1)->x + (int)((char *)&arr[2] - (char *)&arr[0]);', pre), 5 + 16);
    assert.equal(await main('int v = 3; int *p = &v; int **pp = &p; **pp = 9; return v;'), 9);
    assert.equal(await main('int a[4] = { 1, 2, 3, 4 }; int *p = &a[2]; return p[-1] * 10 + p[-2];'), 21);
    assert.equal(await main('unsigned char b[2]; b[0] = -1; return b[0];'), 255);
  });
  test('struct parameters and return values by value; anonymous unions; string walking', async () => {
    const pre = `
      typedef struct { int a; int b; union { int i; unsigned char c[4]; }; } P;
      static P make(int a, int b) { P p; p.a = a; p.b = b; p.i = 0x01020304; return p; }
      static int sum(P p) { p.a = 100; return p.a + p.b + p.c[0]; }
      static int len(const char *s) { int n = 0; while (*s++) n++; return n; }`;
    assert.equal(await main('P q = make(1, 2); int s = sum(q); return s * 10 + q.a;', pre), (100 + 2 + 4) * 10 + 1);
    assert.equal(await main('return len("hello") + len("");', pre), 5);
  });
  test('qualifiers, do-while(0) macros, nested ternaries, switch on char', async () => {
    const pre = '#define SWAP(a, b) do { int t_ = (a); (a) = (b); (b) = t_; } while (0)';
    assert.equal(await main('volatile const int k = 4; int a = 1, b = 2; SWAP(a, b); return a * 10 + b + k * 100;', pre), 421);
    assert.equal(await main('int x = 5; return x < 0 ? -1 : x == 0 ? 0 : x > 3 ? 2 : 1;'), 2);
    assert.equal(await main("char c = 'b'; switch (c) { case 'a': return 1; case 'b': return 2; } return 0;"), 2);
  });
  test('global pointers initialised with addresses of other globals', async () => {
    const pre = 'static int x = 3; typedef struct { int *p; int n; } R; static R r = { &x, 2 }; static int *tbl[2] = { &x, 0 };';
    assert.equal(await main('*r.p += r.n; return x * 10 + (tbl[0] == &x) + (tbl[1] == 0) * 100;', pre), 151);
  });
});
