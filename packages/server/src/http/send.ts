import ky from 'ky';
import { apiError, SvcApiError, SvcError, SvcNetworkError, SvcTimeoutError } from '../errors/errors';
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends one call: attempts, retries (retry/policy.ts) and the one deadline that covers them all. */
export async function send<T>(transport: Transport, call: Call): Promise<T & ResponseMeta> {
  const deadline = Date.now() + transport.timeout;
  const url = transport.baseUrl + call.path;
  let afterFailure = false;
  for (let retries = 0; ; retries++) {
    try {
      return await attempt<T>(transport, call, url, deadline, retries + 1, afterFailure);
    } catch (error) {
      const failure = error as SvcError;
      const status = error instanceof SvcApiError ? error.status : undefined;
      const delayMs =
        error instanceof SvcApiError || error instanceof SvcNetworkError
          ? retryDelay({
              mode: call.mode,
              status,
              message: failure.message,
              retryAfter: (error as SvcApiError).retryAfter,
              retries,
              maxRetries: transport.maxRetries,
              remainingMs: deadline - Date.now(),
              backoffMs: transport.backoffMs,
              random: Math.random(),
            })
          : undefined;
      if (delayMs === undefined) throw error;
      afterFailure ||= status === undefined || status >= 500;
      const reason = String(status ?? 'network');
      transport.logger?.({ type: 'retry', method: call.method, url, attempt: retries + 1, requestId: failure.requestId, delayMs, reason });
      await sleep(delayMs);
    }
  }
}

async function attempt<T>(
  transport: Transport,
  call: Call,
  url: string,
  deadline: number,
  attemptNumber: number,
  afterFailure: boolean,
): Promise<T & ResponseMeta> {
  const requestId = newRequestId();
  const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': requestId };
  const token = call.token ?? transport.apiKey;
  if (token) headers.authorization = `Bearer ${token}`;
  const base = { method: call.method, url, attempt: attemptNumber, requestId };
  transport.logger?.({ type: 'request', ...base, headers: redact(headers) });
  const started = Date.now();
  let response: Response;
  let text: string;
  try {
    response = await ky(url, {
      method: call.method,
      headers,
      json: call.body,
      searchParams: call.query,
      timeout: Math.max(1, deadline - started),
      retry: 0,
      throwHttpErrors: false,
      fetch: transport.fetch,
    });
    text = await response.text();
  } catch (cause) {
    const meta = { requestId, rateLimit: undefined };
    if ((cause as Error).name === 'TimeoutError') {
      throw new SvcTimeoutError(`No response within the ${transport.timeout} ms deadline`, meta, { cause });
    }
    throw new SvcNetworkError(`Network failure: ${(cause as Error).message}`, meta, { cause });
  }
  const meta = readMeta(response.headers, requestId);
  transport.logger?.({ type: 'response', ...base, status: response.status, durationMs: Date.now() - started });
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page): kept as text on the error below.
  }
  const warning = readWarning(body, response.headers, meta.requestId);
  if (warning) transport.onWarning(warning);
  if (response.ok && body && typeof body === 'object') return { ...(body as T), ...meta };
  const error = response.ok
    ? new SvcApiError(response.status, body, meta)
    : apiError(response.status, body, meta, parseRetryAfter(response.headers.get('retry-after'), Date.now()));
  const recovered = call.recover?.(error, afterFailure);
  if (recovered) return { ...(recovered as T), ...meta };
  throw error;
}
