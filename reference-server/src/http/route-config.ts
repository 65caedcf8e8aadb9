import type { CliFailure, FixedCatalogueKey } from '@svc/types';
import type { ManagementCredential, RouteBucketName } from './rate-limit';

/** Per-route settings read by the shared hooks; set with `config: { … }` on a route. */
export interface SvcRouteConfig {
  /** Catalogue key of this route's generic 500 (spec/rules.md "Errors", 500 messages). */
  failure?: FixedCatalogueKey;
  /** CLI routes: the 500 message names this failure and ends with the request id (spec/rules.md "Request ids"). */
  cliFailure?: CliFailure;
  /** Sale and refund: every platform error carries `error.code` (spec/rules.md "Errors/Envelopes"). */
  errorCodes?: boolean;
  /** The spec/rules.md "Limits" bucket this route counts against. */
  rateLimit?: RouteBucketName;
  /**
   * An account-management route outside the session paths (`/cli/init`, `/cli/programs`): also counted against the
   * dashboard's limits (`ManagementRateLimited`), its writes per the account of this credential.
   */
  management?: ManagementCredential;
  /** `GET /cli/status`: `X-Request-ID` only on its 500 (spec/rules.md "Request ids"). */
  requestIdOnlyOn500?: boolean;
  /** Click and lead: a `text/plain` body holding JSON is accepted (browser requests without a preflight). */
  acceptsText?: boolean;
}

declare module 'fastify' {
  // Fastify's route `config` is where per-route settings live; merging keeps them typed everywhere.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging needs the interface form
  interface FastifyContextConfig extends SvcRouteConfig {}
}
