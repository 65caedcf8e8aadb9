/**
 * Field rules the service checks that a client can check before sending (the CLI refuses bad input locally, exit
 * code 2). Written as the spec's `pattern`s; `fields.test.ts` checks they stay equal.
 */

/** A referral link's `short_link` (`LinkCreateRequest`, `ReferralLink`): safe in `?aff=…` and a path segment. */
export const shortLinkPattern = /^[A-Za-z0-9_-]{3,64}$/;
