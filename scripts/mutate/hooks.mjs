// Module resolution hook of the in-process mutation test runner: `node:test` resolves to scripts/mutate/nodeTest.cjs
// for ES modules; register.mjs covers require().
export async function resolve(specifier, context, next) {
  if (specifier === 'node:test' || specifier === 'test') return { url: new URL('./nodeTest.cjs', import.meta.url).href, shortCircuit: true };
  return next(specifier, context);
}
