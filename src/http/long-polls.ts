/** How many long polls may wait at once, per API process and per subscription. */
export interface LongPollLimits {
  perProcess: number;
  perSubscription: number;
}

/** Most long polls one API process parks at once, and per subscription: each holds a socket and reads once a second. */
export const LONG_POLL_LIMITS: LongPollLimits = { perProcess: 500, perSubscription: 4 };

/** The long polls of one API process that are waiting (parked), counted per subscription. */
export class LongPolls {
  #total = 0;
  readonly #bySubscription = new Map<string, number>();

  constructor(readonly limits: LongPollLimits = LONG_POLL_LIMITS) {}

  /** Parks one more poll of `key`; the function that unparks it (once), or undefined when a limit is reached. */
  park(key: string): (() => void) | undefined {
    const mine = this.#bySubscription.get(key) ?? 0;
    if (this.#total >= this.limits.perProcess || mine >= this.limits.perSubscription) return undefined;
    this.#total++;
    this.#bySubscription.set(key, mine + 1);
    let parked = true;
    return () => {
      if (!parked) return;
      parked = false;
      this.#total--;
      const left = (this.#bySubscription.get(key) ?? 1) - 1;
      if (left > 0) this.#bySubscription.set(key, left);
      else this.#bySubscription.delete(key);
    };
  }

  /** Polls parked now. */
  get size(): number {
    return this.#total;
  }
}
