import type {
  Envelope,
  KnownErrorCode,
  LinkDisabledError,
  PlatformError,
  RateLimitedError,
  RotationRequiredError,
  SalePlatformError,
  components,
} from '@svc/types';
import type { RateLimit, ResponseMeta } from '../http/meta';

/** A known `error.code`, or any string a newer server may send: new codes never break a client. */
export type SvcErrorCode = KnownErrorCode | (string & {});

/** The base of every error the SDK throws. */
export class SvcError extends Error {
  override name = 'SvcError';
  /** The attempt's `X-Request-ID` (quote it to support). */
  readonly requestId: string;
  readonly rateLimit: RateLimit | undefined;

  constructor(message: string, meta: ResponseMeta, options?: { cause?: unknown }) {
    super(message, options);
    this.requestId = meta.requestId;
    this.rateLimit = meta.rateLimit;
  }
}

/** The `error` member of every envelope in the spec (§Errors/Envelopes). */
type EnvelopeError = (
  | PlatformError
  | SalePlatformError
  | RateLimitedError
  | RotationRequiredError
  | LinkDisabledError
  | components['schemas']['InvalidKeyError']
  | components['schemas']['ReadinessInternalError']
)['error'];
type AnyKey<T> = T extends unknown ? keyof T : never;
type MemberType<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;
/**
 * An `error` as read before knowing which envelope it is (or whether the body is one at all): each member of any
 * envelope, with that member's type in the spec, and optional.
 */
type ErrorBody = { [K in AnyKey<EnvelopeError>]?: MemberType<EnvelopeError, K> };

/**
 * The service answered with an error status. Either envelope (§Errors/Envelopes) is read: `code` and
 * `message` come from `error`, `envelope` tells which one it was (`platform` has `data: null`).
 */
export class SvcApiError extends SvcError {
  override name = 'SvcApiError';
  readonly status: number;
  /** `error.code`; the platform envelope has none outside sale and refund (match on status and message then). */
  readonly code: SvcErrorCode | undefined;
  /** `error.details` of the platform envelope; `{}` for the typed envelope. */
  readonly details: Record<string, unknown>;
  /** `undefined` when the body was not a svc envelope (for example a proxy's HTML page). */
  readonly envelope: Envelope | undefined;
  /** Seconds to wait, from `Retry-After` or `error.retry_after_seconds`. */
  readonly retryAfter: number | undefined;
  /** `error.hint` of the typed envelope (`link_disabled`, `api_key_rotation_required`). */
  readonly hint: string | undefined;
  /** The parsed response body (or its text when it was not JSON). */
  readonly body: unknown;

  constructor(status: number, body: unknown, meta: ResponseMeta, retryAfter?: number) {
    const envelope = (body as { error?: unknown } | null)?.error;
    const error: ErrorBody = envelope && typeof envelope === 'object' ? envelope : {};
    super(error.message ?? `HTTP ${status}`, meta);
    this.status = status;
    this.code = error.code;
    this.details = error.details ?? {};
    this.envelope = envelope === error ? ('data' in (body as object) ? 'platform' : 'typed') : undefined;
    this.retryAfter = retryAfter ?? error.retry_after_seconds;
    this.hint = error.hint;
    this.body = body;
  }
}

export class SvcBadRequestError extends SvcApiError {
  override name = 'SvcBadRequestError';
}
export class SvcUnauthorizedError extends SvcApiError {
  override name = 'SvcUnauthorizedError';
}
/** 401 `api_key_rotation_required`: the key is past its rotation deadline (§Authentication rule 5). */
export class SvcRotationRequiredError extends SvcUnauthorizedError {
  override name = 'SvcRotationRequiredError';
  /** Where the rotation is explained (`error.docs_url`). */
  readonly docsUrl: string | undefined = (this.body as { error: ErrorBody }).error.docs_url;
}
export class SvcForbiddenError extends SvcApiError {
  override name = 'SvcForbiddenError';
}
export class SvcNotFoundError extends SvcApiError {
  override name = 'SvcNotFoundError';
}
export class SvcConflictError extends SvcApiError {
  override name = 'SvcConflictError';
}
export class SvcGoneError extends SvcApiError {
  override name = 'SvcGoneError';
}
export class SvcUnprocessableEntityError extends SvcApiError {
  override name = 'SvcUnprocessableEntityError';
}
export class SvcRateLimitedError extends SvcApiError {
  override name = 'SvcRateLimitedError';
}
export class SvcInternalServerError extends SvcApiError {
  override name = 'SvcInternalServerError';
}

/** No response: DNS, refused connection, reset. `cause` is the runtime's own error. */
export class SvcNetworkError extends SvcError {
  override name = 'SvcNetworkError';
}

/** The overall deadline (`timeout`, covering every attempt) ran out. */
export class SvcTimeoutError extends SvcError {
  override name = 'SvcTimeoutError';
}

const byStatus: Record<number, typeof SvcApiError> = {
  400: SvcBadRequestError,
  401: SvcUnauthorizedError,
  403: SvcForbiddenError,
  404: SvcNotFoundError,
  409: SvcConflictError,
  410: SvcGoneError,
  422: SvcUnprocessableEntityError,
  429: SvcRateLimitedError,
  500: SvcInternalServerError,
};

/** The error class for a status; code first (§Errors, "Client guidance"). */
export function apiError(status: number, body: unknown, meta: ResponseMeta, retryAfter?: number): SvcApiError {
  const code: KnownErrorCode = 'api_key_rotation_required';
  const Class =
    (body as { error?: ErrorBody } | null)?.error?.code === code ? SvcRotationRequiredError : (byStatus[status] ?? SvcApiError);
  return new Class(status, body, meta, retryAfter);
}
