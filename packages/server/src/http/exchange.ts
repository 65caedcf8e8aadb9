import ky from 'ky';
import { apiError, errorPage, SvcNetworkError, SvcTimeoutError, type SvcError } from '../errors/errors';
import { redact, type SvcLogEvent } from '../logging/log';
import { readWarning } from '../warnings/warnings';
import { parseRetryAfter, readMeta, type ResponseMeta } from './meta';
import type { Transport } from './transport';

/** What one attempt sends; each attempt has its own `X-Request-ID`. */
export interface Attempt {
  method: string;
  /** Without the query string, which may hold a login session's `state`: this is what logs and errors show. */
  url: string;
  query: string;
  token: string | undefined;
  body: object | undefined;
  requestId: string;
}

/** How an attempt ended: the 2xx JSON body, or the error (with the status when the service answered). */
export type Answer = { body: object; meta: ResponseMeta } | { error: SvcError; status: number | undefined };

/** A log event of the attempt, without what every event of it has. */
export type EventDetails = SvcLogEvent extends infer E
  ? E extends SvcLogEvent
    ? Omit<E, 'method' | 'url' | 'attempt' | 'requestId'>
    : never
  : never;

/**
 * Sends one attempt through ky and reads its answer whole. ky is only the transport: its retry is off (send.ts's
 * loop is the one retry mechanism), its own timeout is off (the call's deadline aborts `signal`) and it throws on no
 * status, so every answer is read here. Key-rotation warnings reach `onWarning` whatever the status. A request that
 * fails after the deadline aborted it is a timeout; any other failure to get an answer is a network error.
 */
export async function exchange(
  transport: Transport,
  attempt: Attempt,
  signal: AbortSignal,
  log: (event: EventDetails) => void,
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': attempt.requestId };
  if (attempt.token) headers.authorization = `Bearer ${attempt.token}`;
  let started = 0;
  let response: Response;
  let text: string;
  try {
    response = await ky(attempt.url + attempt.query, {
      method: attempt.method,
      headers,
      json: attempt.body,
      signal,
      fetch: transport.fetch,
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      hooks: {
        // The request as it leaves, with the headers ky added (the JSON body's content-type).
        beforeRequest: [
          (request) => {
            log({ type: 'request', headers: redact(Object.fromEntries(request.headers)) });
            started = Date.now();
          },
        ],
      },
    });
    text = await response.text();
  } catch (cause) {
    return { error: noAnswer(transport, attempt, cause, signal.aborted), status: undefined };
  }
  const { status } = response;
  const meta = readMeta(response.headers, attempt.requestId);
  log({ type: 'response', status, durationMs: Date.now() - started });
  const body = parse(text);
  const warning = readWarning(body, response.headers, meta.requestId);
  if (warning) transport.onWarning(warning);
  if (response.ok && body && typeof body === 'object') return { body, meta };
  // A 2xx that is not a JSON object is an SvcApiError too (apiError has no class for a 2xx).
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'), Date.now());
  return { error: apiError(status, body, meta, retryAfter, transport.baseUrl), status };
}

/** The body as JSON, or as text when it is not JSON (a proxy's page): the error keeps it either way. */
function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function noAnswer(transport: Transport, attempt: Attempt, cause: unknown, timedOut: boolean): SvcError {
  const meta = { requestId: attempt.requestId, rateLimit: undefined };
  const options = { cause, docsUrl: errorPage(transport.baseUrl, timedOut ? 'timeout' : 'network_error') };
  return timedOut
    ? new SvcTimeoutError(`No response within the ${transport.timeout} ms deadline`, meta, options)
    : new SvcNetworkError(`Network failure: ${(cause as Error).message} (${attempt.method} ${attempt.url})`, meta, options);
}
