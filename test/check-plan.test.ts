/**
 * The check's plan (scripts/check-plan.ts): every script it names exists, none runs twice, and `--only` of
 * `pnpm test:timings` keeps the plan's shape (lanes side by side stay side by side, steps in a lane stay in turn).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_PLAN, onlySteps, planSteps } from '../scripts/check-plan.js';

const scripts = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

describe('the check plan', () => {
  it('names only scripts of the root package.json, each once, and check runs it', () => {
    const steps = planSteps(CHECK_PLAN);
    expect(steps.filter((step) => scripts[step] === undefined)).toEqual([]);
    expect(new Set(steps).size).toBe(steps.length);
    expect(scripts['check']).toBe('tsx scripts/check.ts');
  });

  it('builds before what reads dist/, in the same lane', () => {
    const lane = CHECK_PLAN[0]!.find((one) => one.includes('build'))!;
    for (const reader of ['check:api', 'check:packages', 'bench:sizes']) {
      expect(lane.indexOf(reader)).toBeGreaterThan(lane.indexOf('build'));
    }
  });

  it('keeps the shape with only some steps, dropping empty lanes and phases', () => {
    const plan = [[['a', 'b'], ['c']], [['d']]];
    expect(onlySteps(plan, ['b', 'c'])).toEqual([[['b'], ['c']]]);
    expect(onlySteps(plan, ['a', 'd'])).toEqual([[['a']], [['d']]]);
    expect(onlySteps(plan, [])).toEqual([]);
  });
});
