/** Real-VS-Code tests of the debugger (issue 7); index.ts runs them after the foundation tests. */
import type { TestCase } from './util';

export const TESTS: TestCase[] = [];
