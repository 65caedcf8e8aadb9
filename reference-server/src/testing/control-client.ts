import type { paths } from '@svc/types';

type JsonBody<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Ok<Op, S extends number> = Op extends { responses: { [K in S]: { content: { 'application/json': infer R } } } } ? R : never;

type Post<P extends keyof paths> = paths[P] extends { post: infer Op } ? Op : never;

/** A typed client of the reference server's `/_test/*` control API (spec tag `test-control`). */
export interface ControlClient {
  reset(): Promise<void>;
  createProgram(body?: JsonBody<Post<'/_test/programs'>>): Promise<Ok<Post<'/_test/programs'>, 201>>;
  createPartner(body: JsonBody<Post<'/_test/partners'>>): Promise<Ok<Post<'/_test/partners'>, 201>>;
  createLink(body: JsonBody<Post<'/_test/links'>>): Promise<Ok<Post<'/_test/links'>, 201>>;
  setLinkEnabled(shortLink: string, enabled: boolean): Promise<{ short_link: string; enabled: boolean }>;
  markKeyRotation(programId: number, body: JsonBody<Post<'/_test/programs/{id}/key-rotation'>>): Promise<unknown>;
  clock(body: JsonBody<Post<'/_test/clock'>>): Promise<Ok<Post<'/_test/clock'>, 200>>;
  armFault(body: JsonBody<Post<'/_test/faults'>>): Promise<unknown>;
  createAccount(body?: JsonBody<Post<'/_test/accounts'>>): Promise<Ok<Post<'/_test/accounts'>, 201>>;
  issueIdToken(accountId: number): Promise<Ok<Post<'/_test/id-tokens'>, 201>>;
  /** The session cookie's `name` and `value` (as the spec's cookie schemes take it) and `cookie`, the `Cookie` header. */
  createDashboardSession(accountId: number): Promise<DashboardSession>;
  addMembership(body: JsonBody<Post<'/_test/memberships'>>): Promise<unknown>;
  connectProcessor(body: JsonBody<Post<'/_test/processor-connections'>>): Promise<Ok<Post<'/_test/processor-connections'>, 201>>;
  records(programId: number): Promise<Ok<NonNullable<paths['/_test/programs/{id}/records']['get']>, 200>>;
}

/** A dashboard session from `POST /_test/dashboard-sessions`, with the `Cookie` header that sends it. */
export type DashboardSession = Ok<Post<'/_test/dashboard-sessions'>, 201> & { cookie: string };

export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    path: string,
  ) {
    super(`test-control ${path} answered ${status}: ${JSON.stringify(body)}`);
    this.name = 'ControlError';
  }
}

export function createControlClient(baseUrl: string, fetchImpl: typeof fetch = fetch): ControlClient {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetchImpl(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw new ControlError(response.status, parsed, path);
    return parsed as T;
  }
  return {
    reset: () => call('POST', '/_test/reset'),
    createProgram: (body = {}) => call('POST', '/_test/programs', body),
    createPartner: (body) => call('POST', '/_test/partners', body),
    createLink: (body) => call('POST', '/_test/links', body),
    setLinkEnabled: (shortLink, enabled) => call('PATCH', `/_test/links/${encodeURIComponent(shortLink)}`, { enabled }),
    markKeyRotation: (programId, body) => call('POST', `/_test/programs/${programId}/key-rotation`, body),
    clock: (body) => call('POST', '/_test/clock', body),
    armFault: (body) => call('POST', '/_test/faults', body),
    createAccount: (body = {}) => call('POST', '/_test/accounts', body),
    issueIdToken: (accountId) => call('POST', '/_test/id-tokens', { account_id: accountId }),
    createDashboardSession: async (accountId) => {
      const session = await call<Ok<Post<'/_test/dashboard-sessions'>, 201>>('POST', '/_test/dashboard-sessions', {
        account_id: accountId,
      });
      return { ...session, cookie: `${session.name}=${session.value}` };
    },
    addMembership: (body) => call('POST', '/_test/memberships', body),
    connectProcessor: (body) => call('POST', '/_test/processor-connections', body),
    records: (programId) => call('GET', `/_test/programs/${programId}/records`),
  };
}
