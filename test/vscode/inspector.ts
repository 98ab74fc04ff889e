/** Real-VS-Code tests of the memory inspector (issue 6); index.ts runs them after the foundation tests. */
import type { TestCase } from './util';

export const TESTS: TestCase[] = [];
