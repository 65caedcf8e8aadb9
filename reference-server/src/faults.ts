/** Points where the test-control API can make the next operations fail (`POST /_test/faults`). */
export const faultPoints = ['click', 'lead', 'sale', 'refund', 'commission', 'metrics', 'readiness', 'cli'] as const;
export type FaultPoint = (typeof faultPoints)[number];

export class InjectedFault extends Error {
  constructor(readonly point: FaultPoint) {
    super(`injected fault at ${point}`);
    this.name = 'InjectedFault';
  }
}

/** Armed faults; production servers never arm any (the control API is off there). */
export class Faults {
  private readonly armed = new Map<FaultPoint, number>();

  arm(point: FaultPoint, times = 1): void {
    this.armed.set(point, (this.armed.get(point) ?? 0) + times);
  }

  /** Throws InjectedFault when a fault is armed at `point`, consuming one. */
  check(point: FaultPoint): void {
    const left = this.armed.get(point) ?? 0;
    if (left <= 0) return;
    if (left === 1) this.armed.delete(point);
    else this.armed.set(point, left - 1);
    throw new InjectedFault(point);
  }

  reset(): void {
    this.armed.clear();
  }
}
