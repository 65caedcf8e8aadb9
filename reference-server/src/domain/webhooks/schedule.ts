/**
 * When a failed attempt is tried again (spec/openapi.yaml, tag `outbound-webhooks`, "Delivery"): 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h after it, on the server's clock; after the eighth attempt the delivery fails.
 */
export const retryDelaysMs = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

/** Attempts an event's delivery gets: the first and one per retry delay. A test event gets one. */
export const maxAttempts = retryDelaysMs.length + 1;
export const testEventAttempts = 1;

/** A 2xx delivers; what the delivery becomes after a failed attempt, the `attempts`-th (1-based). */
export function afterFailure(
  attempts: number,
  allowed: number,
  now: number,
): { status: 'pending' | 'failed'; nextAttemptAt: number | null } {
  const delay = retryDelaysMs[attempts - 1];
  if (attempts >= allowed || delay === undefined) return { status: 'failed', nextAttemptAt: null };
  return { status: 'pending', nextAttemptAt: now + delay };
}
