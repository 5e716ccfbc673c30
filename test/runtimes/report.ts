/**
 * How a runner hands its outcomes to the matrix: one line on stdout, `PAYKIT_SUITE <json>`, whatever else the
 * runtime prints around it. The exit status says the same (1 when a check failed), for a runner run by hand.
 */
import type { Outcome } from './suite.js';

/** The prefix of the result line. */
export const RESULT_PREFIX = 'PAYKIT_SUITE ';

/** The result line of `outcomes`. */
export function resultLine(runtime: string, outcomes: readonly Outcome[]): string {
  return `${RESULT_PREFIX}${JSON.stringify({ runtime, outcomes })}`;
}

/** Whether every check passed. */
export function allPassed(outcomes: readonly Outcome[]): boolean {
  return outcomes.length > 0 && outcomes.every((outcome) => outcome.ok);
}
