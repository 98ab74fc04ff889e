/**
 * C expressions typed outside the program: the expressions inside `>` statements (their `$var`s and
 * bounds, evaluated by the tensor engine through HostScope.eval) and the debugger's watches, compiled in
 * the scope of one statement with the macros visible there, once per text.
 */
import { SimError } from '../../types';
import { isScalar, typeName } from '../ctypes';
import { YIELD_NAMES } from '../libc';
import { Preprocessor, emitTokens, lexFile, makeSrc } from '../preprocess';
import type { EF } from '../hostState';
import type { Cx, EvalCtx } from '../scope';
import { field, firstError, named, parseToNodes, type N } from '../syntax';
import { KNOWN_HEADERS, type CompileContext } from './context';

/** Compiles (once per statement and text) and returns a C expression snippet's closure. */
export function evalIn(cc: CompileContext, ec: EvalCtx, text: string): EF {
  let f = ec.cache.get(text);
  if (f) return f;
  f = compileSnippet(cc, ec, text);
  ec.cache.set(text, f);
  return f;
}

/**
 * One C expression typed outside the program (a `>` statement's expression, a debugger's watch):
 * macro-expanded with the macros visible at `ec`, parsed inside a wrapper function, and the
 * context to compile it in (`noFrame` says what it is when it would need a stack frame).
 */
export function snippet(cc: CompileContext, ec: EvalCtx, text: string, noFrame: string, fail: (msg: string) => never): { expr: N; cx: Cx } {
  let wrapped: string;
  try {
    const pp = new Preprocessor({ reserved: YIELD_NAMES, knownHeaders: KNOWN_HEADERS });
    for (const [k, v] of ec.macros) pp.macros.set(k, v);
    const out = emitTokens(pp.expandList(lexFile(makeSrc('<expr>', text))), cc.pp.kernels, cc.kernelIds);
    wrapped = `void __tl_eval(void){(\n${out.text}\n);}`;
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
  const root = parseToNodes(cc.parser, wrapped);
  if (firstError(root)) fail('syntax error');
  const fn = named(root)[0];
  const stmt = fn && field(fn, 'body') ? named(field(fn, 'body')!)[0] : undefined;
  const par = stmt?.type === 'expression_statement' ? named(stmt)[0] : undefined;
  const expr = par?.type === 'parenthesized_expression' && named(par).length === 1 ? named(par)[0] : undefined;
  if (!expr) return fail('not a single C expression');
  return { expr, cx: { fx: { ...ec.fx, noFrame }, scope: ec.scope, hoist: null, src: { text: wrapped, loc: () => ec.loc } } };
}

export function compileSnippet(cc: CompileContext, ec: EvalCtx, text: string): EF {
  const fail = (msg: string): never => {
    throw new SimError(`cannot evaluate \`${text}\`: ${msg}`, ec.loc, cc.rt.stack(ec.loc), 'compile');
  };
  const { expr, cx } = snippet(cc, ec, text, 'a tensor-statement expression', fail);
  try {
    const E = cc.rval(expr, cx);
    if (!isScalar(E.t)) fail(`value of type ${typeName(E.t)}`);
    return E.f;
  } catch (e) {
    if (e instanceof SimError && e.kind === 'compile') return fail(e.message);
    throw e;
  }
}
