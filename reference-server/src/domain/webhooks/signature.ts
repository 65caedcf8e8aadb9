import { createHmac, randomBytes } from 'node:crypto';
import { secretPrefix } from './secret';

/** A new `webhook-id`: `msg_` + 22 base64url characters (128 random bits), one per event. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/**
 * The three Standard Webhooks headers of one attempt (spec/openapi.yaml, tag `outbound-webhooks`, "Signature"):
 * `v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`, keyed with the base64-decoded secret after `whsec_`.
 * `timestampSeconds` is the real time of the attempt, never a test clock.
 */
export function signatureHeaders(messageId: string, timestampSeconds: number, body: string, secret: string): Record<string, string> {
  const key = Buffer.from(secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : secret, 'base64');
  const signature = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return { 'webhook-id': messageId, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` };
}
