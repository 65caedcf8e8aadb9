import ky from 'ky';
import { apiError, errorPage, SvcApiError, SvcNetworkError, SvcTimeoutError, type SvcError } from '../errors/errors';
import { redact, type SvcLogEvent } from '../logging/log';
import { retryDelay, type RetryMode } from '../retry/policy';
import { readWarning, type SvcWarning } from '../warnings/warnings';
import { parseRetryAfter, readMeta, type ResponseMeta } from './meta';
import { newRequestId } from './request-id';

/** The resolved client settings one call needs. */
export interface Transport {
  baseUrl: string;
  apiKey: string | undefined;
  /** One deadline for all attempts of a call, in ms. */
  timeout: number;
  maxRetries: number;
  backoffMs: number;
  fetch: typeof fetch | undefined;
  onWarning: (warning: SvcWarning) => void;
  logger: ((event: SvcLogEvent) => void) | undefined;
}

export interface Call {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: object;
  query?: Record<string, string>;
  mode: RetryMode;
  /** Bearer credential; the program key when omitted. */
  token?: string;
  /** Turns an error that means "already done" into a success body (§Errors 409, lead after a 500). */
  recover?: (error: SvcApiError, afterFailure: boolean) => object | undefined;
}

/** A log event without what every event of the attempt has. */
type EventDetails = SvcLogEvent extends infer E
  ? E extends SvcLogEvent
    ? Omit<E, 'method' | 'url' | 'attempt' | 'requestId'>
    : never
  : never;

/**
 * Sends one call through ky, which runs the attempts, the waits between them and the one deadline (an abort
 * signal over the whole call, ky's per-attempt timeout off). The money-safe policy (retry/policy.ts) decides after
 * each failed attempt: an answer it retries is thrown from ky's `afterResponse` hook so that ky retries it, and
 * `retry.delay` hands ky the wait the policy chose, or stops ky by throwing when it chose none. The outcome of the
 * last attempt, a result or an error, is what the call settles with.
 */
export async function send<T>(
  transport: Transport,
  { method, path, mode, token = transport.apiKey, recover, ...call }: Call,
): Promise<T & ResponseMeta> {
  const url = transport.baseUrl + path;
  const deadline = Date.now() + transport.timeout;
  let attempt = 0;
  let requestId = '';
  let started = 0;
  let afterFailure = false;
  let wait: number | undefined;
  let outcome: { value: T & ResponseMeta } | { error: SvcError } | undefined;
  const log = ({ type, ...details }: EventDetails) =>
    transport.logger?.({ type, method, url, attempt, requestId, ...details } as SvcLogEvent);
  // The deadline, cleared when the call settles: Deno keeps the process alive for a pending AbortSignal.timeout()
  // that has a listener (ky adds one), so a short script would wait out the whole timeout before exiting.
  const deadlineController = new AbortController();
  const deadlineTimer = setTimeout(() => deadlineController.abort(new DOMException('timeout', 'TimeoutError')), transport.timeout);

  /** A failed attempt: the policy's wait before the next one, or none (the error is the outcome). */
  const failed = (error: SvcError, status?: number) => {
    outcome = { error };
    afterFailure ||= (status ?? 500) >= 500;
    // A timeout leaves no time for another attempt; an answer or a network failure asks the policy.
    wait =
      error instanceof SvcTimeoutError
        ? undefined
        : retryDelay({
            ...transport,
            mode,
            status,
            detailsCode: (error as SvcApiError).details?.code,
            retryAfter: (error as SvcApiError).retryAfter,
            retries: attempt - 1,
            remainingMs: deadline - Date.now(),
            random: Math.random(),
          });
    if (wait !== undefined) log({ type: 'retry', delayMs: wait, reason: String(status ?? 'network') });
    return wait !== undefined;
  };

  try {
    await ky(url, {
      method,
      headers: token ? { accept: 'application/json', authorization: `Bearer ${token}` } : { accept: 'application/json' },
      json: call.body,
      searchParams: call.query,
      timeout: false,
      signal: deadlineController.signal,
      throwHttpErrors: false,
      retry: {
        limit: transport.maxRetries,
        methods: ['get', 'post', 'patch'],
        delay: () => {
          if (wait === undefined) throw new Error('stop');
          return wait;
        },
      },
      fetch: async (input, init) => {
        try {
          return await (transport.fetch ?? globalThis.fetch)(input, init);
        } catch (cause) {
          const meta = { requestId, rateLimit: undefined };
          const timedOut = (cause as Error).name === 'TimeoutError';
          const options = { cause, docsUrl: errorPage(transport.baseUrl, timedOut ? 'timeout' : 'network_error') };
          failed(
            timedOut
              ? new SvcTimeoutError(`No response within the ${transport.timeout} ms deadline`, meta, options)
              : new SvcNetworkError(`Network failure: ${(cause as Error).message} (${method} ${url})`, meta, options),
          );
          throw cause;
        }
      },
      hooks: {
        beforeRequest: [
          ({ headers }) => {
            attempt++;
            requestId = newRequestId();
            headers.set('x-request-id', requestId);
            log({ type: 'request', headers: redact(Object.fromEntries(headers)) });
            started = Date.now();
          },
        ],
        afterResponse: [
          async (_request, _options, response) => {
            const { status, headers } = response;
            const text = await response.text();
            const meta = readMeta(headers, requestId);
            log({ type: 'response', status, durationMs: Date.now() - started });
            let body: unknown = text;
            try {
              body = JSON.parse(text);
            } catch {
              // Not JSON (a proxy's page): kept as text on the error below.
            }
            const warning = readWarning(body, headers, meta.requestId);
            if (warning) transport.onWarning(warning);
            if (response.ok && body && typeof body === 'object') {
              outcome = { value: { ...(body as T), ...meta } };
              return;
            }
            const error = response.ok
              ? new SvcApiError(status, body, meta, undefined, transport.baseUrl)
              : apiError(status, body, meta, parseRetryAfter(headers.get('retry-after'), Date.now()), transport.baseUrl);
            const recovered = recover?.(error, afterFailure);
            if (recovered) outcome = { value: { ...(recovered as T), ...meta } };
            else if (failed(error, status)) throw error;
          },
        ],
      },
    });
  } catch (error) {
    // ky stopped: the policy refused a retry, the attempts ran out, or the deadline passed during a wait.
    if (!outcome) throw error;
  } finally {
    clearTimeout(deadlineTimer);
  }
  // ky settled without throwing only after an attempt whose answer set the outcome.
  if ('error' in outcome!) throw outcome.error;
  return outcome!.value;
}
