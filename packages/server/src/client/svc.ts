import type {
  paths,
  CliAuthPollResponse,
  CliAuthStartResponse,
  CliInitRequest,
  CliInitResponse,
  CliProgramsResponse,
  CliStatusResponse,
  ClickRequest,
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
import { SvcNetworkError } from '../errors/errors';
import type { ResponseMeta } from '../http/meta';
import { send, type Call } from '../http/send';
import { resolveOptions, type SvcOptions } from './options';
import { recoverLead, recoverSale } from './recover';
import type { Exact, LeadResult, SaleResult, SvcResult } from './types';

/** Tracking routes (§Endpoints). */
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

/** CLI routes (§CLI routes): program-key routes, and the account routes the `svc` CLI uses with a login token. */
export interface SvcCli {
  /** Program health: program, metrics and readiness (`GET /api/v1/cli/status`). */
  status(): Promise<SvcResult<CliStatusResponse>>;
  /** A test event (`event_type`) or the synthetic chain (`type: 'chain'`). */
  testEvent<B extends TestEventRequest>(body: Exact<TestEventRequest, B>): Promise<SvcResult<TestEventResponse>>;
  /** Creates a program with the account's login token. A 500 is not retried: list programs first (§CLI errors). */
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

/** Referral links of the key's program (`/api/v1/links`); each carries its shareable `url`. */
export interface SvcLinks {
  /** Creates a link for a partner; `short_link` is generated when absent. A taken one is `SvcConflictError`. */
  create<B extends LinkCreateRequest>(body: Exact<LinkCreateRequest, B>): Promise<SvcResult<LinkResponse>>;
  /** The program's links, or one partner's. */
  list(query?: { partner_id?: number }): Promise<SvcResult<LinksResponse>>;
  /** Turns a link off or on, by its `short_link`. */
  update<B extends LinkUpdateRequest>(shortLink: string, body: Exact<LinkUpdateRequest, B>): Promise<SvcResult<LinkResponse>>;
}

const paths = {
  click: '/api/v1/track/click',
  lead: '/api/v1/track/lead',
  sale: '/api/v1/track/sale',
  refund: '/api/v1/track/refund',
  readiness: '/api/v1/programs/me/readiness',
  status: '/api/v1/cli/status',
  testEvent: '/api/v1/cli/test-event',
  init: '/api/v1/cli/init',
  programs: '/api/v1/cli/programs',
  authStart: '/api/v1/cli/auth/start',
  authPoll: '/api/v1/cli/auth/poll',
  partners: '/api/v1/partners',
  links: '/api/v1/links',
} as const satisfies Record<string, keyof paths>;

/**
 * The svc server SDK. `new Svc()` reads `SVC_API_KEY` and `SVC_BASE_URL` where the runtime has `process`.
 * Results are the spec's response bodies (snake_case) plus `requestId` and `rateLimit`.
 */
export class Svc {
  readonly track: SvcTrack;
  readonly cli: SvcCli;
  readonly partners: SvcPartners;
  readonly links: SvcLinks;
  readonly #call: <T>(c: Call) => Promise<T & ResponseMeta>;

  /**
   * Throws at once, before any request, when there is no key at all (no `apiKey`, no non-empty `SVC_API_KEY`):
   * most calls need one. `apiKey: ''` is a client without a program key (click, login and login-token calls).
   */
  constructor(options: SvcOptions = {}) {
    const transport = resolveOptions(options);
    if (transport.apiKey === undefined) {
      throw TypeError("svc: no API key: pass { apiKey } or set SVC_API_KEY ('' for keyless calls)");
    }
    // A network failure names the address it could not reach.
    const call = (this.#call = <T>(c: Call) =>
      send<T>(transport, c).catch((e) => {
        throw e instanceof SvcNetworkError ? new SvcNetworkError(`${e.message} (${c.method} ${transport.baseUrl + c.path})`, e, e) : e;
      }));
    const post = (path: string, body: object | undefined, mode: Call['mode'], token?: string) =>
      ({ method: 'POST', path, body, mode, token }) as const;
    this.track = {
      click: (body) => call(post(paths.click, body, 'once')),
      lead: (body) =>
        call<LeadResult>({ ...post(paths.lead, body, 'safe'), recover: recoverLead }).then((r) => ({
          ...r,
          duplicate: r.duplicate === true,
        })),
      // A test sale without `transaction_id` has no idempotency key, so only a 429 may be retried.
      sale: (body) =>
        call<SaleResult>({ ...post(paths.sale, body, body.transaction_id ? 'safe' : 'once'), recover: recoverSale(body) }).then(
          (r) => ({ ...r, duplicate: r.duplicate === true }) as SaleResult,
        ),
      refund: (body) => call(post(paths.refund, body, 'safe')),
    };
    this.cli = {
      status: () => call({ method: 'GET', path: paths.status, mode: 'safe' }),
      testEvent: (body) => call(post(paths.testEvent, body, 'once')),
      init: (body, loginToken) => call(post(paths.init, body, 'once', loginToken)),
      programs: (loginToken) => call({ method: 'GET', path: paths.programs, mode: 'safe', token: loginToken }),
      // The login routes take no credential: the program key is not sent to them.
      authStart: () => call(post(paths.authStart, undefined, 'once', '')),
      // A read as far as retries go (§Errors/Status codes: 500 → retry with backoff): the token is handed out only
      // in a successful answer, so a failed poll consumed nothing; a retry whose lost predecessor did take the
      // token answers 400 `Session already consumed`, which the caller reports (§States and transitions).
      authPoll: (state) => call({ method: 'GET', path: paths.authPoll, query: { state }, mode: 'safe', token: '' }),
    };
    // Creating is `once` (a retry could add a second partner or link); reads and the on/off switch are idempotent.
    const read = <T>(path: string, query?: Record<string, string>) => call<T>({ method: 'GET', path, query, mode: 'safe' });
    this.partners = {
      create: (body) => call(post(paths.partners, body, 'once')),
      list: () => read(paths.partners),
    };
    this.links = {
      create: (body) => call(post(paths.links, body, 'once')),
      list: ({ partner_id } = {}) => read(paths.links, partner_id ? { partner_id: `${partner_id}` } : {}),
      update: (shortLink, body) => call({ method: 'PATCH', path: `${paths.links}/${encodeURIComponent(shortLink)}`, body, mode: 'safe' }),
    };
  }

  /** The readiness verdict of the key's program (`GET /api/v1/programs/me/readiness`). */
  readiness(): Promise<SvcResult<ReadinessResponse>> {
    return this.#call({ method: 'GET', path: paths.readiness, mode: 'safe' });
  }
}
