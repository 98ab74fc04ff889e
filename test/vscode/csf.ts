/** Real-VS-Code tests of the .csfbin viewer (issue 5); index.ts runs them after the foundation tests. */
import type { TestCase } from './util';

export const TESTS: TestCase[] = [];
