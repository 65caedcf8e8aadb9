import type {
  paths,
  CliAuthPollResponse,
  CliAuthStartResponse,
  CliInitRequest,
  CliInitResponse,
  CliProgramsResponse,
  CliStatusResponse,
  ClickRequest,
  CommissionsPage,
  ClickResponse,
  LeadRequest,
  LinkCreateRequest,
  LinkResponse,
  LinksResponse,
  LinkUpdateRequest,
  PartnerCreateRequest,
  PartnerResponse,
  PartnersResponse,
  RefundRequest,
  RefundResponse,
  ReadinessResponse,
  SaleRequest,
  TestEventRequest,
  TestEventResponse,
} from '@svc/types';
import type { PathWith } from '../http/paths';
import { send, type Call } from '../http/send';
import type { RetryMode } from '../retry/policy';
import { resolveOptions, type SvcOptions } from './options';
import { recoverLead, recoverSale } from './recover';
import type { Exact, LeadResult, SaleResult, SvcResult } from './types';
import { warnUnattributed } from './unattributed';

/** Tracking routes (spec/rules.md "Endpoints"). */
export interface SvcTrack {
  /** Forwards a click from your server (`POST /api/v1/track/click`); retried only on 429. */
  click<B extends ClickRequest>(body: Exact<ClickRequest, B>): Promise<SvcResult<ClickResponse>>;
  /** Records a signup (`POST /api/v1/track/lead`) in server mode (with the key). */
  lead<B extends LeadRequest>(body: Exact<LeadRequest, B>): Promise<LeadResult>;
  /** Records a sale (`POST /api/v1/track/sale`); a 409 resolves with `duplicate: true`. */
  sale<B extends SaleRequest>(body: Exact<SaleRequest, B>): Promise<SaleResult>;
  /** Reverses a sale's commission (`POST /api/v1/track/refund`). */
  refund<B extends RefundRequest>(body: Exact<RefundRequest, B>): Promise<SvcResult<RefundResponse>>;
}

/** CLI routes (spec/rules.md "CLI routes"): program-key routes, and the account routes the `svc` CLI uses with a login token. */
export interface SvcCli {
  /** Program health: program, metrics and readiness (`GET /api/v1/cli/status`). */
  status(): Promise<SvcResult<CliStatusResponse>>;
  /** A test event (`event_type`) or the synthetic chain (`type: 'chain'`). */
  testEvent<B extends TestEventRequest>(body: Exact<TestEventRequest, B>): Promise<SvcResult<TestEventResponse>>;
  /** Creates a program with the account's login token. A 500 is not retried: list programs first (spec/rules.md "CLI errors"). */
  init<B extends CliInitRequest>(body: Exact<CliInitRequest, B>, loginToken: string): Promise<SvcResult<CliInitResponse>>;
  /** Lists the account's programs with its login token. */
  programs(loginToken: string): Promise<SvcResult<CliProgramsResponse>>;
  /** Starts a browser login session; returns its `state`. */
  authStart(): Promise<SvcResult<CliAuthStartResponse>>;
  /** Polls a login session; the token comes once, on the first poll after sign-in. Retried on 429, 5xx and network failures. */
  authPoll(state: string): Promise<SvcResult<CliAuthPollResponse>>;
}

/** Partners of the key's program (`/api/v1/partners`). */
export interface SvcPartners {
  /** Adds a partner (`name`, optional `email`: the invitation to the partner view). Not retried but on 429. */
  create<B extends PartnerCreateRequest>(body: Exact<PartnerCreateRequest, B>): Promise<SvcResult<PartnerResponse>>;
  /** Every partner with its clicks, leads, sales, revenue and commissions (due, paid, reversed, balance). */
  list(): Promise<SvcResult<PartnersResponse>>;
}

/** The filters of `svc.commissions.list` (`GET /api/v1/commissions`); dates as `YYYY-MM-DD` or ISO 8601 date-times. */
export type CommissionListQuery = NonNullable<paths['/api/v1/commissions']['get']['parameters']['query']>;

/** Commissions of the key's program (`/api/v1/commissions`). */
export interface SvcCommissions {
  /**
   * The commissions, newest first, one page (`limit`, at most 100) per step of the iterator, following
   * `next_cursor` until the last page: `for await (const page of svc.commissions.list({ status: 'due' }))`.
   */
  list(query?: CommissionListQuery): AsyncGenerator<SvcResult<CommissionsPage>, void, undefined>;
}

/** Referral links of the key's program (`/api/v1/links`); each carries its shareable `url`. */
export interface SvcLinks {
  /** Creates a link for a partner; `short_link` is generated when absent. A taken one is `SvcConflictError`. */
  create<B extends LinkCreateRequest>(body: Exact<LinkCreateRequest, B>): Promise<SvcResult<LinkResponse>>;
  /** The program's links, or one partner's. */
  list(query?: { partner_id?: number }): Promise<SvcResult<LinksResponse>>;
  /** Turns a link off or on, by its `short_link`. */
  update<B extends LinkUpdateRequest>(shortLink: string, body: Exact<LinkUpdateRequest, B>): Promise<SvcResult<LinkResponse>>;
}

/** Marks a result `duplicate: false` unless `recover` made it a duplicate (which says `duplicate: true` itself). */
type Flagged<R> = R extends { duplicate: true } ? R : R & { duplicate: false };
const flagged = <R extends object>(result: Promise<R>) =>
  result.then((r) => ({ ...r, duplicate: (r as { duplicate?: unknown }).duplicate === true }) as Flagged<R>);

/**
 * The svc server SDK. `new Svc()` reads `SVC_API_KEY` and `SVC_BASE_URL` where the runtime has `process`.
 * Results are the spec's response bodies (snake_case) plus `requestId` and `rateLimit`.
 */
export class Svc {
  declare readonly track: SvcTrack;
  declare readonly cli: SvcCli;
  declare readonly partners: SvcPartners;
  declare readonly links: SvcLinks;
  declare readonly commissions: SvcCommissions;
  readonly #readiness: () => Promise<SvcResult<ReadinessResponse>>;

  /**
   * Throws at once, before any request, when there is no key at all (no `apiKey`, no non-empty `SVC_API_KEY`):
   * most calls need one. `apiKey: ''` is a client without a program key (click, login and login-token calls).
   */
  constructor(options: SvcOptions = {}) {
    const transport = resolveOptions(options);
    if (transport.apiKey === undefined) {
      throw TypeError("svc: no API key: pass { apiKey } or set SVC_API_KEY ('' for keyless calls)");
    }
    // Reads are `safe` to retry; a write is `once` unless the service answers its retry idempotently (retry/policy.ts).
    // Each result's type is the route's 2xx body in spec/openapi.yaml (http/paths.ts), checked against the interfaces above.
    const get = <P extends PathWith<'get'>>(path: P, token?: string, query?: Call<'get', P, never>['query']) =>
      send(transport, { method: 'get', path, mode: 'safe', token, query });
    const post = <P extends PathWith<'post'>, R extends object = never>(
      path: P,
      body?: object,
      mode: RetryMode = 'once',
      token?: string,
      recover?: Call<'post', P, R>['recover'],
    ) => send(transport, { method: 'post', path, body, mode, token, recover });
    this.#readiness = () => get('/api/v1/programs/me/readiness');
    this.track = {
      click: (body) => post('/api/v1/track/click', body),
      lead: (body) => flagged(post('/api/v1/track/lead', body, 'safe', undefined, recoverLead)).then(warnUnattributed),
      // A test sale without `transaction_id` has no idempotency key, so only a 429 may be retried.
      sale: (body) => flagged(post('/api/v1/track/sale', body, body.transaction_id ? 'safe' : 'once', undefined, recoverSale(body))),
      refund: (body) => post('/api/v1/track/refund', body, 'safe'),
    };
    this.cli = {
      status: () => get('/api/v1/cli/status'),
      testEvent: (body) => post('/api/v1/cli/test-event', body),
      init: (body, loginToken) => post('/api/v1/cli/init', body, 'once', loginToken),
      programs: (loginToken) => get('/api/v1/cli/programs', loginToken),
      // The login routes take no credential: the program key is not sent to them.
      authStart: () => post('/api/v1/cli/auth/start', undefined, 'once', ''),
      // A read as far as retries go (spec/rules.md "Errors/Status codes": 500 → retry with backoff): the token is handed out only
      // in a successful answer, so a failed poll consumed nothing; a retry whose lost predecessor did take the
      // token answers 400 `Session already consumed`, which the caller reports (spec/rules.md "States and transitions").
      authPoll: (state) => get('/api/v1/cli/auth/poll', '', { state }),
    };
    // Creating is `once` (a retry could add a second partner or link); reads and the on/off switch are idempotent.
    this.partners = {
      create: (body) => post('/api/v1/partners', body),
      list: () => get('/api/v1/partners'),
    };
    this.commissions = {
      // The next page's query is the first one with its cursor; none after the last page.
      async *list(query = {}) {
        for (let q: CommissionListQuery | undefined = query; q;) {
          const page: SvcResult<CommissionsPage> = await get('/api/v1/commissions', undefined, q);
          yield page;
          q = page.next_cursor ? { ...query, cursor: page.next_cursor } : undefined;
        }
      },
    };
    this.links = {
      create: (body) => post('/api/v1/links', body),
      list: ({ partner_id } = {}) => get('/api/v1/links', undefined, { partner_id }),
      update: (short_link, body) =>
        send(transport, { method: 'patch', path: '/api/v1/links/{short_link}', params: { short_link }, body, mode: 'safe' }),
    };
  }

  /** The readiness verdict of the key's program (`GET /api/v1/programs/me/readiness`). */
  readiness(): Promise<SvcResult<ReadinessResponse>> {
    return this.#readiness();
  }
}
