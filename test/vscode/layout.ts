/** Real-VS-Code tests of layout specs and the layout map (issue 4); index.ts runs them after the foundation tests. */
import type { TestCase } from './util';

export const TESTS: TestCase[] = [];
