import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newEndpointSecret, openSecret, sealSecret } from './secret';
import { newMessageId, signatureHeaders } from './signature';

// Standard Webhooks signing (spec/openapi.yaml, tag `outbound-webhooks`, "Signature"), checked by the reference
// implementation, the `standardwebhooks` package.
describe('signatureHeaders', () => {
  it('makes headers the standardwebhooks package verifies, and that fail for another secret, body or id', () => {
    const secret = newEndpointSecret();
    const body = JSON.stringify({ type: 'sale.created', timestamp: new Date().toISOString(), data: { amount_cents: 4900 } });
    const id = newMessageId();
    const headers = signatureHeaders(id, Math.floor(Date.now() / 1000), body, secret);
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    // The reference library's own signature is the same string.
    expect(new Webhook(secret).sign(id, new Date(Number(headers['webhook-timestamp']) * 1000), body)).toBe(headers['webhook-signature']);

    expect(() => new Webhook(newEndpointSecret()).verify(body, headers)).toThrow('No matching signature found');
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow('No matching signature found');
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': newMessageId() })).toThrow('No matching signature found');
  });

  it('uses the timestamp it is given (the attempt time): 10 minutes old is refused as too old', () => {
    const secret = newEndpointSecret();
    const headers = signatureHeaders(newMessageId(), Math.floor(Date.now() / 1000) - 600, '{}', secret);
    expect(() => new Webhook(secret).verify('{}', headers)).toThrow('Message timestamp too old');
  });
});

describe('sealed secrets', () => {
  it('open with the server key they were sealed with, and not with another', () => {
    const secret = newEndpointSecret();
    const sealed = sealSecret(secret, 'server-key-a'.repeat(3));
    expect(sealed).not.toContain(secret.slice(6, 22));
    expect(openSecret(sealed, 'server-key-a'.repeat(3))).toBe(secret);
    expect(openSecret(sealed, 'server-key-b'.repeat(3))).toBeUndefined();
    expect(openSecret('v1.garbage', 'server-key-a'.repeat(3))).toBeUndefined();
    expect(sealSecret(secret, 'k'.repeat(32))).not.toBe(sealSecret(secret, 'k'.repeat(32)));
  });
});
