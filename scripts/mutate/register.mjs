// Loaded with --import into each Stryker worker process of the in-process runner (after tsx): `node:test` becomes
// scripts/mutate/nodeTest.cjs, for import (a resolve hook) and for require (tsx may load a test file as CommonJS).
import Module, { createRequire, register } from 'node:module';

register('./hooks.mjs', import.meta.url);
const shim = createRequire(import.meta.url)('./nodeTest.cjs');
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'node:test' || request === 'test' ? shim : load.call(this, request, ...rest);
};
