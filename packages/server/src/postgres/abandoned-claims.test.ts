import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AbandonedClaims } from './abandoned-claims.js';

describe('AbandonedClaims', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retracts every interval until the claim is removed, through failures and an early empty answer', async () => {
    const claims = new AbandonedClaims({ intervalMs: 1_000 });
    // The database is away twice, then answers "nothing there" (the late statement has not run yet), then removes it.
    const answers: (boolean | Error)[] = [new Error('away'), new Error('away'), false, true];
    const retract = vi.fn(async () => {
      const answer = answers.shift()!;
      if (answer instanceof Error) throw answer;
      return answer;
    });
    claims.add(retract, 30_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(retract).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1 + 3_000);
    expect(retract).toHaveBeenCalledTimes(4);
    expect(claims.size).toBe(0);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(retract).toHaveBeenCalledTimes(4);
  });

  it('gives up after three empty answers (a statement cut with its connection never runs), or once the lease lapsed', async () => {
    const claims = new AbandonedClaims({ intervalMs: 1_000 });
    const empty = vi.fn(() => Promise.resolve(false));
    const away = vi.fn(() => Promise.reject(new Error('away')));
    claims.add(empty, 30_000);
    claims.add(away, 5_500);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(empty).toHaveBeenCalledTimes(3);
    expect(away).toHaveBeenCalledTimes(5);
    expect(claims.size).toBe(0);
  });

  it('remembers at most max claims, and nothing after close', async () => {
    const claims = new AbandonedClaims({ intervalMs: 1_000, max: 2 });
    const retract = vi.fn(() => Promise.resolve(true));
    claims.add(retract, 30_000);
    claims.add(retract, 30_000);
    claims.add(retract, 30_000);
    expect(claims.size).toBe(2);
    await claims.close();
    claims.add(retract, 30_000);
    expect(claims.size).toBe(0);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(retract).not.toHaveBeenCalled();
  });
});
