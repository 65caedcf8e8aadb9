import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { Svc, type SvcOptions } from '../../src';

export const baseUrl = 'http://svc.test';
export const url = (path: string) => `${baseUrl}${path}`;

/** One msw server per test file; every request not handled by a test fails loudly. */
export function useMsw() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

export const client = (options: SvcOptions = {}) =>
  new Svc({ apiKey: 'svc_live_secret_key_1234', baseUrl, backoffMs: 1, onWarning: () => {}, ...options });

const rateHeaders = { 'x-ratelimit-limit': '120', 'x-ratelimit-remaining': '119', 'x-ratelimit-reset': '1700000060' };

/** A platform-envelope error (spec/rules.md "Errors/Envelopes"). */
export function platformError(
  status: number,
  name: string,
  message: string,
  extra: { code?: string; details?: object } = {},
  headers = {},
) {
  return HttpResponse.json(
    { data: null, error: { status, name, message, ...(extra.code ? { code: extra.code } : {}), details: extra.details ?? {} } },
    { status, headers: { 'x-request-id': `req-${status}`, ...rateHeaders, ...headers } },
  );
}

/** A typed-envelope error. */
export function typedError(status: number, error: object, headers = {}, top: object = {}) {
  return HttpResponse.json({ ...top, error }, { status, headers: { 'x-request-id': `req-${status}`, ...rateHeaders, ...headers } });
}

export function ok(body: object, headers = {}) {
  return HttpResponse.json(body, { headers: { 'x-request-id': 'req-ok', ...rateHeaders, ...headers } });
}
