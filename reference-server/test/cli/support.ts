import { assertValidResponse } from '../../src/testing/validate';
import { expect } from 'vitest';
import type { Harness } from '../harness';

/** Logs an account in through the real CLI flow (start → callback → poll) and returns its login token. */
export async function loginToken(h: Harness, accountId: number): Promise<string> {
  const start = await h.request('POST', '/api/v1/cli/auth/start');
  const { state } = start.body.data;
  const { id_token } = await h.control.issueIdToken(accountId);
  const callback = await h.request('POST', '/api/v1/cli/auth/callback', { json: { state, id_token } });
  expect(callback.status).toBe(200);
  const poll = await h.request('GET', `/api/v1/cli/auth/poll?state=${encodeURIComponent(state)}`);
  expect(poll.body.data.status).toBe('complete');
  return poll.body.data.token as string;
}

/** The CLI 500 shape of spec/rules.md "Request ids": the id ends the message and is in details and the header. */
export function expectCliFailure(res: { status: number; body: any; headers: Record<string, unknown> }, what: string): void {
  expect(res.status).toBe(500);
  const id = res.headers['x-request-id'];
  expect(typeof id).toBe('string');
  expect(res.body.error.message).toBe(`${what} (request_id: ${String(id)})`);
  expect(res.body.error.details).toEqual({ request_id: id });
}

/** An HTML or redirect response through `app.inject`, validated against the spec like `h.request` (which parses JSON). */
export async function htmlRequest(
  h: Harness,
  method: 'GET' | 'POST',
  url: string,
  options: { form?: Record<string, string>; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | undefined;
  if (options.form) {
    payload = new URLSearchParams(options.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const res = await h.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  assertValidResponse({ method, url, status: res.statusCode, headers: res.headers, body: res.body });
  return { status: res.statusCode, headers: res.headers, text: res.body };
}

/** Moves the clock to the start of a minute, so a burst of requests stays in one fixed rate-limit window. */
export async function startOfMinute(h: Harness): Promise<void> {
  const minute = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
  await h.control.clock({ now: new Date(minute).toISOString() });
}

/** The development sign-in form as a browser uses it: GET the form (its CSRF token and cookie), then post it. */
export async function devSignIn(h: Harness, fields: { email: string; state?: string }, headers: Record<string, string> = {}) {
  const form = await formPage(h, fields.state);
  return htmlRequest(h, 'POST', '/auth/sign-in', {
    form: { ...fields, csrf: form.csrf },
    headers: { ...headers, cookie: [form.cookie, headers.cookie].filter(Boolean).join('; ') },
  });
}

/** GET /auth/sign-in: the form's CSRF token and the `svc_form` cookie it is bound to. */
export async function formPage(h: Harness, state?: string) {
  const page = await htmlRequest(h, 'GET', `/auth/sign-in${state === undefined ? '' : `?state=${encodeURIComponent(state)}`}`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1];
  const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0]!;
  if (!csrf || !cookie.startsWith('svc_form=')) throw new Error(`no sign-in form: ${page.status}`);
  return { csrf, cookie, page };
}

/** The Authorize page's user code and one-time token. */
export function authorizePage(html: string): { userCode: string; confirm: string } {
  const userCode = /id="user-code">([^<]+)</.exec(html)?.[1];
  const confirm = /name="confirm" value="([^"]+)"/.exec(html)?.[1];
  if (!userCode || !confirm) throw new Error('not the Authorize page');
  return { userCode, confirm };
}

/** Presses Authorize on that page. */
export const pressAuthorize = (h: Harness, html: string) =>
  htmlRequest(h, 'POST', '/auth/cli/authorize', { form: { confirm: authorizePage(html).confirm } });
