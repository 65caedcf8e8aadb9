import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import { verifyWebhook, WebhookVerificationError, type WebhookVerificationErrorCode } from './index';

// `@svc/server/webhooks` against signatures made by the Standard Webhooks reference package (`standardwebhooks`).
const secret = `whsec_${randomBytes(24).toString('base64')}`;
const event = {
  type: 'sale.created',
  timestamp: '2025-03-01T10:00:00.000Z',
  data: {
    program_id: 7,
    sale_id: 12,
    transaction_id: 'pi_123',
    customer_key: 'user_42',
    click_id: 'clk_1',
    partner_id: 3,
    amount_cents: 4900,
    currency: 'USD',
    source: 'api',
    occurred_at: '2025-03-01T10:00:00.000Z',
    is_test: false,
  },
};
const body = JSON.stringify(event);

/** Headers as svc sends them, signed by the reference package. */
function signed(payload = body, options: { key?: string; id?: string; at?: number } = {}) {
  const id = options.id ?? `msg_${randomBytes(16).toString('base64url')}`;
  const at = options.at ?? Math.floor(Date.now() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(at),
    'webhook-signature': new Webhook(options.key ?? secret).sign(id, new Date(at * 1000), payload),
  };
}

async function refusal(verification: Promise<unknown>): Promise<WebhookVerificationErrorCode> {
  const error = await verification.then(
    () => expect.fail('expected a refusal'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).code;
}

describe('verifyWebhook', () => {
  it('returns the typed event for a body signed by standardwebhooks, with Headers or a Node headers object', async () => {
    const headers = signed();
    const verified = await verifyWebhook(body, headers, secret);
    expect(verified).toEqual(event);
    if (verified.type === 'sale.created') expect(verified.data.amount_cents).toBe(4900);
    expect(await verifyWebhook(body, new Headers(headers), secret)).toEqual(event);
    const mixedCase = {
      'Webhook-Id': headers['webhook-id'],
      'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
      'webhook-signature': [headers['webhook-signature']],
    };
    expect(await verifyWebhook(body, mixedCase, secret)).toEqual(event);
    // The secret without its prefix works too, as in the reference package.
    expect(await verifyWebhook(body, headers, secret.slice('whsec_'.length))).toEqual(event);
  });

  it('accepts any one of several space-separated signatures and ignores other versions', async () => {
    const headers = signed();
    const other = signed(body, {
      key: `whsec_${randomBytes(24).toString('base64')}`,
      id: headers['webhook-id'],
      at: Number(headers['webhook-timestamp']),
    });
    const several = `v2,${randomBytes(32).toString('base64')} ${other['webhook-signature']} ${headers['webhook-signature']}`;
    expect(await verifyWebhook(body, { ...headers, 'webhook-signature': several }, secret)).toEqual(event);
    expect(
      await refusal(verifyWebhook(body, { ...headers, 'webhook-signature': `${other['webhook-signature']} v1,!!notbase64` }, secret)),
    ).toBe('invalid_signature');
  });

  it('refuses a changed body, another id, another secret, and a signature of another version', async () => {
    const headers = signed();
    expect(await refusal(verifyWebhook(body.replace('4900', '9900'), headers, secret))).toBe('invalid_signature');
    expect(await refusal(verifyWebhook(`${body} `, headers, secret))).toBe('invalid_signature');
    expect(await refusal(verifyWebhook(body, { ...headers, 'webhook-id': 'msg_other' }, secret))).toBe('invalid_signature');
    expect(await refusal(verifyWebhook(body, headers, `whsec_${randomBytes(24).toString('base64')}`))).toBe('invalid_signature');
    expect(
      await refusal(verifyWebhook(body, { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') }, secret)),
    ).toBe('invalid_signature');
  });

  it('refuses timestamps more than 5 minutes away (a replay), unless the tolerance says otherwise', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await verifyWebhook(body, signed(body, { at: now - 290 }), secret)).toEqual(event);
    expect(await refusal(verifyWebhook(body, signed(body, { at: now - 310 }), secret))).toBe('timestamp_too_old');
    expect(await refusal(verifyWebhook(body, signed(body, { at: now + 310 }), secret))).toBe('timestamp_too_new');
    expect(await verifyWebhook(body, signed(body, { at: now - 3600 }), secret, { toleranceSeconds: 7200 })).toEqual(event);
    expect(await verifyWebhook(body, signed(body, { at: 1_700_000_000 }), secret, { now: 1_700_000_100_000 })).toEqual(event);
  });

  it('refuses missing headers, a malformed timestamp, a bad secret and a body that is no event', async () => {
    const headers = signed();
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const { [name]: _dropped, ...rest } = headers;
      expect(await refusal(verifyWebhook(body, rest, secret)), name).toBe('missing_headers');
    }
    expect(await refusal(verifyWebhook(body, { ...headers, 'webhook-timestamp': '2025-03-01T10:00:00Z' }, secret))).toBe(
      'invalid_timestamp',
    );
    expect(await refusal(verifyWebhook(body, headers, 'whsec_'))).toBe('invalid_secret');
    expect(await refusal(verifyWebhook(body, headers, 'whsec_not base64!'))).toBe('invalid_secret');
    for (const payload of ['not json', '[1,2]', '{"type":"sale.created"}']) {
      expect(await refusal(verifyWebhook(payload, signed(payload), secret)), payload).toBe('invalid_body');
    }
  });
});

describe('Web Crypto', () => {
  it('is what verifies: without globalThis.crypto (Node 18 without its flag) the error names the setup, not the webhook', async () => {
    const headers = signed();
    vi.stubGlobal('crypto', undefined);
    const error = await verifyWebhook(body, headers, secret).catch((e: unknown) => e);
    vi.unstubAllGlobals();
    expect(error).not.toBeInstanceOf(WebhookVerificationError);
    expect((error as Error).message).toMatch(/--experimental-global-webcrypto/);
    expect(await verifyWebhook(body, headers, secret)).toEqual(event);
  });

  it('agrees with standardwebhooks on a secret longer than an HMAC block and a large body', async () => {
    const long = `whsec_${randomBytes(100).toString('base64')}`;
    const payload = JSON.stringify({ ...event, data: { ...event.data, customer_key: 'x'.repeat(70_000) } });
    expect(await verifyWebhook(payload, signed(payload, { key: long }), long)).toMatchObject({ type: 'sale.created' });
    expect(await refusal(verifyWebhook(payload, signed(payload, { key: long }), secret))).toBe('invalid_signature');
  });
});
