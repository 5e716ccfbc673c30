import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CircuitBreaker } from './circuit-breaker.js';

describe('CircuitBreaker', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens after 3 silent operations in a row, not when an answer comes between them', () => {
    const breaker = new CircuitBreaker({ threshold: 3, probeMs: 500, probe: () => Promise.resolve() });
    breaker.silent();
    breaker.silent();
    breaker.answered();
    breaker.silent();
    breaker.silent();
    expect(breaker.isOpen).toBe(false);
    expect(breaker.refusal()).toBeUndefined();
    breaker.silent();
    expect(breaker.isOpen).toBe(true);
    expect(breaker.refusal()?.message).toMatch(/has not answered since .* until a probe, every 500 ms, succeeds/);
  });

  it('probes every probeMs while open, never two at once, and closes when a probe succeeds', async () => {
    const outcomes = [false, false, true];
    const probes: number[] = [];
    const breaker = new CircuitBreaker({
      threshold: 1,
      probeMs: 500,
      probe: async () => {
        probes.push(Date.now());
        // Each probe takes 1 s (a frozen database's deadline); the next starts 500 ms after it ended.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        if (!outcomes.shift()) throw new Error('silent');
      },
    });
    const start = Date.now();
    breaker.silent();
    await vi.advanceTimersByTimeAsync(499);
    expect(probes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1 + 1_000 + 500 + 1_000 + 500 + 1_000);
    expect(probes.map((at) => at - start)).toEqual([500, 2_000, 3_500]);
    expect(breaker.isOpen).toBe(false);
    // Closed: one silence starts a new count, and a new probe cycle.
    breaker.silent();
    expect(breaker.isOpen).toBe(true);
    await breaker.close();
  });

  it('stops probing when closed', async () => {
    const probe = vi.fn(() => Promise.reject(new Error('silent')));
    const breaker = new CircuitBreaker({ threshold: 1, probeMs: 500, probe });
    breaker.silent();
    await vi.advanceTimersByTimeAsync(1_100);
    expect(probe).toHaveBeenCalledTimes(2);
    await breaker.close();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(probe).toHaveBeenCalledTimes(2);
  });
});
