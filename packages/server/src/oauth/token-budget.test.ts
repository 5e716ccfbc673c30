/**
 * The in-memory token budget: a sliding window of starts per client, and a pause that every caller obeys.
 */
import { describe, expect, it } from 'vitest';
import { MemoryTokenBudget } from './token-budget.js';

const settledWithin = async (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

describe('MemoryTokenBudget', () => {
  it('lets the limit start at once, holds the next, and counts clients apart', async () => {
    const budget = new MemoryTokenBudget({ perMinute: 3 });
    for (let i = 0; i < 3; i += 1) expect(await settledWithin(budget.acquire('app'), 50)).toBe(true);
    expect(await settledWithin(budget.acquire('app'), 300)).toBe(false);
    expect(await settledWithin(budget.acquire('other-app'), 50)).toBe(true);
  });

  it('holds every caller of a client for the length of a pause', async () => {
    const budget = new MemoryTokenBudget();
    await budget.pause('app', 400);
    const started = Date.now();
    await budget.acquire('app');
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    expect(await settledWithin(budget.acquire('other-app'), 50)).toBe(true);
  });

  it('gives up a wait when its signal aborts', async () => {
    const budget = new MemoryTokenBudget({ perMinute: 1 });
    await budget.acquire('app');
    const waiting = budget.acquire('app', AbortSignal.timeout(100));
    await expect(waiting).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('refuses a limit that is not a positive whole number', () => {
    expect(() => new MemoryTokenBudget({ perMinute: 0 })).toThrow('"perMinute" must be a positive whole number');
  });
});
