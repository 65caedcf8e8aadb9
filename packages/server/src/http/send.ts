import { SvcApiError, SvcTimeoutError } from '../errors/errors';
import { retryDelay, type RetryMode } from '../retry/policy';
import { startDeadline } from './deadline';
import { exchange, type Attempt, type EventDetails } from './exchange';
import type { ResponseMeta } from './meta';
import type { Method, OkBody, PathWith } from './paths';
import { newRequestId } from './request-id';
import type { Transport } from './transport';

export interface Call<M extends Method, P extends PathWith<M>, R extends object> {
  method: M;
  /** The route as spec/openapi.yaml names it; `{name}` segments are filled from `params`. */
  path: P;
  params?: Record<string, string>;
  body?: object;
  query?: Record<string, string | number | undefined>;
  mode: RetryMode;
  /** Bearer credential; the program key when omitted, none when `''`. */
  token?: string;
  /** Turns an error that means "already done" into a success body (a sale's 409, a lead after a 500). */
  recover?: (error: SvcApiError, afterFailure: boolean) => R | undefined;
}

/**
 * Sends one call: attempts in one loop under one deadline (deadline.ts). After each failed attempt the money-safe
 * policy (retry/policy.ts) says how long to wait before the next, or to stop with that attempt's error; a timeout
 * leaves no time for another attempt. The result is the 2xx body typed from the spec's paths, or what `recover`
 * made of an error.
 */
export async function send<M extends Method, P extends PathWith<M>, R extends object = never>(
  transport: Transport,
  { method, mode, token = transport.apiKey, recover, ...call }: Call<M, P, R>,
): Promise<(OkBody<P, M> | R) & ResponseMeta> {
  const target = { method: method.toUpperCase(), ...address(transport.baseUrl, call), token, body: call.body };
  const deadline = startDeadline(transport.timeout);
  let afterFailure = false;
  try {
    for (let attempt = 1; ; attempt++) {
      const sent: Attempt = { ...target, requestId: newRequestId() };
      const log = (details: EventDetails) =>
        transport.logger?.({ ...details, method: sent.method, url: sent.url, attempt, requestId: sent.requestId });
      const answer = await exchange(transport, sent, deadline.signal, log);
      // The route's 2xx body as the spec defines it (the contract tests hold the reference server to that).
      if ('body' in answer) return { ...answer.body, ...answer.meta } as OkBody<P, M> & ResponseMeta;
      const { error, status } = answer;
      const answered = error instanceof SvcApiError ? error : undefined;
      const recovered = answered && recover?.(answered, afterFailure);
      if (recovered) return { ...recovered, requestId: error.requestId, rateLimit: error.rateLimit };
      afterFailure ||= (status ?? 500) >= 500;
      // A timeout leaves no time for another attempt.
      const wait =
        error instanceof SvcTimeoutError
          ? undefined
          : retryDelay({
              ...transport,
              mode,
              status,
              detailsCode: answered?.details.code,
              retryAfter: answered?.retryAfter,
              retries: attempt - 1,
              remainingMs: deadline.remainingMs(),
              random: Math.random(),
            });
      if (wait === undefined) throw error;
      log({ type: 'retry', delayMs: wait, reason: String(status ?? 'network') });
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  } finally {
    deadline.clear();
  }
}

/** The route's address with its path parameters filled (URL-encoded), and its query apart. */
function address(baseUrl: string, { path, params, query }: Pick<Call<Method, never, never>, 'params' | 'query'> & { path: string }) {
  const url = baseUrl + path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ''));
  const pairs = Object.entries(query ?? {}).flatMap(([name, value]) =>
    value === undefined ? [] : [[name, String(value)] as [string, string]],
  );
  const search = new URLSearchParams(pairs).toString();
  return { url, query: search && `?${search}` };
}
