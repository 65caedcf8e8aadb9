import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The database schema, one set of types for SQLite and PostgreSQL.
 * Conventions that keep one set of queries valid on both:
 * - times are epoch milliseconds (integer / bigint), compared numerically;
 * - flags are integers 0/1 (`Flag`), never native booleans;
 * - amounts are integer cents (spec/rules.md "Attribution rules", "Amounts").
 */
export type Flag = 0 | 1;

export interface AccountsTable {
  id: Generated<number>;
  email: string;
  blocked: Generated<Flag>;
  created_at: number;
  /** The OpenID Connect identity (issuer + subject) that signs in as this account; null for dev accounts. */
  oidc_issuer: string | null;
  oidc_subject: string | null;
}

export interface AdvertisersTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  created_at: number;
}

export interface WorkspacesTable {
  id: Generated<number>;
  advertiser_id: number;
  name: string;
  created_at: number;
}

export interface MembershipsTable {
  id: Generated<number>;
  workspace_id: number;
  account_id: number;
  role: 'owner' | 'member';
  active: Generated<Flag>;
  created_at: number;
}

export interface ProgramsTable {
  id: Generated<number>;
  workspace_id: number;
  advertiser_id: number;
  name: string;
  domain: string;
  commission_type: 'percent' | 'fixed' | 'recurring_percent' | 'recurring_fixed';
  commission_rate: number;
  attribution_window_days: number;
  lead_auth: 'server_required' | 'browser_allowed';
  /** JSON array of origins; null = any origin. */
  allowed_origins: string | null;
  /** SHA-256 of the key (hex); the key itself is never stored. */
  api_key_hash: string;
  api_key_last4: string;
  key_marked_at: number | null;
  key_rotate_by: number | null;
  /** Connected payment-processor account (e.g. Stripe `acct_…`). */
  processor_account: string | null;
  created_at: number;
  /** Days a new commission stays `pending` (its refund window) before it is due; 0: due at once. */
  commission_hold_days: Generated<number>;
  /** A payout paying less than this (in any currency) needs `force` (domain/payouts/payout.ts). */
  min_payout_cents: Generated<number>;
  /** The risk kinds whose commissions are created `held`, comma-separated (domain/risk/kinds.ts). */
  risk_hold_kinds: Generated<string>;
  /** More clicks than this on one link from one IP within 10 minutes is a `click_flood`. */
  click_flood_threshold: Generated<number>;
  /** A lead this many seconds or less after its click, from the click's IP, is a `fast_conversion`; 0: off. */
  fast_conversion_seconds: Generated<number>;
}

export interface PartnersTable {
  id: Generated<number>;
  program_id: number;
  name: string;
  /** Lower-cased; the account signing in with this email sees the partner view. */
  email: string | null;
  /** `suspended`: every link of the partner refuses clicks, as a disabled link does. */
  status: Generated<'active' | 'suspended'>;
  /** 1: the test partner of the CLI's test clicks (`domain/cli/test-fixture.ts`), never one of the program's partners. */
  is_test: Generated<Flag>;
  /** The invitation to the partner view: only `accepted` shows the program to the account with `email`. */
  invitation: Generated<PartnerInvitation>;
  /** The dashboard account that added the partner or set its email; null when the program key did. */
  invited_by_account_id: number | null;
  /** The partner's own terms for sales recorded from now on; both null: the program's (domain/partners/terms.ts). */
  commission_type: Generated<ProgramsTable['commission_type'] | null>;
  commission_rate: Generated<number | null>;
  /** The risk kinds flagged on the partner (`shared_identity`, `click_flood`), comma-separated; null: none. */
  risk_kinds: Generated<string | null>;
  created_at: number;
}

export type PartnerInvitation = 'pending' | 'accepted' | 'declined';

export interface ReferralLinksTable {
  id: Generated<number>;
  program_id: number | null;
  partner_id: number | null;
  short_link: string;
  enabled: Generated<Flag>;
  /** Who turned it off (null while on): a partner may turn on only a link they turned off themselves. */
  disabled_by: Generated<'merchant' | 'partner' | null>;
  created_at: number;
}

export interface ClicksTable {
  id: Generated<number>;
  click_id: string;
  program_id: number;
  partner_id: number;
  link_id: number;
  is_test: Flag;
  created_at: number;
}

export interface CustomersTable {
  id: Generated<number>;
  program_id: number;
  customer_key: string | null;
  /** The click the customer is attributed to (the first one: first click wins). */
  click_id: string | null;
  partner_id: number | null;
  status: 'clicked' | 'provisional_lead' | 'lead' | 'converted';
  provisional: Generated<Flag>;
  /** 1 while the lead came only from a browser-mode call (`browser_allowed`): a server-mode lead may override it. */
  lead_by_browser: Generated<Flag>;
  is_test: Flag;
  email: string | null;
  /** Time of the (settled or provisional) signup; the window check on sale compares the click to it. */
  lead_at: number | null;
  /** Time of the first sale recorded as a conversion; after it, payments are not re-checked. */
  converted_at: number | null;
  /** Time of the attributing click (copied so the window check needs no join). */
  clicked_at: number | null;
  /** The risk kinds flagged on this customer (`self_referral`, …), comma-separated; null: none. */
  risk_kinds: Generated<string | null>;
  /** A hash of the attributing click's IP (domain/risk/ip.ts); null for a customer without a click. */
  click_ip: Generated<string | null>;
  created_at: number;
  updated_at: number;
}

export interface SalesTable {
  id: Generated<number>;
  program_id: number;
  customer_id: number | null;
  partner_id: number | null;
  /** The request's `transaction_id`; UNIQUE across all programs (spec/rules.md "Resources/Sale record"). */
  processor_event_id: string;
  amount_cents: number;
  currency: 'USD' | 'EUR' | 'VND';
  is_test: Flag;
  refunded: Generated<Flag>;
  refunded_at: number | null;
  refund_reason: string | null;
  refund_note: string | null;
  provider: string | null;
  provider_payment_id: string | null;
  livemode: Flag | null;
  source: 'api' | 'processor';
  occurred_at: number;
  created_at: number;
}

export type CommissionStatus = 'pending' | 'held' | 'reversed' | 'declined';

export interface CommissionsTable {
  id: Generated<number>;
  /** Null for an adjustment (`kind`), which has no sale. */
  sale_id: number | null;
  program_id: number;
  partner_id: number;
  amount_cents: number;
  currency: 'USD' | 'EUR' | 'VND';
  /** `sale`: a sale's commission; `adjustment`: a bonus or clawback the merchant recorded (no sale). */
  kind: Generated<'sale' | 'adjustment'>;
  /**
   * `pending`: earned; payable once unpaid and `due_at` has come (shown as `pending` before, `due` after);
   * `held`: waits for the merchant (`hold_reason`); `declined`: never paid, never counted.
   */
  status: CommissionStatus;
  /**
   * Why a `held` commission waits: `partner_suspended` (released when the partner is reactivated) or `risk` (a risk
   * signal of a kind the program holds on: approved or declined one by one).
   */
  hold_reason: Generated<'partner_suspended' | 'risk' | null>;
  /** The merchant's approve or decline: who (null: released by reactivating the partner through the API) and when. */
  decided_by_account_id: Generated<number | null>;
  decided_at: Generated<number | null>;
  decline_reason: Generated<string | null>;
  created_at: number;
  /** When the program's hold period ends (created_at + `commission_hold_days`), or when the merchant approved it. */
  due_at: number;
  reversed_at: number | null;
  /** When a payout marked it paid. */
  paid_at: Generated<number | null>;
  /** Reversed after it was paid: when a later payout netted it (until then the partner's balance is lower). */
  clawback_settled_at: Generated<number | null>;
  /** The payout that paid it; and the one that netted it when it was reversed after payment. */
  payout_id: Generated<number | null>;
  clawback_payout_id: Generated<number | null>;
}

/** One risk signal (store/migrations/0013_risk_signals.ts, domain/risk/). */
export interface RiskEventsTable {
  id: Generated<number>;
  program_id: number;
  partner_id: number;
  kind: 'self_referral' | 'disposable_email' | 'click_flood' | 'fast_conversion' | 'shared_identity';
  /** What it is about: a customer (id), a click (click id), a link (id) or another partner (id). */
  subject_type: 'customer' | 'click' | 'link' | 'partner';
  subject_id: string;
  /** JSON object: the evidence. */
  details: string;
  at: number;
}

/** A payout the owner recorded (store/migrations/0012_payout_records.ts, domain/payouts/). */
export interface PayoutsTable {
  id: Generated<number>;
  program_id: number;
  partner_id: number;
  /** The last commission time it covered. */
  through: number;
  /** JSON: per currency `{ amount_cents, commissions, clawbacks, carried_cents }`, as settled; never rewritten. */
  totals: string;
  reference: string | null;
  method: string | null;
  note: string | null;
  created_by_account_id: number | null;
  /** The actor's label at the time (an email, `api key …last4`). */
  created_by: string;
  created_at: number;
}

/** One record per tracking request (spec/rules.md "Events"); the dashboard's event feed. */
export interface EventsTable {
  id: Generated<number>;
  program_id: number;
  type: 'click' | 'lead' | 'sale';
  is_test: Flag;
  occurred_at: number;
  partner_id: number | null;
  click_id: string | null;
  customer_key: string | null;
  provisional: Generated<Flag>;
  sale_id: number | null;
  amount_cents: number | null;
  currency: 'USD' | 'EUR' | 'VND' | null;
  source: 'api' | 'processor' | null;
}

/** Incrementally maintained program totals (real events only), never recomputed by scanning. */
export interface ProgramMetricsTable {
  program_id: number;
  /** Who wrote the row (store/engine/metrics.ts): a program's counters are the sum of its rows. */
  shard: Generated<number>;
  clicks: Generated<number>;
  leads: Generated<number>;
  sales: Generated<number>;
  processor_sales: Generated<number>;
  test_clicks: Generated<number>;
  test_leads: Generated<number>;
  test_sales: Generated<number>;
  last_click_at: number | null;
  last_lead_at: number | null;
  last_sale_at: number | null;
  last_processor_sale_at: number | null;
  last_event_at: number | null;
}

/** Daily rollups by partner (partner_id 0 = unattributed) for the performance route. */
export interface DailyMetricsTable {
  program_id: number;
  day: string;
  partner_id: number;
  /** As `ProgramMetricsTable.shard`: the rows of a day and partner are summed. */
  shard: Generated<number>;
  clicks: Generated<number>;
  leads: Generated<number>;
  sales: Generated<number>;
}

/** Money rollups by day, partner and currency (amounts in different currencies are never added). */
export interface DailyAmountsTable {
  program_id: number;
  day: string;
  partner_id: number;
  currency: 'USD' | 'EUR' | 'VND';
  /** As `ProgramMetricsTable.shard`: the rows of a day, partner and currency are summed. */
  shard: Generated<number>;
  revenue_cents: Generated<number>;
  commissions_cents: Generated<number>;
}

export interface LoginSessionsTable {
  id: Generated<number>;
  /** SHA-256 of the `state` (a bearer secret until the token is handed out). */
  state_hash: string;
  /** The code `svc login` prints; the browser shows it beside **Authorize**. */
  user_code: string | null;
  /** Signed in at the identity provider, waiting for the person to press **Authorize**. */
  pending_account_id: number | null;
  /** SHA-256 of the one-time token the **Authorize** form carries (its CSRF protection). */
  confirm_hash: string | null;
  created_at: number;
  completed_at: number | null;
  account_id: number | null;
  /** Set when the login token was minted and handed out (first poll after sign-in); later polls are refused. */
  consumed_at: number | null;
}

export interface LoginTokensTable {
  id: Generated<number>;
  token_hash: string;
  account_id: number;
  created_at: number;
  expires_at: number;
}

export interface DashboardSessionsTable {
  id: Generated<number>;
  token_hash: string;
  account_id: number;
  created_at: number;
  expires_at: number;
}

/** Processor webhook events already handled (redelivery records nothing new). */
export interface ProcessorEventsTable {
  event_id: string;
  program_id: number | null;
  type: string;
  outcome: string;
  created_at: number;
}

/** Synthetic verification chains, for the cap of 10 per program per hour. */
export interface ChainRunsTable {
  id: Generated<number>;
  program_id: number;
  created_at: number;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

/** One OpenID Connect sign-in between the redirect to the issuer and its callback. */
export interface SignInAttemptsTable {
  id: Generated<number>;
  state_hash: string;
  nonce: string;
  code_verifier: string;
  /** SHA-256 of the CLI login `state` this sign-in completes; null for a dashboard sign-in. */
  cli_state_hash: string | null;
  created_at: number;
  used_at: number | null;
}

/** One "Connect with Stripe" attempt between the redirect to Stripe and its callback (only the state's hash). */
export interface ProcessorConnectStatesTable {
  id: Generated<number>;
  state_hash: string;
  /** The signed-in account that began it: only its session may finish it. */
  account_id: number;
  program_id: number;
  created_at: number;
  used_at: number | null;
}

/** One append-only audit entry (store/migrations/0010_audit_log.ts, domain/audit/). */
export interface AuditLogTable {
  id: Generated<number>;
  program_id: number;
  at: number;
  /** The signed-in account that acted; null for the program key and the system. */
  actor_account_id: number | null;
  /** Who, as shown then: the account's email, `api key …last4` or `system`. */
  actor: string;
  action: string;
  /** What was acted on, `kind:id` (`commission:12`, `partner:3`, `program:1`). */
  target: string;
  /** JSON object: what changed (old and new values, amounts). */
  details: string;
  reason: string | null;
}

/** A program's outbound webhook endpoint (spec/openapi.yaml, tag `outbound-webhooks`). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  program_id: number;
  url: string;
  /** JSON array of the event types it receives. */
  events: string;
  /** The signing secret, encrypted with the server secret (`domain/webhooks/secret.ts`); never stored in clear. */
  secret_sealed: string;
  /** Its last 4 characters, shown in the dashboard to tell secrets apart. */
  secret_last4: string;
  /** 0: paused (nothing queued for it, its queued deliveries wait). */
  enabled: Generated<Flag>;
  created_at: number;
}

/** The outbox: one event, written in the transaction of the record it describes; its body is sent byte for byte. */
export interface WebhookEventsTable {
  id: Generated<number>;
  program_id: number;
  /** The `webhook-id` header (`msg_…`), the same on every attempt and for every endpoint. */
  message_id: string;
  type: string;
  payload: string;
  created_at: number;
}

/** One event's delivery to one endpoint; times on the server's clock except `locked_until` (real time: a lease). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_id: number;
  endpoint_id: number;
  program_id: number;
  event_type: string;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  max_attempts: number;
  /** Null once delivered or failed. */
  next_attempt_at: number | null;
  /** Who claimed it, until `locked_until`: only that claim records the attempt. */
  lease_token: string | null;
  locked_until: number | null;
  last_attempt_at: number | null;
  last_response_status: number | null;
  last_error: string | null;
  created_at: number;
}

/** One attempt of a delivery (server clock), its answer's status and the start of its body, or why none came. */
export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  /** 1 for the first attempt of its delivery. */
  attempt: number;
  at: number;
  /** Real time from sending to the answer (or the failure). */
  duration_ms: number;
  response_status: number | null;
  /** At most `responseExcerptBytes` (outbound/http-sender.ts) of the answer's body, as text. */
  response_excerpt: string | null;
  error: string | null;
}

/** An email invited to a workspace's team; it becomes a membership when that email's account signs in. */
export interface MembershipInvitationsTable {
  id: Generated<number>;
  workspace_id: number;
  /** Lower-cased. */
  email: string;
  role: 'owner' | 'member';
  invited_by_account_id: number | null;
  created_at: number;
}

export interface Database {
  accounts: AccountsTable;
  advertisers: AdvertisersTable;
  workspaces: WorkspacesTable;
  memberships: MembershipsTable;
  programs: ProgramsTable;
  partners: PartnersTable;
  referral_links: ReferralLinksTable;
  clicks: ClicksTable;
  customers: CustomersTable;
  sales: SalesTable;
  commissions: CommissionsTable;
  events: EventsTable;
  program_metrics: ProgramMetricsTable;
  daily_metrics: DailyMetricsTable;
  daily_amounts: DailyAmountsTable;
  login_sessions: LoginSessionsTable;
  sign_in_attempts: SignInAttemptsTable;
  server_secrets: ServerSecretsTable;
  login_tokens: LoginTokensTable;
  dashboard_sessions: DashboardSessionsTable;
  processor_events: ProcessorEventsTable;
  processor_connect_states: ProcessorConnectStatesTable;
  chain_runs: ChainRunsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  membership_invitations: MembershipInvitationsTable;
  audit_log: AuditLogTable;
  payouts: PayoutsTable;
  risk_events: RiskEventsTable;
}

export type Program = Selectable<ProgramsTable>;
export type NewProgram = Insertable<ProgramsTable>;
export type ProgramUpdate = Updateable<ProgramsTable>;
export type Customer = Selectable<CustomersTable>;
export type Sale = Selectable<SalesTable>;
export type Click = Selectable<ClicksTable>;
export type ReferralLink = Selectable<ReferralLinksTable>;
export type Account = Selectable<AccountsTable>;
export type Partner = Selectable<PartnersTable>;
export type Commission = Selectable<CommissionsTable>;
export type PayoutRow = Selectable<PayoutsTable>;
export type RiskEventRow = Selectable<RiskEventsTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type MembershipInvitationRow = Selectable<MembershipInvitationsTable>;
