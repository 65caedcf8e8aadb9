import { lookup as resolveHost } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from '../domain/webhooks/address';
import type { AttemptRequest, AttemptResult, WebhookSender } from '../domain/webhooks/deliver';

/** No answer within this long is a failed attempt (spec/openapi.yaml, tag `outbound-webhooks`, "Delivery"). */
export const attemptTimeoutMs = 10_000;
/** How much of an answer's body an attempt keeps (spec/openapi.yaml, `WebhookAttempt`). */
export const responseExcerptBytes = 1024;

export interface HttpSenderOptions {
  /** Test control or `SVC_WEBHOOKS_ALLOW_PRIVATE=1`: the address guard is off. */
  allowPrivateAddresses: boolean;
  timeoutMs?: number;
  /** Where the refused address is named, at debug level, for the operator; never in `last_error`. */
  log?: { debug(details: object, message: string): void };
}

/**
 * `last_error` of an attempt the address guard refused. It names no address: every signed-in user reads it, and
 * the address a name resolved to would map the server's private network for them.
 */
export const refusedAddressError = 'address not public: refused (allowed only with test control or SVC_WEBHOOKS_ALLOW_PRIVATE=1)';

class RefusedAddress extends Error {}
class TimedOut extends Error {}

/**
 * The transport of outbound webhooks: one POST over node:http(s), on a connection of its own, never following a
 * redirect (a 3xx is a failed attempt), given up after 10 seconds. With the address guard on, the host is resolved
 * first and every address must be public (IPv4 and IPv6, `domain/webhooks/address.ts`); the connection then goes to
 * an address that was checked, so a name that resolves differently a moment later cannot slip a private one in.
 */
export function httpSender(options: HttpSenderOptions): WebhookSender {
  const timeoutMs = options.timeoutMs ?? attemptTimeoutMs;
  return async (request: AttemptRequest): Promise<AttemptResult> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimedOut()), timeoutMs);
    const stop = () => controller.abort(request.signal.reason);
    if (request.signal.aborted) stop();
    else request.signal.addEventListener('abort', stop, { once: true });
    try {
      const url = new URL(request.url);
      const pinned = options.allowPrivateAddresses ? undefined : await publicAddressOf(url.hostname, controller.signal, options.log);
      return await post(url, request, pinned, controller.signal, timeoutMs);
    } catch (error) {
      return {
        delivered: false,
        status: null,
        error: describe(controller.signal.reason instanceof TimedOut ? controller.signal.reason : error, timeoutMs),
      };
    } finally {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', stop);
    }
  };
}

interface Pinned {
  address: string;
  family: number;
}

/** The host's first address once every one of them is public; the address that is not goes to the debug log only. */
async function publicAddressOf(hostname: string, signal: AbortSignal, log: HttpSenderOptions['log']): Promise<Pinned> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  const addresses =
    literal !== 0 ? [{ address: host, family: literal }] : await abortable(resolveHost(host, { all: true, verbatim: true }), signal);
  const refused = addresses.find((a) => !isPublicAddress(a.address));
  if (refused) {
    log?.debug({ host, address: refused.address }, 'webhook attempt refused: the host resolves to an address that is not public');
    throw new RefusedAddress(refusedAddressError);
  }
  if (addresses.length === 0) throw Object.assign(new Error('no address'), { code: 'ENOTFOUND' });
  return addresses[0]!;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const reason = () => (signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) return reject(reason());
    const onAbort = () => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function post(
  url: URL,
  request: AttemptRequest,
  pinned: Pinned | undefined,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<AttemptResult> {
  const lookup: LookupFunction | undefined = pinned
    ? (_hostname, options, callback) => {
        if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
        else callback(null, pinned.address, pinned.family);
      }
    : undefined;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        agent: false,
        signal,
        ...(lookup ? { lookup } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const outcome = (excerpt: string): AttemptResult => {
          const seen = excerpt === '' ? {} : { excerpt };
          if (status >= 200 && status < 300) return { delivered: true, status, ...seen };
          if (status >= 300 && status < 400)
            return { delivered: false, status, error: `HTTP ${status}: redirects are not followed`, ...seen };
          return { delivered: false, status, error: `HTTP ${status}`, ...seen };
        };
        // The first bytes of the answer are kept for the dashboard; the rest is drained and dropped, and the
        // connection closed if it never ends. A body cut short still leaves the status, which decides the attempt.
        const chunks: Buffer[] = [];
        let kept = 0;
        let answered = false;
        const answer = () => {
          if (answered) return;
          answered = true;
          // PostgreSQL text cannot hold NUL: an answer with one would leave its attempt unrecorded.
          resolve(outcome(Buffer.concat(chunks).toString('utf8').replaceAll('\0', '\uFFFD')));
        };
        const cleanup = setTimeout(() => req.destroy(), timeoutMs);
        cleanup.unref();
        res.on('data', (chunk: Buffer) => {
          if (kept >= responseExcerptBytes) return;
          const part = chunk.subarray(0, responseExcerptBytes - kept);
          chunks.push(part);
          kept += part.length;
          if (kept >= responseExcerptBytes) answer();
        });
        res.on('end', answer);
        res.on('close', () => {
          clearTimeout(cleanup);
          answer();
        });
        res.on('error', answer);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/** A short reason for the dashboard: no URL, header or body in it. */
function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof TimedOut) return `timed out after ${Math.round(timeoutMs / 1000)} s`;
  if (error instanceof RefusedAddress) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'host not found';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection reset';
  if (code === 'ABORT_ERR' || (error as Error | null)?.name === 'AbortError') return 'stopped';
  if (typeof code === 'string') return `connection failed (${code})`;
  if (error instanceof TypeError) return 'invalid URL';
  return 'connection failed';
}
