import { analyzeTprog } from '/work/main/core/tprog/analyze';
import { analyzePcore } from '/work/main/core/pcore';
import { hover } from '/work/main/core/tprog/features/hover';
import { readFileSync } from 'node:fs';
const t = readFileSync('/work/main/examples/test/test.m', 'utf8');
const cases: Record<string, string> = {
  longStmt: 'void f(void) {\n   > DTYPE(INT16)MEM(p)[0:1] <= ' + '1+'.repeat(50000) + '1;\n}\n',
  longC: 'int x = ' + '1+'.repeat(50000) + '1;\n',
  nestSq: 'void f(void) {\n   > DTYPE(INT16)MEM(p)' + '['.repeat(10000) + ']'.repeat(10000) + ' <= INT16(0);\n}\n',
  nestPar: 'void f(void) {\n   > DTYPE(INT16)MEM(p' + '('.repeat(10000) + ')'.repeat(10000) + ')[0] <= INT16(0);\n}\n',
  nestParOpen: 'void f(void) {\n   > DTYPE(INT16)MEM(p' + '('.repeat(10000) + '[0] <= INT16(0);\n}\n',
  nestC: 'void f(void) {' + '{'.repeat(10000) + '\n   > EXE_LOCKSTEP(a::b,8);\n' + '}'.repeat(10000) + '}\n',
  nestCexpr: 'int x = ' + '('.repeat(10000) + '1' + ')'.repeat(10000) + ';\nvoid f(void) {\n   > DTYPE(INT16)MEM(p)[0:x] <= INT16(0);\n}\n',
  fiveMB: t.repeat(Math.ceil(5e6 / t.length)),
};
for (const [k, v] of Object.entries(cases)) {
  const t0 = performance.now();
  try {
    const a = analyzeTprog(v, { file: '/x/x.m' });
    const t1 = performance.now();
    for (let i = 0; i < 20; i++) hover(a, Math.floor(v.length * i / 20));
    console.log(k, v.length, (t1 - t0).toFixed(1), 'ms; hovers', (performance.now() - t1).toFixed(1), 'ms; diags', a.diagnostics.length, a.diagnostics.slice(0,2).map(d=>d.code+' '+d.message.slice(0,100)));
  } catch (e) { console.log(k, 'THREW', (e as Error).stack?.split('\n').slice(0,6).join('\n')); }
  const t2 = performance.now();
  try { const p = analyzePcore(v, '/x/x.p'); console.log('  pcore', (performance.now()-t2).toFixed(1), 'ms', p.diagnostics.length); } catch (e) { console.log('  pcore THREW', (e as Error).stack?.split('\n').slice(0,6).join('\n')); }
}
