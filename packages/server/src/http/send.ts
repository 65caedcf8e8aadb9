import ky from 'ky';
import { apiError, SvcApiError, SvcNetworkError, SvcTimeoutError, type SvcError } from '../errors/errors';
import { redact, type SvcLogEvent } from '../logging/log';
import { retryDelay, type RetryMode } from '../retry/policy';
import type { SvcWarning } from '../warnings/warnings';
import { readWarning } from '../warnings/warnings';
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

/**
 * Sends one call through ky, which runs the attempts, the waits between them and the one deadline (an abort
 * signal over the whole call, ky's per-attempt timeout off). The money-safe policy (retry/policy.ts) decides after
 * each failed attempt: an answer it retries is thrown from ky's `afterResponse` hook so that ky retries it, and
 * `retry.delay` hands ky the wait the policy chose, or stops ky by throwing when it chose none. The outcome of the
 * last attempt, a result or an error, is what the call settles with.
 */
export async function send<T>(transport: Transport, call: Call): Promise<T & ResponseMeta> {
  const url = transport.baseUrl + call.path;
  const deadline = Date.now() + transport.timeout;
  const token = call.token ?? transport.apiKey;
  const fetcher = transport.fetch ?? globalThis.fetch;
  const log = transport.logger;
  let attempt = 0;
  let requestId = '';
  let started = 0;
  let afterFailure = false;
  let wait: number | undefined;
  let outcome: { value: T & ResponseMeta } | { error: SvcError } | undefined;
  const base = () => ({ method: call.method, url, attempt, requestId });
  // The deadline, cleared when the call settles: Deno keeps the process alive for a pending AbortSignal.timeout()
  // that has a listener (ky adds one), so a short script would wait out the whole timeout before exiting.
  const deadlineController = new AbortController();
  const deadlineTimer = setTimeout(() => deadlineController.abort(new DOMException('timeout', 'TimeoutError')), transport.timeout);

  /** A failed attempt: the policy's wait before the next one, or none (the error is the outcome). */
  const failed = (error: SvcError, status?: number) => {
    outcome = { error };
    wait =
      error instanceof SvcApiError || error instanceof SvcNetworkError
        ? retryDelay({
            mode: call.mode,
            status,
            detailsCode: (error as SvcApiError).details?.code,
            retryAfter: (error as SvcApiError).retryAfter,
            retries: attempt - 1,
            maxRetries: transport.maxRetries,
            remainingMs: deadline - Date.now(),
            backoffMs: transport.backoffMs,
            random: Math.random(),
          })
        : undefined;
    afterFailure ||= status === undefined || status >= 500;
    if (wait !== undefined) log?.({ type: 'retry', ...base(), delayMs: wait, reason: String(status ?? 'network') });
    return wait !== undefined;
  };

  try {
    await ky(url, {
      method: call.method,
      headers: token ? { accept: 'application/json', authorization: `Bearer ${token}` } : { accept: 'application/json' },
      json: call.body,
      searchParams: call.query,
      timeout: false,
      signal: deadlineController.signal,
      throwHttpErrors: false,
      retry: {
        limit: transport.maxRetries,
        methods: ['get', 'post', 'patch'],
        statusCodes: [],
        delay: () => {
          if (wait === undefined) throw new Error('stop');
          return wait;
        },
      },
      fetch: async (input, init) => {
        try {
          return await fetcher(input, init);
        } catch (cause) {
          const meta = { requestId, rateLimit: undefined };
          failed(
            (cause as Error).name === 'TimeoutError'
              ? new SvcTimeoutError(`No response within the ${transport.timeout} ms deadline`, meta, { cause })
              : new SvcNetworkError(`Network failure: ${(cause as Error).message}`, meta, { cause }),
          );
          throw cause;
        }
      },
      hooks: {
        beforeRequest: [
          (request) => {
            attempt++;
            requestId = newRequestId();
            request.headers.set('x-request-id', requestId);
            log?.({ type: 'request', ...base(), headers: redact(Object.fromEntries(request.headers)) });
            started = Date.now();
          },
        ],
        afterResponse: [
          async (_request, _options, response) => {
            const text = await response.text();
            const meta = readMeta(response.headers, requestId);
            log?.({ type: 'response', ...base(), status: response.status, durationMs: Date.now() - started });
            let body: unknown = text;
            try {
              body = JSON.parse(text);
            } catch {
              // Not JSON (a proxy's page): kept as text on the error below.
            }
            const warning = readWarning(body, response.headers, meta.requestId);
            if (warning) transport.onWarning(warning);
            if (response.ok && body && typeof body === 'object') {
              outcome = { value: { ...(body as T), ...meta } };
              return;
            }
            const error = response.ok
              ? new SvcApiError(response.status, body, meta)
              : apiError(response.status, body, meta, parseRetryAfter(response.headers.get('retry-after'), Date.now()));
            const recovered = call.recover?.(error, afterFailure);
            if (recovered) outcome = { value: { ...(recovered as T), ...meta } };
            else if (failed(error, response.status)) throw error;
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
