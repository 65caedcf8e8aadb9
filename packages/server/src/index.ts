/**
 * The client: leads, sales, refunds, readiness, partners, links and commissions, and every error it throws.
 *
 * @module @svc/server
 */
export {
  Svc,
  type SvcTrack,
  type SvcCli,
  type SvcPartners,
  type SvcLinks,
  type SvcCommissions,
  type CommissionListQuery,
} from './client/svc';
export type { SvcOptions } from './client/options';
export type { SvcResult, SaleResult, LeadResult, DuplicateSale, SaleAmount, Exact } from './client/types';
export type { RateLimit, ResponseMeta } from './http/meta';
export type { SvcWarning } from './warnings/warnings';
export type { SvcLogEvent } from './logging/log';
export {
  SvcError,
  SvcApiError,
  SvcBadRequestError,
  SvcUnauthorizedError,
  SvcRotationRequiredError,
  SvcForbiddenError,
  SvcNotFoundError,
  SvcConflictError,
  SvcGoneError,
  SvcUnprocessableEntityError,
  SvcRateLimitedError,
  SvcInternalServerError,
  SvcNetworkError,
  SvcTimeoutError,
  isSvcError,
  errorPage,
  type SvcErrorCode,
} from './errors/errors';
