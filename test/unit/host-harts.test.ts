import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { build, example, fake, run } from '../fixtures/host/harness';
import { analyzeTprog } from '../../core/tprog/analyze';

describe('host C: tensor statements', () => {
  test('each > statement becomes a call of services.tensor with its unit index; scope.eval sees the C scope', async () => {
    const src = `#include <stdint.h>
#define NROWS 4
static int16_t const_tbl[8];
typedef struct { uint32_t src[2]; int n; } Cfg;
typedef struct { uint32_t input; uint32_t output; } Request;
static void work(void *p, int pid) {
   Request *req = (Request *)p;
   Cfg cfg;
   int from = pid * 100;
   cfg.src[1] = 0xBEEF;
   cfg.n = NROWS;
   > DTYPE(INT16)MEM(req->input)[from:from+9] <=
   >    DTYPE(INT16)MEM(cfg.src[1])[0:9];
   if (from > 50)
      > EXE_LOCKSTEP(k::f, NUM_PCORE);
   for (int i = 0; i < 2; i++) {
      > DTYPE(INT16)MEM((uint32_t)const_tbl)[i:i];
   }
}
int main(void) {
   Request r;
   r.input = 0x1000;
   r.output = 0x2000;
   work(&r, 0);
   work(&r, 1);
   return 0;
}`;
    const evals = {
      [-1]: ['req->input', 'from', 'cfg.src[1]', '(uint32_t)const_tbl', 'NUM_PCORE-1', 'NROWS*2', 'cfg.n', '$k::f', 'sizeof(Request)'],
      2: ['i'],
    };
    const { f, prog } = await run(src, 'main', [], { evals }, { kernelAddress: (n) => (n === 'k::f' ? 0x77 : undefined) });
    assert.deepEqual(
      f.tensorCalls.map((c) => c.unit),
      [0, 2, 2, 0, 1, 2, 2],
    );
    const tbl = prog.globals().get('const_tbl')!.address;
    const first = f.tensorCalls[0].values;
    assert.deepEqual(first, {
      'req->input': 0x1000,
      from: 0,
      'cfg.src[1]': 0xbeef,
      '(uint32_t)const_tbl': tbl,
      'NUM_PCORE-1': 7,
      'NROWS*2': 8,
      'cfg.n': 4,
      '$k::f': 0x77,
      'sizeof(Request)': 8,
    });
    assert.equal(f.tensorCalls[4].values.from, 100);
    assert.deepEqual(
      f.tensorCalls.filter((c) => c.unit === 2).map((c) => c.values.i),
      [0, 1, 0, 1],
    );
    assert.deepEqual(f.tensorCalls[0].stack, ['work (t.m:12:4)', 'main (t.m:24:4)']);
    assert.ok(f.tensorCalls.every((c) => c.process === 0));
  });

  test('units come from the tensor-program analysis (examples/test/test.m)', async () => {
    const ex = example('examples/test/test.m');
    const a = analyzeTprog(ex.text, { file: ex.file });
    const prog = await build(ex.text, { file: ex.file, units: a.units.map((u) => u.buf), readInclude: ex.readInclude });
    assert.deepEqual(prog.problems, []);
    const f = fake({ evals: { [-1]: ['req->input', 'req->output', 'from', 'to'] } });
    prog.run('kernel_test', [], f);
    const g = prog.globals();
    const inbuf = g.get('inbuf')!.address;
    const outbuf = g.get('outbuf')!.address;
    // two harts interleave: each runs statements 0 and 1, yields, then statement 2
    assert.deepEqual(f.events, ['tensor:0@0', 'tensor:1@0', 'tensor:0@1', 'tensor:1@1', 'tensor:2@0', 'tensor:2@1', 'callback@0']);
    assert.deepEqual(f.tensorCalls[0].values, { 'req->input': inbuf, 'req->output': outbuf, from: 0, to: 1023 });
    assert.deepEqual(f.tensorCalls[2].values, { 'req->input': inbuf, 'req->output': outbuf, from: 1024, to: 2047 });
    assert.equal(f.dv.getInt16(inbuf + 2 * 5, true), 5 - 1000);
    assert.deepEqual(f.tensorCalls[3].stack, ['do_add (examples/test/test.m:20:4)', 'kernel_test (examples/test/test.m:31:4)']);
  });

  test('$cls::kernel tokens and kernel tables (examples/blur/blur.m)', async () => {
    const ex = example('examples/blur/blur.m');
    const a = analyzeTprog(ex.text, { file: ex.file });
    const kernels: Record<string, number> = { 'blur::row3': 0x101, 'tone::curve': 0x202 };
    const prog = await build(ex.text, { file: ex.file, units: a.units.map((u) => u.buf), readInclude: ex.readInclude, kernelAddress: (n) => kernels[n] });
    assert.deepEqual(prog.kernels, ['blur::row3', 'tone::curve']);
    const f = fake({
      evals: { 6: ['kernels[1]', 'req->img', 'imgBytes', 'x0', 'z0+VECTOR_WIDTH-1', 'BLK_H+2'], 10: ['sel', 'r0+GRID_R*4-1', 'GRID_R*GRID_C*32'] },
    });
    const req = f.alloc(24, 4);
    f.dv.setUint32(req, 0x4000, true); // img
    f.dv.setUint32(req + 8, 64, true); // img_w
    f.dv.setUint32(req + 12, 8, true); // img_h
    f.dv.setUint32(req + 16, 3, true); // planes
    prog.run('kernel_blur', [req], f);
    const six = f.tensorCalls.filter((c) => c.unit === 6).map((c) => c.values);
    assert.equal(six.length, 2);
    assert.deepEqual(six[1], { 'kernels[1]': 0x202, 'req->img': 0x4000, imgBytes: 3 * 8 * 64, x0: 32, 'z0+VECTOR_WIDTH-1': 7, 'BLK_H+2': 8 });
    assert.deepEqual(f.tensorCalls.find((c) => c.unit === 10)!.values, { sel: -1, 'r0+GRID_R*4-1': 7, 'GRID_R*GRID_C*32': 256 });
  });

  test('scope.eval errors name the expression and carry the statement location', async () => {
    const src = 'void f(void) {\n  int a = 1;\n  > EXE_LOCKSTEP(k::g, a);\n}\n';
    const f = fake({ evals: { 0: ['a + 1', 'nosuch + 1', 'a +'] } });
    const prog = await build(src);
    prog.run('f', [], f);
    const v = f.tensorCalls[0].values;
    assert.equal(v['a + 1'], 2);
    assert.match(String(v['nosuch + 1']), /cannot evaluate `nosuch \+ 1`: 'nosuch' undeclared/);
    assert.match(String(v['a +']), /cannot evaluate `a \+`: syntax error/);
  });

  test('other calls without a C body go to services.builtin with a scope', async () => {
    const src = '#include <stdint.h>\nint hostSum(int, int);\nint main(void) { int x = 5; int r = hostSum(x, 7); ztaJobDone(r); return r; }';
    let seen: number | undefined;
    const { value, f } = await run(src, 'main', [], {
      builtins: {
        hostSum: (args, scope) => {
          seen = scope.eval('x * 2');
          return args[0] + args[1];
        },
      },
    });
    assert.equal(value, 12);
    assert.equal(seen, 10);
    assert.deepEqual(
      f.builtinCalls.map((c) => [c.name, c.args]),
      [
        ['hostSum', [5, 7]],
        ['callback', [0, 12]],
      ],
    );
  });
});

describe('host C: ztaDualHartExecute', () => {
  test('two harts interleave at ztaTaskYield (also in called functions, loops, conditions and expressions)', async () => {
    const src = `#include <stdint.h>
typedef struct { int rounds[2]; } P;
static int step(int pid, int k) { mark(pid, k); ztaTaskYield(); return k + 1; }
static int more(int pid, int *k, int n) { ztaTaskYield(); return *k < n; }
static void hart(void *p, int pid) {
   P *pp = (P *)p;
   int k = 0;
   int local[4];
   local[pid] = pid + 40;
   mark(pid, 100);
   k = step(pid, k) * 10;                    // yield inside an expression
   while (more(pid, &k, 10 + pp->rounds[pid])) {   // yield in a loop condition
      mark(pid, k);
      k++;
   }
   if (pid == 1 && step(pid, 7) > 0) mark(pid, 200);  // yield in && / if
   mark(pid, local[pid]);
}
int main(void) {
   P p;
   p.rounds[0] = 2;
   p.rounds[1] = 0;
   ztaDualHartExecute(hart, &p);
   mark(9, 9);
   return 0;
}`;
    const { f } = await run(src, 'main', [], { builtins: { mark: 0 } });
    const marks = f.builtinCalls.filter((c) => c.name === 'mark').map((c) => `${c.args[0]}:${c.args[1]}@${c.process}`);
    // hart 0 starts; every ztaTaskYield switches to the other hart while both are running
    assert.deepEqual(marks, [
      '0:100@0',
      '0:0@0', // hart 0 until step() yields
      '1:100@1',
      '1:0@1', // hart 1 until step() yields
      '0:10@0', // hart 0: k = 10, more() yielded once, 10 < 12
      '1:7@1', // hart 1: 10 < 10 fails; step(7) marks and yields
      '0:11@0',
      '1:200@1',
      '1:41@1', // hart 1 finishes (its local[] survived the switches)
      '0:40@0', // hart 0: 12 < 12 fails, finishes
      '9:9@0', // back in main on hart 0
    ]);
  });

  test('strict alternation: every yield switches to the other hart while both run', async () => {
    const src = `
static void h(void *p, int pid) {
   for (int i = 0; i < 3 + pid * 2; i++) { mark(pid, i); ztaTaskYield(); }
   mark(pid, 99);
}
int main(void) { ztaDualHartExecute(h, 0); return 0; }`;
    const { f } = await run(src, 'main', [], { builtins: { mark: 0 } });
    const seq = f.builtinCalls.map((c) => `${c.args[0]}.${c.args[1]}`);
    assert.deepEqual(seq, ['0.0', '1.0', '0.1', '1.1', '0.2', '1.2', '0.99', '1.3', '1.4', '1.99']);
    assert.ok(f.builtinCalls.every((c) => c.process === c.args[0]));
  });

  test('a hart function reached through a pointer, and tensor statements see their process id', async () => {
    const src = `
typedef void (*hart_fn)(void *, int);
static void body(int pid) {
  > EXE_LOCKSTEP(a::b, 8);
  ztaTaskYield();
  > EXE_LOCKSTEP(a::c, 8);
}
static void h(void *p, int pid) { void (*fp)(int) = body; fp(pid); }
int main(void) {
  hart_fn f = h;
  ztaDualHartExecute(f, 0);
  > BARRIER;
  return 0;
}`;
    const { f } = await run(src);
    assert.deepEqual(f.events, ['tensor:0@0', 'tensor:0@1', 'tensor:1@0', 'tensor:1@1', 'tensor:2@0']);
    assert.deepEqual(f.tensorCalls[1].stack, ['body (t.m:4:3)', 'h (t.m:8:59)', 'main (t.m:11:3)']);
  });

  test("ztalib.h's ztaTaskYield() macro (register write + _taskYield) is overridden by the scheduler", async () => {
    const headers = {
      'ztalib.h': '#define ztaTaskYield() {ZTAM_GREG(0,9,0)=0;_taskYield();}\nvoid ztaDualHartExecute(void(*func)(void *,int),void *pparm);\n',
    };
    const src =
      '#include "ztalib.h"\n' +
      'static void h(void *p, int pid) { mark(pid); ztaTaskYield(); mark(pid + 10); _taskYield(); mark(pid + 20); }\n' +
      'int main(void) { ztaDualHartExecute(h, 0); return 0; }';
    const { f } = await run(src, 'main', [], { builtins: { mark: 0 } }, { headers });
    assert.deepEqual(
      f.builtinCalls.map((c) => c.args[0]),
      [0, 1, 10, 11, 20, 21],
    );
  });

  test('outside ztaDualHartExecute, ztaTaskYield does nothing and a hart function runs as pid 0', async () => {
    const src = 'static void h(void *p, int pid) { mark(pid); ztaTaskYield(); mark(pid + 10); }\nint main(void) { h(0, 0); return 0; }';
    const { f } = await run(src, 'main', [], { builtins: { mark: 0 } });
    assert.deepEqual(
      f.builtinCalls.map((c) => c.args[0]),
      [0, 10],
    );
  });
});

describe('host C: frames for a debugger', () => {
  test('the scope given to services lists the active frames and their locals', async () => {
    const src =
      'static void inner(int a) {\n' +
      '  int16_t buf[2];\n' +
      '  buf[1] = a;\n' +
      '  int b = a * 2;\n' +
      '  > EXE_LOCKSTEP(x::y, 8);\n' +
      '}\n' +
      'int main(void) {\n' +
      '  int k = 21;\n' +
      '  inner(k);\n' +
      '  return 0;\n' +
      '}';
    let views: { fn: string; line?: number; locals: { name: string; type: string; value?: number; address?: number }[] }[] = [];
    const { f } = await run('#include <stdint.h>\n' + src, 'main', [], {
      onTensor: (_u, scope) => {
        const fr = (
          scope as unknown as {
            frames(): { fn: string; loc?: { line: number }; locals(): { name: string; type: string; value?: number; address?: number }[] }[];
          }
        ).frames();
        views = fr.map((v) => ({ fn: v.fn, line: v.loc?.line, locals: v.locals() }));
      },
    });
    assert.deepEqual(
      views.map((v) => [v.fn, v.line]),
      [
        ['inner', 6],
        ['main', 10],
      ],
    );
    const inner = views[0].locals;
    assert.deepEqual(
      inner.map((l) => [l.name, l.type]),
      [
        ['a', 'int'],
        ['buf', 'int16_t [2]'],
        ['b', 'int'],
      ],
    );
    assert.equal(inner[0].value, 21);
    assert.equal(inner[2].value, 42);
    assert.equal(f.dv.getInt16(inner[1].address! + 2, true), 21);
    assert.deepEqual(
      views[1].locals.map((l) => [l.name, l.value]),
      [['k', 21]],
    );
  });
});
