import { createHash, createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { hmacSha256, sha256 } from './hmac-sha256';
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

function refusal(run: () => unknown): WebhookVerificationErrorCode {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).code;
  }
  throw new Error('expected a refusal');
}

describe('verifyWebhook', () => {
  it('returns the typed event for a body signed by standardwebhooks, with Headers or a Node headers object', () => {
    const headers = signed();
    const verified = verifyWebhook(body, headers, secret);
    expect(verified).toEqual(event);
    if (verified.type === 'sale.created') expect(verified.data.amount_cents).toBe(4900);
    expect(verifyWebhook(body, new Headers(headers), secret)).toEqual(event);
    const mixedCase = {
      'Webhook-Id': headers['webhook-id'],
      'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
      'webhook-signature': [headers['webhook-signature']],
    };
    expect(verifyWebhook(body, mixedCase, secret)).toEqual(event);
    // The secret without its prefix works too, as in the reference package.
    expect(verifyWebhook(body, headers, secret.slice('whsec_'.length))).toEqual(event);
  });

  it('accepts any one of several space-separated signatures and ignores other versions', () => {
    const headers = signed();
    const other = signed(body, {
      key: `whsec_${randomBytes(24).toString('base64')}`,
      id: headers['webhook-id'],
      at: Number(headers['webhook-timestamp']),
    });
    const several = `v2,${randomBytes(32).toString('base64')} ${other['webhook-signature']} ${headers['webhook-signature']}`;
    expect(verifyWebhook(body, { ...headers, 'webhook-signature': several }, secret)).toEqual(event);
    expect(
      refusal(() => verifyWebhook(body, { ...headers, 'webhook-signature': `${other['webhook-signature']} v1,!!notbase64` }, secret)),
    ).toBe('invalid_signature');
  });

  it('refuses a changed body, another id, another secret, and a signature of another version', () => {
    const headers = signed();
    expect(refusal(() => verifyWebhook(body.replace('4900', '9900'), headers, secret))).toBe('invalid_signature');
    expect(refusal(() => verifyWebhook(`${body} `, headers, secret))).toBe('invalid_signature');
    expect(refusal(() => verifyWebhook(body, { ...headers, 'webhook-id': 'msg_other' }, secret))).toBe('invalid_signature');
    expect(refusal(() => verifyWebhook(body, headers, `whsec_${randomBytes(24).toString('base64')}`))).toBe('invalid_signature');
    expect(
      refusal(() => verifyWebhook(body, { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') }, secret)),
    ).toBe('invalid_signature');
  });

  it('refuses timestamps more than 5 minutes away (a replay), unless the tolerance says otherwise', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifyWebhook(body, signed(body, { at: now - 290 }), secret)).toEqual(event);
    expect(refusal(() => verifyWebhook(body, signed(body, { at: now - 310 }), secret))).toBe('timestamp_too_old');
    expect(refusal(() => verifyWebhook(body, signed(body, { at: now + 310 }), secret))).toBe('timestamp_too_new');
    expect(verifyWebhook(body, signed(body, { at: now - 3600 }), secret, { toleranceSeconds: 7200 })).toEqual(event);
    expect(verifyWebhook(body, signed(body, { at: 1_700_000_000 }), secret, { now: 1_700_000_100_000 })).toEqual(event);
  });

  it('refuses missing headers, a malformed timestamp, a bad secret and a body that is no event', () => {
    const headers = signed();
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const { [name]: _dropped, ...rest } = headers;
      expect(
        refusal(() => verifyWebhook(body, rest, secret)),
        name,
      ).toBe('missing_headers');
    }
    expect(refusal(() => verifyWebhook(body, { ...headers, 'webhook-timestamp': '2025-03-01T10:00:00Z' }, secret))).toBe(
      'invalid_timestamp',
    );
    expect(refusal(() => verifyWebhook(body, headers, 'whsec_'))).toBe('invalid_secret');
    expect(refusal(() => verifyWebhook(body, headers, 'whsec_not base64!'))).toBe('invalid_secret');
    for (const payload of ['not json', '[1,2]', '{"type":"sale.created"}']) {
      expect(
        refusal(() => verifyWebhook(payload, signed(payload), secret)),
        payload,
      ).toBe('invalid_body');
    }
  });
});

describe('the SHA-256 and HMAC inside', () => {
  it('equal node:crypto on message lengths around every block boundary and keys longer than a block', () => {
    for (const length of [0, 1, 54, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 70_000]) {
      const message = randomBytes(length);
      expect(Buffer.from(sha256(message)).toString('hex'), `sha256 of ${length} bytes`).toBe(
        createHash('sha256').update(message).digest('hex'),
      );
      for (const keyLength of [0, 24, 64, 65, 200]) {
        const key = randomBytes(keyLength);
        expect(Buffer.from(hmacSha256(key, message)).toString('hex'), `hmac ${keyLength}/${length}`).toBe(
          createHmac('sha256', key).update(message).digest('hex'),
        );
      }
    }
  });
});
