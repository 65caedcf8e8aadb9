/**
 * What to do for every error code the catalogue knows (the cause, then the fix), in one line each: printed by the
 * svc CLI under the error; `@svc/server` carries the first-hour ones in its own `hints` (its size budget). A test
 * checks that every code of `saleErrorCodes`, `typedErrorCodes` and `clientErrorCodes` has one.
 */
export const errorHints: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  invalid_request: 'The request broke a rule the message names: fix that field; nothing was recorded.',
  // The SDKs turn `unauthorized` into `invalid_key` (one code for a wrong key); other clients see both.
  unauthorized: "Use this server's program key (dashboard, program settings) as SVC_API_KEY; svc CLI: run svc login.",
  invalid_key: "Use this server's program key (dashboard, program settings) as SVC_API_KEY; svc CLI: run svc login.",
  no_attribution: 'No referral click, or one outside the window: not an affiliate sale; do not resend it.',
  not_found: 'Nothing has this id here: check the id and SVC_BASE_URL (svc status).',
  duplicate_transaction: 'Already recorded (details.sale_id): do not resend; use a new transaction_id only for a new sale.',
  unsupported_currency: 'Send USD, EUR or VND.',
  internal_error: 'Retry shortly with the same transaction_id; if it persists, quote the request id.',
  rate_limited: 'Too many requests: wait Retry-After seconds, then retry.',
  api_key_rotation_required: 'This key was retired: use the new key from the dashboard program settings.',
  link_disabled: 'The merchant turned this link off: ask the partner for a current link.',
  link_not_found: "No link has this aff value on this server: check the partner's link (svc links list).",
  missing_aff: 'The URL has no ?aff=: send the landing URL with its aff parameter.',
  customer_not_found: 'No click of this program has this click_id: send svc_click_id as set, or only customer_key.',
  customer_status: 'This customer already has a lead: usually safe to ignore.',
  commission_failed: 'The sale may be stored without a commission: do not retry; quote transaction_id and request id.',
  session_consumed: 'This login was already used: run svc login again.',
  forbidden: 'Not allowed for this account or origin: check the program and its allowed origins.',
  conflict: 'That name or value is taken: choose another.',
  gone: 'This endpoint is retired: see the message for its replacement.',
  unavailable: 'A dependency is down or the server is stopping: retry in a moment.',
  network_error: 'No answer: check SVC_BASE_URL and that the server runs (svc status).',
  timeout: 'No answer in time: check the server, or raise the timeout option.',
  ACCOUNT_BLOCKED: 'This account is suspended: contact the operator of this server.',
});
