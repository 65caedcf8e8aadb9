/**
 * The one closed catalogue of svc errors (spec/rules.md "Errors" of spec/rules.md): status, envelope, `error.code`
 * and message, word for word. The reference server answers only from it; the SDKs and the CLI read it to
 * recognise a failure by code first and message second (spec/rules.md "Errors", "Client guidance").
 *
 * A test in this package checks that every message here is an example in spec/openapi.yaml.
 */

export type Envelope = 'platform' | 'typed';

/** `error.code` values of the sale and refund routes (spec/rules.md "Errors/Envelopes"). */
export const saleErrorCodes = [
  'invalid_request',
  'no_attribution',
  'unauthorized',
  'not_found',
  'duplicate_transaction',
  'unsupported_currency',
  'internal_error',
] as const;
export type SaleErrorCode = (typeof saleErrorCodes)[number];

/** `error.code` values of the typed envelope. */
export const typedErrorCodes = ['invalid_key', 'internal_error', 'rate_limited', 'api_key_rotation_required', 'link_disabled'] as const;
export type TypedErrorCode = (typeof typedErrorCodes)[number];

/**
 * Codes that tell apart errors whose envelope carries no `error.code` (spec/rules.md "Errors/Envelopes" says "tell them apart by
 * status and message"; svc decides by code instead). The service sends an entry's `clientCode` as
 * `error.details.code` of the platform envelope (spec/openapi.yaml, `PlatformErrorDetails`); the SDKs give any other
 * error the code of its status (`clientCodeByStatus`, `http_<status>` for any other), and `network_error` or
 * `timeout` when no response came.
 */
export const clientErrorCodes = [
  'link_not_found',
  'missing_aff',
  'customer_not_found',
  'customer_status',
  'commission_failed',
  'session_consumed',
  'forbidden',
  'conflict',
  'gone',
  'unavailable',
  'network_error',
  'timeout',
] as const;
export type ClientErrorCode = (typeof clientErrorCodes)[number];

/**
 * The code of an error by its status, where neither the envelope nor its catalogue entry names one: what the SDKs and
 * the CLI give an error (any route, any envelope). Apart from `saleCodeByStatus` because that one may only name the
 * sale and refund routes' closed `error.code` enum, while this one covers every status of every route.
 */
export const clientCodeByStatus = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  410: 'gone',
  413: 'invalid_request',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'unavailable',
} as const satisfies Record<number, SaleErrorCode | TypedErrorCode | ClientErrorCode>;

/**
 * The `error.code` the service sends on sale and refund for an error whose entry names none (transport-level
 * refusals: body too large, bad JSON). Apart from `clientCodeByStatus` because the wire's enum on those routes is
 * closed (`SaleErrorCode`: a 409 there is only a duplicate transaction, a 422 only a currency), and no 403 or 410
 * happens on them.
 */
export const saleCodeByStatus = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  409: 'duplicate_transaction',
  413: 'invalid_request',
  422: 'unsupported_currency',
  500: 'internal_error',
} as const satisfies Record<number, SaleErrorCode>;

/** `error.details.code` of the 400 `Customer status cannot be updated to lead…` (`messageTemplates.leadStatus`). */
export const leadStatusCode = 'customer_status' satisfies ClientErrorCode;

/** Every `error.code` the service can send; a client must still accept codes it does not know. */
export type KnownErrorCode = SaleErrorCode | TypedErrorCode;

/** Platform envelope names by status (spec/rules.md "Errors/Envelopes"); 413 and 503 follow the same pattern. */
export const platformErrorNames = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  409: 'ConflictError',
  410: 'GoneError',
  413: 'PayloadTooLargeError',
  422: 'UnprocessableEntityError',
  500: 'InternalServerError',
  503: 'ServiceUnavailableError',
} as const;
export type PlatformStatus = keyof typeof platformErrorNames;

export interface CatalogueEntry {
  readonly status: number;
  readonly envelope: Envelope;
  /** `error.code` where the route sends one (sale and refund, typed envelope). */
  readonly code?: KnownErrorCode;
  readonly message: string;
  /** Sent as `error.details.code` (`clientErrorCodes`), so clients decide by code, never by message text. */
  readonly clientCode?: ClientErrorCode;
}

/** An entry whose message has a variable part: `message` builds it from the request's values (`messageTemplates`). */
export interface TemplatedCatalogueEntry<Args extends unknown[]> extends Omit<CatalogueEntry, 'message'> {
  readonly message: (...args: Args) => string;
}

const platform = (status: PlatformStatus, message: string, code?: SaleErrorCode): CatalogueEntry =>
  code ? { status, envelope: 'platform', code, message } : { status, envelope: 'platform', message };

const templated = <Args extends unknown[]>(
  status: PlatformStatus,
  message: (...args: Args) => string,
  codes: { code?: SaleErrorCode; clientCode?: ClientErrorCode } = {},
): TemplatedCatalogueEntry<Args> => ({ status, envelope: 'platform', ...codes, message });

/** Messages with a variable part, word for word from the spec. */
export const messageTemplates = {
  /** Sent with `error.details.code` = `customer_status` (`leadStatusCode`). */
  leadStatus: (status: string) => `Customer status cannot be updated to lead. Current status: ${status}`,
  saleCurrency: (currency: string) => `currency ${currency} is not supported`,
  saleProvider: (allowed: readonly string[]) => `provider must be one of: ${allowed.join(', ')}`,
  initCommissionType: (value: string) => `Invalid commission_type: ${value}. Valid: percent, fixed, recurring_percent, recurring_fixed`,
  testEventType: (value: string) => `Invalid event_type: ${value}. Valid: click, lead, sale`,
  originNotAllowed: (origin: string) => `Origin ${origin} is not allowed for this program`,
  /** CLI 500s end with the request id (spec/rules.md "Request ids"). */
  cliFailure: (what: CliFailure, requestId: string) => `${cliFailures[what]} (request_id: ${requestId})`,
} as const;

export const cliFailures = {
  authStart: 'Failed to start auth session',
  authCallback: 'Auth callback failed',
  authPoll: 'Failed to poll auth session',
  init: 'Failed to create program',
  programs: 'Failed to list programs',
  status: 'Failed to get status',
  chain: 'Failed to run synthetic chain',
  testEvent: 'Failed to process test event',
} as const;
export type CliFailure = keyof typeof cliFailures;

/**
 * Every error the service sends: fixed messages, and templated ones whose `message` is a function of what varies
 * (`messageTemplates`). Built in a call marked pure, so a bundle that imports another name of this package
 * (`currencies`, say) drops the whole catalogue.
 */
export const catalogue = /* @__PURE__ */ (() =>
  ({
    // spec/rules.md "Errors/Message catalogue": 401 on sale and refund (and, without `code`, on the CLI program-key routes).
    authMalformed: platform(401, 'Missing or malformed Authorization header. Expected: Bearer <token>', 'unauthorized'),
    authMissingToken: platform(401, 'Missing API token', 'unauthorized'),
    authInvalidToken: platform(401, 'Invalid API token', 'unauthorized'),
    cliAuthInvalidToken: platform(
      401,
      'Invalid API token. If the key was regenerated, use the new key from the dashboard program settings; a workspace owner can regenerate it there.',
    ),
    // Readiness: the same checks, typed envelope, messages ending with a period.
    readinessMalformed: {
      status: 401,
      envelope: 'typed',
      code: 'invalid_key',
      message: 'Missing or malformed Authorization header. Expected: Bearer <api_token>.',
    },
    readinessMissingToken: { status: 401, envelope: 'typed', code: 'invalid_key', message: 'Missing API token.' },
    readinessInvalidToken: { status: 401, envelope: 'typed', code: 'invalid_key', message: 'Invalid API token.' },
    // spec/rules.md "Authentication" rule 5: a key used after its rotation deadline (typed envelope, plus `hint` and `docs_url`).
    keyRotationRequired: {
      status: 401,
      envelope: 'typed',
      code: 'api_key_rotation_required',
      message: 'This API key has been retired. Use the new key from the dashboard program settings.',
    },
    readinessFailed: { status: 500, envelope: 'typed', code: 'internal_error', message: 'Failed to compute readiness. Retry shortly.' },

    // 400 track click.
    clickUrlRequired: platform(400, 'affiliate_url is required'),
    clickUrlInvalid: platform(400, 'Invalid affiliate_url'),
    clickNoAff: { ...platform(400, 'No aff parameter found in affiliate_url'), clientCode: 'missing_aff' },
    clickLinkNotFound: { ...platform(400, 'Referral link not found'), clientCode: 'link_not_found' },
    clickLinkMisconfigured: platform(400, 'Invalid referral link configuration'),
    clickLinkDisabled: { status: 410, envelope: 'typed', code: 'link_disabled', message: 'This referral link has been turned off.' },

    // 400 track lead.
    leadIdentifierRequired: platform(400, 'click_id or customer_key is required'),
    leadCustomerNotFound: {
      ...platform(400, 'Customer not found. Provide a valid click_id or customer_key.'),
      clientCode: 'customer_not_found',
    },
    leadWrongProgram: platform(400, 'Customer does not belong to this program'),

    // 400 and 422 track sale.
    saleTransactionRequired: platform(400, 'transaction_id is required and must be a string', 'invalid_request'),
    saleAmountInvalid: platform(400, 'amount_cents is required and must be a positive integer', 'invalid_request'),
    saleOccurredAtInvalid: platform(400, 'occurred_at must be an ISO 8601 time within the last 30 days', 'invalid_request'),
    saleProviderPaymentIdInvalid: platform(400, 'provider_payment_id must be a string of 1 to 255 characters', 'invalid_request'),
    saleLivemodeInvalid: platform(400, 'livemode must be a boolean', 'invalid_request'),
    // Neither customer field (spec/openapi.yaml `SaleRequest` **Decision**): a request error, not `no_attribution`.
    saleIdentifierRequired: platform(400, 'customer_key or click_id is required', 'invalid_request'),
    saleCustomerNotFound: platform(400, 'Customer not found. Provide customer_key or click_id.', 'no_attribution'),
    saleOtherProgram: platform(400, 'No affiliate attribution found for this customer in this program', 'no_attribution'),
    saleNoRelationship: platform(400, 'No partner-program relationship found for this customer', 'no_attribution'),
    salePartnerRequired: platform(400, 'partnerId required to create commission', 'no_attribution'),
    saleOutsideWindow: platform(400, 'Click is outside the attribution window for this customer', 'no_attribution'),
    saleDuplicate: platform(409, 'Duplicate transaction_id. This sale has already been recorded.', 'duplicate_transaction'),
    // Another program holds the id (it is unique globally): nothing of that program is told, not even its sale id.
    saleDuplicateElsewhere: platform(
      409,
      "Duplicate transaction_id. It is already used outside this program; send globally unique ids such as your payment processor's payment ids.",
      'duplicate_transaction',
    ),

    // 400 and 404 track refund.
    refundTransactionRequired: platform(400, 'transaction_id is required', 'invalid_request'),
    refundReasonInvalid: platform(400, 'reason must be refund or chargeback', 'invalid_request'),
    refundSaleNotFound: platform(404, 'Sale not found for transaction_id', 'not_found'),

    // 403 (test mode only) and allowed origins.
    programMismatch: platform(403, 'program_id does not match the API key'),
    originRequired: platform(403, 'An Origin header is required: this program accepts browser calls only from its allowed origins'),

    // 500 on tracking routes: generic, request id only in the header.
    clickFailed: platform(500, 'Click tracking failed'),
    leadFailed: platform(500, 'Lead tracking failed'),
    saleFailed: platform(500, 'Sale tracking failed', 'internal_error'),
    refundFailed: platform(500, 'Refund tracking failed', 'internal_error'),
    commissionFailed: { ...platform(500, 'Failed to create commission', 'internal_error'), clientCode: 'commission_failed' },

    // Rate limits (spec/rules.md "Rate-limit response") and the synthetic-chain cap.
    rateLimited: { status: 429, envelope: 'typed', code: 'rate_limited', message: 'Too many requests.' },
    chainCapReached: { status: 429, envelope: 'typed', code: 'rate_limited', message: 'Too many synthetic chains (max 10/program/hour).' },

    // spec/rules.md "CLI errors", login routes.
    callbackMissingFields: platform(400, 'Missing required fields: state, id_token'),
    callbackSessionNotFound: platform(404, 'Session not found or already used'),
    callbackSessionExpired: platform(400, 'Session expired'),
    callbackInvalidIdToken: platform(401, 'Invalid id_token'),
    accountBlocked: platform(403, 'Your account has been suspended.'),
    pollMissingState: platform(400, 'Missing state parameter'),
    pollSessionNotFound: platform(404, 'Session not found'),
    pollSessionConsumed: { ...platform(400, 'Session already consumed'), clientCode: 'session_consumed' },

    // spec/rules.md "CLI errors", account-session routes.
    initAuthRequired: platform(401, 'Authentication required — run svc login first'),
    initTokenInvalid: platform(401, 'Invalid or expired token — run svc login again'),
    initUserNotFound: platform(401, 'User not found — run svc login again'),
    initNoAdvertiser: platform(403, 'No advertiser found for this account — run svc login again'),
    // SVC_WORKSPACE_CREATORS (docs/deploying.md): who may create workspaces and programs.
    workspaceCreateForbidden: platform(
      403,
      'This account may not create programs on this server. Ask a workspace owner for an invitation to their workspace.',
    ),
    initAdvertiserMismatch: platform(403, 'advertiser_id does not match the authenticated account'),
    initMissingFields: platform(400, 'Missing required fields: name, domain, commission_type, commission_rate'),
    initRateInvalid: platform(400, 'commission_rate must be a positive number'),
    initRateTooLarge: platform(400, 'commission_rate must be at most 100 for percent types and at most 1000000000000 for fixed types'),
    // Program fields of /cli/init and the dashboard's program creation (Decisions on `CliInitRequest`); the name's
    // words are the partner name's, since the rule is the same.
    programNameInvalid: platform(400, 'name is required: 1 to 200 characters'),
    programDomainInvalid: platform(
      400,
      'domain must be a host name such as shop.example (letters, digits, hyphens and dots; at most 63 characters per label and 253 in all; an optional :port), without scheme or path',
    ),
    programsAuthRequired: platform(401, 'Missing Authorization header. Run svc login first.'),
    programsTokenInvalid: platform(401, 'Invalid or expired token. Run svc login to refresh.'),
    programsUserNotFound: platform(401, 'User not found'),

    // Retired (spec/rules.md "Versioning" rule 3).
    stripeConnectRetired: platform(
      410,
      'This endpoint is retired. Connect your payment processor from the dashboard: open the program settings and use "Payment processor".',
    ),

    // Dashboard routes (bodies and messages not shown by the spec: our decisions, documented in the OpenAPI spec).
    dashboardSignInRequired: platform(401, 'Sign in to the dashboard first'),
    dashboardNotMember: platform(403, "You are not a member of this program's workspace"),
    dashboardFailed: platform(500, 'Internal server error'),
    dashboardProgramIdRequired: platform(400, 'program_id is required'),
    dashboardProgramIdInvalid: platform(400, 'program_id must be a positive integer'),
    dashboardLimitInvalid: platform(400, 'limit must be an integer from 1 to 200'),
    dashboardAfterIdInvalid: platform(400, 'after_id must be a non-negative integer'),
    dashboardIncludeTestInvalid: platform(400, 'include_test must be true or false'),
    dashboardDaysInvalid: platform(400, 'days must be an integer from 1 to 365'),
    dashboardRangeWithDays: platform(400, 'Send days or from and to, not both'),
    dashboardRangeIncomplete: platform(400, 'from and to go together: send both'),
    dashboardRangeDayInvalid: platform(400, 'from and to must be UTC days written YYYY-MM-DD'),
    dashboardRangeOrder: platform(400, 'from must not be after to'),
    dashboardRangeTooLong: platform(400, 'from and to may span at most 366 days'),
    dashboardSinceInvalid: platform(400, 'since must be an ISO 8601 date-time'),
    dashboardOwnerOnly: platform(403, 'Only a workspace owner can regenerate the API key'),
    dashboardNothingToUpdate: platform(
      400,
      'Send at least one of attribution_window_days, lead_auth, allowed_origins, commission_hold_days, min_payout_cents, risk_hold_kinds, click_flood_threshold, fast_conversion_seconds',
    ),
    programHoldDaysInvalid: platform(400, 'commission_hold_days must be an integer from 0 to 365'),
    programMinPayoutInvalid: platform(400, 'min_payout_cents must be an integer from 0 to 1000000000000'),
    // Risk signals (issue 36; Decisions on the settings route, `RiskKind` and the risk-events routes).
    programRiskHoldKindsInvalid: platform(
      400,
      'risk_hold_kinds must be a list, without repeats, of: self_referral, disposable_email, click_flood, fast_conversion, shared_identity',
    ),
    programClickFloodInvalid: platform(400, 'click_flood_threshold must be an integer from 1 to 10000'),
    programFastConversionInvalid: platform(400, 'fast_conversion_seconds must be an integer from 0 to 3600'),
    riskKindFilterInvalid: platform(
      400,
      'kind must be one of: self_referral, disposable_email, click_flood, fast_conversion, shared_identity',
    ),
    commissionBanInvalid: platform(400, 'ban must be true or false'),
    dashboardWindowInvalid: platform(400, 'attribution_window_days must be an integer from 1 to 365'),
    dashboardLeadAuthInvalid: platform(400, 'lead_auth must be server_required or browser_allowed'),
    dashboardOriginsInvalid: platform(
      400,
      'allowed_origins must be null or a list of at most 100 origins such as https://shop.example, each at most 261 characters',
    ),
    dashboardProcessorInvalid: platform(400, 'processor_account must be null (disconnect)'),
    dashboardProcessorUseConnect: platform(
      400,
      'A Stripe account is connected only with "Connect with Stripe" in the dashboard, which proves you control it; processor_account accepts only null (disconnect)',
    ),

    dashboardProcessorOwnerOnly: platform(403, 'Only a workspace owner can connect the payment processor'),
    crossSiteRefused: platform(403, 'Cross-site request refused: this route accepts requests from the dashboard only'),

    // Sign-in (docs/deploying.md): the dashboard and CLI sign-in pages show these messages.
    signInNotConfigured: platform(
      503,
      'Sign-in is not configured on this server. Set SVC_OIDC_ISSUER, SVC_OIDC_CLIENT_ID and SVC_OIDC_CLIENT_SECRET (or SVC_DEV_SIGN_IN=1 for development); see docs/deploying.md.',
    ),
    signInStateInvalid: platform(400, 'This sign-in link is invalid, expired or already used. Start again from the sign-in page.'),
    signInIssuerRefused: platform(400, 'The identity provider did not complete the sign-in.'),
    signInIssuerUnreachable: platform(503, 'The identity provider could not be reached. Try again in a moment.'),
    signInEmailMissing: platform(400, 'The identity provider sent no email address. Allow the email scope for svc, then sign in again.'),
    signInEmailUnverified: platform(
      403,
      'Your identity provider has not verified your email address. Verify it there, then sign in again.',
    ),
    signInEmailTaken: platform(409, 'This email address already belongs to another svc account.'),
    signInFormExpired: platform(403, 'This sign-in form has expired. Reload the page and try again.'),

    // Partners, referral links and payouts (dashboard, program-key API and partner view; decisions in the OpenAPI spec).
    partnerNameInvalid: platform(400, 'name is required: 1 to 200 characters'),
    partnerEmailInvalid: platform(400, 'email must be an email address, or null'),
    partnerStatusInvalid: platform(400, 'status must be active or suspended'),
    partnerNothingToUpdate: platform(400, 'Send at least one of name, email, status, commission_type and commission_rate'),
    partnerIdInvalid: platform(400, 'partner_id must be a positive integer'),
    partnerNotFound: platform(404, 'Partner not found'),
    linkShortLinkInvalid: platform(400, 'short_link must be 3 to 64 characters: letters, digits, _ or -'),
    linkShortLinkTaken: platform(409, 'This short_link is already taken'),
    linkEnabledInvalid: platform(400, 'enabled is required and must be true or false'),
    linkIdInvalid: platform(400, 'linkId must be a positive integer'),
    linkNotFound: platform(404, 'Referral link not found'),
    commissionsRangeInvalid: platform(400, 'from and to are required: dates (YYYY-MM-DD) or ISO 8601 date-times, from not after to'),
    payoutThroughInvalid: platform(400, 'through is required: a date (YYYY-MM-DD) or an ISO 8601 date-time'),
    payoutOwnerOnly: platform(403, 'Only a workspace owner can record a payout'),
    // Payout records and per-partner terms (Decisions on the payout and partner routes of spec/openapi.yaml).
    payoutReferenceInvalid: platform(400, 'reference must be text of at most 200 characters, or null'),
    payoutMethodInvalid: platform(400, 'method must be text of at most 100 characters, or null'),
    payoutNoteInvalid: platform(400, 'note must be text of at most 1000 characters, or null'),
    payoutForceInvalid: platform(400, 'force must be true or false'),
    // Sent with `error.details.min_payout_cents`.
    payoutBelowMinimum: platform(400, "The payout is below the program's minimum payout; send force: true to record it anyway"),
    payoutNothingToPay: platform(409, 'Nothing to pay: the partner has no due commissions through that date'),
    payoutIdInvalid: platform(400, 'payoutId must be a positive integer'),
    payoutNotFound: platform(404, 'Payout not found'),
    payoutsPageInvalid: platform(400, 'limit must be 1 to 100 and cursor a next_cursor of a previous page'),
    partnerTermsInvalid: platform(
      400,
      'commission_type and commission_rate go together: a type of percent, fixed, recurring_percent or recurring_fixed and a positive rate within its cap, or both null',
    ),
    // The merchant decides (Decisions on the partner and commission routes).
    linkDisabledByMerchant: platform(403, 'This link was turned off by the merchant; ask them to turn it on'),
    commissionIdInvalid: platform(400, 'commissionId must be a positive integer'),
    commissionNotFound: platform(404, 'Commission not found'),
    commissionDecisionOwnerOnly: platform(403, 'Only a workspace owner can approve or decline a commission'),
    commissionDeclineReasonInvalid: platform(400, 'reason is required: 1 to 500 characters'),
    // Sent with `error.details.status`, the commission's current status.
    commissionStatusConflict: platform(409, 'This commission cannot make that change from its current status'),
    // The commission list and adjustments (Decisions on their routes in spec/openapi.yaml).
    commissionStatusFilterInvalid: platform(400, 'status must be one of: pending, held, due, paid, reversed, declined'),
    commissionListRangeInvalid: platform(400, 'from and to must be dates (YYYY-MM-DD) or ISO 8601 date-times, from not after to'),
    commissionListLimitInvalid: platform(400, 'limit must be an integer from 1 to 100'),
    commissionListCursorInvalid: platform(400, 'cursor must be a next_cursor this list answered'),
    adjustmentOwnerOnly: platform(403, 'Only a workspace owner can record an adjustment'),
    adjustmentAmountInvalid: platform(400, 'amount_cents must be a non-zero integer from -1000000000000 to 1000000000000'),
    adjustmentCurrencyInvalid: platform(400, 'currency must be one of: USD, EUR, VND'),

    // The audit log (dashboard; decisions in the OpenAPI spec, `dashboardAuditLog`).
    auditLimitInvalid: platform(400, 'limit must be an integer from 1 to 100'),
    auditCursorInvalid: platform(400, 'cursor must be a next_cursor this list returned'),
    auditActionInvalid: platform(400, 'action must be one of the AuditAction values'),
    auditTargetInvalid: platform(400, 'target must name what was acted on as kind:id, such as partner:3'),

    // Outbound webhook endpoints (dashboard; decisions in the OpenAPI spec, tag `outbound-webhooks`).
    webhookEndpointUrlInvalid: platform(
      400,
      'url must be an absolute http:// or https:// URL of at most 2048 characters, without user name or password',
    ),
    webhookEndpointUrlPrivate: platform(400, 'url must not point at a loopback, private or link-local address'),
    webhookEndpointEventsInvalid: platform(
      400,
      'events must be a non-empty list, without repeats, of: lead.created, sale.created, commission.created, commission.updated, sale.refunded, payout.created, risk.flagged',
    ),
    webhookEndpointLimit: platform(400, 'A program has at most 10 webhook endpoints'),
    webhookEndpointIdInvalid: platform(400, 'endpointId must be a positive integer'),
    webhookEndpointEnabledInvalid: platform(400, 'enabled is required and must be true or false'),
    webhookEndpointNotFound: platform(404, 'Webhook endpoint not found'),
    dashboardEventTypeInvalid: platform(400, 'type must be one of: click, lead, sale, refund'),
    dashboardEventCursorInvalid: platform(400, 'cursor must be a next_cursor this feed answered'),
    teamOwnerOnly: platform(403, 'Only a workspace owner can change the team'),
    teamEmailInvalid: platform(400, 'email must be an email address of at most 254 characters'),
    teamRoleInvalid: platform(400, 'role must be one of: owner, member'),
    teamAccountIdInvalid: platform(400, 'accountId must be a positive integer'),
    teamInvitationIdInvalid: platform(400, 'invitationId must be a positive integer'),
    teamAlreadyMember: platform(409, 'This email already belongs to a member of the team'),
    teamAlreadyInvited: platform(409, 'This email is already invited'),
    teamLastOwner: platform(409, 'The team must keep at least one owner'),
    teamMemberNotFound: platform(404, 'Team member not found'),
    teamInvitationNotFound: platform(404, 'Invitation not found'),
    webhookDeliveryNotFound: platform(404, 'Webhook delivery not found'),
    webhookDeliveryIdInvalid: platform(400, 'deliveryId must be a positive integer'),
    webhookDeliveryLimitInvalid: platform(400, 'limit must be an integer from 1 to 100'),
    webhookDeliveryCursorInvalid: platform(400, 'cursor must be a next_cursor this list answered'),

    // Processor webhooks.
    webhookNotConfigured: platform(500, 'Processor webhooks are not configured: set SVC_PROCESSOR_WEBHOOK_SECRET (see docs/deploying.md)'),
    webhookSignatureMissing: platform(400, 'Missing Stripe-Signature header'),
    webhookSignatureInvalid: platform(400, 'Invalid Stripe-Signature'),
    webhookSignatureStale: platform(400, 'Stripe-Signature timestamp is outside the 5-minute tolerance'),
    webhookNotAnEvent: platform(400, 'Request body is not a processor event'),
    webhookUnknownAccount: platform(400, 'No program is connected to this processor account'),
    webhookProgramMismatch: platform(400, 'metadata.program_id does not match the program connected to this processor account'),

    // "Connect with Stripe" (Stripe Connect OAuth; the callback shows these on a page).
    stripeConnectNotConfigured: platform(
      503,
      'Connect with Stripe is not configured on this server: set SVC_STRIPE_CLIENT_ID and SVC_STRIPE_SECRET_KEY (see docs/deploying.md)',
    ),
    stripeConnectStateInvalid: platform(
      400,
      'This Stripe connection link is invalid, expired, already used or not yours. Start again from the dashboard with "Connect with Stripe".',
    ),
    stripeConnectDenied: platform(400, 'The Stripe account was not connected: the connection was declined on Stripe.'),
    stripeConnectRefused: platform(
      400,
      'Stripe refused to connect the account. Start again from the dashboard with "Connect with Stripe".',
    ),
    stripeConnectUnreachable: platform(503, 'Stripe could not be reached to finish connecting the account. Try again in a moment.'),

    // Test-control API (spec tag `test-control`); routes may name the field or record in the message.
    testControlInvalid: platform(400, 'Invalid test-control request'),
    testControlNotFound: platform(404, 'Record not found'),

    // Transport-level refusals, in the platform envelope.
    payloadTooLarge: platform(413, 'Request body is larger than 65536 bytes'),
    // A body of a media type the route does not read is an invalid request (spec/rules.md "Errors/Status codes", 400).
    unsupportedMediaType: platform(400, 'Content-Type must be application/json'),
    invalidJson: platform(400, 'Request body is not valid JSON'),
    routeNotFound: platform(404, 'Route not found'),
    shuttingDown: platform(503, 'Server is shutting down'),

    // Messages with a variable part (the request's value, the allowed ones, the request id).
    leadStatusInvalid: templated(400, messageTemplates.leadStatus, { clientCode: leadStatusCode }),
    originNotAllowed: templated(403, messageTemplates.originNotAllowed),
    // `details.supported` lists the currencies the service takes.
    saleCurrencyUnsupported: templated(422, messageTemplates.saleCurrency, { code: 'unsupported_currency' }),
    saleProviderInvalid: templated(400, messageTemplates.saleProvider, { code: 'invalid_request' }),
    initCommissionTypeInvalid: templated(400, messageTemplates.initCommissionType),
    testEventTypeInvalid: templated(400, messageTemplates.testEventType),
    // A CLI route's 500 names what failed and ends with the request id (`details.request_id` too).
    cliFailed: templated(500, messageTemplates.cliFailure),
  }) as const satisfies Record<string, CatalogueEntry | TemplatedCatalogueEntry<never>>)();

export type CatalogueKey = keyof typeof catalogue;
/** Keys of the entries with a fixed message. */
export type FixedCatalogueKey = { [K in CatalogueKey]: (typeof catalogue)[K] extends CatalogueEntry ? K : never }[CatalogueKey];
/** Keys of the entries whose message is a function of what varies. */
export type TemplatedCatalogueKey = Exclude<CatalogueKey, FixedCatalogueKey>;
/** The values a templated entry's message is built from. */
export type TemplateArgs<K extends TemplatedCatalogueKey> = Parameters<(typeof catalogue)[K]['message']>;

/** Whether an entry's message is fixed (tests and docs quote those word for word). */
export const isFixedEntry = (entry: CatalogueEntry | TemplatedCatalogueEntry<never>): entry is CatalogueEntry =>
  typeof entry.message === 'string';

/** Retry hint of the readiness 500 (spec/rules.md "Limits", "Readiness 500 retry hint"). */
export const readinessRetryAfterSeconds = 10;
