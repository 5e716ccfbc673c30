/**
 * Run only by `test/exit-code.test.ts`, which checks that a failing test makes `vitest run` exit non-zero
 * under this repository's configuration (global setup included). Not matched by the `*.test.ts` pattern.
 */
import { expect, it } from 'vitest';

it('fails on purpose', () => {
  expect(1 + 1).toBe(3);
});
