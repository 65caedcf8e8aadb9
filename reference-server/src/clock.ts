/** The one clock every time rule reads (windows, occurred_at bounds, sessions, rate limits, rotation, caps). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock the test-control API can move (`POST /_test/clock`); it keeps ticking from where it was set. */
export class ControllableClock implements Clock {
  private offsetMs = 0;

  constructor(private readonly base: Clock = systemClock) {}

  now(): number {
    return this.base.now() + this.offsetMs;
  }

  advance(seconds: number): number {
    this.offsetMs += Math.round(seconds * 1000);
    return this.now();
  }

  set(epochMs: number): number {
    this.offsetMs = epochMs - this.base.now();
    return this.now();
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
