/**
 * A clock per business. Each business's "now" is real time plus how far its own clock was moved forward, so a
 * business whose clock was never advanced reads real time, as before clocks existed (`POST /_sandbox/clock` moves
 * the authorization server's clock only, as it always did; the codes and tokens of a business add its offset to
 * that). Moving a clock is the timeline's job (`timeline.ts`): it runs what falls due on the way, in order; this
 * class only keeps the offsets.
 */

/** Every business's clock offset, read by everything time-based in the sandbox. */
export class BusinessClocks {
  readonly #offsets = new Map<string, number>();

  /** @param base the clock every business's own offset is added to (real time), in epoch milliseconds. */
  constructor(private readonly base: () => number) {}

  /** The business's now, in epoch milliseconds. An unknown or absent business reads the shared clock. */
  nowMs(businessId: string | null | undefined): number {
    return this.base() + (businessId ? (this.#offsets.get(businessId) ?? 0) : 0);
  }

  /** The business's now as a Date (what every stamp the API returns is written from). */
  now(businessId: string | null | undefined): Date {
    return new Date(this.nowMs(businessId));
  }

  /** How far this business's clock is ahead of the shared one, in milliseconds (0 when never advanced). */
  offsetMs(businessId: string): number {
    return this.#offsets.get(businessId) ?? 0;
  }

  /**
   * Sets the business's clock to `atMs` when that is later than its now (a clock never goes back; an earlier
   * instant changes nothing). The timeline calls it for each due moment on the way to the target.
   */
  moveTo(businessId: string, atMs: number): void {
    const ahead = atMs - this.nowMs(businessId);
    if (ahead > 0) this.#offsets.set(businessId, this.offsetMs(businessId) + ahead);
  }

  /** The offsets of the clocks that were moved, for the data file. */
  offsets(): Record<string, number> {
    return Object.fromEntries(this.#offsets);
  }

  /** Puts back offsets read from a data file. */
  restore(offsets: Record<string, number>): void {
    this.#offsets.clear();
    for (const [id, ms] of Object.entries(offsets)) if (ms > 0) this.#offsets.set(id, ms);
  }

  /** Every clock back to the shared one. */
  reset(): void {
    this.#offsets.clear();
  }
}
