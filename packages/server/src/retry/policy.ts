import type { catalogue } from '@svc/types';

/**
 * Which failures a route may retry without double-counting (spec/rules.md "Errors/Status codes", spec/rules.md "Message catalogue"):
 * - `safe`: a retry is answered idempotently by the service — sale and refund keyed by `transaction_id`
 *   (a recorded sale answers 409, a refunded one `already_refunded`), lead (a recorded lead answers 400
 *   `Customer status cannot be updated to lead`), and reads. Retries 429, 5xx and network failures.
 * - `once`: a retry could record twice (click, a test sale without `transaction_id`, CLI writes).
 *   Retries only 429, which is refused before the endpoint, so nothing was recorded (spec/rules.md "Rate-limit response").
 *   The one exception there, the synthetic-chain cap of `POST /cli/test-event`, is checked inside the endpoint
 *   after its test fixture records may have been created or refreshed; retrying it is still harmless, since
 *   only test fixtures are touched and no chain runs.
 */
export type RetryMode = 'safe' | 'once';

/**
 * spec/rules.md "Message catalogue" 500 `Failed to create commission`: the sale is stored without a commission; "do not retry".
 * Recognised by its `error.details.code` (spec/openapi.yaml, PlatformErrorDetails); type-checked against the catalogue.
 */
export const commissionFailed: NonNullable<(typeof catalogue)['commissionFailed']['clientCode']> = 'commission_failed';

/** A `Retry-After` longer than this ends the retrying instead of sleeping (a caller is waiting). */
export const maxRetryAfterSeconds = 60;
const maxBackoffMs = 10_000;

export interface RetryInput {
  mode: RetryMode;
  /** The HTTP status, or `undefined` when no response came back. */
  status: number | undefined;
  /** `error.details.code` of the answer, if any. */
  detailsCode: unknown;
  /** Seconds the service asked to wait (`Retry-After` or `retry_after_seconds`). */
  retryAfter: number | undefined;
  /** Retries already made. */
  retries: number;
  maxRetries: number;
  /** Milliseconds left before the overall deadline. */
  remainingMs: number;
  /** First backoff step; doubles each retry. */
  backoffMs: number;
  /** A number in [0, 1) for the jitter. */
  random: number;
}

/** Milliseconds to wait before the next attempt, or `undefined` to stop and surface the failure. */
export function retryDelay(input: RetryInput): number | undefined {
  const { status, retryAfter } = input;
  if (input.retries >= input.maxRetries) return undefined;
  const retryable =
    status === 429 || (input.mode === 'safe' && (status === undefined || status >= 500) && input.detailsCode !== commissionFailed);
  if (!retryable || (retryAfter ?? 0) > maxRetryAfterSeconds) return undefined;
  // Exponential backoff with "equal jitter": at least half the step, so retries never stampede at once.
  const step = Math.min(input.backoffMs * 2 ** input.retries, maxBackoffMs);
  const delay = retryAfter === undefined ? step * (0.5 + input.random / 2) : retryAfter * 1000;
  return delay < input.remainingMs ? delay : undefined;
}
