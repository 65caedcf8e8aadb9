import type { WebhookEvent } from '@svc/types';

/** Why a webhook was refused; `verifyWebhook` throws no other error. */
export type WebhookVerificationErrorCode =
  | 'invalid_secret'
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_signature'
  | 'invalid_body';

/** The request is not a webhook svc signed with this secret (or it is too old): answer 400 and process nothing. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';

  constructor(
    readonly code: WebhookVerificationErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Fetch `Headers`, or a plain object such as Node's `request.headers` (any letter case; arrays allowed). */
export type WebhookHeaders = { get(name: string): string | null } | Record<string, string | readonly string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, in seconds: 300 (5 minutes) unless set. */
  toleranceSeconds?: number;
  /** Now, in milliseconds since the epoch (tests); `Date.now()` unless set. */
  now?: number;
}

const secretPrefix = 'whsec_';
const encoder = new TextEncoder();

/**
 * Verifies a webhook svc sent (spec/openapi.yaml, tag `outbound-webhooks`: Standard Webhooks) and resolves with its
 * event, typed from the spec's top-level `webhooks`; tell the events apart by `type`. `rawBody` must be the body
 * exactly as received (read it as text before any JSON parsing), `secret` the endpoint's `whsec_…` secret. Checks that
 * `webhook-timestamp` is within 5 minutes of now and that one of the space-separated `v1,` signatures of
 * `webhook-signature` is the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`. The HMAC and its comparison are
 * the runtime's Web Crypto (`crypto.subtle.verify`, constant-time), which is why the answer is a promise.
 * Rejects with a `WebhookVerificationError` otherwise. Deduplicate on the `webhook-id` header: a retry keeps it.
 */
export async function verifyWebhook(
  rawBody: string,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const key = secretKey(secret);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('missing_headers', 'Missing webhook-id, webhook-timestamp or webhook-signature header');
  }
  if (!/^\d{1,15}$/.test(timestamp))
    throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not a Unix time in seconds');
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const sentAt = Number(timestamp);
  if (now - sentAt > tolerance)
    throw new WebhookVerificationError('timestamp_too_old', 'webhook-timestamp is too old: refused as a possible replay');
  if (sentAt - now > tolerance) throw new WebhookVerificationError('timestamp_too_new', 'webhook-timestamp is too far in the future');

  const signed = encoder.encode(`${id}.${timestamp}.${rawBody}`);
  const candidates = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => decodeBase64(entry.slice(3)))
    .filter((given) => given !== undefined);
  const hmac = await hmacKey(key);
  const verdicts = await Promise.all(candidates.map((given) => subtle().verify('HMAC', hmac, given, signed)));
  if (!verdicts.includes(true))
    throw new WebhookVerificationError('invalid_signature', 'No webhook-signature matches this body and secret');

  let event: unknown;
  try {
    event = JSON.parse(rawBody);
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The body is not JSON');
  }
  if (!isEvent(event)) throw new WebhookVerificationError('invalid_body', 'The body is not an svc event ({type, timestamp, data})');
  return event;
}

/**
 * The global Web Crypto of Node ≥ 19, Bun, Deno and edge workers. Node 18 exposes it only with
 * `--experimental-global-webcrypto`; without it the setup is wrong, not the webhook, so this is a plain error.
 */
function subtle(): typeof crypto.subtle {
  // Typed as always present (@types/node), but absent on Node 18 without the flag.
  const found = (globalThis.crypto as typeof crypto | undefined)?.subtle;
  if (!found)
    throw new Error('svc: verifyWebhook needs Web Crypto (globalThis.crypto.subtle); on Node 18 run with --experimental-global-webcrypto');
  return found;
}

function hmacKey(key: Uint8Array<ArrayBuffer>) {
  return subtle().importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

function secretKey(secret: string): Uint8Array<ArrayBuffer> {
  const key =
    typeof secret === 'string' ? decodeBase64(secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : secret) : undefined;
  if (key === undefined || key.length === 0)
    throw new WebhookVerificationError('invalid_secret', 'The secret must be the endpoint secret, whsec_ followed by base64');
  return key;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(' ');
  }
  return undefined;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) return undefined;
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

function isEvent(value: unknown): value is WebhookEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  return typeof event.type === 'string' && typeof event.timestamp === 'string' && typeof event.data === 'object' && event.data !== null;
}
