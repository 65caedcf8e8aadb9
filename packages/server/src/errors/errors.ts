import type {
  ClientErrorCode,
  DuplicateTransactionError,
  Envelope,
  KnownErrorCode,
  LinkDisabledError,
  PlatformError,
  RateLimitedError,
  ReadinessUnauthorizedError,
  RotationRequiredError,
  SalePlatformError,
  components,
} from '@svc/types';
// A plain object: bundles take it alone (the catalogue beside it is built in a pure call and shakes out).
import { clientCodeByStatus } from '@svc/types';
import type { RateLimit, ResponseMeta } from '../http/meta';

/**
 * A known code: the service's `error.code`, or the catalogue's client codes for errors whose envelope has none
 * (`http_<status>` for a status the catalogue does not name); any other string a newer server may send.
 */
export type SvcErrorCode = KnownErrorCode | ClientErrorCode | `http_${number}` | (string & {});

/** Marks every SDK error, registered globally so that copies of the SDK in one process (ESM and CJS) share it. */
const brand = Symbol.for('@svc/server.error');

/**
 * Whether `value` is an error of any copy of this SDK. `instanceof` sees only its own copy's classes; where an ESM
 * and a CJS copy meet in one process, use this, then `code` and `status`.
 */
export const isSvcError = (value: unknown): value is SvcError => (value as Record<symbol, unknown> | null | undefined)?.[brand] === true;

/** The base of every error the SDK throws. */
export class SvcError extends Error {
  /** The brand `isSvcError` reads. */
  readonly [brand] = true;
  override name = 'SvcError';
  /** Stable and never empty: match on it (see `SvcApiError.code`; `network_error`, `timeout`). */
  declare readonly code: SvcErrorCode;
  /** The attempt's `X-Request-ID` (quote it to support). */
  readonly requestId: string;
  readonly rateLimit: RateLimit | undefined;
  /** The code's page in the docs the server serves (`errorPage`); `undefined` on an error made without a server. */
  readonly docsUrl: string | undefined;

  constructor(message: string, meta: ResponseMeta, options?: { cause?: unknown; docsUrl?: string }) {
    super(message, options);
    this.requestId = meta.requestId;
    this.rateLimit = meta.rateLimit;
    this.docsUrl = options?.docsUrl;
  }
}

/**
 * The page of an error code on the docs site the server serves at `/docs/` (the operator may move it there with
 * `SVC_DOCS_URL`; the server then redirects): `<baseUrl>/docs/errors/<code>`, every `http_<status>` on one page.
 */
export const errorPage = (baseUrl: string, code: string): string =>
  `${baseUrl}/docs/errors/${/^http_\d+$/.test(code) ? 'http_status' : code}`;

/** The `error` member of every envelope in the spec (spec/rules.md "Errors/Envelopes"). */
type EnvelopeError = (
  | PlatformError
  | SalePlatformError
  | RateLimitedError
  | RotationRequiredError
  | LinkDisabledError
  | ReadinessUnauthorizedError
  | DuplicateTransactionError
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
 * What to do, by code (the cause, then the fix), for the codes a backend meets first; word for word in the code's
 * page, docs/errors/<code>.md. Every other code's hint is in `@svc/types` `errorHints` (printed by the CLI): the
 * SDK's size budget holds only these.
 */
export const hints: Record<string, string> = {
  invalid_key: "Use this server's program key (dashboard, program settings) as SVC_API_KEY; svc CLI: run svc login.",
  no_attribution: 'No referral click, or one outside the window: not an affiliate sale; do not resend it.',
  link_not_found: "No link has this aff value on this server: check the partner's link (svc links list).",
  customer_not_found: 'No click of this program has this click_id: send svc_click_id as set, or only customer_key.',
};

/**
 * The service answered with an error status. Either envelope (spec/rules.md "Errors/Envelopes") is read: `code` and
 * `message` come from `error`, `envelope` tells which one it was (`platform` has `data: null`).
 */
export class SvcApiError extends SvcError {
  override name = 'SvcApiError';
  declare readonly status: number;
  /**
   * `error.code`; where the envelope has none (platform errors outside sale and refund), `error.details.code`
   * (the catalogue's client code, or `ACCOUNT_BLOCKED`), else the code of the status (`clientCodeByStatus`), else
   * `http_<status>`. Never read from the message text.
   */
  declare readonly code: SvcErrorCode;
  /** `error.details` of the platform envelope; `{}` for the typed envelope. */
  declare readonly details: Record<string, unknown>;
  /** `undefined` when the body was not a svc envelope (for example a proxy's HTML page). */
  declare readonly envelope: Envelope | undefined;
  /** Seconds to wait, from `Retry-After` or `error.retry_after_seconds`. */
  declare readonly retryAfter: number | undefined;
  /** What to do: `error.hint` of the typed envelope, else the SDK's hint for the code (unknown link, no `aff`, …). */
  declare readonly hint: string | undefined;
  /** Where it is explained: `error.docs_url`, else the code's page on the server's docs site (`errorPage`). */
  declare readonly docsUrl: string | undefined;
  /** The parsed response body (or its text when it was not JSON). */
  declare readonly body: unknown;

  /** `baseUrl`: the client's, for the code's page (`errorPage`) when the answer names none. */
  constructor(status: number, body: unknown, meta: ResponseMeta, retryAfter?: number, baseUrl?: string) {
    const envelope = (body as { error?: unknown } | null)?.error;
    const error: ErrorBody = envelope && typeof envelope === 'object' ? envelope : {};
    const message = error.message ?? `HTTP ${status}`;
    const details = error.details ?? {};
    super(message, meta);
    const wire: string =
      error.code ?? (details as { code?: string }).code ?? (clientCodeByStatus as Record<number, string>)[status] ?? `http_${status}`;
    // A refused key is `unauthorized` on sales and bare 401s, `invalid_key` on readiness: one code for both.
    const code = wire === 'unauthorized' ? 'invalid_key' : wire;
    this.status = status;
    this.code = code;
    this.details = details;
    this.envelope = envelope === error ? ('data' in (body as object) ? 'platform' : 'typed') : undefined;
    this.retryAfter = retryAfter ?? error.retry_after_seconds;
    this.hint = error.hint ?? hints[code];
    this.docsUrl = error.docs_url ?? (baseUrl && errorPage(baseUrl, code));
    this.body = body;
  }
}

export class SvcBadRequestError extends SvcApiError {
  override name = 'SvcBadRequestError';
}
export class SvcUnauthorizedError extends SvcApiError {
  override name = 'SvcUnauthorizedError';
}
/** 401 `api_key_rotation_required`: the key is past its rotation deadline (spec/rules.md "Authentication" rule 5). */
export class SvcRotationRequiredError extends SvcUnauthorizedError {
  override name = 'SvcRotationRequiredError';
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
  override readonly code = 'network_error';
}

/** The overall deadline (`timeout`, covering every attempt) ran out. */
export class SvcTimeoutError extends SvcError {
  override name = 'SvcTimeoutError';
  override readonly code = 'timeout';
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

/** The error class for a status; code first (spec/rules.md "Errors", "Client guidance"). */
export function apiError(status: number, body: unknown, meta: ResponseMeta, retryAfter?: number, baseUrl?: string): SvcApiError {
  const code: KnownErrorCode = 'api_key_rotation_required';
  const Class = (body as { error?: ErrorBody } | null)?.error?.code === code ? SvcRotationRequiredError : (byStatus[status] ?? SvcApiError);
  return new Class(status, body, meta, retryAfter, baseUrl);
}
