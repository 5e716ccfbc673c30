/**
 * What `pnpm run check` runs, and which of it runs at once (issue 34 item 2). A step is a script of the root
 * package.json, run as `pnpm run <step>`; a lane runs its steps one after another and stops at the first that fails;
 * a phase runs its lanes side by side, and the next phase starts only when every lane of this one has passed.
 * scripts/check.ts runs the plan, scripts/test-timings.ts times it.
 *
 * Why this shape, measured on the idle 2-core machine with `pnpm test:timings` (and /proc/stat for the CPU): one step
 * after another (at 0a703aa) the static steps left the CPUs idle a quarter of the time (lint 73 % busy: ESLint is one
 * thread, and its `--concurrency 2` was slower, 43 s against 36, each thread building its own TypeScript program; build
 * 74 %; check:packages 62 %), so they run in two lanes at once: 117 s and 230 CPU-s, against about 150 s one after
 * another; with typecheck's caches removed first, as in a fresh clone, 148 s and 290 CPU-s in lanes against 200 s and
 * 307 CPU-s in turn (one run each: this machine's figures vary by a tenth or more from run to run). The tests stay one
 * step at a time, because beside one another they only got slower: the element tests beside the runtime matrix took 257
 * s and 451 CPU-s against 225 s and about 326 CPU-s in turn (the matrix alone 38 s, beside them 144 s), and beside the
 * static lanes the whole first phase took 354 s against 376 in turn, with an element test over its 20 s limit in
 * Chromium. The CPUs are the limit; what runs at once must fill idle time, not compete for busy time.
 *
 * What runs at once, and why it is safe: lint and typecheck read sources only (the packages' exports point at
 * `src/`), never `dist/`; the build lane is the only one that writes `dist/`, and what reads it (check:api,
 * check:packages, bench:sizes) comes after the build in that lane.
 */

/** A script of the root package.json. */
export type Step = string;

/** Steps run one after another; the lane stops at the first that fails. */
export type Lane = readonly Step[];

/** Lanes run side by side; the next phase starts when all of them have passed. */
export type Phase = readonly Lane[];

/** The plan of `pnpm run check`. */
export const CHECK_PLAN: readonly Phase[] = [
  [
    ['lint', 'typecheck'],
    ['build', 'check:api', 'check:packages', 'bench:sizes'],
  ],
  [['test:node']],
  [['test:runtimes']],
  [['test:browser']],
];

/** Every step of the plan, in the plan's order. */
export const planSteps = (plan: readonly Phase[]): Step[] => plan.flat(2);

/** The plan with only the steps `keep` names (lanes and phases left empty dropped), in the same shape. */
export function onlySteps(plan: readonly Phase[], keep: readonly Step[]): Phase[] {
  return plan
    .map((phase) => phase.map((lane) => lane.filter((step) => keep.includes(step))).filter((lane) => lane.length > 0))
    .filter((phase) => phase.length > 0);
}
